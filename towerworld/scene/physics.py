"""Stacking physics with Bullet: bodies built from a Layout and the piece catalog, stepped at a fixed rate.

Bullet decorates; the rules layout stays the truth. A `World` is built from a layout (true sizes, masses from
`engine/pieces.py`), stepped with a fixed step of 1/240 s in calls of a fixed number of substeps, so the same inputs
give the same poses to the last bit on one machine. The recipe (scale, step, shapes, sleeping) is the one measured in
shared/reference/bullet-notes.md: 1 unit = 1 cm, box shapes for flat pieces, a box foot under round pieces, hollow
pyramids as four wall slabs, every piece built asleep and woken only when something near it changes.

`crumble_interval` is the "physical crumble" the stage offers: the pieces the rules remove or drop move under Bullet
for a moment, then everything snaps onto the new layout.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from panda3d.bullet import (BulletBoxShape, BulletConvexHullShape, BulletCylinderShape, BulletRigidBodyNode,
                            BulletWorld, ZUp)
from panda3d.core import LQuaternionf, NodePath, Point3, TransformState, Vec3, loadPrcFileData

from towerworld.engine.game import Event
from towerworld.engine.layout import Layout, Pose
from towerworld.engine.pieces import size

SCALE = 0.1                 # Bullet units per millimetre: 1 unit = 1 cm (pawns jitter less than in metres)
STEP = 1.0 / 240.0          # seconds per fixed step (120 Hz blew a six-storey tile tower apart)
SUBSTEPS = 4                # fixed steps per do_physics call; 4 * STEP is exact in binary, so no step is lost
GRAVITY = 9810.0            # mm/s²
SOLVER_ITERATIONS = 20
HULL_MARGIN = 0.05          # mm: a hull's default margin would float a pyramid
PYRAMID_WALL = 1.0          # mm: hollow pyramids nest; solid hulls cannot (their volumes overlap and explode)
ROUND_FOOT = 0.5            # mm: the thin square foot under a pawn or coin, so a cylinder never rocks on its end
TABLE_HALF = 2000.0         # mm: the static ground box reaches well past any layout
# Kinds laid edge to edge on a grid (terrain tiles fill a box in 40 mm squares, three deep): each side of
# their collision box stands this far (mm) inside the piece, so neighbours at rest do not touch and Bullet solves
# only the contacts of each stack, not those of every side-by-side pair (the terrain's tipping demo steps 2.3x faster);
# 1.2 mm between neighbours is too narrow to see, and the pieces are drawn at full size
GRID_INSET = {"terrain": 0.6}


@dataclass(frozen=True)
class Material:
    friction: float
    restitution: float


WOOD = Material(0.5, 0.05)
PLASTIC = Material(0.35, 0.25)      # pyramids, dominoes: slicker, with a little bounce
CARD = Material(0.6, 0.0)           # cards and cardboard tiles: grippy and dead
FELT = Material(0.6, 0.0)           # the table

MATERIALS: dict[str, Material] = {
    "pp_tile": WOOD, "pp_coin": WOOD, "pp_die": WOOD, "pp_pawn": WOOD, "level_stair": WOOD, "marker": WOOD,
    "domino": PLASTIC, "domino_map": CARD,
    "pyramid_1": PLASTIC, "pyramid_2": PLASTIC, "pyramid_3": PLASTIC,
    "card": CARD, "ccs_tile": CARD, "track": CARD,
    "meeple": WOOD, "tower_piece": PLASTIC,
    "terrain": WOOD, "elev_box": WOOD, "elev_piece": WOOD,
}
ROUND_KINDS = {"pp_pawn", "pp_coin"}
PYRAMID_KINDS = {"pyramid_1", "pyramid_2", "pyramid_3"}


def material(kind: str) -> Material:
    return MATERIALS.get(kind, WOOD)


def _configure_bullet() -> None:
    """PRC settings Bullet reads when a world (solver iterations) or a body (extra damping) is made."""
    loadPrcFileData("towerworld-physics", f"bullet-solver-iterations {SOLVER_ITERATIONS}\n"
                                          "bullet-additional-damping true\n")


# ---- shapes --------------------------------------------------------------------------------------------------------------
def _pyramid_inset(kind: str) -> float:
    """How far (mm, horizontally) a hollow pyramid's inner wall face lies inside its outer face."""
    s = size(kind)
    half = s.w / 2
    slope = math.atan2(s.h, half)          # the face's angle above the table
    return PYRAMID_WALL / math.sin(slope)


