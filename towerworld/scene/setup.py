"""Panda3D configuration and the look of the scene: offscreen settings, GLSL lighting with shadows, camera framing."""
from __future__ import annotations

import builtins
import os
import sys

from panda3d.core import (AmbientLight, DirectionalLight, DynamicTextFont, NodePath, PandaNode, Shader, TextNode, Vec4,
                          loadPrcFileData)

from towerworld.engine.layout import Layout
from towerworld.paths import shader_file
from towerworld.scene.components.shapes import FONT_FG, SHADOW_MASK, box

TABLE_CAMERA_MASK = PandaNode.getAllCameraMask() & ~SHADOW_MASK    # what the table's cameras draw (table_camera)
SHADOW_SIZE = 1024            # the key light's shadow map, texels a side
AFTER_DRAW_SORT = 55          # a task sorted here runs once ShowBase's igLoop (50) has drawn the frame

_CONFIGURED = False


def configure(offscreen: bool, width: int = 1280, height: int = 800, title: str = "towerworld") -> None:
    """Set Panda3D's config before the first ShowBase; offscreen uses EGL on any GL (Mesa included)."""
    global _CONFIGURED
    if _CONFIGURED:
        return
    _CONFIGURED = True
    lines = [
        f"win-size {width} {height}",
        f"window-title {title}",
        "notify-level-device fatal",
        "notify-level-glgsg fatal",
        "notify-level-display fatal",
        "notify-level-x11display fatal",
        "notify-level-ShowBase error",
        "audio-library-name null",
        "sync-video false",
        "textures-power-2 none",
        "show-frame-rate-meter false",
        "print-pipe-types false",
        "model-path " + os.path.dirname(shader_file("x")),
        # models are built from code and the one font is a .ttf: no loader plugins to look for in every installed
        # package's entry points at startup (importlib.metadata, about 0.1 s)
        "loader-support-entry-points false",
    ]
    if gpu_device():
        # smoother edges; Mesa's software renderer grants the samples and allocates them (about 47 MB for a 1280x800
        # window) but draws exactly the same pixels (compared offscreen and in an Xvfb window), so there: none
        lines += ["framebuffer-multisample 1", "multisamples 4"]
    if offscreen:
        os.environ.setdefault("EGL_PLATFORM", "surfaceless")
        lines += ["load-display p3headlessgl", "window-type offscreen", "aux-display p3headlessgl"]
    loadPrcFileData("towerworld", "\n".join(lines))


def gpu_device() -> bool:
    """Whether this machine shows a GPU to render with (a DRM render node, or NVIDIA's device), known before any GL
    context exists; without one, GL is Mesa's software renderer. Elsewhere than Linux: assume a GPU."""
    if not sys.platform.startswith("linux"):
        return True
    return _names_in("/dev/dri", lambda n: n.startswith("renderD")) or \
        _names_in("/dev", lambda n: n.startswith("nvidia") and n[6:7].isdigit())


def _names_in(folder: str, wanted) -> bool:
    """Whether `folder` holds a name `wanted` accepts (os.listdir: glob's import is a few hundred microseconds)."""
    try:
        return any(wanted(name) for name in os.listdir(folder))
    except OSError:
        return False


_LIT: list[Shader] = []      # the one lit shader, once loaded


def lit_shader() -> Shader:
    """Our GLSL 330 shader, loaded once (the HUD's text and panels and every table ask for it: each load found its
    files on disk again before Panda3D handed back the copy it keeps)."""
    if not _LIT:
        _LIT.append(Shader.load(Shader.SL_GLSL, vertex=shader_file("lit.vert"), fragment=shader_file("lit.frag")))
    return _LIT[0]


def table_camera(camera: NodePath) -> None:
    """A camera that draws the table draws everything but what only the key light's shadow camera draws (the plain
    copies that cast the shadows of combined pieces: see stage._shadow_caster)."""
    camera.node().setCameraMask(TABLE_CAMERA_MASK)


def dress(render: NodePath, layout: Layout | None = None, shadows_after_first_frame: bool = False) -> DirectionalLight:
    """Our GLSL 330 shader, a shadow-casting key light and ambient light on `render`; the window's cameras, where
    there is a window, draw the table (table_camera).

    Panda3D draws a shadow caster's buffer from the frame after the one that makes it, so a window's first frame of a
    new scene has no shadows whichever way; `shadows_after_first_frame` makes the buffer once that frame is drawn
    (its setup was a quarter of a table's first frame in software GL) instead of during it: the first frame's pixels
    are the same, and the shadows come one frame later (see cast_shadows_after_the_frame)."""
    for camera in getattr(getattr(builtins, "base", None), "camList", ()):
        if not camera.isEmpty():        # (a camera taken away stays listed)
            table_camera(camera)
    render.setShader(lit_shader())
    render.setShaderInput("highlight", Vec4(0, 0, 0, 0))
    render.setShaderInput("shadow_on", 1.0)
    render.setShaderInput("unlit", 0.0)
    amb = AmbientLight("ambient")
    amb.setColor((0.42, 0.42, 0.46, 1))
    render.setLight(render.attachNewNode(amb))
    sun = DirectionalLight("key")
    sun.setColor((0.78, 0.76, 0.7, 1))
    sun.setCameraMask(SHADOW_MASK)
    sun_np = render.attachNewNode(sun)
    sun_np.setHpr(35, -58, 0)
    render.setLight(sun_np)
    frame_light(sun_np, layout)
    if shadows_after_first_frame and getattr(builtins, "base", None) is not None:
        cast_shadows_after_the_frame(builtins.base, render, sun)
    else:
        sun.setShadowCaster(True, SHADOW_SIZE, SHADOW_SIZE)
    return sun


