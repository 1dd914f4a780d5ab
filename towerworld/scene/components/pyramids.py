"""Looney pyramids: hollow square pyramids of coloured plastic in three sizes that nest when stacked.

pyramid_1 / pyramid_2 / pyramid_3 (small, medium, large; look colour: red, yellow, green, blue, black or white): four
faces in vivid plastic, lighter towards the tip as light shows through thin plastic, an open base with the darker
inside showing through it, and 1, 2 or 3 pips in a row near the bottom of every face, so the size reads at a glance
from any side. Stacked upright they nest (the lift of each size is in the catalog); a pose tilted 90 degrees lies on
its side, resting on a face.
"""
from __future__ import annotations

import math

from panda3d.core import NodePath, Vec3

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.scene.components import caption, model, rest
from towerworld.scene.components.shapes import disc_on, facets, shade

# Rainbow colours: saturated plastic. Black is a smoky charcoal with pale pips and a pale rim so that it still reads on
# a dark table; white is milky.
PLASTIC = {
    "red": (0.9, 0.08, 0.1, 1),
    "yellow": (1.0, 0.8, 0.05, 1),
    "green": (0.1, 0.7, 0.22, 1),
    "blue": (0.08, 0.32, 0.92, 1),
    "black": (0.11, 0.11, 0.13, 1),
    "white": (0.9, 0.9, 0.88, 1),
}
PIP_COLOURS = {"black": (0.78, 0.78, 0.8, 1), "white": (0.45, 0.45, 0.5, 1), "yellow": (0.62, 0.42, 0.0, 1)}
PIP_LIGHT = (0.97, 0.97, 0.94, 1)
RIM_COLOURS = {PLASTIC["black"]: (0.55, 0.55, 0.6, 1)}
HOLLOW_DEPTH = 0.12  # of the height: how deep the dark hollow shows behind the open base
WALL = 1.2           # mm of plastic
PIP_R = 1.25
PIP_GAP = 3.6        # mm between pip centres
PIP_HEIGHT = 0.13    # of the face's height, above the base
TIP_LIGHT = 0.3      # how much lighter the tip is than the base
FACE_GLOW = 0.28     # and the middle of a face than its edges
# nested, a smaller pyramid's faces lie almost in the plane of the larger one's below it: the smaller one's faces
# stand this far (mm) out along their normals, so that it wins the depth test where they meet, as its walls really lie
# outside the larger one's (in the geometry, not a depth offset: every size shares one render state, and a tower's
# pyramids flatten into one geom)
NEST_PROUD = {"pyramid_1": 0.24, "pyramid_2": 0.12, "pyramid_3": 0.0}


def pips_of(kind: str) -> int:
    return int(kind.rsplit("_", 1)[1])


def plastic(colour) -> tuple:
    return PLASTIC.get(colour, PLASTIC["white"])


@caption("pyramid_1", "pyramid_2", "pyramid_3")
def pyramid_caption(pose: Pose) -> str:
    return f"{pose.get('colour', '')} {pips_of(pose.kind)}".strip()


def _mix(colour, other, k: float) -> tuple:
    return tuple(a + (b - a) * k for a, b in zip(colour[:3], other[:3])) + (colour[3],)


def _faces(half: float, height: float, body, proud: float = 0.0) -> list:
    """The four sloping faces of a square pyramid (base from -half to +half, apex at `height`), each `proud` mm out
    along its normal. Each face is a fan about a point a third of the way up, lighter there than at its edges and
    lighter at the tip than at the base: thin plastic with light coming through."""
    corners = [(-half, -half), (half, -half), (half, half), (-half, half)]
    glow, tip = _mix(body, (1, 1, 1), FACE_GLOW), _mix(body, (1, 1, 1), TIP_LIGHT)
    faces = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
        normal = Vec3(mid_x * height / half, mid_y * height / half, half)
        normal.normalize()
        centre = (mid_x * 2 / 3, mid_y * 2 / 3, height / 3)
        rim = [((x0, y0, 0.0), body), ((x1, y1, 0.0), body), ((0.0, 0.0, height), tip)]

        def out(p):
            return (p[0] + normal.x * proud, p[1] + normal.y * proud, p[2] + normal.z * proud)
        for k in range(3):
            (a, ca), (b, cb) = rim[k], rim[(k + 1) % 3]
            faces.append((tuple(normal), [out(centre), out(a), out(b)], [glow, ca, cb]))
    return faces