def pyramid_nest_lift(lower: str, upper: str) -> float:
    """Where (mm above the lower pyramid's base) a smaller pyramid of kind `upper`, set over the tip of one of kind
    `lower`, comes to rest: the rim of its inner wall faces touches the lower one's outer faces. The walls' thickness
    lifts it a few mm above the rulings' 9.7 (which assume walls of no thickness)."""
    sl, su = size(lower), size(upper)
    half_l = sl.w / 2
    return max(0.0, (1 - (su.w / 2 - _pyramid_inset(upper)) / half_l) * sl.h)


def _pyramid_shape(kind: str, node: BulletRigidBodyNode) -> None:
    """Four convex wall slabs about the centre, each the triangle of one face and its inset copy."""
    s = size(kind)
    half, height = s.w / 2, s.h
    inset = _pyramid_inset(kind)
    inner_half = half - inset
    inner_apex = height - inset * height / half
    for turn in range(4):
        a = math.radians(90 * turn)
        c, si = math.cos(a), math.sin(a)

        def at(x, y, z):
            return Point3((c * x - si * y) * SCALE, (si * x + c * y) * SCALE, (z - height / 2) * SCALE)
        hull = BulletConvexHullShape()
        for p in (at(half, -half, 0), at(half, half, 0), at(0, 0, height),
                  at(inner_half, -inner_half, 0), at(inner_half, inner_half, 0), at(0, 0, inner_apex)):
            hull.addPoint(p)
        hull.setMargin(HULL_MARGIN * SCALE)
        node.addShape(hull)


def _round_shape(kind: str, node: BulletRigidBodyNode) -> None:
    """A thin square foot and a cylinder raised just off the table: only the foot touches."""
    s = size(kind)
    foot = BulletBoxShape(Vec3(s.w / 2 * 0.7, s.d / 2 * 0.7, ROUND_FOOT / 2) * SCALE)
    node.addShape(foot, TransformState.makePos(Point3(0, 0, (ROUND_FOOT / 2 - s.h / 2) * SCALE)))
    lift = 0.2
    body_h = s.h - ROUND_FOOT - lift
    cyl = BulletCylinderShape(s.w / 2 * SCALE, body_h * SCALE, ZUp)
    node.addShape(cyl, TransformState.makePos(Point3(0, 0, (s.h / 2 - body_h / 2) * SCALE)))


def add_shape(kind: str, node: BulletRigidBodyNode) -> None:
    """The collision shape of one catalog kind, centred on the body's origin (the middle of its height)."""
    if kind in PYRAMID_KINDS:
        _pyramid_shape(kind, node)
    elif kind in ROUND_KINDS:
        _round_shape(kind, node)
    else:
        s = size(kind)
        inset = GRID_INSET.get(kind, 0.0)
        node.addShape(BulletBoxShape(Vec3(s.w / 2 - inset, s.d / 2 - inset, s.h / 2) * SCALE))


# ---- the world -----------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BodyPose:
    """Where a body is: its bottom centre in mm and its rotation (a quaternion w, x, y, z), exact floats."""
    x: float
    y: float
    z: float
    quat: tuple[float, float, float, float]


