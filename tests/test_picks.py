"""Matching a person's clicks against the legal moves' pick paths (app/picks.py), shared by the local table and the
network window."""
from __future__ import annotations

from towerworld.app.picks import path_progress, take_pick

# three moves: a tile laid at a place, then turned or not; or two cards played together, in any order
PATHS = {"lay a": ("at:a",), "lay a turned": ("at:a", "turn"), "play 3+5": (frozenset({"c3", "c5"}),)}


def candidates(picks):
    out = []
    for move, path in PATHS.items():
        progress = path_progress(path, picks)
        if progress is not None:
            out.append((move, progress))
    return out


def test_a_pick_no_move_follows_is_refused_and_the_picks_stay():
    taken = take_pick(["at:a"], "c3", candidates)
    assert taken.refused and taken.picks == ["at:a"] and taken.move is None


def test_a_pick_that_makes_one_move_is_that_move():
    assert take_pick(["at:a"], "turn", candidates).move == "lay a turned"
    # a set's cards in either order
    assert take_pick(["c5"], "c3", candidates).move == "play 3+5"
    assert take_pick(["c3"], "c5", candidates).move == "play 3+5"


def test_a_complete_move_that_also_begins_another_waits_for_enter():
    taken = take_pick([], "at:a", candidates)
    assert not taken.refused and taken.move is None and taken.exact == "lay a" and taken.picks == ["at:a"]


def test_a_second_click_on_a_card_of_a_set_takes_it_back_out():
    taken = take_pick(["c3"], "c3", candidates)
    assert taken.picks == [] and not taken.refused and taken.move is None and taken.exact is None
