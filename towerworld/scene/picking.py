"""Mouse picking: a ray from the camera through the cursor, hitting piece and cell geometry tagged by the stage."""
from __future__ import annotations

import math

from panda3d.core import CollisionHandlerQueue, CollisionNode, CollisionRay, CollisionTraverser, GeomNode

from towerworld.scene.xray import enters

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
        self._cell_boxes: dict[tuple[str, int], tuple] = {}     # (cell id, node key) -> its box in its own units

    def pick(self) -> str | None:
        """The id under the cursor: a cell (when it is a highlighted target) or else the nearest piece."""
        hits = self.pick_all()
        return hits[0] if hits else None

    def surface_point(self, at: tuple[float, float], into) -> tuple[float, float, float] | None:
        """Where the line from the camera through the film point `at` (-1..1) first meets a piece, in the frame of
        `into`; None where it meets none."""
        self.ray.setFromLens(self.base.camNode, at[0], at[1])
        self.traverser.traverse(self.stage.root)
        self.queue.sortEntries()
        for entry in self.queue.getEntries():
            np = entry.getIntoNodePath()
            piece = np.findNetTag("piece")
            if piece.isEmpty() or piece.hasTag("ghost") or piece.hasTag("xray"):
                continue
            p = entry.getSurfacePoint(into)
            return (p.x, p.y, p.z)
        return None

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
        found = self._cells_hit()                     # (depth, id)
        nearest = min((depth for depth, _ in found), default=float("inf"))
        for entry in self.queue.getEntries():
            depth = entry.getSurfacePoint(self.ray_np).length()
            if depth > nearest + NEAR_MM:
                break      # only what lies at the clicked spot: a square's cell and the tile on it, not the far side
            np = entry.getIntoNodePath()
            if not np.findNetTag("cell").isEmpty():
                continue       # cells are tested exactly by _cells_hit
            piece = np.findNetTag("piece")
            if piece.isEmpty() or piece.hasTag("ghost") or piece.hasTag("xray"):
                continue   # lifted-away storeys of a cutaway, and what the x-ray fades, let clicks through
            found.append((depth, piece.getTag("piece")))
            nearest = min(nearest, depth)
        found.sort(key=lambda hit: hit[0])
        hits: list[str] = []
        for depth, pid in found:
            if depth <= nearest + NEAR_MM and pid not in hits:
                hits.append(pid)
        return hits

    def _cells_hit(self) -> list[tuple[float, str]]:
        """The highlighted cells the ray passes through, with their depth, by the ray's own arithmetic in each cell's
        frame. The stage draws every cell as one unit box under a non-uniform scale (43 x 43 x 0.6 mm for a place
        where a 45 mm tile may go), and Panda3D's ray test against visible geometry so scaled misses about a quarter of
        the rays that pass through it: a click on a glowing place found nothing."""
        origin, direction = self.ray.getOrigin(), self.ray.getDirection()
        out = []
        for cid, node in self.stage.cells.items():
            if node.getColorScale()[3] <= 0.01 or node.isHidden():
                continue            # only targeted cells can be picked
            box = self._cell_box(cid, node)
            if box is None:
                continue
            cell = self.stage.cell_shapes.get(cid)
            if cell is not None and cell.reach > 0:
                # the pieces standing on the place: the box reaches up over them (in the node's scaled units)
                box = (*box[:5], box[5] + cell.reach / max(node.getSz(), 1e-6))
            to_cell = self.ray_np.getMat(node)
            o, d = to_cell.xformPoint(origin), to_cell.xformVec(direction)
            t = enters(box, (o.x, o.y, o.z), (o.x + d.x, o.y + d.y, o.z + d.z), math.inf)
            if t is not None:
                out.append(((origin + direction * t).length(), cid))
        return out

    def _cell_box(self, cid: str, node) -> tuple | None:
        key = (cid, node.getKey())
        if key not in self._cell_boxes:
            bounds = node.getTightBounds(node)
            self._cell_boxes[key] = None if bounds is None else (*bounds[0], *bounds[1])
        return self._cell_boxes[key]