class World:
    """Bullet bodies for the pieces of a layout, built asleep; fixtures (mass 0) are static."""

    def __init__(self, layout: Layout, skip: set[str] | frozenset = frozenset()):
        _configure_bullet()
        self.world = BulletWorld()
        self.world.setGravity(Vec3(0, 0, -GRAVITY * SCALE))
        self.root = NodePath("physics")
        self.bodies: dict[str, NodePath] = {}
        self.kinds: dict[str, str] = {}
        self.steps = 0
        self._add_ground()
        starts = start_heights(layout)
        for pid, pose in layout.pieces.items():
            if pid not in skip and pose.tilt == 0:      # tilted pieces (a fanned hand) never stack: left out
                self._add_body(pid, pose, starts[pid])

    def _add_ground(self) -> None:
        node = BulletRigidBodyNode("ground")
        node.addShape(BulletBoxShape(Vec3(TABLE_HALF, TABLE_HALF, 50) * SCALE))
        node.setFriction(FELT.friction)
        node.setRestitution(FELT.restitution)
        ground = self.root.attachNewNode(node)
        ground.setPos(0, 0, -50 * SCALE)      # offset the node, not the shape: a shape offset makes a compound
        self.world.attachRigidBody(node)

    def _add_body(self, pid: str, pose: Pose, z: float) -> None:
        s = size(pose.kind)
        node = BulletRigidBodyNode(pid)
        add_shape(pose.kind, node)
        node.setMass(s.mass)
        mat = material(pose.kind)
        node.setFriction(mat.friction)
        node.setRestitution(mat.restitution)
        node.setLinearSleepThreshold(2.0)       # cm/s
        node.setAngularSleepThreshold(0.3)      # rad/s
        body = self.root.attachNewNode(node)
        body.setPos(pose.x * SCALE, pose.y * SCALE, (z + s.h / 2) * SCALE)
        body.setHpr(pose.heading, 0, 0)
        self.world.attachRigidBody(node)
        if s.mass > 0:
            node.setActive(False, True)         # built asleep: a stack at rest does not creep
        self.bodies[pid] = body
        self.kinds[pid] = pose.kind

    def add_box(self, name: str, w: float, d: float, h: float, centre: tuple[float, float, float],
                material: Material = WOOD) -> None:
        """A body with no catalog kind and no mass (a box's walls): static, or kinematic with `set_kinematic`."""
        node = BulletRigidBodyNode(name)
        node.addShape(BulletBoxShape(Vec3(w / 2, d / 2, h / 2) * SCALE))
        node.setFriction(material.friction)
        node.setRestitution(material.restitution)
        body = self.root.attachNewNode(node)
        body.setPos(Vec3(*centre) * SCALE)
        self.world.attachRigidBody(node)
        self.bodies[name] = body
        self.kinds[name] = ""

    # ---- stepping ---------------------------------------------------------------------------------------------------
    def step(self, steps: int = 1) -> None:
        """Advance `steps` fixed steps of STEP seconds (calls of SUBSTEPS steps, then single steps)."""
        full, rest = divmod(steps, SUBSTEPS)
        for _ in range(full):
            self.world.doPhysics(STEP * SUBSTEPS, SUBSTEPS, STEP)
        for _ in range(rest):
            self.world.doPhysics(STEP, 1, STEP)
        self.steps += steps

    def run(self, seconds: float) -> None:
        self.step(steps_for(seconds))

    @property
    def time(self) -> float:
        return self.steps * STEP

    # ---- acting on bodies -----------------------------------------------------------------------------------------------
    def wake(self, pids=None) -> None:
        for pid in self.bodies if pids is None else pids:
            node = self.bodies[pid].node()
            if node.getMass() > 0:
                node.setActive(True, True)

    def remove(self, pid: str) -> None:
        """Take a body out and wake everything (Bullet does not wake what touched a removed body)."""
        body = self.bodies.pop(pid)
        self.kinds.pop(pid)
        self.world.removeRigidBody(body.node())
        body.removeNode()
        self.wake()

    def push(self, pid: str, velocity: tuple[float, float, float], spin: tuple[float, float, float] = (0, 0, 0)) -> None:
        """Set a body moving at `velocity` (mm/s) turning at `spin` (rad/s about x, y, z)."""
        node = self.bodies[pid].node()
        node.setActive(True, True)
        node.setLinearVelocity(Vec3(*velocity) * SCALE)
        node.setAngularVelocity(Vec3(*spin))

    def set_kinematic(self, pid: str) -> None:
        """A body the caller moves by hand (a box being tipped); what rests on it is carried by friction."""
        node = self.bodies[pid].node()
        node.setMass(0)
        node.setKinematic(True)
        node.setDeactivationEnabled(False)

    def move_kinematic(self, pid: str, centre_mm: tuple[float, float, float], hpr: tuple[float, float, float]) -> None:
        """Put a kinematic body's centre (mm) and rotation; Bullet takes its velocity from the change."""
        body = self.bodies[pid]
        body.setPos(Vec3(*centre_mm) * SCALE)
        body.setHpr(*hpr)

    def centre(self, pid: str) -> tuple[float, float, float]:
        p = self.bodies[pid].getPos(self.root)
        return (p.x / SCALE, p.y / SCALE, p.z / SCALE)

    def launch_toward(self, pid: str, target: tuple[float, float, float], flight: float = 0.5,
                      spin: tuple[float, float, float] = (0, 0, 0)) -> None:
        """Throw a body so that, flying freely, its bottom centre would reach `target` (mm) after `flight` s."""
        now = self.pose(pid)
        g = GRAVITY
        vx = (target[0] - now.x) / flight
        vy = (target[1] - now.y) / flight
        vz = (target[2] - now.z) / flight + g * flight / 2
        self.push(pid, (vx, vy, vz), spin)

    # ---- reading back -------------------------------------------------------------------------------------------------
    def pose(self, pid: str) -> BodyPose:
        body = self.bodies[pid]
        half = size(self.kinds[pid]).h / 2 if self.kinds[pid] else 0.0
        q = body.getQuat(self.root)
        down = q.xform(Vec3(0, 0, -half * SCALE))
        p = body.getPos(self.root) + down
        return BodyPose(p.x / SCALE, p.y / SCALE, p.z / SCALE, (q.getR(), q.getI(), q.getJ(), q.getK()))

    def poses(self) -> dict[str, BodyPose]:
        return {pid: self.pose(pid) for pid in self.bodies}

    def fingerprint(self) -> tuple:
        """Every body's raw transform and velocities, for bit-for-bit comparisons."""
        out = []
        for pid in sorted(self.bodies):
            body = self.bodies[pid]
            node = body.node()
            p, q = body.getPos(self.root), body.getQuat(self.root)
            out.append((pid, tuple(p), (q.getR(), q.getI(), q.getJ(), q.getK()), tuple(node.getLinearVelocity()),
                        tuple(node.getAngularVelocity())))
        return tuple(out)

    def awake(self) -> list[str]:
        return [pid for pid, body in self.bodies.items() if body.node().isActive() and body.node().getMass() > 0]

    def place_nodes(self, nodes: dict[str, NodePath], pids=None) -> None:
        """Put the stage's piece nodes (origin at the bottom centre) where the bodies are."""
        for pid in self.bodies if pids is None else pids:
            node = nodes.get(pid)
            if node is None or pid not in self.bodies:
                continue
            bp = self.pose(pid)
            node.setPos(bp.x, bp.y, bp.z)
            node.setQuat(LQuaternionf(*bp.quat))


