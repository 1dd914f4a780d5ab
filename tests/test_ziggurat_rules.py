"""Ziggurat rules: every placement rule with the seed sentence it checks, the worked example, cheats, the end."""
from __future__ import annotations

import random

import pytest

from towerworld.engine.game import CHANCE, TERMINAL, BadNotation, IllegalMove, OMNISCIENT
from towerworld.games.ziggurat import GAME
from towerworld.games.ziggurat.board import (
    CHEAT, DEAL, DINDEX, DOMINOES, DRAW, GIVE_UP, IN_TIER, PLACE, ZState, deal_order, title,
)

G = GAME


play = G.apply_texts


def start(*hand, opts=None):
    """A shuffled game whose first draws are `hand` (chance moves named in notation)."""
    s = G.new_state(opts or {})
    return play(s, *(f"draw {d}" for d in hand))


def example():
    """Fig A-D of the seed, rebuilt: 1-1 on c3-d3, a 1-4 beside it, a 3-1 below, then the 3-2 on tier 1."""
    s = start("1-1", "1-4", "1-3")
    s = play(s, "1-1 @c3-d3 t0", "draw 2-3", "1-4 @c4-c5 t0", "draw 5-6", "3-1 @c2-d2 t0", "draw 0-0")
    return s


def test_components():
    """Seed: "28 Dominoes (from double blank to double sixes)" and "a 6x6 inch grid"; tiers of 18, 8 and 2."""
    assert len(DOMINOES) == 28 and len(set(DOMINOES)) == 28
    assert DOMINOES[0] == (0, 0) and DOMINOES[-1] == (6, 6)
    assert [sum(IN_TIER[t]) for t in range(3)] == [36, 16, 4]   # 18, 8 and 2 dominoes of two cells
    s = G.new_state()
    assert G.current_player(s) == CHANCE and len(G.chance_outcomes(s)) == 28
    lay = G.layout(s, OMNISCIENT)
    assert lay.pieces["map"].kind == "domino_map"
    assert sum(1 for k in lay.pieces if k.startswith("pile:")) == 28


def test_hand_of_three_refilled():
    """Seed: "Draw 3 dominoes from the pile and turn them face up before you." and "Each time you play a domino you
    may immediately refill your hand from the pile." """
    s = start("1-1", "1-4")
    assert G.current_player(s) == CHANCE
    s = play(s, "draw 1-3")
    assert G.current_player(s) == 0 and len(s.hand) == 3
    s = play(s, "1-1 @c3-d3 t0")
    assert G.current_player(s) == CHANCE and len(s.hand) == 2
    assert len(G.chance_outcomes(s)) == 25
    s = play(s, "draw 6-6")
    assert len(s.hand) == 3 and DINDEX[(6, 6)] in s.hand


def test_first_domino_anywhere_on_the_bottom_tier():
    """Seed: "take any one of the dominoes from your hand and place it face up on the foundation map" (the first
    domino needs no neighbour)."""
    s = start("0-6", "1-5", "3-4")
    moves = G.legal_moves(s)
    places = [m for m in moves if m[0] == PLACE]
    # 60 cell pairs on the 6x6 map, two ways round for each of the three dominoes
    assert len(places) == 60 * 2 * 3
    assert all(m[1] == 0 for m in places)


def test_value_rule():
    """Seed: "No part of a domino may rest above another part of a domino that is of equal of greater value." """
    s = example()
    # 1-1 lies on c3-d3: an equal value on top is refused, naming the half
    s2 = start("1-1", "1-2", "2-2")
    s2 = play(s2, "1-1 @c3-d3 t0", "draw 2-3")
    mv = G.parse_move(s2, "1-2 @c3-d3 t1")
    with pytest.raises(IllegalMove) as err:
        G.apply(s2, mv)
    assert "The 1 half would rest on a 1" in str(err.value)
    assert "greater than what lies beneath" in str(err.value)
    # a smaller value is refused too
    s3 = start("3-3", "2-3", "0-0")
    s3 = play(s3, "3-3 @c3-d3 t0", "draw 0-1")
    with pytest.raises(IllegalMove) as err:
        G.apply(s3, G.parse_move(s3, "2-3 @c3-d3 t1"))
    assert "The 2 half would rest on a 3" in str(err.value)
    # strictly greater on both halves is fine (the worked example)
    assert G.parse_move(s, "3-2 @c3-d3 t1") in G.legal_moves(s)


