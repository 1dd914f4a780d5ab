"""The stage: one NodePath per piece id, placed from a Layout, animated from the diff of two layouts.

Games never move nodes. `plan(old, new, events)` is a pure diff (testable without a window); `transition` turns the
plan into one Panda3D interval: what the events name happens first, in their order (a tile disintegrates, then the pawn
falls, then the tiles above settle); pieces that only went down fall with gravity, turned pieces flip over an edge,
removed ones crumble away, new ones drop in, others travel in an arc.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from math import hypot
from dataclasses import dataclass, replace
from itertools import compress, filterfalse, repeat
from operator import is_not, le

# the interval modules the stage uses, not IntervalGlobal (which also loads actor, particle, sound and motion-path
# intervals: tens of milliseconds of every startup)
from direct.interval.FunctionInterval import Func
from direct.interval.LerpInterval import LerpFunc
from direct.interval.MetaInterval import Parallel, Sequence
from panda3d.core import (BitMask32, ColorWriteAttrib, CompassEffect, DepthTestAttrib, GeomNode, LPoint3f, LVecBase3f,
                          NodePath, PandaNode, RenderState, TransformState, TransparencyAttrib, Vec4)

from towerworld.engine.game import CHANCE, Event
from towerworld.engine.layout import Cell, Layout, Pose, shared_pose
from towerworld.engine.pieces import size
from towerworld.scene import components, marks, xray
from towerworld.scene.camera import LABEL_EM
from towerworld.scene.components.shapes import box, shared_text, text
from towerworld.scene.setup import SHADOW_MASK
from towerworld.scene.timeline import Step, call, lerp, par, seq, wait

CRUMBLE_EVENTS = {"remove", "disintegrate", "destroy"}   # named pieces crumble where they stood, then go aside
OWN_WAY_EVENTS = CRUMBLE_EVENTS | {"roll", "topple"}     # events whose pieces move their own way (see transition)
NO_PIECES: frozenset[str] = frozenset()
LABEL_INK = (0.1, 0.1, 0.1, 1)          # a place label's letters (over their pale halo)
HIGHLIGHT_TARGET = (0.2, 0.9, 0.35, 0.45)
HIGHLIGHT_PICKED = (1.0, 0.8, 0.1, 0.5)
HIGHLIGHT_COSTLY = (1.0, 0.3, 0.22, 0.5)     # a target that costs its player (a cheat): red, unlike a legal place's green
HIGHLIGHT_HOVER = (0.5, 0.8, 1.0, 0.3)
CELL_FILL = 0.22       # a targeted cell's fill: a hint of colour under its frame (the picker reads it as pickable)
XRAY_ALPHA = 0.3      # what hides a target from the camera is drawn this opaque
COMBINE_FROM = 20      # a layout with at least this many pieces draws its resting pieces combined
CHUNK_SIZE = 12        # pieces flattened together: one that moves makes the other 11 draw themselves for a while
CHUNK_CELL = 45.0      # mm: pieces are chunked with their neighbours on a grid this coarse (a tile, a stack)
LOOSE_MAX = 16         # settled loose pieces (see Stage.combine) that wait before they are combined into new chunks
LOOSE_LIMIT = 40       # loose pieces beyond which all are combined, settled or not
COOL_AFTER = 6         # combines a piece must stay put to count as settled
CHUNKS_MAX = 16        # beyond this many chunks the two smallest are merged (draw calls stay within a few dozen)
LET_GO_MAX = 8         # chunks let go by moves (detached) that wait to be freed with the next chunking, at most
SPARE_PIECES = 32      # nodes of pieces gone (with their models) kept, detached, for pieces that arrive to take
PLACES_KEPT = 8192     # transforms of poses placed, remembered (a few games' worth of every piece's places)
# id(pose) -> (pose, the transform that places a piece so): the pose held, so that its id is not another's meanwhile
_PLACES: dict[int, tuple[Pose, TransformState]] = {}
# id(cell) -> (cell, the transform of a cell node moved to it with the scale it has: see Stage._sync_cells)
_CELL_PLACES: dict[int, tuple[Cell, TransformState]] = {}
# a piece's way in a travel (see Stage._travel): (piece, from, to, turn in degrees, lift in mm, whether it tilts)
Path = tuple[str, Pose, Pose, float, float, bool]


def _remember(places: dict, shape, transform: TransformState) -> tuple:
    """(shape, transform), kept in `places` (_PLACES or _CELL_PLACES) under the shape's id; a full one is emptied
    first. Looked up by the caller, inline (every piece or cell placed asks), with the held shape compared by
    identity."""
    if len(places) >= PLACES_KEPT:
        places.clear()
    held = places[id(shape)] = (shape, transform)
    return held


def _move_cell(node: NodePath, cell: Cell) -> None:
    """A cell's node, already scaled to the cell's size, moved to it: the state setPos would make from its own, made
    once per cell (shared_cell hands out the same one) and set as setPos sets it (setPos composes and looks up a new
    state)."""
    held = _CELL_PLACES.get(id(cell))
    if held is None or held[0] is not cell:
        held = _remember(_CELL_PLACES, cell, TransformState.makePosHprScale(
            LPoint3f(cell.x, cell.y, cell.z + 0.05), LVecBase3f(0, 0, 0), LVecBase3f(cell.w, cell.d, 0.6)))
    node.setTransform(held[1])
    node.node().resetPrevTransform()


def short_turn(start: float, end: float) -> float:
    """The signed turn in degrees from `start` to `end` the short way round (+90, never -270)."""
    return (end - start + 180.0) % 360.0 - 180.0


def _same(a: Pose | None, b: Pose) -> bool:
    return a is b or a == b


@dataclass(slots=True)
class Change:
    # not frozen: a frozen dataclass is made through object.__setattr__ per field, three times slower, and a move on a
    # full board makes one per piece it moves; nothing changes a Change once plan() has made it
    piece: str
    action: str            # "arrive", "leave", "fall", "flip", "move", "restyle", "carry"
    old: Pose | None
    new: Pose | None
    source: str | None = None   # "carry": the piece that leaves, whose place the arriving one starts from


def _classify(pid: str, a: Pose | None, b: Pose | None) -> str | None:
    if a is None:
        return "arrive"
    if b is None:
        return "leave"
    if a is b:
        return None
    same_place = abs(a.x - b.x) < 1e-6 and abs(a.y - b.y) < 1e-6
    if a.face_up != b.face_up:
        return "flip"
    if same_place and abs(a.heading - b.heading) < 1e-6 and abs(a.z - b.z) < 1e-6:
        # only a pose in the same place may equal the old one: its fields are compared only here (a moved piece's
        # would all be compared to find the place differs, which the lines above tell in a few)
        return None if a == b else "restyle"
    if same_place and b.z < a.z and abs(a.heading - b.heading) < 1e-6:
        return "fall"
    return "move"


def plan(old: Layout | None, new: Layout, events: list[Event] = ()) -> list[list[Change]]:
    """Phases of changes: the pieces named by each event in event order, then everything else together."""
    return _phases(_changes(old, new), events)


def _changes(old: Layout | None, new: Layout) -> dict[str, Change]:
    """Every piece that differs between two layouts, in the order of `old`, then those that arrived; where `new`
    tells what changed since `old` (LayoutChange), in the order it tells them, then those that arrived."""
    told = new.changes
    if told is not None and old is not None and told.base() is old:     # (told.after(old), inline: every move asks)
        return _told_changes(old.pieces, new.pieces, told.pieces)
    old_pieces = old.pieces if old else {}
    new_pieces = new.pieces
    changes: dict[str, Change] = {}
    get = new_pieces.get
    leaving = 0
    # a piece whose pose object the new layout kept (shared_pose) is passed over by identity, its fields uncompared,
    # in C: the old ids whose new pose (None for one gone) is not their old one, as `[pid for pid, a in
    # old_pieces.items() if get(pid) is not a]` lists them (no bytecode run per piece: most of a board stays put)
    for pid in list(compress(old_pieces, map(is_not, old_pieces.values(), map(get, old_pieces)))):
        a, b = old_pieces[pid], get(pid)
        if b is not None and a.face_up == b.face_up and (abs(a.x - b.x) >= 1e-6 or abs(a.y - b.y) >= 1e-6):
            changes[pid] = Change(pid, "move", a, b)     # what _classify says of the usual change, told in a line
            continue
        action = _classify(pid, a, b)
        if action:
            changes[pid] = Change(pid, action, a, b)
            if b is None:
                leaving += 1
    if len(old_pieces) - leaving < len(new_pieces):        # some arrived
        for pid in list(filterfalse(old_pieces.__contains__, new_pieces)):     # (the new ids not in old, in C)
            changes[pid] = Change(pid, "arrive", None, new_pieces[pid])
    return changes


def _told_changes(old_pieces: dict[str, Pose], new_pieces: dict[str, Pose], told: tuple[str, ...]
                  ) -> dict[str, Change]:
    """_changes among the pieces a layout told (the others hold the poses they held): only those are compared."""
    changes: dict[str, Change] = {}
    was, get = old_pieces.get, new_pieces.get
    arrived = []
    for pid in told:
        a, b = was(pid), get(pid)
        if a is b:
            continue
        if a is None:
            arrived.append(pid)
        elif b is not None and a.face_up == b.face_up and (abs(a.x - b.x) >= 1e-6 or abs(a.y - b.y) >= 1e-6):
            changes[pid] = Change(pid, "move", a, b)     # the usual change, told in a line (as in _changes)
        else:
            action = _classify(pid, a, b)
            if action:
                changes[pid] = Change(pid, action, a, b)
    for pid in arrived:
        changes[pid] = Change(pid, "arrive", None, get(pid))
    return changes


def _phases(changes: dict[str, Change], events: list[Event]) -> list[list[Change]]:
    """`changes` in phases (see plan); every piece changed is in one, or is the source of a carry in one."""
    if not changes:
        return []
    phases: list[list[Change]] = []
    placed: set[str] = set()
    for event in events:
        phase = []
        for p in event.pieces:      # (a loop, not a comprehension: an event names a piece or two)
            if p in changes and p not in placed:
                phase.append(changes[p])
        if not phase:
            continue
        for c in phase:
            placed.add(c.piece)
        if len(phase) > 1:          # a carry is a piece that leaves and one that arrives
            phase = _carry(phase)
        if phase:
            phases.append(phase)
    # what was not named: moves and arrivals together, then whatever only fell settles last
    first, last = [], []
    for pid, c in changes.items():
        if pid not in placed:
            (last if c.action == "fall" else first).append(c)
    if first:
        phases.append(first)
    if last:
        phases.append(last)
    return phases


def _carry(phase: list[Change]) -> list[Change]:
    """One thing under two ids (a card that was a back in a hand and lies face up on the discards): among the pieces
    one event names, the k-th that leaves and the k-th that arrives are the same piece travelling."""
    leaving = [c for c in phase if c.action == "leave"]
    arriving = [c for c in phase if c.action == "arrive"]
    if not leaving or not arriving:
        return phase
    pairs = dict(zip((c.piece for c in arriving), leaving))
    carried = {src.piece for src in pairs.values()}
    out = []
    for c in phase:
        if c.action == "arrive" and c.piece in pairs:
            src = pairs[c.piece]
            out.append(Change(c.piece, "carry", src.old, c.new, src.piece))
        elif not (c.action == "leave" and c.piece in carried):
            out.append(c)
    return out


@dataclass(frozen=True)
class LastMove:
    """What the last move changed, as the stage marks it until the next move: the pieces (or places on the table)
    it moved or named, and the poses its pieces had before (where a trail starts, or where one that left stood)."""
    pieces: tuple[str, ...]
    left: tuple[tuple[str, Pose], ...] = ()


LAST_FALLBACK = 8      # a move whose events name nothing is marked by what it changed, when that is at most this many


def last_move(old: Layout, new: Layout, events: list[Event] = ()) -> LastMove:
    """The mark of the move from `old` to `new`: what its events name (a tile laid, the pawn and the tile it reached,
    the card that hit and the tower it hit), else what changed where that is a few pieces (a board that lays itself
    out anew, the bag's stacks closing up, is not what a player did)."""
    named: list[str] = []
    for e in events:
        for p in e.pieces:
            if p not in named and (p in old.pieces or p in new.pieces or p in new.cells):
                named.append(p)
    if not named:
        changes = _changes(old, new)
        if len(changes) <= LAST_FALLBACK:
            named = list(changes)
    shown, left = [], []
    for p in named:
        a, b = old.pieces.get(p), new.pieces.get(p)
        if b is not None or (a is None and p in new.cells):
            shown.append(p)
        if a is not None and (b is None or abs(a.x - b.x) > 1.0 or abs(a.y - b.y) > 1.0 or abs(a.z - b.z) > 1.0):
            left.append((p, a))
    return LastMove(tuple(shown), tuple(left))


def last_move_before(match, upto: int, viewer: int) -> LastMove | None:
    """The mark of the last move a player chose before ply `upto` of `match` (chance draws are no one's move), as
    `viewer` sees it: what the window's table marks at that ply, and what its pictures and videos mark; None before
    the first move."""
    plies = match.plies
    for k in range(min(upto, len(plies)) - 1, -1, -1):
        ply = plies[k]
        if ply.mover != CHANCE:
            game = match.game
            return last_move(game.layout(match.state_at(k), viewer), game.layout(match.state_at(k + 1), viewer),
                             [e for e in ply.events if e.seen_by(viewer)])
    return None


@dataclass
class Chunk:
    """Resting pieces drawn through one flattened copy, and the poses they had when it was made."""
    node: NodePath
    members: dict[str, Pose]


class Stage:
    def __init__(self, parent: NodePath):
        self.root = parent.attachNewNode("stage")
        self.pieces_root = self.root.attachNewNode("pieces")
        self.cells_root = self.root.attachNewNode("cells")
        self.labels_root = self.root.attachNewNode("labels")
        self.marks_root = self.root.attachNewNode("marks")     # the frames of targeted cells
        self.eye: tuple[float, float, float] | None = None     # the camera, for the x-ray (see_from)
        self.cut: tuple[float, tuple[str, ...]] | None = None  # the cutaway: (height, kinds) lifted away
        # a cutaway has tagged some piece "ghost" or "glass": until one has, no node carries either, and placing a
        # piece need not ask its node (two calls into Panda per piece a move places)
        self.cut_tags = False
        self.xray_depth: dict[str, NodePath] = {}                # faded piece id -> its depth-only instance
        self.xray_root = self.root.attachNewNode("xray-depth")
        self.xray_root.setAttrib(ColorWriteAttrib.make(ColorWriteAttrib.COff), 1)
        self.xray_root.setBin("fixed", 10, 1)
        self.xray_root.setCollideMask(BitMask32.allOff())
        self.xray_root.hide(SHADOW_MASK)
        self.nodes: dict[str, NodePath] = {}
        self.models: dict[str, NodePath] = {}
        self.turned: dict[str, tuple] = {}         # piece -> how its model was last turned (see _orient)
        self.poses: dict[str, Pose] = {}
        self.cells: dict[str, NodePath] = {}
        # (holder, model) of plain pieces gone: a node freed costs about as much as one made (Panda's pipelined
        # node data), and a move often takes a piece away as another comes (a pile's back goes, a drawn card comes)
        self.spare_pieces: list[tuple[NodePath, NodePath]] = []
        self.cell_shapes: dict[str, Cell] = {}   # what each cell node was last placed as
        # nodes of cells gone, unlit and detached, with the cell each was last placed as, for new ones to take
        self.spare_cells: list[tuple[NodePath, Cell | None]] = []
        self.label_nodes: dict[str, tuple[tuple, NodePath]] = {}   # label id -> (what it shows, its text node)
        # the words a label shows, from the layout's: the table names the seats ("Ann", not "Player 1")
        self.label_words: Callable[[str], str] = lambda words: words
        self.label_scales: dict[str, float] = {}   # label id -> times LABEL_EM it is drawn (camera.label_scales)
        self.label_drops: dict[str, float] = {}    # label id -> its lines below its anchor (camera.label_drops)
        self.layout: Layout | None = None
        # told of every layout the stage shows or moves to, at a transition's start and again at its end (the HUD's
        # close-up of the piece to decide about: the tile laid leaves it as it flies to its place)
        self.on_layout: Callable[[Layout], None] | None = None
        self.on_ghosts: Callable[[dict[str, Pose]], None] | None = None    # told of every change of the ghosts
        self.show_hidden = False   # memory aid: label face-down pieces whose faces were seen
        self.memory_tags: dict[str, NodePath] = {}    # the piece each memory label hangs on -> the label
        self.memory_shown: dict[str, tuple[str, float]] = {}   # what those labels say, and how high they stand
        self.targets: dict[str, tuple] = {}
        self.chunks_root: NodePath | None = None  # the chunks' parent, hidden while every piece draws itself
        self.chunks: list[Chunk] = []
        # chunks a move let go (see uncombine), detached and waiting to be freed with the next chunking
        self.let_go: list[NodePath] = []
        self.combines = 0                          # combine() calls so far: the clock of `stirred`
        self.stirred: dict[str, int] = {}          # piece -> the combine at which it last moved or left a chunk
        self.loose_poses: dict[str, Pose] = {}     # loose pieces where the last combine saw them
        self.hidden: dict[str, NodePath] = {}      # piece -> its model, hidden while a chunk draws it
        self.hidden_matches_chunks = False         # `hidden` holds exactly the models of the chunks' members
        self.moving: set[str] = set()              # pieces an animation under way moves (see uncombine)
        self.ghosts_root = self.root.attachNewNode("ghosts")
        self.ghosts_root.setCollideMask(BitMask32.allOff())
        self.ghost_poses: dict[str, Pose] = {}
        self.last_root = self.root.attachNewNode("last-move")    # the last move's marks (see mark_last)
        self.last_root.setCollideMask(BitMask32.allOff())
        self.last: LastMove | None = None

    # ---- placing -------------------------------------------------------------------------------------------------------
    def show(self, layout: Layout) -> None:
        """Place every piece at once (no animation); reuses nodes whose id survives."""
        for pid in [p for p in self.nodes if p not in layout.pieces]:
            self._remove(pid)
        poses, models, moving = self.poses, self.models, self.moving
        for pid, pose in layout.pieces.items():
            # untouched pieces stay as they are; one an animation was moving may stand anywhere on its way
            if pid in moving or pid not in models or poses.get(pid) != pose:
                self._place(pid, pose)
        self._settle(layout)

    def _show_changes(self, layout: Layout, shown: Layout | None, changed: AbstractSet[str]) -> None:
        """The end of a transition from `shown`: when the stage still shows it, only the pieces the plan changed
        can differ from `layout`, so the others are not even compared (a move costs what it moved, not the board)."""
        if shown is None or self.layout is not shown:
            self.show(layout)
            return
        pieces, models, poses = layout.pieces, self.models, self.poses
        for pid in changed:
            if pid not in pieces:
                self._remove(pid)
                continue
            pose = pieces[pid]
            if pid in poses and poses[pid] is pose and pid in models:
                continue        # (placed so by its step: every piece a plain move moves)
            if pid not in models or poses.get(pid) != pose:
                self._place(pid, pose)
        self._settle(layout)

    def _settle(self, layout: Layout) -> None:
        """What `show` does after the pieces: cells, labels, the combined copy. Every move ends here, so what has
        nothing to do is not called."""
        told = layout.changes
        shown = self.layout
        # (told.after(shown), inline: every move asks)
        cells = told.cells if told is not None and shown is not None and told.base() is shown else None
        if cells is None or cells or self.targets:      # (told no cell and lighting none, it has nothing to do)
            self._sync_cells(layout.cells, cells)
        if shown is None or shown.labels != layout.labels:
            self._sync_labels(layout)
        self.layout = layout
        if self.on_layout is not None:
            self.on_layout(layout)
        if self.show_hidden or self.memory_tags or self.memory_shown:    # (else _sync_memory has nothing to do)
            self._sync_memory()
        if self.moving:
            self.moving.clear()
        if self.chunks_root is not None or len(self.nodes) >= COMBINE_FROM:     # (else combine does nothing)
            self.combine()

    # ---- ghosts: where a move being made would put pieces ------------------------------------------------------------
    def show_ghosts(self, poses: dict[str, Pose]) -> None:
        """Translucent copies of pieces at the given poses (the real pieces stay where they are); {} clears them."""
        if poses == self.ghost_poses:
            return
        self.ghosts_root.getChildren().detach()
        self.ghost_poses = dict(poses)
        if self.on_ghosts is not None:
            self.on_ghosts(self.ghost_poses)
        for pose in poses.values():
            ghost = self.ghosts_root.attachNewNode("ghost")
            model = components.build(pose)
            model.reparentTo(ghost)
            components.orient(model, pose, 0.0 if pose.face_up else 180.0)
            ghost.setPos(pose.x, pose.y, pose.z)
            ghost.setHpr(pose.heading, 0, 0)
            ghost.setTransparency(TransparencyAttrib.MAlpha)
            ghost.setColorScale(1, 1, 1, 0.8)

    # ---- combining pieces at rest ---------------------------------------------------------------------------------
    def combine(self) -> None:
        """Draw a big layout's resting pieces through a few flattened copies (chunks) instead of one node each.

        The per-piece nodes stay where they are, their models hidden, so picking, highlights and animation still
        work on them; highlighted, ghosted and glass pieces stay out of the chunks and draw themselves. Only what
        changed is combined again, so that a move usually flattens nothing: a chunk whose pieces all still rest where
        it copied them stays; one that lost a piece is dropped, and the rest of its pieces draw themselves ("loose").
        Loose pieces that stayed put for COOL_AFTER combines are flattened into new chunks once LOOSE_MAX of them
        wait (pieces that just moved, such as the rest of a pile being drawn from, tend to move again soon); the first
        combine of a board takes every piece (its first frame draws a few chunks, not a node per piece).
        Anything that moves or restyles pieces calls `uncombine` first; `show` combines again at the end.
        """
        if len(self.nodes) < COMBINE_FROM:
            if self.chunks_root is not None:
                self._drop_chunks()
            return
        self.combines += 1
        cut = self.cut is not None        # ghost and glass tags exist only under a cutaway
        seeing = self.eye is not None                        # and x-ray tags only where the x-ray looks
        nodes, models, poses = self.nodes, self.models, self.poses
        if not (cut or seeing or self.targets or self.moving) and len(models) == len(nodes) == len(poses):
            resting = poses         # the usual combine, after a move: every piece rests (read here, never changed)
        else:
            resting = {pid: poses[pid] for pid, node in nodes.items()
                       if pid in models and pid not in self.targets and pid not in self.moving
                       and not (cut and (node.hasTag("ghost") or node.hasTag("glass")))
                       and not (seeing and node.hasTag("xray"))}
        if self.chunks_root is None:
            self.chunks_root = self.root.attachNewNode("combined")
            self.chunks_root.setCollideMask(BitMask32.allOff())     # clicks go to the per-piece nodes
        if self.chunks_root.isHidden():     # (hidden by uncombine(), for all pieces to draw themselves)
            self.chunks_root.show()
        kept, dropped = [], []
        resting_items = resting.items()
        for chunk in self.chunks:
            # a piece not placed again since still holds the very pose object it was chunked with, and the items'
            # containment test passes over identical values without comparing their fields
            if chunk.members.items() <= resting_items:
                kept.append(chunk)
                continue
            self._let_go(chunk.node)
            dropped.append(chunk)
            for pid in chunk.members:
                self.stirred[pid] = self.combines
        self.chunks = list(kept)        # `kept` stays the chunks that were there before: new ones are added after
        in_chunks: set[str] = set().union(*(chunk.members for chunk in kept))
        # the loose pieces: which moved since the last combine saw them (stirred now), how many have cooled. A big
        # board's loose pieces are many (a move that shifts rows of tiles lets go of chunks) and most lie as they did:
        # each is looked at in C (set differences, maps), and only those whose pose object changed, or that were not
        # loose then, by bytecode (a loop over every loose piece was two fifths of a small move's update)
        combines, stirred, seen_loose = self.combines, self.stirred, self.loose_poses
        if len(in_chunks) < len(resting):
            loose = resting.keys() - in_chunks if in_chunks else resting.keys()
            poses_now = list(map(resting.__getitem__, loose))      # (a set iterates in the same order each time)
            for pid in list(compress(loose, map(is_not, poses_now, map(seen_loose.get, loose)))):
                seen = seen_loose.get(pid)
                if seen is None or seen != resting[pid]:        # (a piece come loose is stirred: no fields read)
                    stirred[pid] = combines
            self.loose_poses = dict(zip(loose, poses_now))
            cooled = combines - COOL_AFTER        # a piece stirred at or before this combine has settled
            # too many wait, or a board just shown (nothing on it has moved yet): every loose piece is combined
            every = len(loose) > LOOSE_LIMIT or combines == 1
            if len(loose) > LOOSE_LIMIT or (len(loose) if every else sum(map(le, map(stirred.get, loose, repeat(0)),
                                                                             repeat(cooled)))) >= LOOSE_MAX:
                # in the order of `resting`, as a fresh board's are
                settled = [pid for pid in resting if pid in loose and (every or stirred.get(pid, 0) <= cooled)]
                self._chunk_up(settled, resting)
                self.stirred = {pid: t for pid, t in self.stirred.items() if pid in self.nodes}   # forget the gone
        else:
            self.loose_poses = {}
        while len(self.chunks) > CHUNKS_MAX:
            a, b = sorted(self.chunks, key=lambda c: len(c.members))[:2]
            self.chunks.remove(a)
            self.chunks.remove(b)
            a.node.removeNode()
            b.node.removeNode()
            dropped += [a, b]
            self.chunks.append(self._chunk(list(a.members) + list(b.members), resting))
        # only models whose drawing changed hands are touched (hiding every model each time cost a third of a move)
        hidden = self.hidden
        if self.hidden_matches_chunks:
            # `hidden` held the members' models of the chunks before: what the dropped ones drew draws itself again,
            # what the new ones draw hides (a piece in both, a merged chunk's, ends hidden)
            old_chunks = {id(chunk) for chunk in kept}
            for chunk in dropped:
                for pid in chunk.members:
                    model = hidden.pop(pid, None)
                    if model is not None and not model.isEmpty():
                        model.show()
            for chunk in self.chunks:
                if id(chunk) not in old_chunks:
                    for pid in chunk.members:
                        model = hidden[pid] = models[pid]
                        model.hide()
            return
        drawn_by_chunks = {pid: models[pid] for chunk in self.chunks for pid in chunk.members}
        for pid, model in hidden.items():
            if drawn_by_chunks.get(pid) is not model and not model.isEmpty():
                model.show()        # loose, highlighted, ghosted or glass now: it draws itself
        for pid, model in drawn_by_chunks.items():
            if hidden.get(pid) is not model:
                model.hide()
        self.hidden = drawn_by_chunks
        self.hidden_matches_chunks = True

    def _chunk_up(self, pids: list[str], poses: dict[str, Pose]) -> None:
        """New chunks of neighbours, a stack never split (the pieces drawn from a pile leave one chunk at a time):
        stacks in the order of a coarse grid, packed into chunks of about CHUNK_SIZE pieces."""
        self._free_let_go()
        stacks: dict[tuple[float, float], list[str]] = {}
        for pid in pids:
            stacks.setdefault((round(poses[pid].x, 1), round(poses[pid].y, 1)), []).append(pid)
        order = sorted(stacks, key=lambda xy: (round(xy[0] / CHUNK_CELL), round(xy[1] / CHUNK_CELL), xy))
        batch: list[str] = []
        for xy in order:
            stack = sorted(stacks[xy], key=lambda pid: poses[pid].z)
            if batch and len(batch) + len(stack) > CHUNK_SIZE:
                self.chunks.append(self._chunk(batch, poses))
                batch = []
            batch += stack
        if batch:
            self.chunks.append(self._chunk(batch, poses))

    def _chunk(self, pids: list[str], poses: dict[str, Pose]) -> Chunk:
        """A chunk of these pieces: their copies flattened together (a geom for each look they have: a card's face is
        a texture of its own), hidden from the key light's shadow camera, beside one plain copy that only the
        shadow camera draws (a shadow has no colour: one geom, where the drawn copy may have dozens, each a draw call
        more of every frame's shadow pass)."""
        assert self.chunks_root is not None
        holder = self.chunks_root.attachNewNode("chunk")
        node = holder.attachNewNode("drawn")
        hidden = self.hidden
        for pid in pids:
            # a piece of a chunk dropped in this same combine still has its model hidden (combine shows it again
            # only after chunking): copied so, the new chunk would draw nothing for it
            model = hidden.get(pid)
            hidden_now = model is not None and not model.isEmpty()
            if hidden_now:
                model.show()
            copy = self.nodes[pid].copyTo(node)
            if hidden_now:
                model.hide()
            copy.clearTag("piece")
            copy.clearPythonTag("piece")
        node.flattenStrong()
        holder.attachNewNode(_shadow_caster(node))
        node.hide(SHADOW_MASK)
        return Chunk(holder, {pid: poses[pid] for pid in pids})

    @property
    def combined(self) -> NodePath | None:
        """The chunks' parent while they draw the resting pieces; None while every piece draws itself."""
        root = self.chunks_root
        return root if root is not None and not root.isHidden() else None

    def uncombine(self, pieces: AbstractSet[str] | None = None) -> None:
        """Pieces draw themselves (for an animation): every piece, or with `pieces`, those of the chunks holding any
        of them (the other chunks go on drawing the pieces that stay put). Hidden chunks wait for `combine`."""
        if pieces is not None:
            if not pieces:
                return
            self.moving.update(pieces)      # until `show` places them, they are no chunk's to draw
        if self.chunks_root is None or self.chunks_root.isHidden():
            return
        if pieces is None:
            self.chunks_root.hide()
            released = list(self.hidden)
            self.hidden_matches_chunks = False      # the chunks are kept, hidden, for `combine` to look at again
        else:
            released, kept = [], []
            for chunk in self.chunks:
                if not pieces.isdisjoint(chunk.members):
                    # detached, not freed: freeing a chunk's flattened geometry costs several times a small move's
                    # whole update, and a move lets a chunk go far more often than one is made; it is freed with the
                    # next chunking, which costs milliseconds anyway (or once LET_GO_MAX wait)
                    self._let_go(chunk.node)
                    released += chunk.members
                else:
                    kept.append(chunk)
            self.chunks = kept
        for pid in released:
            self.stirred[pid] = self.combines
            model = self.hidden.pop(pid, None)
            if model is not None and not model.isEmpty():
                model.show()

    def _let_go(self, node: NodePath) -> None:
        """A chunk no longer drawn: detached at once, freed with the next chunking (see _free_let_go)."""
        node.detachNode()
        self.let_go.append(node)
        if len(self.let_go) > LET_GO_MAX:
            self._free_let_go()

    def _free_let_go(self) -> None:
        for node in self.let_go:
            node.removeNode()
        self.let_go = []

    def _drop_chunks(self) -> None:
        """Forget every chunk (what they copied no longer looks like the pieces: the memory aid changed)."""
        self._free_let_go()
        self.uncombine()
        if self.chunks_root is not None:
            self.chunks_root.removeNode()
        self.chunks_root = None
        self.chunks = []
        self.loose_poses = {}
        self.hidden = {}

    def reset(self, pids) -> None:
        """Put these pieces' nodes back exactly on their recorded poses (after something else moved them: physics)."""
        for pid in pids:
            if pid in self.poses and pid in self.nodes:
                self._place(pid, self.poses[pid])

    def _holder(self, pid: str) -> NodePath:
        node = self.nodes.get(pid)
        if node is None:
            if self.spare_pieces:
                node, model = self.spare_pieces.pop()
                node.reparentTo(self.pieces_root)
                node.setName(pid)
                node.clearTransparency()    # what its crumble left; the place that follows sets scale and colour
                self.models[pid] = model     # given this piece's faces by the restyle that follows
            else:
                node = self.pieces_root.attachNewNode(pid)
            node.setPythonTag("piece", pid)
            node.setTag("piece", pid)
            self.nodes[pid] = node
        return node

    def _place(self, pid: str, pose: Pose) -> None:
        node = self.nodes.get(pid)
        if node is None:
            node = self._holder(pid)
        old = self.poses.get(pid)
        if old is None or pid not in self.models or old.look != pose.look or old.kind != pose.kind:
            self._restyle(pid, pose)
        # setPosHprScale(x, y, z, heading, 0, 0, 1, 1, 1) makes this very state, which Panda keeps unique: made once
        # per pose (shared_pose hands out the same one), a place costs a fifth of that call
        held = _PLACES.get(id(pose))
        if held is None or held[0] is not pose:
            held = _remember(_PLACES, pose, TransformState.makePosHpr(LPoint3f(pose.x, pose.y, pose.z),
                                                                      LVecBase3f(pose.heading, 0, 0)))
        node.setTransform(held[1])
        node.node().resetPrevTransform()    # as setPosHprScale does (a jump, not a motion to sweep for collisions)
        node.clearColorScale()
        # self._orient(pid, pose), inlined (every piece placed asks)
        turn = 0.0 if pose.face_up else 180.0
        how = (pose.kind, pose.look, pose.tilt, turn)
        if self.turned.get(pid) != how:
            components.orient(self.models[pid], pose, turn)
            self.turned[pid] = how
        self.poses[pid] = pose
        if self.cut is not None or self.cut_tags and (node.hasTag("ghost") or node.hasTag("glass")):
            self._ghost(pid, pose)      # (with no cutaway it only puts right what one left)

    def _sync_memory(self) -> None:
        """The memory aid: face-down pieces whose faces were seen (their looks are known) are named on one label per
        stack, a line each from the top down, standing over the stack's top: the labels of pieces lying one on
        another never overlap (a label each, a storey apart, would). The label hangs on the lowest piece it names,
        so it moves with the stack and is hidden only when every piece it names is lifted away."""
        if not self.show_hidden and not self.memory_tags and not self.memory_shown:
            return          # the aid off and no label up: every move of such a table passes here
        wanted: dict[str, tuple[str, float]] = {}
        if self.show_hidden:
            stacks: dict[tuple[int, int], list[str]] = {}
            for pid, pose in self.poses.items():
                stacks.setdefault((round(pose.x), round(pose.y)), []).append(pid)
            for members in stacks.values():
                named = []         # (height, caption, piece) of each face-down piece with a known face, top first
                for pid in members:
                    pose = self.poses[pid]
                    words = components.describe(pose) if not pose.face_up and pose.look else ""
                    if words:
                        named.append((pose.z, words, pid))
                named.sort(reverse=True)
                if named:
                    top = max(self.poses[pid].top for pid in members)
                    lowest_z, _, lowest = named[-1]
                    wanted[lowest] = ("\n".join(words for _, words, _ in named), top - lowest_z + 5)
        if wanted == self.memory_shown and all(not t.isEmpty() for t in self.memory_tags.values()):
            return          # a move that changed no label costs nothing here
        for tag in self.memory_tags.values():
            if not tag.isEmpty():
                tag.removeNode()
        self.memory_tags = {}
        for lowest, (words, height) in wanted.items():
            tag = text(words, 7, (0.15, 0.1, 0.4, 1), (0, 0, height), facing="viewer", standing=True)
            tag.setName("memory")
            tag.reparentTo(self.nodes[lowest])
            self.memory_tags[lowest] = tag
        self.memory_shown = wanted
        if self.chunks:
            self._drop_chunks()     # the chunks copied the pieces with the labels they had

    def set_cutaway(self, height: float | None, kinds: tuple[str, ...] = ()) -> None:
        """Lift away the stack pieces (of `kinds`) lying at or above `height`, so what is inside a tower shows."""
        self.cut = (height, tuple(kinds)) if height is not None else None
        for pid, pose in self.poses.items():
            self._ghost(pid, pose)
        if self.combined is not None:
            self.combine()

    def _ghost(self, pid: str, pose: Pose) -> None:
        node = self.nodes[pid]
        cut = self.cut
        ghost = cut is not None and pose.kind in cut[1] and pose.z >= cut[0] - 0.01
        if ghost and pid in self.targets:
            # a lifted-away piece that is a legal target (the tile above, to climb to) shows as glass, clickable
            node.show()
            node.clearTag("ghost")
            node.setTransparency(TransparencyAttrib.MAlpha)
            node.setColorScale(1, 1, 1, 0.45)
            node.setTag("glass", "1")
            self.cut_tags = True
            return
        if node.hasTag("glass"):
            node.clearTag("glass")
            node.clearColorScale()
        if ghost:
            # hidden, not translucent: faces seen through several glass storeys do not read
            node.hide()
            node.setTag("ghost", "1")
            self.cut_tags = True
        elif node.hasTag("ghost"):
            node.clearTag("ghost")
            node.show()

    def set_memory_aid(self, on: bool) -> None:
        self.show_hidden = on
        self._sync_memory()
        if self.chunks_root is not None:
            showing = self.combined is not None
            self._drop_chunks()         # the chunks copied the pieces without (or with) their labels
            if showing:
                self.combine()

    def _restyle(self, pid: str, pose: Pose) -> None:
        node = self.nodes.get(pid)
        if node is None:
            node = self._holder(pid)
        model = self.models.get(pid)
        if model is None or model.isEmpty():
            self.models[pid] = components.build(pose, node)
        else:
            # the same node with new faces: taking it away and making another cost twice as much, and the chunks'
            # hidden models and the x-ray's depth copy go on referring to it
            components.rebuild(model, pose, self.poses.get(pid))
            how = self.turned.get(pid)
            if how is not None:
                # the node keeps its turn: where the new faces lie as the old ones did (a domino that takes its tier's
                # faces), it is known to lie so already, and not turned again (a turn is the dearest call of a place)
                now = (pose.kind, pose.look, how[2], how[3])
                lie = components._TURNED.get(how)     # (how orient turns a model for each key, as far as it knows)
                if lie is not None and lie == components._TURNED.get(now):
                    self.turned[pid] = now
                    return
        self.turned.pop(pid, None)

    def _orient(self, pid: str, pose: Pose, flip: float | None = None, tilt: float | None = None) -> None:
        """Face-down pieces lie turned over about their own y axis; `flip` in [0, 1] is part way through a turn;
        `tilt`, part way through tipping over, in place of the pose's (no Pose made each frame)."""
        turn = (0.0 if pose.face_up else 180.0) if flip is None else flip * 180.0
        # how a model lies follows from these alone (see components.orient), and only this turns models
        how = (pose.kind, pose.look, pose.tilt if tilt is None else tilt, turn)
        if self.turned.get(pid) != how:
            components.orient(self.models[pid], pose, turn, tilt)
            self.turned[pid] = how

    def _sync_cells(self, cells: dict[str, Cell], told: tuple[str, ...] | None = None) -> None:
        """Cells follow the layout; only new or changed ones are touched. Showing a layout clears the highlight of
        cells, and only `highlight` lights them, so only its targets need clearing. `told`: the only cell ids that
        may differ from those shown, where the layout tells them (LayoutChange)."""
        targets = self.targets
        own, shapes = self.cells, self.cell_shapes       # (their keys are the same)
        get = shapes.get
        if told is not None:
            # only the cells told are compared (a move on a board of many places raises one or two), in one loop (two
            # comprehensions over a few ids cost more as the calls they are than as the work)
            changed: list[str] = []
            went: list[str] = []
            for cid in told:
                if cid not in cells:
                    if cid in own:
                        went.append(cid)
                elif cid not in shapes or shapes[cid] is not cells[cid]:
                    changed.append(cid)
            if went and changed and not targets:
                # the usual move of a board that tells: places that went up or down a storey, each cell's node taken
                # by the cell of the same size that came (renamed and moved, as below), in one loop here
                changed.reverse()
                while went and changed:
                    cid = changed[-1]
                    cell = cells[cid]
                    if cid in own:
                        break
                    gone_id = went.pop()
                    shape = shapes.pop(gone_id, None)
                    if shape is None or shape.w != cell.w or shape.d != cell.d:
                        went.append(gone_id)
                        if shape is not None:
                            shapes[gone_id] = shape
                        break
                    changed.pop()
                    node = own.pop(gone_id)
                    node.setName(cid)
                    own[cid] = node
                    _move_cell(node, cell)
                    shapes[cid] = cell
                changed.reverse()
        elif cells == shapes:       # the usual move: a C loop, which passes over shared cells by identity
            changed = went = []
        else:
            # the cells that came or changed, in the layout's order: a cell the layout kept (shared_cell) is passed
            # over by identity, in one pass in C, as _changes passes over pieces (a move that raises two cells pays
            # for two, and for that pass over the rest)
            changed = list(compress(cells, map(is_not, cells.values(), map(get, cells))))
            # cells gone, looked for only when some went: the cells that came number fewer than the stage's that
            # are not in the layout
            went = [c for c in own if c not in cells] \
                if len(own) > len(cells) - sum(1 for cid in changed if cid not in own) else []
        if not changed and not went:
            for cid in targets:
                node = own.get(cid)
                if node is not None:
                    self._unlight_cell(node)
            return
        # the nodes of cells gone go first to cells that came (a cell moving up a storey changes its id), as they
        # stand: attached, and unlit unless they were targets; only those left over are detached
        gone: list[tuple[NodePath, Cell | None]] = []
        for cid in went:
            node = own.pop(cid)
            if cid in targets:
                self._unlight_cell(node)
            gone.append((node, shapes.pop(cid, None)))
        for cid in changed:
            cell = cells[cid]
            shape = get(cid)
            node = own.get(cid)
            if node is None:
                if gone:
                    node, shape = gone.pop()
                    node.setName(cid)
                elif self.spare_cells:
                    node, shape = self.spare_cells.pop()
                    node.reparentTo(self.cells_root)
                    node.setName(cid)
                else:
                    # one unit box for every cell, scaled: no geometry is built per cell or per move
                    node = self._unit_cell().instanceUnderNode(self.cells_root, cid)
                    node.setTransparency(TransparencyAttrib.MAlpha)
                    node.setDepthOffset(1)
                    # the tag marks a cell for picking, which only asks whether a node is one; its id is the key of
                    # `cells` and its node's name, so a cell that moves a storey (a new id) is renamed, not retagged
                    node.setTag("cell", "")
                    self._unlight_cell(node)
                own[cid] = node
            elif shape == cell:
                continue
            if shape is not None and shape.w == cell.w and shape.d == cell.d:
                _move_cell(node, cell)
            else:
                node.setPosHprScale(cell.x, cell.y, cell.z + 0.05, 0, 0, 0, cell.w, cell.d, 0.6)
            shapes[cid] = cell
        for node, shape in gone:
            node.detachNode()
            self.spare_cells.append((node, shape))
        for cid in targets:
            node = self.cells.get(cid)
            if node is not None:
                self._unlight_cell(node)

    @staticmethod
    def _unlight_cell(node: NodePath) -> None:
        """An unlit cell is clear (alpha 0, which the picker reads as "not a target") and not drawn at all: a board's
        squares would otherwise each cost a draw call that paints nothing."""
        node.setColorScale(1, 1, 1, 0)
        node.hide()

    _UNIT_CELL: NodePath | None = None

    @classmethod
    def _unit_cell(cls) -> NodePath:
        if cls._UNIT_CELL is None:
            cls._UNIT_CELL = box(1.0, 1.0, 1.0, (1, 1, 1, 1))
        return cls._UNIT_CELL

    def _sync_labels(self, layout: Layout) -> None:
        """Labels follow the layout; a label whose place and words are unchanged keeps its text node."""
        for lid in [lid for lid in self.label_nodes if lid not in layout.labels]:
            self.label_nodes.pop(lid)[1].removeNode()
        for lid, spec in layout.labels.items():
            shown = self.label_nodes.get(lid)
            if shown is not None and shown[0] == spec:
                continue
            x, y, z, words = spec
            words = self.label_words(words)
            drop = self.label_drops.get(lid, 0.0)
            if shown is not None:      # new words or a new place: the same node shows them (where it stands already)
                place = None if shown[0][:3] == (x, y, z) else (x, y, z)
                node = shared_text(words, LABEL_EM, LABEL_INK, place, facing="viewer", into=shown[1],
                                   drop=drop)
            else:
                node = shared_text(words, LABEL_EM, LABEL_INK, (x, y, z), facing="viewer", drop=drop)
                node.reparentTo(self.labels_root)
                scale = self.label_scales.get(lid, 1.0)
                if scale != 1.0:
                    node.setScale(scale)
            self.label_nodes[lid] = (spec, node)

    def set_label_scales(self, scales: dict[str, float], drops: dict[str, float] | None = None) -> None:
        """Draw each label its scale times LABEL_EM tall, about its own anchor (the view keeps far ones readable), and
        `drops` of its lines below it (camera.label_drops: labels that would touch on the screen stagger)."""
        if drops is not None and drops != self.label_drops:
            old, self.label_drops = self.label_drops, dict(drops)
            for lid, (spec, node) in self.label_nodes.items():
                if old.get(lid, 0.0) != drops.get(lid, 0.0):
                    shared_text(self.label_words(spec[3]), LABEL_EM, LABEL_INK, None, facing="viewer",
                                into=node, drop=drops.get(lid, 0.0))
        if scales == self.label_scales:
            return
        self.label_scales = dict(scales)
        for lid, (_spec, node) in self.label_nodes.items():
            if lid in scales:       # (one the scales leave out is the last layout's, kept as it is until it goes)
                node.setScale(scales[lid])

    # ---- highlighting -----------------------------------------------------------------------------------------------
    def highlight(self, targets: dict[str, tuple]) -> None:
        """targets: piece or cell id -> rgba highlight. Everything else is cleared.

        A target keeps its own colour: a band (marks.py) rings it or frames its face, and the shader lights only its
        silhouette; a cell gets a faint fill (which the picker reads as "pickable") and a frame."""
        for pid in self.targets:
            node = self.nodes.get(pid)
            if node is not None:
                node.findAllMatches("**/mark").detach()
        self.marks_root.getChildren().detach()
        self.targets = dict(targets)
        for pid, node in self.nodes.items():
            if pid in targets:
                node.setShaderInput("highlight", Vec4(*targets[pid]))
                self._mark_piece(pid, targets[pid])
            else:
                node.clearShaderInput("highlight")
        for cid, node in self.cells.items():
            if cid in targets:
                r, g, b, a = targets[cid]
                node.setColorScale(r, g, b, CELL_FILL)
                node.show()
                self._mark_cell(cid, targets[cid])
            else:
                self._unlight_cell(node)
        if self.cut is not None:
            for pid, pose in self.poses.items():
                self._ghost(pid, pose)
        self._fade_hiding()
        if self.combined is not None or len(self.nodes) >= COMBINE_FROM:
            self.combine()

    def see_from(self, eye: tuple[float, float, float] | None) -> None:
        """X-ray: pieces standing between `eye` (the camera, in the stage's frame) and a target fade, so that a square
        behind a tall stack can be seen and clicked; None fades nothing."""
        if eye == self.eye:
            return
        self.eye = eye
        if self._fade_hiding() and (self.combined is not None or len(self.nodes) >= COMBINE_FROM):
            self.combine()

    def _fade_hiding(self) -> bool:
        """Fade what hides the targets from the eye (and restore what no longer does); True when anything changed."""
        hiding: set[str] = set()
        if self.eye is not None and self.targets:
            spots = []
            for tid in self.targets:
                if tid in self.poses:
                    spots.append(xray.piece_spots(self.poses[tid]))
                elif self.layout is not None and tid in self.layout.cells:
                    spots.append(xray.cell_spots(self.layout.cells[tid]))
            shown = {pid: pose for pid, pose in self.poses.items()
                     if pid in self.nodes and not self.nodes[pid].hasTag("ghost")}
            hiding = xray.hiding(shown, spots, self.eye, keep=frozenset(self.targets))
        changed = False
        for pid, node in self.nodes.items():
            if pid in hiding:
                changed = changed or not node.hasTag("xray")
                self._fade(pid, node)
            elif node.hasTag("xray"):
                self._unfade(pid, node)
                changed = True
        return changed

    def _fade(self, pid: str, node: NodePath) -> None:
        """Draw a piece at XRAY_ALPHA, blended once per pixel: its instance under `xray_depth` lays down the depth of
        its nearest faces first, then only those faces draw, so a stack's many storeys do not darken to opaque."""
        node.setTag("xray", "1")
        node.setTransparency(TransparencyAttrib.MAlpha)
        node.setColorScale(1, 1, 1, XRAY_ALPHA)     # again each time: placing a piece clears its colour scale
        node.setBin("fixed", 11, 1)
        node.setAttrib(DepthTestAttrib.make(DepthTestAttrib.MLessEqual), 1)
        node.setDepthWrite(False, 1)
        if pid not in self.xray_depth and pid in self.models:
            # the model shared, not the holder: the holder carries the fade, which the depth pass must not
            depth = self.xray_root.attachNewNode(pid)
            depth.setEffect(CompassEffect.make(node, CompassEffect.PAll))    # it follows the piece as it moves
            self.models[pid].instanceTo(depth)
            self.xray_depth[pid] = depth

    def _unfade(self, pid: str, node: NodePath) -> None:
        node.clearTag("xray")
        node.clearColorScale()
        node.clearTransparency()
        node.clearBin()
        node.clearAttrib(DepthTestAttrib)
        node.clearDepthWrite()
        instance = self.xray_depth.pop(pid, None)
        if instance is not None:
            instance.removeNode()

    def _mark_piece(self, pid: str, rgba: tuple) -> None:
        pose = self.poses.get(pid)
        if pose is None or pid not in self.models:
            return
        mark, turns_with_model = marks.mark_for(pose.kind, pose.face_up)
        mark.reparentTo(self.models[pid] if turns_with_model else self.nodes[pid])
        marks.colour(mark, rgba)

    def _mark_cell(self, cid: str, rgba: tuple) -> None:
        cell = self.layout.cells.get(cid) if self.layout is not None else None
        if cell is None:
            return
        mark = marks.cell_frame(cell.w, cell.d)
        mark.reparentTo(self.marks_root)
        mark.setPos(cell.x, cell.y, cell.z + 0.6 + marks.LIFT)
        marks.colour(mark, rgba)

    # ---- the last move ----------------------------------------------------------------------------------------------
    def mark_last(self, last: LastMove | None) -> None:
        """Mark what the last move changed (violet, marks.py), where those pieces stand now: a ring or frame on each,
        a fainter one where a piece stood before, dots from there to where it went; None clears the marks."""
        self.last_root.getChildren().detach()
        self.last = last
        if last is None:
            return
        for pid in last.pieces:
            node, pose = self.nodes.get(pid), self.poses.get(pid)
            if node is not None and pose is not None:
                mark = marks.last_mark(pose.kind)
                mark.reparentTo(self.last_root)
                if pose.tilt and pose.face_up and pid in self.models and marks.is_flat(pose.kind):
                    mark.setTransform(self.models[pid].getTransform(self.root))   # a card leaning on its tower
                else:
                    mark.setPos(node.getPos(self.root))
                    mark.setH(node.getH(self.root))
                mark.setTag("last", pid)
            elif self.layout is not None and pid in self.layout.cells:
                cell = self.layout.cells[pid]
                mark = marks.last_cell_mark(cell.w, cell.d)
                mark.reparentTo(self.last_root)
                mark.setPos(cell.x, cell.y, cell.z + 0.6)
                mark.setTag("last", pid)
        for pid, was in last.left:
            if pid not in self.poses and self._taken(was):
                continue        # a card gone from a hand that closed up: the place it left is another's now
            mark = marks.last_mark(was.kind)
            mark.reparentTo(self.last_root)
            mark.setPos(was.x, was.y, was.z)
            mark.setH(was.heading)
            mark.setAlphaScale(marks.LEFT_ALPHA)
            mark.setTag("last", "left:" + pid)
            node = self.nodes.get(pid)
            if node is not None and pid in self.poses:
                dots = marks.trail((was.x, was.y, was.z), tuple(node.getPos(self.root)))
                if dots is not None:
                    dots.reparentTo(self.last_root)
                    dots.setTag("last", "trail:" + pid)

    def _taken(self, was: Pose) -> bool:
        """Whether a piece stands now where one stood (within a quarter of that one's narrower side)."""
        s = size(was.kind)
        near = min(s.w, s.d) / 4
        return any(abs(p.x - was.x) < near and abs(p.y - was.y) < near and abs(p.z - was.z) < max(near, s.h)
                   for p in self.poses.values())

    def last_marked(self) -> dict[str, tuple[float, float, float]]:
        """Where the last move's marks lie: piece or cell id -> the mark's place, and "left:" + id for the place a
        piece left, "trail:" + id for the dots from there (what the tests read)."""
        out: dict[str, tuple[float, float, float]] = {}
        for node in self.last_root.getChildren():
            if node.hasTag("last"):
                pos = node.getPos(self.root)
                out[node.getTag("last")] = (pos.x, pos.y, pos.z)
        return out

    # ---- animating ------------------------------------------------------------------------------------------------------
    def transition(self, old: Layout | None, new: Layout, events: list[Event] = (), speed: float = 1.0,
                   physics: bool = False):
        """One interval from `old` to `new`. Its end is exactly `show(new)`. With `physics`, pieces the rules break
        or drop move under Bullet for a moment first (scene/physics.py), then everything snaps onto `new`."""
        if self.layout is None and old is not None:
            self.show(old)
        if self.on_layout is not None:
            self.on_layout(new)
        if physics and (old is not None or self.layout is not None):
            from towerworld.scene.physics import crumble_interval
            crumble = crumble_interval(self, old if old is not None else self.layout, new, events, speed=speed)
            if crumble is not None:
                return Sequence(Func(self.uncombine), crumble, Func(self.show, new), name="stage-transition")
        told = new.changes
        if told is not None and old is not None and old is self.layout and told.base() is old:
            plain = self._plain(old, new, told.pieces, events, speed)
            if plain is not None:
                return plain
        shown = self.layout if old is None or old is self.layout else None   # the stage shows where this starts
        changes = _changes(old if old is not None else self.layout, new)
        phases = _phases(changes, events)
        old_pieces = (old if old is not None else self.layout or Layout()).pieces
        # the pieces of events that move them their own way, and the events that add a step (see below): made only
        # when an event asks (most moves' events ask for none, and each set or list made was also freed again)
        rolled: set[str] | frozenset[str] = NO_PIECES
        toppled: set[str] | frozenset[str] = NO_PIECES
        crumbled: set[str] | frozenset[str] = NO_PIECES
        named_areas = False          # events with areas light them up with their phase, or walk after
        # events that add a step of their own to the phase that moves the first piece they name: a score floats up
        # from it, areas light up (looked for once here, not in every phase: a deal's draws are many events)
        showy: list[Event] | None = None
        for e in events:
            kind = e.kind
            if kind == "roll":
                rolled = {*rolled, *e.pieces}
            elif kind == "topple":
                toppled = {*toppled, *e.pieces}
            if kind in CRUMBLE_EVENTS:
                crumbled = {*crumbled, *e.pieces}
            if e.areas:
                named_areas = True
            if e.pieces and (e.areas or e.text and kind == "score"):
                if showy is None:
                    showy = []
                showy.append(e)
        # what the phases move, the sources of carries with them (the dict's own view: nothing changes it now)
        changed = changes.keys()
        # the pieces events move their own way (a die rolled, a piece toppled or crumbled): the others move as usual
        special = rolled | toppled | crumbled if rolled or toppled or crumbled else NO_PIECES
        # the phases one after another, each a Parallel as long as its longest step (the stage's own calls as
        # functions with the stage among their arguments: no bound method made for each); the plain steps of a phase
        # (pieces travelling, dropping in, crumbling away) play as one lerp (see _Phase)
        parts: list[Step] = []
        lit: list[Event] = []      # events whose areas light up with their own phase (the rest walk after)
        d = 0.45 / speed
        seconds = d if d > 0 else 0.0
        d = 0.55 / speed
        carrying = d if d > 0 else 0.0      # a carry's seconds (it travels further than a move)
        for phase in phases:
            together: list[Step] = []
            plain: list[_Bare] | None = None        # the phase's plain steps so far, one after another
            carried: list[_Bare] | None = None      # the phase's carries so far, one after another (as long as each)
            # the usual change: a piece that moved travels in an arc (as _animate would send it); the pieces that do
            # so one after another in a phase travel in one step (see _travel)
            moves: list[tuple[str, Pose, Pose]] = []
            for change in phase:
                action, a, b = change.action, change.old, change.new
                if action == "move" and a is not None and b is not None and change.piece not in special:
                    moves.append((change.piece, a, b))
                    continue
                if action == "carry":
                    # a piece under a new id travels from the old one's place (a plain step of its own length)
                    if moves:
                        plain = _plain_step(plain, self._travel(moves, seconds))
                        moves = []
                    if plain is not None:
                        together.append(_Phase.lerp(plain, seconds))
                        plain = None
                    carried = _plain_step(carried, self._carry_step(change, carrying))
                    continue
                if carried is not None:
                    together.append(_Phase.lerp(carried, carrying))
                    carried = None
                if moves:
                    plain = _plain_step(plain, self._travel(moves, seconds))
                    moves = []
                if b is None or a is None:
                    # an arrival drops in, a departure crumbles away (as _animate sends them)
                    plain = _plain_step(plain, self._drop_step(change.piece, b, seconds) if b is not None
                                        else self._crumble_step(change.piece, seconds))
                    continue
                if action == "flip" and change.piece not in special:
                    plain = _plain_step(plain, self._flip_step(change, seconds))      # (as _animate turns it over)
                    continue
                if action == "restyle" and change.piece not in special:
                    plain = _plain_step(plain, self._restyle_step(change, seconds))   # (as _animate places it)
                    continue
                if plain is not None:
                    together.append(_Phase.lerp(plain, seconds))
                    plain = None
                if change.piece in toppled:
                    step = self._topple(change, speed)
                elif change.piece in rolled:
                    step = self._tumble(change, speed)
                elif change.piece in crumbled:
                    step = self._crumble_away(change, speed)
                else:
                    step = self._animate(change, speed)
                together.append(step)
            if carried is not None:
                together.append(_Phase.lerp(carried, carrying))
            if moves:
                plain = _plain_step(plain, self._travel(moves, seconds))
            if plain is not None:
                together.append(_Phase.lerp(plain, seconds))
            if showy:
                in_phase = {c.piece for c in phase}
                for event in showy:        # a score floats up from the first piece it names, as that piece moves
                    if not event.pieces or event.pieces[0] not in in_phase:
                        continue
                    extra = []
                    if event.kind == "score" and event.text and old_pieces.get(event.pieces[0]) is not None:
                        extra.append(self._float_text(event.text, old_pieces[event.pieces[0]], speed))
                    if event.areas:
                        extra.append(self._light_up(event.areas, new, speed))
                        lit.append(event)
                    for step in extra:
                        together.append(step)
            _add_phase(parts, together)
        if named_areas:
            walk = [e for e in events if e.areas and not any(e is done for done in lit)]
            if walk:
                parts.append(self._scoring_walk(walk, new, speed))
        return _whole(parts, (Stage.uncombine, (self, changed)), (Stage._show_changes, (self, new, shown, changed)))

    def _plain(self, old: Layout, new: Layout, told: tuple[str, ...], events: list[Event], speed: float
               ) -> Sequence | None:
        """`transition` from `old`, which the stage shows, to `new`, which tells what changed since `old`, where every
        piece changed only travels, arrives or leaves and no event moves pieces its own way, scores, lights areas
        or carries a piece under a new id (most moves of a game that tells: a domino placed, a hand closing up, one
        drawn); None for any other move. The very timeline the general path lays out for such a move, laid out
        without what the general path makes for the moves it must tell apart (a Change per piece, the phases as
        lists of them, sets of the pieces of special events): that was most of a small board's update, and a player
        waits for it on every move. tests/test_stage.py plays random moves of every game both ways.
        Written for the interpreter: a dict subscript after a containment test, not a call of get; a sign test, not
        abs(); loops, not comprehensions (each a call here, of a few hundred instructions)."""
        old_pieces, new_pieces = old.pieces, new.pieces
        # what changed, as _told_changes finds it, in its order (arrivals last): piece -> (piece, from, to), None for
        # either end of an arrival or a departure; a piece that travels is given its whole path at once, as _travel
        # works it out (piece, from, to, turn, lift, tilting: the same values, which tests/test_stage.py compares)
        changes: dict[str, tuple] = {}
        arrived: list[str] | None = None
        for pid in told:
            a = old_pieces[pid] if pid in old_pieces else None
            b = new_pieces[pid] if pid in new_pieces else None
            if a is b:
                continue
            if a is None:
                if arrived is None:
                    arrived = []
                arrived.append(pid)
            elif b is None:
                changes[pid] = (pid, a, b)
            elif a.face_up == b.face_up and (not -1e-6 < a.x - b.x < 1e-6 or not -1e-6 < a.y - b.y < 1e-6):
                # (abs(dx) >= 1e-6 or abs(dy) >= 1e-6, as _told_changes asks)
                lift = 10 + hypot(b.x - a.x, b.y - a.y) * 0.3
                tilt = a.tilt - b.tilt
                changes[pid] = (pid, a, b, (b.heading - a.heading + 180.0) % 360.0 - 180.0,
                                lift if lift < 60.0 else 60.0, not -1e-6 <= tilt <= 1e-6)
            else:
                return None     # turned over, or changed where it lies (a fall, a restyle, a turn, or not at all)
        if arrived is not None:
            for pid in arrived:
                changes[pid] = (pid, None, new_pieces[pid])
        # the phases, as _phases makes them: the pieces each event names in turn, then the rest together
        phases: list[list[str]] = []
        placed: set[str] | None = None
        for e in events:
            kind = e.kind
            if e.areas or kind in OWN_WAY_EVENTS or e.text and kind == "score":
                return None     # (what the general path looks for in the events, looked for more broadly)
            phase = None
            for p in e.pieces:
                if p in changes and (placed is None or p not in placed):
                    if phase is None:
                        phase = [p]
                    else:
                        phase.append(p)
            if phase is None:
                continue
            if placed is None:
                placed = set(phase)
            else:
                placed.update(phase)
            if len(phase) > 1:
                leaving = arriving = False
                for p in phase:
                    entry = changes[p]
                    leaving = leaving or entry[2] is None
                    arriving = arriving or entry[1] is None
                if leaving and arriving:
                    return None     # a piece that leaves and one that arrives, named together: a carry
            phases.append(phase)
        if placed is None:
            if changes:
                phases.append(list(changes))
        else:
            rest = []
            for pid in changes:
                if pid not in placed:
                    rest.append(pid)
            if rest:
                phases.append(rest)
        # composed as `transition` composes these phases: each one lerp of d seconds (see _Phase)
        changed = changes.keys()
        parts: list[Step] = []
        d = 0.45 / speed
        seconds = d if d > 0 else 0.0       # (each step's, as a lerp keeps it)
        for phase in phases:
            steps: list[_Bare] = []
            paths: list[Path] | None = None
            for pid in phase:
                entry = changes[pid]
                b = entry[2]
                if entry[1] is not None and b is not None:
                    if paths is None:
                        paths = [entry]
                    else:
                        paths.append(entry)
                    continue
                if paths is not None:
                    steps.append(self._travel_step(paths, seconds))
                    paths = None
                steps.append(self._drop_step(pid, b, seconds) if b is not None else self._crumble_step(pid, seconds))
            if paths is not None:
                steps.append(self._travel_step(paths, seconds))
            parts.append(_Phase.lerp(steps, seconds))
        return _whole(parts, (Stage.uncombine, (self, changed)), (Stage._show_changes, (self, new, old, changed)))

    def _light_up(self, areas: tuple[tuple[str, str], ...], layout: Layout, speed: float,
                  duration: float = 1.4) -> Step:
        """The parts of pieces an event names glow: quickly up, held while the event plays, then fading away."""
        holder = self.root.attachNewNode("lit-areas")
        holder.hide()
        for pid, words in areas:
            pose = layout.pieces.get(pid) or self.poses.get(pid)
            sheet = components.build_area(pose, words) if pose is not None else None
            if sheet is None:
                continue
            sheet.reparentTo(holder)
            sheet.setPos(pose.x, pose.y, pose.z)
            sheet.setH(pose.heading)

        def glow(t, holder=holder):
            holder.show()
            holder.setAlphaScale(min(1.0, t / 0.12, (1.0 - t) / 0.4))
        return seq(lerp(glow, duration / speed), call(holder.removeNode))

    def _scoring_walk(self, events: list[Event], layout: Layout, speed: float) -> Step:
        """Events with areas and nothing moving (the end-game scoring walk): one after another, a little overlapped,
        each area glowing while its points float up from it."""
        walk = par()
        for i, event in enumerate(events):
            pose = layout.pieces.get(event.areas[0][0])
            step = par(self._light_up(event.areas, layout, speed, duration=1.2))
            if event.text and pose is not None:
                step.append(self._float_text(event.text, pose, speed))
            walk.append(seq(wait(0.7 * i / speed), step))
        return walk

    def _float_text(self, words: str, where: Pose, speed: float) -> Step:
        """Words (the points scored) rising from a piece's place and fading, in the table's words ("Ann scores 5",
        not "Player 1 scores 5") and as large as the largest label (a view from afar grows them)."""
        holder = self.root.attachNewNode("float")
        holder.hide()
        holder.setScale(max(self.label_scales.values(), default=1.0))

        def rise(t, holder=holder):
            holder.show()
            holder.setPos(where.x, where.y, where.z + 20 + 50 * t)
            holder.setAlphaScale(1 - t * t)
        shared_text(self.label_words(words), 9, (0.1, 0.08, 0.05, 1), facing="viewer").reparentTo(holder)
        return seq(lerp(rise, 1.2 / speed), call(holder.removeNode))

    def _animate(self, ch: Change, speed: float) -> Step:
        pid = ch.piece
        d = 0.45 / speed
        if ch.action == "arrive":
            assert ch.new is not None       # an arrival has somewhere to land
            return self._drop(pid, ch.new, d)
        if ch.action == "leave":
            return self._crumble(pid, d)
        a, b = ch.old, ch.new
        assert a is not None and b is not None      # arrivals and departures were handled above
        if ch.action == "restyle":
            return call(self._place, pid, b)
        if ch.action == "fall":
            # gravity is t^2 (Panda's "easeIn" blend is a different curve), so a LerpFunc, not a LerpPosInterval
            def fall(t, pid=pid, a=a, b=b):
                self.nodes[pid].setZ(a.z + (b.z - a.z) * t * t)
            return lerp(fall, d * 0.8, first=(self._ensure, (pid, a)), then=(self._place, (pid, b)))
        if ch.action == "flip":
            h = max(size(b.kind).w, size(b.kind).d) / 2

            def turn(t, pid=pid, a=a, b=b, h=h):
                node = self.nodes[pid]
                node.setPos(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                            a.z + (b.z - a.z) * t + h * math.sin(math.pi * t))
                frac = t if b.face_up is False else 1 - t
                self._orient(pid, a if t < 0.5 else b, flip=frac)
            if a.look == b.look:
                return lerp(turn, d, first=(self._ensure, (pid, a)), then=(self._place, (pid, b)))
            return lerp(turn, d, first=(self._ensure_restyled, (pid, a, b)), then=(self._place, (pid, b)))

        return self._arc(pid, a, b, d, first=(self._ensure, (pid, a)))

    def _restyle_step(self, ch: Change, seconds: float) -> "_Restyle":
        """A piece given new faces where it lies, as a plain step (see _Restyle): what `_animate` makes of a
        restyle."""
        step = _Restyle()
        step.seconds, step.stage, step.pid, step.pose, step.begun = seconds, self, ch.piece, ch.new, False
        return step

    def _flip_step(self, ch: Change, seconds: float) -> "_Flip":
        """A piece turned over, as a plain step (see _Flip): what `_animate` makes of a flip."""
        a, b = ch.old, ch.new
        assert a is not None and b is not None      # a flip has both ends
        step = _Flip()
        step.seconds, step.stage, step.pid, step.a, step.b = seconds, self, ch.piece, a, b
        step.h = max(size(b.kind).w, size(b.kind).d) / 2
        step.begun = False
        return step

    def _drop(self, pid: str, pose: Pose, d: float) -> Step:
        """A piece that arrives drops in from above onto `pose`."""
        return _Phase.lerp([self._drop_step(pid, pose, d)], d if d > 0 else 0.0)

    def _drop_step(self, pid: str, pose: Pose, d: float) -> "_Drop":
        step = _Drop()
        step.seconds, step.stage, step.pid, step.pose = d if d > 0 else 0.0, self, pid, pose
        return step

    def _crumble(self, pid: str, d: float) -> Step:
        """A piece that leaves shrinks and fades where it stands, then is taken away."""
        return _Phase.lerp([self._crumble_step(pid, d)], d if d > 0 else 0.0)

    def _crumble_step(self, pid: str, d: float) -> "_Crumble":
        step = _Crumble()
        step.seconds, step.stage, step.pid = d if d > 0 else 0.0, self, pid
        return step

    def _arc(self, pid: str, a: Pose, b: Pose, duration: float, turn_over: bool = False,
             first: tuple | None = None) -> Step:
        """Travel from `a` to `b` in an arc, turning on the way (a pyramid tips over to lie flat as it flies), and be
        placed at `b`; `turn_over`: the piece turns face up or down in flight; `first` as for `lerp`."""
        turn = (b.heading - a.heading + 180.0) % 360.0 - 180.0      # short_turn, inline: one per piece that moves
        tilting = abs(a.tilt - b.tilt) > 1e-6
        lift = min(60.0, 10 + math.hypot(b.x - a.x, b.y - a.y) * 0.3)

        def arc(t, pid=pid, a=a, b=b, turn=turn):
            if t >= 1.0:
                return      # landed: the place that ends the step, in the same frame, lays it exactly as `b`
            node = self.nodes[pid]
            s = t * t * (3 - 2 * t)
            node.setPos(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s,
                        a.z + (b.z - a.z) * s + lift * math.sin(math.pi * t))
            node.setH(a.heading + turn * s)
            if tilting or turn_over:
                flip = None
                if turn_over:
                    flip = s if b.face_up is False else 1 - s
                self._orient(pid, b if t >= 0.5 else a, flip=flip, tilt=a.tilt + (b.tilt - a.tilt) * s)
        return lerp(arc, duration, first, (self._place, (pid, b)))

    def _travel(self, moves: list[tuple[str, Pose, Pose]], duration: float) -> "_Travel":
        """Pieces (piece, from, to) that each travel in an arc, as `_arc` sends one, in one step: each is put where
        it starts as the step starts and placed where it ends as it ends, in their order (a step per piece, with its
        events to lay out and dispatch, cost more than the rest of a move's update: a move on a full board moves
        many pieces, and a hand or a row closing up after a play moves several)."""
        paths: list[Path] = []
        for pid, a, b in moves:
            # (as _plain works them out: the same in both, which tests/test_stage.py compares)
            lift = 10 + math.hypot(b.x - a.x, b.y - a.y) * 0.3
            paths.append((pid, a, b, (b.heading - a.heading + 180.0) % 360.0 - 180.0,     # short_turn, inline
                          lift if lift < 60.0 else 60.0, a.tilt != b.tilt and abs(a.tilt - b.tilt) > 1e-6))
        return self._travel_step(paths, duration)

    def _travel_step(self, paths: list[Path], duration: float) -> "_Travel":
        """The step of `_travel`, of the paths it works out: (piece, from, to, turn, lift, tilting) each."""
        step = _Travel()
        step.seconds, step.stage, step.paths = duration if duration > 0 else 0.0, self, paths
        return step

    def _carry_step(self, ch: Change, seconds: float) -> "_Carry":
        """The piece that left reappears as the one that arrives: it starts where the old one lay, with the old one's
        faces, and travels to its new place (turning over on the way when it is revealed or hidden): see _Carry."""
        a, b = ch.old, ch.new
        assert a is not None and b is not None and ch.source is not None      # a carry has both ends
        step = _Carry()
        lift = 10 + math.hypot(b.x - a.x, b.y - a.y) * 0.3
        step.seconds, step.stage, step.pid, step.src, step.a, step.b = seconds, self, ch.piece, ch.source, a, b
        step.turn = (b.heading - a.heading + 180.0) % 360.0 - 180.0     # short_turn, inline
        step.lift = lift if lift < 60.0 else 60.0
        step.tilting = abs(a.tilt - b.tilt) > 1e-6
        step.turn_over = a.face_up != b.face_up
        step.begun = False
        return step

    def _topple(self, ch: Change, speed: float) -> Step:
        """The last piece of a destroyed stack tips over about an edge of its base where it stood, then travels on to
        where it lies next."""
        a, b, pid = ch.old, ch.new, ch.piece
        assert a is not None and b is not None      # only a piece that stays on the table topples
        half = size(a.kind).d / 2
        fall_to = b.tilt if abs(b.tilt) > 1e-6 else 90.0
        rad = math.radians(a.heading)

        def tip(t, pid=pid, a=a):
            angle = fall_to * t * t            # slow to start, quicker as it goes
            # a positive tilt lays the apex towards the piece's own -y: it pivots about that edge of its base, so the
            # foot slides that way by what the turn moved it
            shift = half * (1 - math.cos(math.radians(angle)))
            node = self.nodes[pid]
            node.setPos(a.x + math.sin(rad) * shift, a.y - math.cos(rad) * shift, a.z)
            self._orient(pid, a, tilt=angle)
        tipped = replace(a, tilt=fall_to)
        return seq(lerp(tip, 0.5 / speed, first=(self._ensure, (pid, a))),
                   self._arc(pid, replace(tipped, x=a.x + math.sin(rad) * half, y=a.y - math.cos(rad) * half),
                             b, 0.45 / speed))

    def _crumble_away(self, ch: Change, speed: float) -> Step:
        """A piece destroyed in place: it shakes, shrinks and fades where it stood, then drops onto its discard spot."""
        a, b, pid = ch.old, ch.new, ch.piece

        def crumble(t, pid=pid, a=a):
            if t >= 1.0:
                return      # crumbled: the place that ends the step, in the same frame, sets all this again
            node = self.nodes[pid]
            jitter = 1.2 * math.sin(t * 60) * (1 - t)
            node.setPos(a.x + jitter, a.y - jitter, a.z - 3 * t)
            node.setScale(max(0.05, 1 - 0.9 * t), max(0.05, 1 - 0.9 * t), max(0.05, 1 - 0.6 * t))
            node.setTransparency(TransparencyAttrib.MAlpha)
            node.setColorScale(1, 0.9, 0.8, 1 - t)

        def land(t, pid=pid, b=b):
            node = self.nodes[pid]
            node.setZ(b.z + 80 * (1 - t) ** 2)
            if t >= 1.0:
                node.clearTransparency()    # landed whole: drawn opaque again, as a fresh table draws it
        return seq(lerp(crumble, 0.6 / speed, first=(self._ensure, (pid, a)), then=(self._place, (pid, b))),
                   lerp(land, 0.3 / speed, ends=True))

    def _tumble(self, ch: Change, speed: float) -> Step:
        """A die roll: the die hops and spins, then lands showing its new face."""
        a, b = ch.old, ch.new

        def spin(t, pid=ch.piece, a=a, b=b):
            node = self.nodes[pid]
            node.setPos(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t + 40 * math.sin(math.pi * t))
            node.setHpr(a.heading + 720 * t, 540 * t, 360 * t)
        return lerp(spin, 0.7 / speed, first=(self._ensure, (ch.piece, a)), then=(self._place, (ch.piece, b)))

    def _ensure(self, pid: str, pose: Pose) -> None:
        if pid not in self.nodes or pid not in self.models:
            self._place(pid, pose)

    def _ensure_restyled(self, pid: str, pose: Pose, faces: Pose) -> None:
        """A piece about to turn over: placed at `pose` if it has no node yet, then given the faces of `faces`."""
        self._ensure(pid, pose)
        self._restyle_keep(pid, faces)

    def _restyle_keep(self, pid: str, pose: Pose) -> None:
        """New faces (a revealed tile) before the turn-over animation, keeping the current orientation."""
        cur = self.poses.get(pid)
        self._restyle(pid, pose)
        if cur is not None:
            self._orient(pid, cur)
            if cur.kind == pose.kind:
                # what the stage shows now: the old place and turn with the new faces (a show of the old layout, a
                # seek back mid-turn, sees faces to put back)
                self.poses[pid] = replace(cur, look=pose.look)

    def _rename(self, old: str, new: str) -> bool:
        """The node, model and place of piece `old` become `new`'s (a card carried from a hand to the discards under
        another id keeps its node: a node taken away and another made cost more than the rest of the move). Only a
        plain piece is renamed: not a target, nor one faded, ghosted or labelled, whose marks name `old`."""
        node = self.nodes.get(old)
        if node is None or new in self.nodes or old not in self.models or old in self.targets or \
                old in self.xray_depth or old in self.memory_tags or old in self.hidden or \
                node.hasTag("xray") or node.hasTag("ghost") or node.hasTag("glass"):
            return False
        del self.nodes[old]
        self.nodes[new] = node
        node.setName(new)
        node.setTag("piece", new)
        node.setPythonTag("piece", new)
        self.models[new] = self.models.pop(old)
        if old in self.poses:
            self.poses[new] = self.poses.pop(old)
        if old in self.turned:
            self.turned[new] = self.turned.pop(old)
        return True

    def _remove(self, pid: str) -> None:
        node = self.nodes.pop(pid, None)
        if pid in self.hidden:
            self.hidden_matches_chunks = False
        model = self.models.pop(pid, None)
        self.turned.pop(pid, None)
        self.poses.pop(pid, None)
        if node is None:
            return
        # only a plain piece's node is kept (as in _rename: nothing else names it, it carries no mark or label); an
        # x-ray tag exists only while the x-ray looks (see_from(None) takes every one away), so only then is it asked
        if model is not None and len(self.spare_pieces) < SPARE_PIECES and not model.isEmpty() and \
                pid not in self.targets and pid not in self.xray_depth and pid not in self.memory_tags and \
                pid not in self.hidden and not (self.eye is not None and node.hasTag("xray")) and \
                not (self.cut_tags and (node.hasTag("ghost") or node.hasTag("glass"))) and \
                not node.isHidden():      # (one a physical crumble hid, say)
            node.detachNode()
            self.spare_pieces.append((node, model))
        else:
            node.removeNode()


def _shadow_caster(drawn: NodePath) -> PandaNode:
    """What `drawn` (flattened geometry) casts as a shadow: its geoms with no state of their own (no texture, colour
    or shader input: the shadow camera draws depth alone), flattened into as few as their vertex formats allow, drawn
    by the shadow camera only."""
    caster = NodePath("shadow-caster")
    for path in drawn.findAllMatches("**/+GeomNode"):
        if path.isHidden(SHADOW_MASK):
            continue        # (what casts no shadow where it is drawn: a memory aid's label)
        source = path.node()
        plain = GeomNode("caster")
        empty = RenderState.makeEmpty()
        for i in range(source.getNumGeoms()):
            plain.addGeom(source.getGeom(i).makeCopy(), empty)
        caster.attachNewNode(plain).setTransform(path.getTransform(drawn))
    caster.flattenStrong()
    # drawn by no camera but those that draw only the shadow camera's bits (Panda's overall bit, among the others,
    # would hide it from every camera)
    caster.hide(BitMask32.allOn() & ~SHADOW_MASK & ~PandaNode.getOverallBit())
    return caster.node()


def _add_phase(parts: list[Step], together: list[Step]) -> None:
    """A phase goes into the move's steps: nothing for no step, the step itself for one, else a Parallel of them,
    where lerps one after another in it that last as long play as one (_fused)."""
    if len(together) > 1:
        together = _fused(together)
    if len(together) == 1:
        parts.append(together[0])
    elif together:
        parts.append(Parallel(*together))


def _fused(together: list[Step]) -> list[Step]:
    """Steps of a Parallel with each run of lerps (timeline.lerp's: t from 0 to 1) that last as long made one lerp
    that calls their functions in their order: at every moment a Parallel calls each with the same t, in that order
    (cards carried together from a hand: a lerp each, a Panda interval each to make, start and end)."""
    out: list[Step] = []
    run: list[Step] = []
    for step in together + [None]:
        if step is not None and isinstance(step, LerpFunc) and run and step.getDuration() == run[0].getDuration():
            run.append(step)
            continue
        if len(run) > 1:
            steps: list = []
            for lerp_ in run:
                owner = getattr(lerp_.function, "__self__", None)
                if isinstance(owner, _Phase) and owner.first is None and owner.then is None:
                    steps += owner.steps
                else:
                    held = _Fn()
                    held.fn = lerp_.function
                    steps.append(held)
            out.append(_Phase.lerp(steps, run[0].getDuration()))
        else:
            out += run
        run = [step] if isinstance(step, LerpFunc) else []
        if step is not None and not run:
            out.append(step)
    return out


class _Fn:
    """A lerp's function among the steps of a _Phase (which calls each step's `fn`)."""
    __slots__ = ("fn",)


def _plain_step(steps: list | None, step: "_Bare") -> list:
    """`step` after the plain steps of a phase so far (None for none yet)."""
    if steps is None:
        return [step]
    steps.append(step)
    return steps


def _whole(parts: list[Step], first: tuple, then: tuple) -> Sequence:
    """A move's steps in the one Sequence it plays, with `first` (function, args) called as it starts and `then` as
    it ends: by the lerp that starts it (the first of a Parallel that does) and the one that ends it, where those are
    the stage's own (a call of their own, each a Panda interval to make, start and end, cost more than a small
    board's whole move), else by calls around them."""
    if not parts:
        # nothing moves (nothing to uncombine): the end alone, called by a lerp of no length (a Func, with the weak
        # reference Panda keeps of each, cost three times as much to make, and its start and end twice a lerp's)
        return Sequence(lerp(_still, 0.0, then=then), name="stage-transition")
    head = parts[0]
    while isinstance(head, (Parallel, Sequence)) and head.ivals:
        head = head.ivals[0]        # (what starts first: a Parallel's first, at its very moment, or a Sequence's)
    ends = _ends_of(head)
    if ends is None:
        parts.insert(0, Func(first[0], *first[1]))
    else:
        ends.first = first if ends.first is None else (_both, (first, ends.first))
    ends = _ends_of(_ends_last(parts[-1]))
    if ends is None:
        parts.append(Func(then[0], *then[1]))
    else:
        ends.then = then if ends.then is None else (_both, (ends.then, then))
    return Sequence(*parts, name="stage-transition")


def _ends_of(step: Step):
    """The object whose method is a lerp's function, where it calls something as the lerp starts and once it has
    ended (a _Phase, or timeline's lerp with first or then), else None."""
    if not isinstance(step, LerpFunc):
        return None
    owner = getattr(step.function, "__self__", None)
    return owner if hasattr(owner, "begun") else None


def _ends_last(step: Step) -> Step | None:
    """What ends after everything else in `step` has: a Sequence's last, recursively; the one of a Parallel that
    lasts longer than all the others (Panda ends a Parallel's steps in the order they end), None where two last as
    long; else the step itself."""
    while isinstance(step, (Parallel, Sequence)) and step.ivals:
        if isinstance(step, Sequence):
            step = step.ivals[-1]
            continue
        longest, second = None, -1.0
        for child in step.ivals:
            seconds = child.getDuration()
            if longest is None or seconds > longest.getDuration():
                if longest is not None:
                    second = longest.getDuration()
                longest = child
            elif seconds > second:
                second = seconds
        if longest is None or second >= longest.getDuration():
            return None
        step = longest
    return step


def _still(t: float) -> None:
    """A lerp's function that does nothing (the one of a move that changes nothing: see _whole)."""


def _both(one: tuple, other: tuple) -> None:
    """Call one (function, args), then the other."""
    one[0](*one[1])
    other[0](*other[1])


class _Bare:
    """What a lerp of the stage's own moves (its `fn`, a method, is the LerpFunc's function), calling nothing as it
    starts or after it ends, played in a _Phase. Made bare, its fields set by its maker (Stage._travel_step,
    _drop_step and _crumble_step)."""
    __slots__ = ("seconds",)


class _Phase:
    """The plain steps of a phase (pieces that travel, drop in or crumble away, all as long), played as one lerp:
    each step's function called in their order at every moment, as a Parallel of a lerp each would call them. The
    phase that starts a move calls `first` (function, args) as it begins, and the one that ends it `then` once it has
    ended, in place of calls of their own in the move's Sequence; `first` again after an end, as a call before it
    would be once the move is played again."""
    __slots__ = ("seconds", "steps", "first", "then", "begun")

    @staticmethod
    def lerp(steps: list[_Bare], seconds: float) -> Step:
        phase = _Phase()
        phase.seconds, phase.steps, phase.first, phase.then, phase.begun = seconds, steps, None, None, False
        return lerp(phase.fn, seconds)

    def fn(self, t: float) -> None:     # (the lerp's function, as a method)
        if not self.begun:
            self.begun = True
            if self.first is not None:
                self.first[0](*self.first[1])
        for step in self.steps:
            step.fn(t)
        if t >= 1.0:
            self.begun = False
            if self.then is not None:
                self.then[0](*self.then[1])


class _Travel(_Bare):
    """The step of Stage._travel: each piece carried along its arc frame by frame (put where it starts first, where
    it has no node or model), and placed where it ends as the step ends, in their order. A step of its own class, not
    a lerp of a closure: the closure, the defaults it holds and the bound method its start called were made on every
    move, and freed on the next. A move jumped over places its pieces where they end and nowhere else (a call as the
    step started, to put a piece without a node where it starts, was as dear as the landing)."""
    __slots__ = ("stage", "paths")

    def fn(self, t: float) -> None:     # (the lerp's function, as a method)
        stage = self.stage
        if t >= 1.0:
            # landed: each is placed exactly as it ends, in their order, by the step's end itself (a call after it, as
            # `then`, was two tuples more a step)
            place = stage._place
            for pid, _, b, _, _, _ in self.paths:
                place(pid, b)
            return
        nodes, models = stage.nodes, stage.models
        s = t * t * (3 - 2 * t)
        up = math.sin(math.pi * t)
        for pid, a, b, turn, lift, tilting in self.paths:
            node = nodes.get(pid)
            if node is None or pid not in models:
                stage._place(pid, a)
                node = nodes[pid]
            node.setPos(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s, a.z + (b.z - a.z) * s + lift * up)
            node.setH(a.heading + turn * s)
            if tilting:
                stage._orient(pid, b if t >= 0.5 else a, tilt=a.tilt + (b.tilt - a.tilt) * s)


class _Carry(_Bare):
    """The step of Stage._carry_step: one thing under two ids (a card that was a back in a hand and lies face up on
    the discards) travels in an arc, as _arc sends a piece, from where the piece that left lay. As it starts, the
    node of the one that left becomes the arriving one's (see Stage._rename) and shows its new faces, lying as the
    old one lay; it is placed where it ends as the step ends. A carry jumped over (a hurried player's move, a seek
    past it) takes the node over and places it where it ends, and nowhere else: putting it where it starts, with new
    faces to turn over, cost as much as the landing. Its start is made again when it plays again after its end."""
    __slots__ = ("stage", "pid", "src", "a", "b", "turn", "lift", "tilting", "turn_over", "begun")

    def start(self) -> None:
        stage, pid, a, b = self.stage, self.pid, self.a, self.b
        if not stage._rename(self.src, pid):
            stage._remove(self.src)
        if a.look != b.look and a.kind == b.kind:
            # the new faces at once, lying as the old one lay
            stage._place(pid, shared_pose(a.kind, a.x, a.y, a.z, a.heading, a.face_up, b.look, a.tilt))
        else:
            stage._place(pid, a)
            if a.look != b.look:
                stage._restyle_keep(pid, b)

    def fn(self, t: float) -> None:     # (the lerp's function, as a method)
        stage, pid = self.stage, self.pid
        if t >= 1.0:
            if not self.begun and not stage._rename(self.src, pid):      # (jumped over: see the class)
                stage._remove(self.src)
            self.begun = False
            stage._place(pid, self.b)
            return
        if not self.begun:
            self.begun = True
            self.start()
        a, b = self.a, self.b
        node = stage.nodes[pid]
        s = t * t * (3 - 2 * t)
        node.setPos(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s,
                    a.z + (b.z - a.z) * s + self.lift * math.sin(math.pi * t))
        node.setH(a.heading + self.turn * s)
        if self.tilting or self.turn_over:
            flip = None
            if self.turn_over:
                flip = s if b.face_up is False else 1 - s
            stage._orient(pid, b if t >= 0.5 else a, flip=flip, tilt=a.tilt + (b.tilt - a.tilt) * s)


class _Restyle(_Bare):
    """The step of Stage._restyle_step: a piece placed with its new faces as its phase starts (a call of its own at
    that moment, a Panda interval to make, start and end, parted the lerps of its phase that would play as one);
    placed again as the phase ends only where a jump passed over its start. Placed again when it plays again after
    its end."""
    __slots__ = ("stage", "pid", "pose", "begun")

    def fn(self, t: float) -> None:     # (the lerp's function, as a method)
        if not self.begun:
            self.begun = True
            self.stage._place(self.pid, self.pose)
        if t >= 1.0:
            self.begun = False


class _Flip(_Bare):
    """The step of Stage._flip_step: a piece turns over an edge, rising by half its longer side on the way, and is
    placed where it ends as the step ends. As it starts it is put where it starts, where it has no node, and given
    its new faces (lying as the old ones lay) where they change. A flip jumped over is placed where it ends and
    nowhere else (its new faces given once, by that place); its start is made again when it plays again after its
    end."""
    __slots__ = ("stage", "pid", "a", "b", "h", "begun")

    def fn(self, t: float) -> None:     # (the lerp's function, as a method)
        stage, pid, a, b = self.stage, self.pid, self.a, self.b
        if t >= 1.0:
            self.begun = False
            stage._place(pid, b)
            return
        if not self.begun:
            self.begun = True
            if a.look == b.look:
                stage._ensure(pid, a)
            else:
                stage._ensure_restyled(pid, a, b)
        node = stage.nodes[pid]
        node.setPos(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                    a.z + (b.z - a.z) * t + self.h * math.sin(math.pi * t))
        stage._orient(pid, a if t < 0.5 else b, flip=t if b.face_up is False else 1 - t)


class _Drop(_Bare):
    """The step of Stage._drop: a piece that arrives drops in from above onto its pose (a class of its own, as
    _Travel is, not a closure made and freed every move that draws a piece)."""
    __slots__ = ("stage", "pid", "pose")

    def fn(self, t: float) -> None:     # (the lerp's function, as a method)
        stage, pid, pose = self.stage, self.pid, self.pose
        if pid not in stage.models or stage.poses.get(pid) != pose:
            stage._place(pid, pose)
            if t >= 1.0:
                return      # placed just now where it lands (as a hurried player's move is)
        stage.nodes[pid].setZ(pose.z + 120 * (1 - t) ** 2)


class _Crumble(_Bare):
    """The step of Stage._crumble: a piece that leaves shrinks and fades where it stands, then is taken away as the
    step ends (by its own function at its end, not by a `then` of a bound method and two tuples)."""
    __slots__ = ("stage", "pid")

    def fn(self, t: float) -> None:     # (the lerp's function, as a method)
        if t >= 1.0:
            self.stage._remove(self.pid)
            return
        node = self.stage.nodes.get(self.pid)
        if node is not None:
            node.setScale(max(0.01, 1 - t))
            node.setColorScale(1, 1, 1, 1 - t)
            node.setTransparency(TransparencyAttrib.MAlpha)
