"""The close-up: the one piece the player to move decides about (a layout's `closeup`: a tile drawn, to place)
drawn again, enlarged, at the window's right edge under the players' panels, whatever the view: its faces read while
the camera frames the whole table or looks elsewhere.

It is a display region of its own over the table's and under the HUD's 2-D layer (the help, the Esc menu and the
hand-off cover stay above it), drawing a small scene of its own: the piece's model as the table builds it, lit as the
table is (our shader, the same key and ambient light, without shadows), seen from in front and above as the table's
default view sees it, a caption over it on the HUD's panel colour.
"""
from __future__ import annotations

import math

from direct.gui.OnscreenText import OnscreenText
from panda3d.core import (AmbientLight, Camera, DirectionalLight, NodePath, PerspectiveLens, Point3, TextNode, Vec3,
                          Vec4)

from towerworld.engine.layout import Layout, Pose
from towerworld.engine.pieces import size
from towerworld.scene import components
from towerworld.scene.setup import flat_2d, lit_shader

HEIGHT = 0.26           # the picture's height, a share of the window's
WIDTH = 0.9             # its width, in its heights (on the screen)
CAPTION_SCALE = 0.04    # the caption's letters, in aspect2d units
MARGIN = 0.92           # the piece stands this far inside the picture's edges (a share of the lens's half-width)
CAPTION_ROOM = 0.17     # the share of the picture's height over the piece that the caption takes
PITCH = 70.0            # how far the close-up looks down, in degrees: its faces read as a picture, its height shows
FOV = 24.0              # the close-up lens's vertical field of view, in degrees
BACK = (0.1, 0.12, 0.18, 1)       # the players' panels' colour
CAPTION_FG = (1, 0.92, 0.6, 1)    # the instruction's gold
SORT = 5                # after the table's region (0), before the 2-D layer (render2d: 10)


