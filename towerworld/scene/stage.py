"""The stage: one NodePath per piece id, placed from a Layout, animated from the diff of two layouts.

Games never move nodes. `plan(old, new, events)` is a pure diff (testable without a window); `transition` turns the
plan into one Panda3D interval: what the events name happens first, in their order (a tile disintegrates, then the pawn
falls, then the tiles above settle); pieces that only went down fall with gravity, turned pieces flip over an edge,
removed ones crumble away, new ones drop in, others travel in an arc.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from direct.interval.IntervalGlobal import Func, LerpFunc, Parallel, Sequence
from panda3d.core import BitMask32, NodePath, TransparencyAttrib, Vec4

from towerworld.engine.game import Event
from towerworld.engine.layout import Cell, Layout, Pose
from towerworld.engine.pieces import size
from towerworld.scene import components
from towerworld.scene.camera import LABEL_EM
from towerworld.scene.components.shapes import box, text

CRUMBLE_EVENTS = {"remove", "disintegrate", "destroy"}   # named pieces crumble where they stood, then go aside
HIGHLIGHT_TARGET = (0.2, 0.9, 0.35, 0.45)
HIGHLIGHT_PICKED = (1.0, 0.8, 0.1, 0.5)
HIGHLIGHT_HOVER = (0.5, 0.8, 1.0, 0.3)
COMBINE_FROM = 80      # a layout with at least this many pieces draws its resting pieces combined (a grown board)


def short_turn(start: float, end: float) -> float:
    """The signed turn in degrees from `start` to `end` the short way round (+90, never -270)."""
    return (end - start + 180.0) % 360.0 - 180.0


@dataclass(frozen=True)
class Change:
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
    if a == b:
        return None
    same_place = abs(a.x - b.x) < 1e-6 and abs(a.y - b.y) < 1e-6
    if a.face_up != b.face_up:
        return "flip"
    if same_place and abs(a.heading - b.heading) < 1e-6 and abs(a.z - b.z) < 1e-6:
        return "restyle"
    if same_place and b.z < a.z and abs(a.heading - b.heading) < 1e-6:
        return "fall"
    return "move"


def plan(old: Layout | None, new: Layout, events: list[Event] = ()) -> list[list[Change]]:
    """Phases of changes: the pieces named by each event in event order, then everything else together."""
    old_pieces = old.pieces if old else {}
    changes: dict[str, Change] = {}
    for pid in list(old_pieces) + [p for p in new.pieces if p not in old_pieces]:
        action = _classify(pid, old_pieces.get(pid), new.pieces.get(pid))
        if action:
            changes[pid] = Change(pid, action, old_pieces.get(pid), new.pieces.get(pid))
    phases: list[list[Change]] = []
    placed: set[str] = set()
    for event in events:
        phase = [changes[p] for p in event.pieces if p in changes and p not in placed]
        placed.update(c.piece for c in phase)
        phase = _carry(phase)
        if phase:
            phases.append(phase)
    rest = [c for pid, c in changes.items() if pid not in placed]
    # what was not named: moves and arrivals together, then whatever only fell settles last
    first = [c for c in rest if c.action != "fall"]
    last = [c for c in rest if c.action == "fall"]
    phases += [p for p in (first, last) if p]
    return phases


def _carry(phase: list[Change]) -> list[Change]:
    """One thing under two ids (a card that was a back in a hand and lies face up on the discards): among the pieces
    one event names, the k-th that leaves and the k-th that arrives are the same piece travelling."""
    leaving = [c for c in phase if c.action == "leave"]
    arriving = [c for c in phase if c.action == "arrive"]
    pairs = dict(zip((c.piece for c in arriving), leaving))
    out = []
    for c in phase:
        if c.action == "arrive" and c.piece in pairs:
            src = pairs[c.piece]
            out.append(Change(c.piece, "carry", src.old, c.new, src.piece))
        elif not (c.action == "leave" and any(src is c for src in pairs.values())):
            out.append(c)
    return out


class Stage:
    def __init__(self, parent: NodePath):
        self.root = parent.attachNewNode("stage")
        self.pieces_root = self.root.attachNewNode("pieces")
        self.cells_root = self.root.attachNewNode("cells")
        self.labels_root = self.root.attachNewNode("labels")
        self.nodes: dict[str, NodePath] = {}
        self.models: dict[str, NodePath] = {}
        self.poses: dict[str, Pose] = {}
        self.cells: dict[str, NodePath] = {}
        self.layout: Layout | None = None
        self.show_hidden = False   # memory aid: label face-down pieces whose faces were seen
        self.memory_tags: dict[str, NodePath] = {}    # the piece each memory label hangs on -> the label
        self.targets: dict[str, tuple] = {}
        self.combined: NodePath | None = None
        self.ghosts_root = self.root.attachNewNode("ghosts")
        self.ghosts_root.setCollideMask(BitMask32.allOff())
        self.ghost_poses: dict[str, Pose] = {}

    # ---- placing -------------------------------------------------------------------------------------------------------
    def show(self, layout: Layout) -> None:
        """Place every piece at once (no animation); reuses nodes whose id survives."""
        for pid in [p for p in self.nodes if p not in layout.pieces]:
            self.nodes.pop(pid).removeNode()
            self.models.pop(pid, None)
            self.poses.pop(pid, None)
        for pid, pose in layout.pieces.items():
            if self.poses.get(pid) != pose or pid not in self.models:   # untouched pieces stay as they are
                self._place(pid, pose)
        self._sync_cells(layout.cells)
        if self.layout is None or self.layout.labels != layout.labels:
            self._sync_labels(layout)
        self.layout = layout
        self._sync_memory()
        self.combine()

    # ---- ghosts: where a move being made would put pieces ------------------------------------------------------------
    def show_ghosts(self, poses: dict[str, Pose]) -> None:
        """Translucent copies of pieces at the given poses (the real pieces stay where they are); {} clears them."""
        if poses == self.ghost_poses:
            return
        self.ghosts_root.getChildren().detach()
        self.ghost_poses = dict(poses)
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
        """Draw a big layout's resting pieces as one flattened copy (a few draw calls instead of one per piece).

        The per-piece nodes stay where they are, their models hidden, so picking, highlights and animation still
        work on them; highlighted, ghosted and glass pieces stay out of the copy and draw themselves. Anything that
        moves or restyles pieces calls `uncombine` first; `show` combines again at the end.
        """
        self.uncombine()
        if len(self.nodes) < COMBINE_FROM:
            return
        combined = self.root.attachNewNode("combined")
        resting = [pid for pid, node in self.nodes.items()
                   if pid in self.models and pid not in self.targets and not node.hasTag("ghost")
                   and not node.hasTag("glass")]
        for pid in resting:
            copy = self.nodes[pid].copyTo(combined)
            copy.clearTag("piece")
            copy.clearPythonTag("piece")
        combined.flattenStrong()
        combined.setCollideMask(BitMask32.allOff())     # clicks go to the per-piece nodes
        for pid in resting:
            self.models[pid].hide()
        self.combined = combined

    def uncombine(self) -> None:
        if self.combined is None:
            return
        self.combined.removeNode()
        self.combined = None
        for model in self.models.values():
            model.show()

    def reset(self, pids) -> None:
        """Put these pieces' nodes back exactly on their recorded poses (after something else moved them: physics)."""
        for pid in pids:
            if pid in self.poses and pid in self.nodes:
                self._place(pid, self.poses[pid])

    def _holder(self, pid: str) -> NodePath:
        node = self.nodes.get(pid)
        if node is None:
            node = self.pieces_root.attachNewNode(pid)
            node.setPythonTag("piece", pid)
            node.setTag("piece", pid)
            self.nodes[pid] = node
        return node

    def _place(self, pid: str, pose: Pose) -> None:
        node = self._holder(pid)
        old = self.poses.get(pid)
        if old is None or old.look != pose.look or old.kind != pose.kind or pid not in self.models:
            self._restyle(pid, pose)
        node.setPos(pose.x, pose.y, pose.z)
        node.setHpr(pose.heading, 0, 0)
        node.setScale(1)
        node.clearColorScale()
        self._orient(pid, pose)
        self.poses[pid] = pose
        self._ghost(pid, pose)

    def _sync_memory(self) -> None:
        """The memory aid: face-down pieces whose faces were seen (their looks are known) are named on one label per
        stack, a line each from the top down, standing over the stack's top: the labels of pieces lying one on
        another never overlap (a label each, a storey apart, would). The label hangs on the lowest piece it names,
        so it moves with the stack and is hidden only when every piece it names is lifted away."""
        for tag in self.memory_tags.values():
            if not tag.isEmpty():
                tag.removeNode()
        self.memory_tags = {}
        if not self.show_hidden:
            return
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
            if not named:
                continue
            named.sort(reverse=True)
            top = max(self.poses[pid].top for pid in members)
            lowest_z, _, lowest = named[-1]
            tag = text("\n".join(words for _, words, _ in named), 7, (0.15, 0.1, 0.4, 1), (0, 0, top - lowest_z + 5),
                       facing="viewer", standing=True)
            tag.setName("memory")
            tag.reparentTo(self.nodes[lowest])
            self.memory_tags[lowest] = tag

    def set_cutaway(self, height: float | None, kinds: tuple[str, ...] = ()) -> None:
        """Lift away the stack pieces (of `kinds`) lying at or above `height`, so what is inside a tower shows."""
        self.cut = (height, tuple(kinds)) if height is not None else None
        for pid, pose in self.poses.items():
            self._ghost(pid, pose)
        if self.combined is not None:
            self.combine()

    def _ghost(self, pid: str, pose: Pose) -> None:
        node = self.nodes[pid]
        cut = getattr(self, "cut", None)
        ghost = cut is not None and pose.kind in cut[1] and pose.z >= cut[0] - 0.01
        if ghost and pid in self.targets:
            # a lifted-away piece that is a legal target (the tile above, to climb to) shows as glass, clickable
            node.show()
            node.clearTag("ghost")
            node.setTransparency(TransparencyAttrib.MAlpha)
            node.setColorScale(1, 1, 1, 0.45)
            node.setTag("glass", "1")
            return
        if node.hasTag("glass"):
            node.clearTag("glass")
            node.clearColorScale()
        if ghost:
            # hidden, not translucent: faces seen through several glass storeys do not read
            node.hide()
            node.setTag("ghost", "1")
        elif node.hasTag("ghost"):
            node.clearTag("ghost")
            node.show()

    def set_memory_aid(self, on: bool) -> None:
        self.show_hidden = on
        self._sync_memory()
        if self.combined is not None:
            self.combine()

    def _restyle(self, pid: str, pose: Pose) -> None:
        node = self._holder(pid)
        if pid in self.models:
            self.models.pop(pid).removeNode()
        m = components.build(pose)
        m.reparentTo(node)
        self.models[pid] = m

    def _orient(self, pid: str, pose: Pose, flip: float | None = None) -> None:
        """Face-down pieces lie turned over about their own y axis; `flip` in [0, 1] is part way through a turn."""
        turn = (0.0 if pose.face_up else 180.0) if flip is None else flip * 180.0
        components.orient(self.models[pid], pose, turn)

    def _sync_cells(self, cells: dict[str, Cell]) -> None:
        for cid in [c for c in self.cells if c not in cells]:
            self.cells.pop(cid).removeNode()
        for cid, cell in cells.items():
            node = self.cells.get(cid)
            if node is None:
                # one unit box for every cell, scaled: no geometry is built per cell or per move
                node = self._unit_cell().copyTo(self.cells_root)
                node.setScale(cell.w, cell.d, 0.6)
                node.setTag("cell", cid)
                node.setPythonTag("cell", cid)
                node.setTransparency(TransparencyAttrib.MAlpha)
                node.setDepthOffset(1)
                self.cells[cid] = node
            node.setPos(cell.x, cell.y, cell.z + 0.05)
            node.setColorScale(1, 1, 1, 0)

    _UNIT_CELL: NodePath | None = None

    @classmethod
    def _unit_cell(cls) -> NodePath:
        if cls._UNIT_CELL is None:
            cls._UNIT_CELL = box(1.0, 1.0, 1.0, (1, 1, 1, 1))
        return cls._UNIT_CELL

    def _sync_labels(self, layout: Layout) -> None:
        self.labels_root.getChildren().detach()
        for _lid, (x, y, z, words) in layout.labels.items():
            text(words, LABEL_EM, (0.1, 0.1, 0.1, 1), (x, y, z), facing="viewer").reparentTo(self.labels_root)

    # ---- highlighting -----------------------------------------------------------------------------------------------
    def highlight(self, targets: dict[str, tuple]) -> None:
        """targets: piece or cell id -> rgba highlight. Everything else is cleared."""
        self.targets = dict(targets)
        for pid, node in self.nodes.items():
            if pid in targets:
                node.setShaderInput("highlight", Vec4(*targets[pid]))
            else:
                node.clearShaderInput("highlight")
        for cid, node in self.cells.items():
            if cid in targets:
                r, g, b, a = targets[cid]
                node.setColorScale(r, g, b, min(0.75, a + 0.2))
            else:
                node.setColorScale(1, 1, 1, 0)
        if getattr(self, "cut", None) is not None:
            for pid, pose in self.poses.items():
                self._ghost(pid, pose)
        if self.combined is not None or len(self.nodes) >= COMBINE_FROM:
            self.combine()

    # ---- animating ------------------------------------------------------------------------------------------------------
    def transition(self, old: Layout | None, new: Layout, events: list[Event] = (), speed: float = 1.0,
                   physics: bool = False):
        """One interval from `old` to `new`. Its end is exactly `show(new)`. With `physics`, pieces the rules break
        or drop move under Bullet for a moment first (scene/physics.py), then everything snaps onto `new`."""
        if self.layout is None and old is not None:
            self.show(old)
        if physics and (old is not None or self.layout is not None):
            from towerworld.scene.physics import crumble_interval
            crumble = crumble_interval(self, old if old is not None else self.layout, new, events, speed=speed)
            if crumble is not None:
                return Sequence(Func(self.uncombine), crumble, Func(self.show, new), name="stage-transition")
        phases = plan(old if old is not None else self.layout, new, events)
        old_pieces = (old if old is not None else self.layout or Layout()).pieces
        rolled = {pid for e in events if e.kind == "roll" for pid in e.pieces}
        toppled = {pid for e in events if e.kind == "topple" for pid in e.pieces}
        crumbled = {pid for e in events if e.kind in CRUMBLE_EVENTS for pid in e.pieces}
        seq = Sequence(Func(self.uncombine), name="stage-transition")
        for phase in phases:
            par = Parallel()
            for change in phase:
                if change.action == "carry":
                    par.append(self._carry(change, speed))
                elif change.piece in toppled and change.new is not None and change.old is not None:
                    par.append(self._topple(change, speed))
                elif change.piece in rolled and change.new is not None and change.old is not None:
                    par.append(self._tumble(change, speed))
                elif change.piece in crumbled and change.new is not None and change.old is not None:
                    par.append(self._crumble_away(change, speed))
                else:
                    par.append(self._animate(change, speed))
            seq.append(par)
            for event in events:       # a score floats up from the first piece it names, as that piece moves
                if event.kind == "score" and event.text and event.pieces and \
                        event.pieces[0] in {c.piece for c in phase} and old_pieces.get(event.pieces[0]) is not None:
                    par.append(self._float_text(event.text, old_pieces[event.pieces[0]], speed))
        seq.append(Func(self.show, new))
        return seq

    def _float_text(self, words: str, where: Pose, speed: float):
        """Words (the points scored) rising from a piece's place and fading."""
        holder = self.root.attachNewNode("float")
        holder.hide()

        def rise(t, holder=holder):
            holder.show()
            holder.setPos(where.x, where.y, where.z + 20 + 50 * t)
            holder.setAlphaScale(1 - t * t)
        text(words, 9, (0.1, 0.08, 0.05, 1), facing="viewer").reparentTo(holder)
        return Sequence(LerpFunc(rise, fromData=0.0, toData=1.0, duration=1.2 / speed), Func(holder.removeNode))

    def _animate(self, ch: Change, speed: float):
        pid = ch.piece
        d = 0.45 / speed
        if ch.action == "arrive":
            pose = ch.new

            def drop(t, pid=pid, pose=pose):
                if pid not in self.models or self.poses.get(pid) != pose:
                    self._place(pid, pose)
                self.nodes[pid].setZ(pose.z + 120 * (1 - t) ** 2)
            return LerpFunc(drop, fromData=0.0, toData=1.0, duration=d)
        if ch.action == "leave":
            def crumble(t, pid=pid):
                node = self.nodes.get(pid)
                if node is not None:
                    node.setScale(max(0.01, 1 - t))
                    node.setColorScale(1, 1, 1, 1 - t)
                    node.setTransparency(TransparencyAttrib.MAlpha)
            return Sequence(LerpFunc(crumble, fromData=0.0, toData=1.0, duration=d), Func(self._remove, pid))
        a, b = ch.old, ch.new
        assert a is not None and b is not None      # arrivals and departures were handled above
        if ch.action == "restyle":
            return Func(self._place, pid, b)
        if ch.action == "fall":
            # gravity is t^2 (Panda's "easeIn" blend is a different curve), so a LerpFunc, not a LerpPosInterval
            def fall(t, pid=pid, a=a, b=b):
                self.nodes[pid].setZ(a.z + (b.z - a.z) * t * t)
            return Sequence(Func(self._ensure, pid, a), LerpFunc(fall, fromData=0.0, toData=1.0, duration=d * 0.8),
                            Func(self._place, pid, b))
        if ch.action == "flip":
            h = max(size(b.kind).w, size(b.kind).d) / 2

            def turn(t, pid=pid, a=a, b=b, h=h):
                node = self.nodes[pid]
                node.setPos(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                            a.z + (b.z - a.z) * t + h * math.sin(math.pi * t))
                frac = t if b.face_up is False else 1 - t
                self._orient(pid, a if t < 0.5 else b, flip=frac)
            restyle_first = a.look != b.look
            steps = [Func(self._ensure, pid, a)]
            if restyle_first:
                steps.append(Func(self._restyle_keep, pid, b))
            steps += [LerpFunc(turn, fromData=0.0, toData=1.0, duration=d), Func(self._place, pid, b)]
            return Sequence(*steps)

        return Sequence(Func(self._ensure, pid, a), self._arc(pid, a, b, d), Func(self._place, pid, b))

    def _arc(self, pid: str, a: Pose, b: Pose, duration: float, turn_over: bool = False):
        """Travel from `a` to `b` in an arc, turning on the way (a pyramid tips over to lie flat as it flies);
        `turn_over`: the piece turns face up or down in flight."""
        turn = short_turn(a.heading, b.heading)
        tilting = abs(a.tilt - b.tilt) > 1e-6

        def arc(t, pid=pid, a=a, b=b, turn=turn):
            dist = math.hypot(b.x - a.x, b.y - a.y)
            lift = min(60.0, 10 + dist * 0.3)
            node = self.nodes[pid]
            s = t * t * (3 - 2 * t)
            node.setPos(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s,
                        a.z + (b.z - a.z) * s + lift * math.sin(math.pi * t))
            node.setH(a.heading + turn * s)
            if tilting or turn_over:
                pose = replace(b if t >= 0.5 else a, tilt=a.tilt + (b.tilt - a.tilt) * s)
                flip = None
                if turn_over:
                    flip = s if b.face_up is False else 1 - s
                self._orient(pid, pose, flip=flip)
        return LerpFunc(arc, fromData=0.0, toData=1.0, duration=duration)

    def _carry(self, ch: Change, speed: float):
        """The piece that left reappears as the one that arrives: it starts where the old one lay, with the old one's
        faces, and travels to its new place (turning over on the way when it is revealed or hidden)."""
        a, b, pid = ch.old, ch.new, ch.piece
        assert a is not None and b is not None      # a carry has both ends
        d = 0.55 / speed

        def start(pid=pid, a=a, b=b, src=ch.source):
            self._remove(src)
            self._place(pid, a)
            if a.look != b.look:
                self._restyle_keep(pid, b)
        return Sequence(Func(start), self._arc(pid, a, b, d, turn_over=a.face_up != b.face_up),
                        Func(self._place, pid, b))

    def _topple(self, ch: Change, speed: float):
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
            self._orient(pid, replace(a, tilt=angle))
        tipped = replace(a, tilt=fall_to)
        return Sequence(Func(self._ensure, pid, a), LerpFunc(tip, fromData=0.0, toData=1.0, duration=0.5 / speed),
                        self._arc(pid, replace(tipped, x=a.x + math.sin(rad) * half, y=a.y - math.cos(rad) * half),
                                  b, 0.45 / speed),
                        Func(self._place, pid, b))

    def _crumble_away(self, ch: Change, speed: float):
        """A piece destroyed in place: it shakes, shrinks and fades where it stood, then drops onto its discard spot."""
        a, b, pid = ch.old, ch.new, ch.piece

        def crumble(t, pid=pid, a=a):
            node = self.nodes[pid]
            jitter = 1.2 * math.sin(t * 60) * (1 - t)
            node.setPos(a.x + jitter, a.y - jitter, a.z - 3 * t)
            node.setScale(max(0.05, 1 - 0.9 * t), max(0.05, 1 - 0.9 * t), max(0.05, 1 - 0.6 * t))
            node.setTransparency(TransparencyAttrib.MAlpha)
            node.setColorScale(1, 0.9, 0.8, 1 - t)

        def land(t, pid=pid, b=b):
            node = self.nodes[pid]
            node.setZ(b.z + 80 * (1 - t) ** 2)
        return Sequence(Func(self._ensure, pid, a), LerpFunc(crumble, fromData=0.0, toData=1.0, duration=0.6 / speed),
                        Func(self._place, pid, b), LerpFunc(land, fromData=0.0, toData=1.0, duration=0.3 / speed))

    def _tumble(self, ch: Change, speed: float):
        """A die roll: the die hops and spins, then lands showing its new face."""
        a, b = ch.old, ch.new

        def spin(t, pid=ch.piece, a=a, b=b):
            node = self.nodes[pid]
            node.setPos(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t + 40 * math.sin(math.pi * t))
            node.setHpr(a.heading + 720 * t, 540 * t, 360 * t)
        return Sequence(Func(self._ensure, ch.piece, a), LerpFunc(spin, fromData=0.0, toData=1.0, duration=0.7 / speed),
                        Func(self._place, ch.piece, b))

    def _ensure(self, pid: str, pose: Pose) -> None:
        if pid not in self.nodes or pid not in self.models:
            self._place(pid, pose)

    def _restyle_keep(self, pid: str, pose: Pose) -> None:
        """New faces (a revealed tile) before the turn-over animation, keeping the current orientation."""
        cur = self.poses.get(pid)
        self._restyle(pid, pose)
        if cur is not None:
            self._orient(pid, cur)

    def _remove(self, pid: str) -> None:
        node = self.nodes.pop(pid, None)
        self.models.pop(pid, None)
        self.poses.pop(pid, None)
        if node is not None:
            node.removeNode()
