"""Layouts, poses and the piece catalog."""
import math

import pytest

from towerworld.engine.driver import answer_chance
from towerworld.engine.layout import Cell, Layout, Pose, look, shared_cell, shared_pose
from towerworld.engine.pieces import PIECES, PYRAMID_NEST_LIFT, size


def test_every_piece_has_a_positive_true_size():
    for kind, s in PIECES.items():
        assert all(math.isfinite(v) and v > 0 for v in (s.w, s.d, s.h)), kind


def test_catalog_facts():
    assert size("pp_tile").w == size("pp_tile").d == 50.8           # piecepack tiles are two inches square
    assert size("pyramid_1").h < size("pyramid_2").h < size("pyramid_3").h
    assert size("domino").w == 2 * size("domino").d
    assert PYRAMID_NEST_LIFT[1] == 0.0


def test_unknown_kind_names_the_catalog():
    with pytest.raises(KeyError) as err:
        size("teapot")
    assert "pieces.py" in str(err.value)


def test_look_is_hashable_and_order_free():
    assert look(suit="moons", rank=3) == look(rank=3, suit="moons")
    hash(look(suit="moons", rank=3))
    pose = Pose("pp_tile", 0, 0, 0, look=look(suit="suns", rank=0))
    assert pose.get("suit") == "suns" and pose.get("colour", "none") == "none"


def test_pose_top_stacks_by_true_thickness():
    tile = Pose("pp_tile", 0, 0, 0)
    coin = Pose("pp_coin", 0, 0, tile.top)
    assert coin.z == pytest.approx(6.35) and coin.top == pytest.approx(6.35 + 3.18)


def test_a_piece_cannot_be_placed_twice():
    lay = Layout()
    lay.place("tile:1", Pose("pp_tile", 0, 0, 0))
    with pytest.raises(ValueError):
        lay.place("tile:1", Pose("pp_tile", 60, 0, 0))


def test_bounds_frame_every_piece():
    lay = Layout()
    assert lay.bounds() == (0, 0, 0, 0, 0, 0)
    lay.place("a", Pose("pp_tile", 0, 0, 0))
    lay.place("b", Pose("pp_pawn", 100, -50, 6.35))
    lay.cells["c"] = Cell(0, 0, 0, 10, 10, "c")
    x0, y0, z0, x1, y1, z1 = lay.bounds()
    assert x0 == pytest.approx(-25.4) and x1 == pytest.approx(100 + 15.9 / 2)
    assert y0 == pytest.approx(-50 - 15.9 / 2) and y1 == pytest.approx(25.4)
    assert z0 == 0 and z1 == pytest.approx(6.35 + 28.6)


def test_shared_poses_and_cells_are_one_object_per_value():
    """shared_pose hands out one object for equal fields, equal to a Pose made directly: a layout made with it keeps
    an unmoved piece's very pose object from one state to the next."""
    face = look(suit="suns", rank=1)
    pose = shared_pose("pp_tile", 0.0, 50.8, 0.0, 90.0, True, face)
    assert shared_pose("pp_tile", 0.0, 50.8, 0.0, 90.0, True, face) is pose
    assert pose == Pose("pp_tile", 0.0, 50.8, 0.0, 90.0, True, face)
    assert shared_pose("pp_tile", 0.0, 50.8, 6.35, 90.0, True, face) is not pose
    assert shared_cell(1.0, 2.0, 0.0, 10.0, 10.0, "a1") is shared_cell(1.0, 2.0, 0.0, 10.0, 10.0, "a1")
    assert shared_cell(1.0, 2.0, 0.0, 10.0, 10.0, "a1") == Cell(1.0, 2.0, 0.0, 10.0, 10.0, "a1")


def _random_ply(match, rng) -> None:
    """One ply of random play: chance drawn by the match, a decision uniformly from the legal moves."""
    if match.current_player < 0:
        answer_chance(match)
    else:
        moves = match.game.legal_moves(match.state)
        match.apply(moves[rng.randrange(len(moves))], save=False)


