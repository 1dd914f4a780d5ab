"""Stacking physics: a standing stack stays still, the same demo and seed end bit for bit the same, demos
collapse, and physical crumbles move what the rules drop and then settle exactly onto the rules layout.

Each test simulates a few seconds at most (the rest test 10 s of a sleeping tower, which costs almost nothing)."""
import math

import pytest

from towerworld.demos import get_demo, names
from towerworld.demos.base import DemoRun
from towerworld.demos.kdak_collapse import tower_layout
from towerworld.engine.game import Event, EventKind
from towerworld.engine.layout import Layout, Pose
from towerworld.engine.pieces import PIECES, size
from towerworld.scene import physics
from towerworld.scene.physics import (STEP, World, crumble_plan, Crumble, overlapping, pyramid_nest_lift,
                                      start_heights, steps_for)

TILE_H = size("pp_tile").h


def drift(a, b) -> float:
    return math.dist((a.x, a.y, a.z), (b.x, b.y, b.z))


def test_every_catalog_piece_has_a_mass_and_fixtures_have_none():
    assert all(s.mass >= 0 for s in PIECES.values())
    assert size("pp_tile").mass > size("card").mass > 0
    assert size("elev_box").mass == 0 and size("domino_map").mass == 0


def test_the_full_kdak_tower_with_both_pawns_drifts_less_than_a_tenth_of_a_mm_in_ten_seconds():
    # "the full K'Dak tower with both pawns drifts less than 0.1 mm in 10 simulated seconds"
    layout = tower_layout()
    tiles = [pid for pid, p in layout.pieces.items() if p.kind == "pp_tile"]
    assert len(tiles) == 24
    world = World(layout, skip=overlapping(layout))
    assert {"pawn:0", "pawn:1"} <= set(world.bodies)
    before = world.poses()
    world.run(10.0)
    assert world.steps == steps_for(10.0) == 2400
    after = world.poses()
    worst = max(drift(before[pid], after[pid]) for pid in before)
    assert worst < 0.1


def test_the_same_demo_with_the_same_seed_ends_with_the_same_poses_to_the_last_bit():
    # "the same demo with the same seed on the same machine ends with the same poses to the last bit"
    demo = get_demo("kdak-collapse")
    runs = []
    for _ in range(2):
        run = DemoRun(demo, seed=7)
        run.advance_to(3.0)
        runs.append(run.world.fingerprint())
    assert runs[0] == runs[1]
    other = DemoRun(demo, seed=8)
    other.advance_to(3.0)
    assert other.world.fingerprint() != runs[0], "the seed should choose which tiles are pulled"


def test_how_the_caller_slices_time_does_not_change_the_result():
    demo = get_demo("kdak-collapse")
    whole = DemoRun(demo, seed=3)
    whole.advance_to(2.0)
    frames = DemoRun(demo, seed=3)
    for i in range(1, 51):            # 25 frames a second: 9.6 steps a frame
        frames.advance_to(i / 25)
    assert frames.world.steps == whole.world.steps
    assert frames.world.fingerprint() == whole.world.fingerprint()


def _elevation_board() -> tuple[World, list[tuple[str, str]], list[tuple[str, str]]]:
    """A world of Elevation's starting board (terrain three deep, 40 mm squares edge to edge), with the pairs of
    terrain tiles side by side on one layer and those stacked one on the other."""
    layout = get_demo("elevation-tip").build()
    world = World(layout, skip=overlapping(layout))
    terrain = [(pid, p) for pid, p in layout.pieces.items() if p.kind == "terrain"]
    side, stacked = [], []
    for i, (a, pa) in enumerate(terrain):
        for b, pb in terrain[i + 1:]:
            if pa.z == pb.z and math.isclose(math.hypot(pa.x - pb.x, pa.y - pb.y), size("terrain").w):
                side.append((a, b))
            elif (pa.x, pa.y) == (pb.x, pb.y) and abs(pa.z - pb.z) == size("terrain").h:
                stacked.append((a, b))
    return world, side, stacked