def test_worked_example():
    """Seed: "A 3-2 domino is placed above the 1 and 1, but with one side still adjacent to a 3. See fig D." """
    s = example()
    assert s.vals[2 * 6 + 2] == 1 and s.vals[2 * 6 + 3] == 1          # c3, d3 hold the 1 and 1
    assert s.vals[1 * 6 + 2] == 3                                     # the 3 on c2, beside c3
    s = play(s, "3-2 @c3-d3 t1")
    assert s.vals[36 + 2 * 6 + 2] == 3 and s.vals[36 + 2 * 6 + 3] == 2
    assert s.cheats == 0
    lay = G.layout(s, OMNISCIENT)
    top = lay.pieces["domino:2-3"]
    assert top.z == pytest.approx(2.0 + 8.0)                          # on the tier-0 dominoes, true thickness
    assert lay.pieces["domino:1-1"].z == pytest.approx(2.0)
    assert "cell:t1:c4" in lay.cells and "cell:t0:a1" in lay.cells and "cell:t1:c3" not in lay.cells


def test_adjacency_rule_and_diagonals():
    """Seed: "When placing a domino at least one half of the domino must be adjacent to a domino of equal value.
    Such a domino may exist on a different tier. Diagonals do not count." """
    s = example()
    # turned the other way, neither half meets its equal: the 2 at c3 has no 2 beside it, the 3 at d3 no 3
    with pytest.raises(IllegalMove) as err:
        G.apply(s, G.parse_move(s, "2-3 @c3-d3 t1"))
    assert "equal value" in str(err.value) and "diagonals do not count" in str(err.value)
    # diagonal: a 5-6 whose 6 sits diagonal to nothing equal and whose 5 is only diagonal to ... refused
    s2 = start("4-4", "5-6", "0-0")
    s2 = play(s2, "4-4 @c3-d3 t0", "draw 0-1")
    with pytest.raises(IllegalMove):
        G.apply(s2, G.parse_move(s2, "0-0 @b2-b1 t0"))             # b2 touches c3 only diagonally
    assert G.parse_move(s2, "0-0 @b3-b2 t0") not in G.legal_moves(s2)  # 0s beside 4s: no equal value
    # a different tier: the 3 on tier 0 at c2 lets a 3 half on tier 1 at c3 count (the worked example)
    assert G.parse_move(s, "3-2 @c3-d3 t1") in G.legal_moves(s)


def test_adjacent_diagonal_only_is_refused():
    """Seed: "Diagonals do not count." """
    s = start("2-2", "2-5", "6-6")
    s = play(s, "2-2 @c3-d3 t0", "draw 0-1")
    # 2-5 with its 2 on b2 (diagonal to c3's 2) and 5 on a2: refused; with its 2 on b3 (beside c3): fine
    assert G.parse_move(s, "5-2 @a2-b2 t0") not in G.legal_moves(s)
    assert G.parse_move(s, "5-2 @a3-b3 t0") in G.legal_moves(s)
    msg = G.why_illegal(s, G.parse_move(s, "5-2 @a2-b2 t0"))
    assert "diagonals do not count" in msg


def test_no_overhang():
    """Seed: "No domino or part of a domino may rest outside the foundation." and "Each tier must be centered to
    the foundation and square-shaped." """
    s = start("1-1", "1-2", "2-3")
    s = play(s, "1-1 @a1-b1 t0", "draw 2-2")
    # tier 1 is b2-e5: a tier-1 domino over a1 would overhang
    s = play(s, "2-1 @a2-b2 t0", "draw 3-3")
    mv = (PLACE, 1, 0, 1, 2, 3)   # 2 on a1, 3 on b1, tier 1
    assert mv not in G.legal_moves(s)
    assert "No overhang" in G.why_illegal(s, mv) and "a1" in G.why_illegal(s, mv)
    with pytest.raises(BadNotation):
        G.parse_move(s, "1-1 @a1-a3 t0")                          # not side by side
    with pytest.raises(BadNotation):
        G.parse_move(s, "1-1 @a1-g1 t0")                          # off the map