def _open_base(outer: float, inner: float, depth: float, body) -> list:
    """The open bottom seen from below: the rim of the walls, short walls going in, and the dark hollow beyond them.
    (Only the mouth is drawn: a full inner shell would lie so close to the outer faces that it shows through their
    edges in the shadow map.)"""
    ring_o = [(-outer, -outer), (outer, -outer), (outer, outer), (-outer, outer)]
    ring_i = [(-inner, -inner), (inner, -inner), (inner, inner), (-inner, inner)]
    rim, wall, hollow = RIM_COLOURS.get(body, shade(body, 0.8)), shade(body, 0.55), shade(body, 0.3)
    faces = []
    for i in range(4):
        j = (i + 1) % 4
        faces.append(((0.0, 0.0, -1.0), [(*ring_o[i], 0.0), (*ring_i[i], 0.0), (*ring_i[j], 0.0), (*ring_o[j], 0.0)],
                      rim))
        (x0, y0), (x1, y1) = ring_i[i], ring_i[j]
        inward = Vec3(-(y1 - y0), x1 - x0, 0)
        inward.normalize()
        faces.append((tuple(inward), [(x0, y0, 0.0), (x0, y0, depth), (x1, y1, depth), (x1, y1, 0.0)], wall))
    faces.append(((0.0, 0.0, -1.0), [(x, y, depth) for x, y in ring_i[::-1]], hollow))
    return faces


def _pips(root: NodePath, count: int, half: float, height: float, colour, proud: float = 0.0) -> None:
    """`count` pips in a row near the bottom of each face, standing a hair proud of it (the face `proud` mm out)."""
    slant = math.hypot(half, height)
    up = Vec3(0, half / slant, height / slant)          # up the -y face
    outward = Vec3(0, -height / slant, half / slant)
    z = height * PIP_HEIGHT
    y = -half * (1 - z / height)
    for side in range(4):
        face = NodePath("face")
        for i in range(count):
            x = (i - (count - 1) / 2) * PIP_GAP
            centre = Vec3(x, y, z) + outward * (0.08 + proud)
            disc_on(tuple(centre), (1, 0, 0), tuple(up), PIP_R, colour).reparentTo(face)
        face.setH(90 * side)
        face.reparentTo(root)


def build_pyramid(pose: Pose) -> NodePath:
    s = size(pose.kind)
    colour_name = pose.get("colour", "white")
    body = plastic(colour_name)
    half, height = s.w / 2, s.h
    inner_half = half - WALL * 1.3
    proud = NEST_PROUD[pose.kind]
    faces = _faces(half, height, body, proud)
    faces += _open_base(half, inner_half, height * HOLLOW_DEPTH, body)
    root = NodePath(pose.kind)
    facets(faces, "pyramid").reparentTo(root)
    _pips(root, pips_of(pose.kind), half, height, PIP_COLOURS.get(colour_name, PIP_LIGHT), proud)
    return root


for _kind in ("pyramid_1", "pyramid_2", "pyramid_3"):
    model(_kind)(build_pyramid)


@rest("pyramid_1", "pyramid_2", "pyramid_3")
def lying_pitch(pose: Pose) -> float:
    """Tilted 90 degrees a pyramid lies on its side: pitched over until the face on its -y side is flat on the table,
    which is further than a right angle (180 degrees less the angle between a face and the base)."""
    if abs(pose.tilt - 90) > 1e-6:
        return pose.tilt
    s = size(pose.kind)
    face_angle = math.degrees(math.atan2(s.h, s.w / 2))
    return 180 - face_angle
