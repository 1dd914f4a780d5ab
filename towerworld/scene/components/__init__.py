"""Component models by family, built from code at their true size (1 unit = 1 mm).

One module per component family (piecepack, dominoes, pyramids, decktet, terrain, table-top helpers, ...). Each
registers a builder per piece kind of the catalog (`towerworld.engine.pieces`) with `@model("kind")`; a builder takes
a Pose and returns a NodePath whose origin is the centre of the piece's bottom, width along x, depth along y, whose
top face shows the face (value, suit, pips) and bottom face the back; the stage turns it over for face-down pieces and
tilts it by `pose.tilt`. A family module is imported the first time one of its kinds is asked for (so a family
module may import this package without a cycle): a new family is one new module, named as `family` in the catalog
rows of the kinds it draws, so that only the families in use are imported.

`build(pose)` builds a shape once per (kind, look), flattens it (one geom per render state) and hands out instances
of it (each under a node of its own that the stage turns).
A family may also register a `caption` per kind: the few words that name a face-down piece whose face is known (the
memory aid), so the stage needs no glyphs of its own; and a `rest` per kind: the pitch at which a piece tilted over
really lies (a pyramid on its side rests on a face, not on its axis); and an `area` per kind: an overlay that lights
up part of a face (a scored feature). `orient` turns a model as its pose says.
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from dataclasses import replace
from typing import Callable

from panda3d.core import NodePath, PandaNode

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import PIECES, size
from towerworld.scene.components import shapes
from towerworld.scene.components.shapes import box

Builder = Callable[[Pose], NodePath]
Caption = Callable[[Pose], str]
Rest = Callable[[Pose], float]
Area = Callable[[Pose, str], "NodePath | None"]
BUILDERS: dict[str, Builder] = {}
CAPTIONS: dict[str, Caption] = {}
RESTS: dict[str, Rest] = {}
AREAS: dict[str, Area] = {}
_CACHE: dict[tuple, NodePath] = {}
_NODES: dict[tuple, PandaNode] = {}    # (kind, look) -> the node of its shape in _CACHE, as rebuild adds it
_LOWEST: dict[tuple, float] = {}       # (kind, look, pitch, turn) -> the lowest z of that shape so turned
# (kind, look, tilt, turn) -> (pitch, lift) that orient gives (the stage reads it too: a model given new faces that
# lie as the old did keeps its turn, see Stage._restyle)
_TURNED: dict[tuple, tuple[float, float]] = {}
LOWEST_KEPT = 4096
FALLBACK_GREY = (0.6, 0.6, 0.6, 1)


def model(kind: str):
    """Register the decorated function as the builder of piece `kind`."""
    def register(fn: Builder) -> Builder:
        if kind in BUILDERS and BUILDERS[kind] is not fn:
            raise ValueError(f"two component builders for piece kind '{kind}'")
        BUILDERS[kind] = fn
        return fn
    return register


def caption(*kinds: str):
    """Register the decorated function as the memory-aid caption of the piece kinds `kinds`."""
    def register(fn: Caption) -> Caption:
        for kind in kinds:
            CAPTIONS[kind] = fn
        return fn
    return register


def rest(*kinds: str):
    """Register the decorated function as the pitch (degrees about x) at which pieces of `kinds` lie for a pose; it
    may read the pose's kind, look and tilt (orient keeps what it gave for them)."""
    def register(fn: Rest) -> Rest:
        for kind in kinds:
            RESTS[kind] = fn
        return fn
    return register


def area(*kinds: str):
    """Register the decorated function as the area builder of pieces of `kinds`: for a pose and words naming a part
    of its face (an event's `areas`), a flat glowing overlay of that part in the piece's own frame, or None."""
    def register(fn: Area) -> Area:
        for kind in kinds:
            AREAS[kind] = fn
        return fn
    return register


def build_area(pose: Pose, words: str) -> NodePath | None:
    """The overlay that lights up part of a piece's face (see `area`); None where its family draws none."""
    load_families()
    fn = AREAS.get(pose.kind)
    return fn(pose, words) if fn is not None else None


def orient(model: NodePath, pose: Pose, turn: float, tilt: float | None = None) -> None:
    """Turn `model` (the child of the piece's holder) as `pose` lies: `turn` degrees over about its y axis (180 is
    face down), pitched by its tilt (or by `tilt` in its place: a piece tipping over, frame by frame); a tilted piece
    is lifted so that its lowest point rests on the holder's origin."""
    # how a model lies follows from these alone: worked out once, then one call turns and lifts it
    key = (pose.kind, pose.look, pose.tilt if tilt is None else tilt, turn)
    how = _TURNED.get(key)
    if how is None:
        lying = pose if tilt is None else replace(pose, tilt=tilt)
        how = _TURNED[key] = _turned(model, lying, turn)
        if len(_TURNED) > LOWEST_KEPT:
            _TURNED.clear()         # an animation's in-between turns are many and never seen again
    model.setPosHpr(0, 0, how[1], 0, how[0], turn)