def test_no_balancing_and_upper_tiers_before_the_bottom_is_done():
    """Seed: "The bottom tier need not be complete before construction of the middle or upper tier is begun. But
    dominoes must always rest on other dominoes or the foundation (no balancing)." """
    s = start("1-1", "1-2", "2-3")
    s = play(s, "1-1 @c3-d3 t0", "draw 3-4")
    # on tier 1 over c3 and c4: c4 has nothing beneath
    mv = (PLACE, 1, 2 * 6 + 2, 3 * 6 + 2, 2, 3)
    assert mv not in G.legal_moves(s)
    assert "No balancing" in G.why_illegal(s, mv)
    # with only one tier-0 domino down, a tier-1 domino on it is allowed (bottom tier incomplete)
    s = play(s, "2-1 @c2-d2 t0", "draw 4-4")
    ok = G.parse_move(s, "2-3 @c3-d3 t1")
    assert ok in G.legal_moves(s)  # 2 on the 1 at c3 (beside c2's 2), 3 on the 1 at d3
    s = play(s, "2-3 @c3-d3 t1")
    assert s.vals[36 + 14] == 2


def test_cheat_counts_one_per_domino_and_the_one_underneath():
    """Seed: "Every domino picked up from the ziggurat and replaced is counted as a cheat." and "Note: If the domino
    that you want to reposition is resting underneath another, both count as cheats." """
    s = example()
    s = play(s, "3-2 @c3-d3 t1", "draw 4-5")
    assert s.cheats == 0
    # a lone domino: one cheat, back to the hand
    s1 = play(s, "cheat 1-4")
    assert s1.cheats == 1 and DINDEX[(1, 4)] in s1.hand and G.current_player(s1) == 0
    assert G.scores(s1) == [1]
    # the 1-1 under the 3-2: both come up, two cheats
    s2 = play(s, "cheat c3 t0")
    assert s2.cheats == 2
    assert DINDEX[(1, 1)] in s2.hand and DINDEX[(2, 3)] in s2.hand
    assert all(v < 0 for v in s2.vals[36:])
    # the picked-up dominoes are placed again by the normal rules
    assert G.parse_move(s2, "1-1 @c3-d3 t0") in G.legal_moves(s2)


def test_three_level_cheat_lifts_everything_resting_on_it():
    """Seed: "If the domino that you want to reposition is resting underneath another, both count as cheats." (and
    so on up the tiers)."""
    order = ["2-2", "2-3", "3-4", "4-4", "4-5", "3-3", "5-5", "2-4", "1-1", "0-0"]
    s = start(*order[:3])
    s = play(s, "2-2 @c3-d3 t0", f"draw {order[3]}", "2-3 @c4-d4 t0", f"draw {order[4]}")
    s = play(s, "4-3 @c3-c4 t1", f"draw {order[5]}")      # 4 over the 2 at c3, 3 over the 2 at c4 (beside d4's 3)
    s = play(s, "4-5 @d3-d4 t1", f"draw {order[6]}")      # 4 over d3's 2 beside c3's 4; 5 over d4's 3
    s = play(s, "5-5 @c3-d3 t2")                           # 5s over the two 4s, beside d4's 5
    s = play(s, f"draw {order[7]}")
    assert s.vals[72 + 14] == 5 and s.vals[72 + 15] == 5
    lifted = play(s, "cheat 2-2")
    # the 2-2 carries the 4-3 and the 4-5, which carry the 5-5: four dominoes, four cheats
    assert lifted.cheats == 4
    assert {DINDEX[(2, 2)], DINDEX[(3, 4)], DINDEX[(4, 5)], DINDEX[(5, 5)]} <= set(lifted.hand)
    assert DINDEX[(2, 3)] not in lifted.hand and lifted.vals[21] == 3
    one = play(s, "cheat 5-5")
    assert one.cheats == 1


def test_titles_by_cheats():
    """Seed: "0 cheats - Legendary Architect of the Divine." ... "5 or more cheats - Disgraceful Blundering
    Saboteur." """
    assert [title(c) for c in range(7)] == [
        "Legendary Architect of the Divine", "Master Architect", "Reputable Architect", "Modest Architect",
        "Feeble Architect", "Disgraceful Blundering Saboteur", "Disgraceful Blundering Saboteur"]


