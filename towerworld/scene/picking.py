"""Mouse picking: a ray from the camera through the cursor, hitting piece and cell geometry tagged by the stage."""
from __future__ import annotations

from panda3d.core import CollisionHandlerQueue, CollisionNode, CollisionRay, CollisionTraverser, GeomNode


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
        if not self.base.mouseWatcherNode.hasMouse():
            return None
        m = self.base.mouseWatcherNode.getMouse()
        self.ray.setFromLens(self.base.camNode, m.getX(), m.getY())
        self.traverser.traverse(self.stage.root)
        self.queue.sortEntries()
        for entry in self.queue.getEntries():
            np = entry.getIntoNodePath()
            cell = np.findNetTag("cell")
            if not cell.isEmpty():
                if cell.getColorScale()[3] > 0.01:   # only visible (targeted) cells catch clicks
                    return cell.getTag("cell")
                continue
            piece = np.findNetTag("piece")
            if not piece.isEmpty() and piece.hasTag("ghost"):
                continue   # ghosted storeys of a cutaway let clicks through to what is inside
            if not piece.isEmpty():
                return piece.getTag("piece")
        return None