class Closeup:
    def __init__(self, base):
        self.base = base
        self.root = NodePath("closeup")
        self.root.setShader(lit_shader())
        self.root.setShaderInput("highlight", Vec4(0, 0, 0, 0))
        self.root.setShaderInput("shadow_on", 0.0)
        self.root.setShaderInput("unlit", 0.0)
        amb = AmbientLight("closeup-ambient")
        amb.setColor((0.42, 0.42, 0.46, 1))
        self.root.setLight(self.root.attachNewNode(amb))
        sun = DirectionalLight("closeup-key")
        sun.setColor((0.78, 0.76, 0.7, 1))
        sun_np = self.root.attachNewNode(sun)
        sun_np.setHpr(35, -58, 0)           # the table's key light (setup.dress)
        self.root.setLight(sun_np)
        self.lens = PerspectiveLens()
        self.lens.setNearFar(1.0, 5000.0)
        self.camera = self.root.attachNewNode(Camera("closeup-camera", self.lens))
        self.region = base.win.makeDisplayRegion(0.7, 0.95, 0.6, 0.85)
        self.region.setSort(SORT)
        self.region.setClearColorActive(True)
        self.region.setClearColor(BACK)
        self.region.setClearDepthActive(True)
        self.region.setCamera(self.camera)
        self.region.setActive(False)
        self.caption = OnscreenText(text="", parent=base.a2dTopRight, align=TextNode.ACenter, scale=CAPTION_SCALE,
                                    fg=CAPTION_FG, shadow=(0, 0, 0, 0.9), mayChange=True)
        flat_2d(self.caption)
        self.caption.hide()
        self.model: NodePath | None = None
        self.shown: tuple | None = None     # what is drawn: (kind, look, face up, tilt, caption), or None
        self.piece: str | None = None       # the layout's id of the piece drawn
        self.pose: Pose | None = None       # its pose on the table
        self.top = 0.04                     # aspect2d units from the window's top edge to the picture's
        self.right = 0.04                   # and from its right edge

    @property
    def active(self) -> bool:
        return self.shown is not None

    def show_layout(self, layout: Layout) -> None:
        """Show the layout's close-up piece, or nothing where it names none (or a piece it does not place)."""
        want = layout.closeup
        pose = layout.pieces.get(want[0]) if want is not None else None
        self.piece = want[0] if pose is not None else None
        self.show(pose, want[1] if want is not None and pose is not None else "")

    def follow_ghosts(self, ghosts: dict[str, Pose]) -> None:
        """The table shows where the pointer would put pieces (ghosts): the piece in the picture turns as its ghost
        lies (the way R turns a tile over the place it would take), and back when its ghost goes."""
        ghost = ghosts.get(self.piece) if self.piece is not None else None
        turn = 0.0 if ghost is None or self.pose is None else ghost.heading - self.pose.heading
        if self.model is not None and self.model.getH() != turn:
            self.model.setH(turn)

    def show(self, pose: Pose | None, caption: str = "") -> None:
        self.pose = pose
        key = None if pose is None else (pose.kind, pose.look, pose.face_up, pose.tilt, caption)
        if key == self.shown:
            return
        self.shown = key
        if self.model is not None:
            self.model.removeNode()
            self.model = None
        if pose is None:
            self.region.setActive(False)
            self.caption.hide()
            return
        self.model = self.root.attachNewNode("piece")
        model = components.build(pose, self.model)
        components.orient(model, pose, 0.0 if pose.face_up else 180.0)
        self._frame(size(pose.kind))
        self.caption.setText(caption)
        self.caption.show()
        self.region.setActive(True)
        self.place(self.top)

    def _frame(self, s) -> None:
        """The camera looking down at PITCH on the middle of a piece of size `s`, as near as lets every corner of its
        box stand in the room under the caption, MARGIN inside the picture's edges (a few steps: the nearer the
        camera, the more the near corners spread)."""
        aim = Point3(0, 0, s.h / 2)
        pitch = math.radians(PITCH)
        back = Vec3(0, -math.cos(pitch), math.sin(pitch))
        room = math.tan(math.radians(FOV / 2)) * MARGIN
        corners = [Point3(x, y, z) for x in (-s.w / 2, s.w / 2) for y in (-s.d / 2, s.d / 2) for z in (0, s.h)]
        distance = 2.0 * max(s.w, s.d, s.h) / room
        for _ in range(6):
            self.camera.setPos(aim + back * distance)
            self.camera.lookAt(aim)
            worst = 0.0
            for corner in corners:
                seen = self.camera.getRelativePoint(self.root, corner)
                worst = max(worst, abs(seen.x / seen.y) / (room * WIDTH),
                            abs(seen.z / seen.y) / (room * (1 - CAPTION_ROOM)))
            distance *= worst

    def place(self, top: float) -> None:
        """Stand the picture at the window's right edge, `top` (aspect2d units) under its top edge: the lens takes
        the picture's shape, the piece framed under the caption."""
        self.top = top
        aspect = self.base.getAspectRatio()
        h = HEIGHT
        w = h * WIDTH / aspect
        right = 1.0 - self.right / (2 * aspect)
        upper = 1.0 - top / 2
        self.region.setDimensions(right - w, right, upper - h, upper)
        self.lens.setFov(2 * math.degrees(math.atan(math.tan(math.radians(FOV / 2)) * WIDTH)), FOV)
        # the image's middle moved up by half the caption's room: the piece stands in the room under it
        film = self.lens.getFilmSize()
        self.lens.setFilmOffset(0, film.y * CAPTION_ROOM / 2)
        self.caption.setPos(2 * aspect * ((right - w / 2) - 1.0), -top - CAPTION_SCALE * 1.25)

    def box(self) -> tuple[float, float, float, float] | None:
        """Where the picture is on the screen (x0, y0, x1, y1, -1..1 across the window), or None while hidden."""
        if not self.active:
            return None
        left, right, bottom, top = self.region.getDimensions()
        return (2 * left - 1, 2 * bottom - 1, 2 * right - 1, 2 * top - 1)

    def destroy(self) -> None:
        self.base.win.removeDisplayRegion(self.region)
        self.caption.destroy()
        self.root.removeNode()