def steps_for(seconds: float) -> int:
    return max(0, int(round(seconds / STEP)))


def _extent(pose: Pose) -> tuple[float, float, float, float, float, float]:
    s = size(pose.kind)
    rx, ry = (s.d / 2, s.w / 2) if round(pose.heading / 90) % 2 else (s.w / 2, s.d / 2)
    return (pose.x - rx, pose.y - ry, pose.z, pose.x + rx, pose.y + ry, pose.z + s.h)


def overlapping(layout: Layout, tolerance: float = 0.5) -> set[str]:
    """Pieces that the layout draws inside another (a pawn standing inside a tower whose upper storeys the cutaway
    lifts): as bodies they would burst apart, so crumbles move them by hand. Nested pyramids do not count."""
    boxes = [(pid, pose.kind, _extent(pose)) for pid, pose in layout.pieces.items() if pose.tilt == 0]
    out = set()
    for i, (pa, ka, a) in enumerate(boxes):
        for pb, kb, b in boxes[i + 1:]:
            if ka in PYRAMID_KINDS and kb in PYRAMID_KINDS:
                continue
            if all(min(a[k + 3], b[k + 3]) - max(a[k], b[k]) > tolerance for k in range(3)):
                # the smaller piece is the one drawn inside the other
                va = (a[3] - a[0]) * (a[4] - a[1]) * (a[5] - a[2])
                vb = (b[3] - b[0]) * (b[4] - b[1]) * (b[5] - b[2])
                out.add(pa if va < vb else pb)
    return out