def _touching(world: World, pairs) -> int:
    """How many of `pairs` Bullet finds in contact after one call of steps (SUBSTEPS), every body awake."""
    world.wake()
    world.step(physics.SUBSTEPS)
    touching = {frozenset((m.getNode0().getName(), m.getNode1().getName()))
                for m in world.world.getManifolds() if m.getNumManifoldPoints()}
    return sum(1 for a, b in pairs if frozenset((a, b)) in touching)


def test_terrain_laid_edge_to_edge_touches_only_the_tiles_above_and_below(monkeypatch):
    """Elevation's terrain fills its box edge to edge: side by side the collision boxes stand clear of each other, so
    Bullet solves each stack's contacts and not those of every neighbouring pair (at full width the 180 side pairs
    all touch, jam the layer into one mat, and cost most of a step)."""
    world, side, stacked = _elevation_board()
    assert len(side) == 3 * 2 * 6 * 5 and len(stacked) == 2 * 36
    assert _touching(world, side) == 0
    assert _touching(world, stacked) == len(stacked)
    monkeypatch.setattr(physics, "GRID_INSET", {})       # full-width boxes: the check sees the neighbours touch
    world, side, _ = _elevation_board()
    assert _touching(world, side) == len(side)


def test_the_tipped_elevation_box_reruns_bit_for_bit_and_its_top_layer_slides():
    """Past the tiles' friction angle (wood on wood, friction 0.5: 26.6 degrees; at 4.5 s the box stands at 28.7) the
    top layer of terrain slides downhill in the box, and a rerun ends on the same transforms to the last bit."""
    runs = []
    for _ in range(2):
        run = DemoRun(get_demo("elevation-tip"), seed=1)
        box = run.world.bodies["elev_box"]
        top = sorted(pid for pid, p in run.layout.pieces.items() if p.kind == "terrain" and p.z > 15)
        start = {pid: run.world.bodies[pid].getPos(box).x for pid in top}
        run.advance_to(4.5)
        runs.append(run.world.fingerprint())
    slid = sorted((run.world.bodies[pid].getPos(box).x - start[pid]) / physics.SCALE for pid in top)
    assert slid[len(slid) // 2] > 40.0          # the median tile of the top layer, mm toward the low side
    assert runs[0] == runs[1]


def test_pulling_tiles_brings_the_kdak_tower_down():
    run = DemoRun(get_demo("kdak-collapse"), seed=1)
    start = run.world.poses()
    run.advance_to(3.5)
    end = run.world.poses()
    fell = [pid for pid in start if pid.startswith("tile:") and end[pid].z < start[pid].z - TILE_H / 2]
    assert len(fell) >= 6


def test_every_demo_builds_from_true_sizes_and_moves():
    for name in names():
        demo = get_demo(name)
        assert demo.summary and demo.seconds > 0
        run = DemoRun(demo, seed=1)
        for pid, pose in run.layout.pieces.items():
            if pid in run.world.bodies:
                assert run.world.kinds[pid] == pose.kind
        start = run.world.poses()
        run.advance_to(min(demo.seconds, 2.5))
        end = run.world.poses()
        assert all(math.isfinite(p.z) for p in end.values())
        assert max(drift(start[p], end[p]) for p in start) > 1.0, f"nothing moved in {name}"


def test_a_nest_of_pyramids_built_asleep_stands_still():
    layout = Layout()
    z = 0.0
    for pips in (3, 2, 1):
        layout.place(f"p{pips}", Pose(f"pyramid_{pips}", 0.0, 0.0, z))
        z += 9.7
    starts = start_heights(layout)
    assert starts["p2"] == pytest.approx(pyramid_nest_lift("pyramid_3", "pyramid_2"))
    assert starts["p1"] > starts["p2"] > 0
    world = World(layout)
    before = world.poses()
    world.run(2.0)
    after = world.poses()
    assert max(drift(before[p], after[p]) for p in before) < 0.1


def column(levels: int, gone: int | None = None) -> Layout:
    """One column of piecepack tiles; `gone` taken out and everything above it one level lower."""
    lay = Layout()
    lv = 0
    for i in range(levels):
        if i == gone:
            lay.place(f"t{i}", Pose("pp_tile", 200.0, 0.0, 0.0))     # the discard spot
            continue
        lay.place(f"t{i}", Pose("pp_tile", 0.0, 0.0, lv * TILE_H))
        lv += 1
    return lay


def test_a_crumble_plan_names_what_breaks_and_what_falls():
    old, new = column(4), column(4, gone=1)
    plan = crumble_plan(old, new, [Event(EventKind.REMOVE, ("t1",))])
    assert plan.vanish == {"t1"}
    assert plan.fallers == {"t2", "t3"}
    assert not crumble_plan(old, old, [])


def test_a_pawn_drawn_inside_the_tower_falls_by_hand_not_as_a_body():
    old, new = column(4), column(4, gone=1)
    old.place("pawn", Pose("pp_pawn", 0.0, 0.0, 2 * TILE_H))      # stands on t1, inside the storeys above
    new.place("pawn", Pose("pp_pawn", 0.0, 0.0, 1 * TILE_H))
    assert "pawn" in overlapping(old)
    plan = crumble_plan(old, new, [Event(EventKind.REMOVE, ("t1",)), Event(EventKind.FALL, ("pawn",))])
    assert plan.by_hand == {"pawn"} and "pawn" not in plan.fallers
    crumble = Crumble(old, new, plan)
    assert "pawn" not in crumble.world.bodies


def test_falling_tiles_land_on_the_rules_layout_under_bullet():
    old, new = column(5), column(5, gone=0)
    crumble = Crumble(old, new, crumble_plan(old, new, [Event(EventKind.REMOVE, ("t0",))]))
    crumble.advance_to(1.0)
    assert crumble.world.steps == round(1.0 / STEP)
    for pid in ("t1", "t2", "t3", "t4"):
        got, want = crumble.world.pose(pid), new.pieces[pid]
        assert abs(got.z - want.z) < 1.0 and abs(got.x - want.x) < 1.0 and abs(got.y - want.y) < 1.0


def test_a_physical_transition_ends_exactly_on_the_new_layout(showbase):
    from towerworld.scene.stage import Stage
    old, new = column(5), column(5, gone=1)
    stage = Stage(showbase.render)
    try:
        stage.show(old)
        ival = stage.transition(old, new, [Event(EventKind.REMOVE, ("t1",))], physics=True)
        assert ival.getDuration() > 0.5
        ival.setT(0.5)
        assert stage.nodes["t1"].isHidden()              # broken away while the others fall
        assert stage.nodes["t4"].getZ() < 4 * TILE_H - 0.5
        ival.finish()
        for pid, pose in new.pieces.items():
            node = stage.nodes[pid]
            assert tuple(node.getPos()) == pytest.approx((pose.x, pose.y, pose.z), abs=1e-4)
            assert not node.isHidden()
    finally:
        stage.root.removeNode()


def test_bench_rows_report_the_realtime_ratio_of_every_demo(monkeypatch):
    from towerworld.demos import bench
    monkeypatch.setattr(bench, "realtime_ratio", lambda name, seed=1: 12.5)
    rows = bench.rows()
    assert [r[0] for r in rows] == [f"physics_realtime_ratio_{n.replace('-', '_')}" for n in names()]
    assert dict((r[0], r[2]) for r in rows)["physics_realtime_ratio_kdak_collapse"] == 10.0


def test_what_the_bodies_move_is_what_is_drawn(showbase):
    """A big board draws its resting pieces as one combined copy; a demo moves every piece node, so the copy must go
    (else the Carcassonne tower stood still on screen while its bodies fell)."""
    from panda3d.core import NodePath
    from towerworld.demos.show import DemoScene
    scene = DemoScene(NodePath("demo-root"), get_demo("carcassonne-tower"), seed=1)
    assert len(scene.stage.nodes) >= 80 and scene.stage.combined is None
    scene.advance_to(2.0)
    scene.restart()
    assert scene.stage.combined is None