def cast_shadows_after_the_frame(base, scene: NodePath, sun: DirectionalLight) -> None:
    """Make `sun` a shadow caster once the frame being drawn is done, unless `scene` was taken down by then (undress:
    a caster turned on after that would leave its buffer drawn every frame with nothing to show)."""
    def cast(task):
        if not scene.isEmpty():
            sun.setShadowCaster(True, SHADOW_SIZE, SHADOW_SIZE)
        return task.done

    base.taskMgr.add(cast, "cast-shadows", sort=AFTER_DRAW_SORT)


def flat_2d(*nodes: NodePath) -> None:
    """2D nodes (the HUD's text and plain panels) drawn flat through the same shader as the table (its unlit path), not
    through the fixed-function pipeline: with Mesa's software renderer each distinct pipeline costs the first frame a
    program and triangle-setup code of its own compiled on the spot (the setup code is not kept in Mesa's shader
    cache), about 4 ms of a table's first frame of ~45. Their text's pixels stay within 2-5 levels of 255 of the
    fixed-function ones. Buttons stay fixed-function: their raised edges are shaded flat, which this shader does not
    do."""
    glsl_default_font()
    for node in nodes:
        node.setShader(lit_shader())
        node.setShaderInput("highlight", Vec4(0, 0, 0, 0))
        node.setShaderInput("shadow_on", 0.0)
        node.setShaderInput("unlit", 1.0)


def glsl_default_font() -> None:
    """The default font makes luminance+alpha glyph pages, as our own font does (an alpha-only page samples as black
    in GLSL, see components.shapes.font): to be called before text for flat_2d is made."""
    default = TextNode.getDefaultFont()
    if isinstance(default, DynamicTextFont) and default.getFg() != FONT_FG:
        default.clear()        # glyphs made before (alpha-only pages) are made again, in the new kind of page
        default.setFg(FONT_FG)


def undress(scene: NodePath) -> None:
    """Take a dressed scene down. A shadow-casting light keeps its shadow buffer, drawn every frame, after its node
    is gone: each table closed (a new game from the menu) or picture taken would leave one more shadow pass behind."""
    for light in scene.findAllMatches("**/+DirectionalLight"):
        light.node().setShadowCaster(False)
    scene.removeNode()


def frame_light(sun_np: NodePath, layout: Layout | None) -> None:
    """Fit the shadow camera around the pieces so shadows stay sharp."""
    x0, y0, z0, x1, y1, z1 = layout.bounds() if layout and layout.pieces else (-150, -150, 0, 150, 150, 100)
    span = max(x1 - x0, y1 - y0, z1 - z0) * 1.6 + 60
    lens = sun_np.node().getLens()
    lens.setFilmSize(span, span)
    lens.setNearFar(-span * 2, span * 2)
    sun_np.setPos((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2)


def fit_scene(scene: NodePath, layout: Layout, table_bounds: tuple) -> tuple:
    """A dressed scene after its layout grew (a landscape of tiles): the key light's shadow frustum fits the layout,
    and the table top grows under it where the layout reaches past `table_bounds` (the bounds it was laid under).
    Returns the bounds the table top is laid under now."""
    frame_light(scene.find("**/key"), layout)
    x0, y0, _z0, x1, y1, _z1 = layout.bounds()
    t0, u0, _w0, t1, u1, _w1 = table_bounds
    if x0 < t0 or y0 < u0 or x1 > t1 or y1 > u1:
        scene.find("table").removeNode()
        add_table(scene, layout)
        return layout.bounds()
    return table_bounds


def add_table(render: NodePath, layout: Layout | None) -> NodePath:
    """A table top under everything: pieces cast their shadows onto it."""
    x0, y0, _z0, x1, y1, _z1 = layout.bounds() if layout and layout.pieces else (-150, -150, 0, 150, 150, 0)
    # to the frame's far corners, past a tall stack's sight line and the HUD, and at least 6 m each way: a view from
    # afar (a replay's, above its timeline) saw past a small table's edge into the sky
    w = max(max(x1 - x0, y1 - y0) * 4.0 + 2000, 12000.0)
    table = box(w, w, 10, (0.33, 0.42, 0.36, 1), z0=-10.02)
    table.setPos((x0 + x1) / 2, (y0 + y1) / 2, 0)
    table.reparentTo(render)
    table.setName("table")
    return table