def start_heights(layout: Layout) -> dict[str, float]:
    """Each piece's starting bottom (mm): the layout's, except that a pyramid nested over another sits where the
    hollow walls let it rest (see `pyramid_nest_lift`), so a nest built asleep does not overlap itself."""
    out = {pid: pose.z for pid, pose in layout.pieces.items()}
    pyramids = sorted((pose.z, pid) for pid, pose in layout.pieces.items() if pose.kind in PYRAMID_KINDS)
    for z, pid in pyramids:
        pose = layout.pieces[pid]
        below = [(oz, oid) for oz, oid in pyramids if oz < z and abs(layout.pieces[oid].x - pose.x) < 1.0
                 and abs(layout.pieces[oid].y - pose.y) < 1.0]
        if below:
            oz, oid = max(below)
            out[pid] = out[oid] + pyramid_nest_lift(layout.pieces[oid].kind, pose.kind)
    return out


# ---- physical crumbles -----------------------------------------------------------------------------------------------------
CRUMBLE_KINDS = {"disintegrate", "destroy", "remove"}       # the piece itself breaks away where it stood
KNOCK_KINDS = {"attack", "change", "topple", "fall", "leave", "discard", "capture"}   # named pieces fly to where they go


@dataclass(frozen=True)
class CrumblePlan:
    """What Bullet does between two layouts: pieces taken out at once (`vanish`), pieces thrown toward their new
    place (`thrown`), pieces that only fall (`fallers`), and pieces drawn inside others that fall by hand instead
    (`by_hand`). False when nothing fell or broke (the stage then animates as usual)."""
    vanish: frozenset[str]
    thrown: tuple[str, ...]
    fallers: frozenset[str]
    by_hand: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.vanish or self.thrown or self.fallers or self.by_hand)


def crumble_plan(old: Layout, new: Layout, events: Sequence[Event] = ()) -> CrumblePlan:
    """Pure: which pieces of `old` break away, fly, or fall on the way to `new` (testable without a window)."""
    named_crumble = {p for e in events if str(e.kind) in CRUMBLE_KINDS for p in e.pieces}
    named_knock = [p for e in events if str(e.kind) in KNOCK_KINDS for p in e.pieces]
    vanish = {p for p in named_crumble if p in old.pieces}
    thrown: list[str] = []
    for p in named_knock:
        a, b = old.pieces.get(p), new.pieces.get(p)
        if a is None or b is None or p in vanish or p in thrown:
            continue
        if math.hypot(a.x - b.x, a.y - b.y) > max(size(a.kind).w, size(a.kind).d):
            thrown.append(p)
    fallers = set()
    for p, a in old.pieces.items():
        b = new.pieces.get(p)
        if b is not None and p not in vanish and p not in thrown and b.z < a.z - 0.5 \
                and abs(a.x - b.x) < 1.0 and abs(a.y - b.y) < 1.0:
            fallers.add(p)
    if not (vanish or thrown or fallers):
        return CrumblePlan(frozenset(), (), frozenset())
    inside = overlapping(old)
    by_hand = (fallers | set(thrown)) & inside
    return CrumblePlan(frozenset(vanish), tuple(p for p in thrown if p not in by_hand), frozenset(fallers - by_hand),
                       frozenset(by_hand))