@pytest.mark.parametrize("name", ["ziggurat", "throwdown"])
def test_a_move_keeps_the_pose_objects_of_the_pieces_it_did_not_move(name):
    """The layouts of two states a move apart hold the same pose object for every piece the move left where it was
    (and the same cell object for every cell): the stage's diff passes over them by identity."""
    import random

    from towerworld.engine.game import OMNISCIENT
    from towerworld.engine.match import Match
    from towerworld.engine.registry import get_game
    game = get_game(name)
    match = Match(game, seed=5)
    rng = random.Random(5)
    kept = 0
    for _ in range(12):
        if match.over:
            break
        before = game.layout(match.state, OMNISCIENT)
        _random_ply(match, rng)
        after = game.layout(match.state, OMNISCIENT)
        for pid, pose in after.pieces.items():
            if before.pieces.get(pid) == pose:
                assert before.pieces[pid] is pose, pid
                kept += 1
        for cid, cell in after.cells.items():
            if before.cells.get(cid) == cell:
                assert before.cells[cid] is cell, cid
    assert kept > 0


def _differ(before, after) -> tuple[set, set]:
    """The piece ids and the cell ids whose pose or cell differs between two layouts (moved, arrived or gone)."""
    pieces = {pid for pid in before.pieces.keys() | after.pieces.keys()
              if before.pieces.get(pid) != after.pieces.get(pid)}
    cells = {cid for cid in before.cells.keys() | after.cells.keys() if before.cells.get(cid) != after.cells.get(cid)}
    return pieces, cells


def test_a_layout_that_tells_what_changed_names_every_piece_and_cell_that_differs():
    """Over random play of every game, a layout made after another that tells its change (LayoutChange) names every
    piece and every cell that differs from that one (more may be named, never fewer); one game at least tells."""
    import random

    from towerworld.engine.game import OMNISCIENT
    from towerworld.engine.match import Match
    from towerworld.engine.registry import all_games
    told = 0
    for name, game in sorted(all_games().items()):
        for seed in (1, 2):
            match, rng = Match(game, seed=seed), random.Random(seed)
            before = game.layout(match.state, OMNISCIENT)
            for _ in range(40):
                if match.over:
                    break
                _random_ply(match, rng)
                after = game.layout(match.state, OMNISCIENT)
                change = after.changes
                if change is not None and change.after(before):
                    pieces, cells = _differ(before, after)
                    assert pieces <= set(change.pieces), (name, pieces - set(change.pieces))
                    assert cells <= set(change.cells), (name, cells - set(change.cells))
                    told += 1
                before = after
    assert told > 0


def test_the_told_check_fails_on_a_layout_that_leaves_out_a_moved_piece():
    """The check above can fail: a change that leaves out a piece that moved is caught."""
    before = Layout({"a": Pose("pp_tile", 0, 0, 0), "b": Pose("pp_tile", 60, 0, 0)})
    after = Layout({"a": Pose("pp_tile", 0, 0, 0), "b": Pose("pp_tile", 120, 0, 0)})
    pieces, _ = _differ(before, after)
    assert not pieces <= set(())
    assert pieces == {"b"}


def test_a_ziggurat_layout_told_against_the_one_before_equals_one_made_from_nothing():
    """Ziggurat's layout is made in one pass and told against the layout made before it; it is the same layout (its
    pieces, cells and labels, in the same order) as one made with nothing before it, after a move, after another
    deal's layout, and after the same state again."""
    import random

    from towerworld.engine.game import OMNISCIENT
    from towerworld.engine.match import Match
    from towerworld.engine.registry import get_game
    from towerworld.games.ziggurat import layout as zlayout
    game = get_game("ziggurat")

    def alone(state):
        zlayout._last.clear()
        return game.layout(state, OMNISCIENT)

    def same(a, b):
        return (list(a.pieces.items()), list(a.cells.items()), list(a.labels.items())) == \
            (list(b.pieces.items()), list(b.cells.items()), list(b.labels.items()))
    states = []
    for seed in (3, 4):
        match, rng = Match(game, seed=seed), random.Random(seed)
        while not match.over and len(states) < 60 * seed:
            _random_ply(match, rng)
            states.append(match.state)
    told = 0
    for before, state in zip(states, states[1:]):      # (seed 4's first state comes after seed 3's last)
        game.layout(before, OMNISCIENT)
        made = game.layout(state, OMNISCIENT)
        again = game.layout(state, OMNISCIENT)
        # untold only where a domino went (another deal's layout before): the stage then compares everything
        told += made.changes is not None
        assert again.changes is not None and again.changes.pieces == again.changes.cells == ()
        assert same(made, alone(state)) and same(again, made)
    assert told == len(states) - 2 and same(game.layout(states[-1], OMNISCIENT), alone(states[-1]))