def _turned(model: NodePath, pose: Pose, turn: float) -> tuple[float, float]:
    """(pitch, lift) of a model lying as `pose` with `turn` (see orient)."""
    load_family(pose.kind)
    pitch = RESTS[pose.kind](pose) if pose.kind in RESTS else pose.tilt
    if not pitch:
        return pitch, size(pose.kind).h if abs(turn) > 90 else 0.0
    # the lowest point of a shape turned this way: the same for every piece of that shape (the bounds walk every
    # vertex, ~70 us, and a tumbling pyramid is turned every frame of its animation); taken from the shape alone,
    # not from this piece, which may carry a highlight's ring
    key = (pose.kind, pose.look, round(pitch, 3), round(turn, 3))
    low = _LOWEST.get(key)
    if low is None:
        shape = _CACHE.get((pose.kind, pose.look))
        if shape is None:           # built before the shapes were forgotten (clear_cache): this piece's own model
            model.setPosHpr(0, 0, 0, 0, pitch, turn)
            low = model.getTightBounds(model.getParent())[0].z
        else:
            probe = NodePath("probe")
            turned = probe.attachNewNode("turned")
            turned.setHpr(0, pitch, turn)
            shape.instanceTo(turned)
            low = turned.getTightBounds(probe)[0].z
        _LOWEST[key] = low
        if len(_LOWEST) > LOWEST_KEPT:
            _LOWEST.clear()
    return pitch, -low


def _shape(pose: Pose) -> NodePath:
    key = (pose.kind, pose.look)
    proto = _CACHE.get(key)
    if proto is None:
        load_family(pose.kind)
        proto = BUILDERS.get(pose.kind, _fallback)(pose)
        proto.flattenStrong()   # one geom per render state: a tile is its body and its text
        _CACHE[key] = proto
    return proto


def build(pose: Pose, parent: NodePath | None = None) -> NodePath:
    """A fresh copy of the model for `pose` (face and back drawn per the look; orientation is the stage's job), made
    under `parent` when one is given."""
    # an instance: the geometry is shared, and the piece's own node carries its turn (orient) and visibility
    if parent is not None:
        return _shape(pose).instanceUnderNode(parent, "piece")
    piece = NodePath("piece")
    _shape(pose).instanceTo(piece)
    return piece


def rebuild(model: NodePath, pose: Pose, was: Pose | None = None) -> None:
    """Give a model made by `build` the faces of `pose` in place of its own (and of anything hung on it): the node
    stays, with whatever refers to it, and its turn is the caller's to set again. `was`: the pose whose faces the
    model shows, where the caller knows it."""
    node = model.node()
    key = (pose.kind, pose.look)
    shape = _NODES.get(key)
    if shape is None:
        # the shape's node, added as a child: the instance instanceTo makes, without the NodePath it returns (a third
        # of the cost of a restyle: a domino moved from the hand to the map takes its tier's faces)
        shape = _NODES[key] = _shape(pose).node()
    if was is not None:
        old = _NODES.get((was.kind, was.look))
        # a model that holds only the old faces has them swapped for the new: taking every child away and adding one
        # locked and unlocked Panda's node data twice as often (Panda says False where they are not its child)
        if old is not None and node.getNumChildren() == 1 and node.replaceChild(old, shape):
            return
    node.removeAllChildren()
    node.addChild(shape)


def clear_cache() -> None:
    """Forget every built shape (benchmarks measure a rebuild from scratch)."""
    _CACHE.clear()
    _NODES.clear()
    _LOWEST.clear()
    _TURNED.clear()
    shapes._SOLIDS.clear()


def describe(pose: Pose) -> str:
    """A short caption naming the face of `pose`; "" for a kind whose family registered none (its look may hold
    things that are not for the table, such as the name of its back)."""
    load_family(pose.kind)
    fn = CAPTIONS.get(pose.kind)
    return fn(pose) if fn is not None else ""


def missing_models(layout) -> set[str]:
    """The piece kinds of `layout` that no builder draws (they would show as grey boxes)."""
    kinds = {p.kind for p in layout.pieces.values()}
    for kind in kinds:
        load_family(kind)
    return kinds - set(BUILDERS)


def _fallback(pose: Pose) -> NodePath:
    s = size(pose.kind)
    root = NodePath(pose.kind)
    box(s.w, s.d, s.h, FALLBACK_GREY).reparentTo(root)
    return root


_loaded: set[str] = set()


def load_family(kind: str) -> None:
    """Import the family module that draws `kind` (the catalog names it), once; a kind the catalog does not give a
    family loads them all. A table of one game so never loads the others' painters (the landscape tiles' brings in
    numpy)."""
    family = PIECES[kind].family if kind in PIECES else ""
    if not family:
        if kind not in BUILDERS:
            load_families()
        return
    if family not in _loaded:
        _loaded.add(family)
        if importlib.util.find_spec(f"{__name__}.{family}") is not None:    # a family another branch adds
            importlib.import_module(f"{__name__}.{family}")


def load_families() -> None:
    """Import every family module once, so that BUILDERS, CAPTIONS and RESTS are complete."""
    if "*" in _loaded:
        return
    _loaded.add("*")
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
        _loaded.add(info.name)