class Crumble:
    """One physical crumble: a world built from `old` without what vanishes or is drawn inside another piece, the
    thrown pieces launched, the stacks they stand in awake; stepped as the interval's clock goes on."""

    def __init__(self, old: Layout, new: Layout, plan: CrumblePlan, flight: float = 0.45):
        self.old, self.new, self.plan = old, new, plan
        self.world = World(old, skip=set(plan.vanish) | overlapping(old))
        self.world.wake(sorted(_stacked_with(old, set(plan.vanish) | plan.fallers | set(plan.thrown))
                               & set(self.world.bodies)))
        for i, pid in enumerate(plan.thrown):
            b = new.pieces[pid]
            spin = (3.0 * (1 if i % 2 else -1), 2.0, 1.0)
            self.world.launch_toward(pid, (b.x, b.y, b.z), flight=flight, spin=spin)

    def advance_to(self, seconds: float) -> None:
        """Step until the world's clock reaches `seconds` (never backwards; the same steps at any frame rate)."""
        want = steps_for(seconds)
        if want > self.world.steps:
            self.world.step(want - self.world.steps)

    def place(self, nodes: dict[str, NodePath]) -> None:
        """Bodies where Bullet has them; pieces moved by hand fall freely (ease-in) until they reach their new pose."""
        self.world.place_nodes(nodes)
        t = self.world.time
        for pid in self.plan.by_hand:
            node = nodes.get(pid)
            a, b = self.old.pieces[pid], self.new.pieces[pid]
            if node is None:
                continue
            drop = GRAVITY * t * t / 2
            total = max(1e-6, a.z - b.z) if abs(a.x - b.x) + abs(a.y - b.y) < 1.0 else None
            if total is None:       # a piece that also moves aside travels in a straight line, landing at the end
                f = min(1.0, t / 0.45)
                node.setPos(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f)
            else:
                node.setZ(max(b.z, a.z - drop))


def _stacked_with(layout: Layout, pids: set[str]) -> set[str]:
    """The pieces whose footprint overlaps that of any of `pids` (the stack they stand in): what must wake when they
    move. Everything else sleeps until something touches it, so a big board costs no more than the stack."""
    marks = [_extent(layout.pieces[p]) for p in pids if p in layout.pieces]
    out = set(pids)
    for pid, pose in layout.pieces.items():
        e = _extent(pose)
        if any(min(e[3], m[3]) > max(e[0], m[0]) and min(e[4], m[4]) > max(e[1], m[1]) for m in marks):
            out.add(pid)
    return out


def crumble_interval(stage, old: Layout, new: Layout, events: Sequence[Event] = (), seconds: float = 1.2,
                     speed: float = 1.0):
    """An interval in which Bullet moves the stage's pieces from `old` for `seconds` (simulated), shown at `speed`;
    the caller ends it on `stage.show(new)`. None when nothing falls or breaks."""
    from direct.interval.IntervalGlobal import Func, LerpFunc, Sequence
    plan = crumble_plan(old, new, events)
    if not plan:
        return None
    holder: dict = {}

    def begin():
        stage.show(old)
        for pid in plan.vanish:
            node = stage.nodes.get(pid)
            if node is not None:
                node.hide()
        holder["crumble"] = Crumble(old, new, plan)

    def tick(t):
        crumble = holder.get("crumble")
        if crumble is None:
            return
        crumble.advance_to(t)
        crumble.place(stage.nodes)

    def end():
        crumble = holder.pop("crumble", None)
        moved = set(plan.vanish) | set(plan.by_hand) | (set(crumble.world.bodies) if crumble else set())
        stage.reset(moved)      # back on the recorded poses, so the stage's show(new) places every one exactly
        for pid in plan.vanish:
            node = stage.nodes.get(pid)
            if node is not None:
                node.show()
    return Sequence(Func(begin), LerpFunc(tick, fromData=0.0, toData=seconds, duration=seconds / speed), Func(end),
                    name="physical-crumble")