def test_a_whole_zero_cheat_ziggurat():
    """Seed: "Use all the dominoes to build a tiered pyramid (ziggurat) with the fewest cheats." (deal 1 has a
    zero-cheat line, found by the analyser; played through the game it ends Legendary)."""
    from towerworld.games.ziggurat.strategy import analyse
    a = analyse(G, deal_order(1), budget=60.0)     # a bound, not a goal: it stops at the line (about 0.7 CPU s); a loaded machine needs room
    assert a.status == "zero" and a.cheats == 0
    s = G.new_state({"deal": 1})
    for move in a.line:
        while G.current_player(s) == CHANCE:
            s, _ = G.apply(s, G.chance_outcomes(s)[0][0])
        s, _ = G.apply(s, move)
    assert G.current_player(s) == TERMINAL and G.complete(s)
    assert G.result(s).startswith("Legendary Architect of the Divine")
    assert G.returns(s) == [1.0]
    from towerworld.games.ziggurat.board import tier_counts
    assert tier_counts(s.owner) == (18, 8, 2)
    lay = G.layout(s, OMNISCIENT)
    zs = sorted({round(p.z, 3) for k, p in lay.pieces.items() if k.startswith("domino:")})
    assert zs == [2.0, 10.0, 18.0]
    assert not lay.cells


def test_give_up_only_when_stuck_and_cheat_limit():
    """Ruling: when nothing in the hand fits, cheat or give up; the game ends, given up, at the cheat limit."""
    s = start("0-6", "1-5", "3-4")
    assert (GIVE_UP,) not in G.legal_moves(s)
    s = play(s, "3-4 @c3-d3 t0", "draw 1-1")
    assert all(m[0] != PLACE for m in G.legal_moves(s))           # 0-6, 1-5, 1-1: nothing fits beside 3-4
    assert (GIVE_UP,) in G.legal_moves(s)
    assert "cheat" in G.hud(s, OMNISCIENT)["turn"]
    end = play(s, "give up")
    assert G.current_player(end) == TERMINAL and "Given up" in G.result(end)
    assert G.returns(end) == [-1.0 + 1 / 28]          # unfinished: -1 plus a share for the one domino standing
    assert not G.solitaire_won(end)
    # the panel gives the title the result gives: a ziggurat given up earns the lowest, whatever the cheats (it
    # said "Legendary Architect of the Divine" beside "Given up with 0 cheats, ...: Disgraceful Blundering Saboteur")
    assert G.panels(s, OMNISCIENT)[0].score == "0 cheats (Legendary Architect of the Divine)"
    assert G.panels(end, OMNISCIENT)[0].score == "0 cheats (Disgraceful Blundering Saboteur)"
    assert G.result(end).endswith("Disgraceful Blundering Saboteur.")
    # cheat limit: lifting and re-placing the same domino counts every time
    s = G.new_state({"cheat_limit": 5})
    s = play(s, "draw 3-4", "draw 0-6", "draw 1-5", "3-4 @c3-d3 t0", "draw 1-1")
    for _ in range(5):
        s = play(s, "cheat 3-4")
        if G.current_player(s) == TERMINAL:
            break
        s = play(s, "3-4 @c3-d3 t0")
    assert s.cheats == 5 and G.current_player(s) == TERMINAL and not G.complete(s)


def test_pile_order_never_leaks():
    """Ruling: the pile is face down: observation() shows which dominoes are unseen, never their order."""
    a = G.new_state({"deal": 7})
    b = G.new_state({"deal": 8})
    assert a.pile != b.pile
    assert G.observation(a, 0) == G.observation(b, 0)
    # same visible position, different pile orders: same hint
    s = start("1-1", "1-4", "1-3")
    other = ZState(s.vals, s.owner, s.hand, s.unseen, tuple(d for d in deal_order(3) if s.unseen >> d & 1),
                   s.cheats, s.limit, 3)
    assert G.observation(s, 0)[:6] == G.observation(other, 0)[:6]
    # a budget the searches' node limits reach first, so the load on the machine cannot make the two differ
    assert G.hint(s, 0, budget=5.0) == G.hint(other, 0, budget=5.0)
    assert G.hint(s, 0, budget=5.0) in G.legal_moves(s)
    lay = G.layout(other, OMNISCIENT)
    assert not any(k.startswith("domino:") and not p.face_up for k, p in lay.pieces.items())
    assert all(k.startswith("pile:") for k, p in lay.pieces.items() if not p.face_up)


