"""Driving a play table in tests as a person would wait for it, and seeing where things land on its screen."""


def settle(table, limit=200):
    """Run the table's tasks, finishing animations at once, until a person must act, the game is over, the screen
    waits to be handed on, or an AI thinks in its worker (then every frame would only draw the same picture)."""
    for _ in range(limit):
        if table.anim is not None:
            table.anim.finish()
        table.base.taskMgr.step()
        if table.anim is not None:
            table.anim.finish()
        if table._human_turn() or table.match.over or table.handoff is not None or table.waiting_for is not None:
            return


def overlap(a, b) -> bool:
    """Whether two screen boxes (x0, y0, x1, y1) share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def projected_box(base, points):
    """The screen box (x0, y0, x1, y1), in render2d units (-1..1 across and up the window), of world points seen by
    the base's camera; None when a point lies behind it."""
    from panda3d.core import Point2, Point3
    xs, ys = [], []
    for x, y, z in points:
        seen = base.cam.getRelativePoint(base.render, Point3(x, y, z))
        if seen.y <= 0:
            return None
        film = Point2()
        base.camLens.project(seen, film)      # fills `film` off the frame too (then it returns False)
        xs.append(film.x)
        ys.append(film.y)
    return (min(xs), min(ys), max(xs), max(ys))


def piece_box(base, pose):
    """The screen box of a piece as it lies (its turned, tilted footprint from foot to top)."""
    from towerworld.engine.layout import Layout
    from towerworld.scene.camera import _outline
    return projected_box(base, _outline(Layout(pieces={"piece": pose})))


def text_box(node, base):
    """The screen box of a 2-D text node (a HUD line) in render2d units."""
    low, high = node.getTightBounds(base.render2d)
    return (low.x, low.z, high.x, high.z)


def label_box(base, holder):
    """The screen box of a label that faces the viewer (scene.components.shapes.text): its card, turned to the camera
    and centred where the label's holder lies."""
    from panda3d.core import Point2, Vec3
    glyphs = holder.getChild(0)
    low, high = glyphs.getTightBounds(glyphs)
    scale = glyphs.getScale()
    anchor = base.cam.getRelativePoint(holder, (0, 0, 0))
    xs, ys = [], []
    for x in (low.x * scale.x, high.x * scale.x):
        for z in (low.z * scale.z, high.z * scale.z):
            film = Point2()
            base.camLens.project(anchor + Vec3(x, 0, z), film)
            xs.append(film.x)
            ys.append(film.y)
    return (min(xs), min(ys), max(xs), max(ys))


def convex_apart(a, b) -> bool:
    """Whether two convex polygons (lists of screen points in order) are apart: a separating axis exists."""
    for poly in (a, b):
        for i in range(len(poly)):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y1 - y0, x0 - x1
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return True
    return False
