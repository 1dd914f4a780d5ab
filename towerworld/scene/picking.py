"""Mouse picking: a ray from the camera through the cursor, hitting piece and cell geometry tagged by the stage."""
from __future__ import annotations

from panda3d.core import CollisionHandlerQueue, CollisionNode, CollisionRay, CollisionTraverser, GeomNode


NEAR_MM = 12.0   # hits this much further than the nearest still count as "the same spot"


class Picker:
    def __init__(self, base, stage):
        self.base = base
        self.stage = stage
        self.traverser = CollisionTraverser("picker")
        self.queue = CollisionHandlerQueue()
        node = CollisionNode("pick-ray")
        node.setFromCollideMask(GeomNode.getDefaultCollideMask())
        node.setIntoCollideMask(0)
        self.ray = CollisionRay()
        node.addSolid(self.ray)
        self.ray_np = base.camera.attachNewNode(node)
        self.traverser.addCollider(self.ray_np, self.queue)

    def pick(self) -> str | None:
        """The id under the cursor: a cell (when it is a highlighted target) or else the nearest piece."""
        hits = self.pick_all()
        return hits[0] if hits else None

    def pick_all(self, at: tuple[float, float] | None = None) -> list[str]:
        """Every id under the cursor (or the film point `at`, -1..1), nearest first: highlighted cells and the pieces
        (not lifted away) at that spot."""
        if at is None:
            if not self.base.mouseWatcherNode.hasMouse():
                return []
            m = self.base.mouseWatcherNode.getMouse()
            at = (m.getX(), m.getY())
        self.ray.setFromLens(self.base.camNode, at[0], at[1])
        self.traverser.traverse(self.stage.root)
        self.queue.sortEntries()
        hits: list[str] = []
        nearest = None
        for entry in self.queue.getEntries():
            np = entry.getIntoNodePath()
            depth = entry.getSurfacePoint(self.ray_np).length()
            if nearest is not None and depth > nearest + NEAR_MM:
                break      # only what lies at the clicked spot: a square's cell and the tile on it, not the far side

            cell = np.findNetTag("cell")
            if not cell.isEmpty():
                if cell.getColorScale()[3] > 0.01 and cell.getTag("cell") not in hits:   # only targeted cells
                    hits.append(cell.getTag("cell"))
                    nearest = depth if nearest is None else nearest
                continue
            piece = np.findNetTag("piece")
            if piece.isEmpty() or piece.hasTag("ghost") or piece.hasTag("xray"):
                continue   # lifted-away storeys of a cutaway, and what the x-ray fades, let clicks through
            if piece.getTag("piece") not in hits:
                hits.append(piece.getTag("piece"))
                nearest = depth if nearest is None else nearest
        return hits