def test_numbered_variant_is_pinned_down_by_its_draws():
    """Variant numbered: the pile is one of deals 1-1000, and no move picks it (what nobody has seen is not decided):
    each draw's outcomes are the next dominoes of the deals the draws so far allow, weighted by how many; once one
    deal is left, its order is the pile, and every draw after has one outcome."""
    opts, _ = G.resolve_options(None, "numbered")
    s = G.new_state(opts)
    with pytest.raises(IllegalMove, match="never picked by a move"):
        G.apply(s, (DEAL, 42))
    order = deal_order(42)
    k = 0
    while s.deal != 42:
        outs = dict(G.chance_outcomes(s))
        assert G.current_player(s) == CHANCE and abs(sum(outs.values()) - 1.0) < 1e-9
        allowed = [n for n in range(1, 1001) if deal_order(n)[:k] == order[:k]]
        assert outs[(DRAW, order[k])] == pytest.approx(sum(deal_order(n)[k] == order[k] for n in allowed)
                                                       / len(allowed))
        s, _ = G.apply(s, (DRAW, order[k]))
        k += 1
        assert k <= 6
    assert s.pile == order[k:]
    while G.current_player(s) != CHANCE:
        s, _ = G.apply(s, G.legal_moves(s)[0])
    assert G.chance_outcomes(s) == [((DRAW, order[k]), 1.0)]
    assert G.resample(s, 0, random.Random(0)).pile == ()
    assert G.observation(G.resample(s, 0, random.Random(0)), 0) == G.observation(s, 0)


@pytest.mark.parametrize("seed", range(6))
def test_dominoes_conserved_in_random_games(seed):
    """All 28 dominoes are always somewhere: each exactly once in the ziggurat, the hand or the pile."""
    rng = random.Random(seed)
    s = G.new_state({"deal": seed} if seed % 2 else {})
    while True:
        placed = [d for d in set(s.owner) if d >= 0]
        unseen = [d for d in range(28) if s.unseen >> d & 1]
        everything = placed + list(s.hand) + unseen
        assert sorted(everything) == list(range(28))
        assert all(s.owner.count(d) == 2 for d in placed)
        lay = G.layout(s, OMNISCIENT)
        assert sum(1 for k in lay.pieces if k.startswith(("domino:", "pile:"))) == 28
        cp = G.current_player(s)
        if cp == TERMINAL:
            break
        move = G.sample_chance(s, rng) if cp == CHANCE else rng.choice(G.legal_moves(s))
        s, _ = G.apply(s, move)


def test_notation_examples_round_trip():
    s = example()
    for text in ("3-2 @c3-d3 t1", "cheat 3-1 @c2-d2 t0", "cheat 1-4 @c4-c5 t0"):
        mv = G.parse_move(s, text)
        assert G.format_move(s, mv) == text
    assert G.parse_move(s, "2-3 @d3-c3 t1") == G.parse_move(s, "3-2 @c3-d3 t1")
    assert G.parse_move(s, "3-2 @c3-d3") == G.parse_move(s, "3-2 @c3-d3 t1")   # tier from the stacks
    assert G.parse_move(s, "cheat c4") == G.parse_move(s, "cheat 1-4") == (CHEAT, DINDEX[(1, 4)])
    with pytest.raises(BadNotation):
        G.parse_move(s, "cheat e6")
    with pytest.raises(BadNotation):
        G.parse_move(s, "7-2 @c3-d3")


def test_search_rollouts_never_cheat_and_value_progress():
    """The rollout used by MCTS places fitting dominoes and gives up when none fits; its end is valued by how much
    stands (a finished ziggurat, 1 less a share per cheat, is worth more than any unfinished one, which is below 0)."""
    for seed in range(5):
        end = G.rollout(G.new_state({"deal": seed + 1}), random.Random(seed))
        assert G.current_player(end) == TERMINAL and end.cheats == 0
        placed = sum(1 for v in end.vals if v >= 0) // 2
        assert G.returns(end) == ([1.0] if G.complete(end) else [-1.0 + placed / 28])   # no cheats in rollouts
        assert G.complete(end) or G.returns(end)[0] < 0
