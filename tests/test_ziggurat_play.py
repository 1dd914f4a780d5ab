"""Ziggurat play support: picks, explanations, layout, hint, agents and the analyser."""
from __future__ import annotations

import random

from towerworld.engine.game import CHANCE, SEES_ALL, SEES_SEAT, TERMINAL, OMNISCIENT
from towerworld.engine.pieces import size
from towerworld.engine.agent import View
from towerworld.games.ziggurat import GAME
from towerworld.games.ziggurat.board import CHEAT, DINDEX, DOMINOES, GIVE_UP, PLACE, deal_order
from towerworld.games.ziggurat.solver import feasible
from towerworld.games.ziggurat.strategy import Player, Solver, analyse

G = GAME


play = G.apply_texts


def example():
    s = play(G.new_state(), "draw 1-1", "draw 1-4", "draw 1-3")
    return play(s, "1-1 @c3-d3 t0", "draw 2-3", "1-4 @c4-c5 t0", "draw 5-6", "3-1 @c2-d2 t0", "draw 0-0")


def test_picks_domino_then_low_cell_then_high_cell():
    s = example()
    mv = G.parse_move(s, "3-2 @c3-d3 t1")
    assert G.picks(s, mv) == ("domino:2-3", "cell:t1:d3", "cell:t1:c3")
    assert G.picks(s, (CHEAT, DINDEX[(1, 1)])) == ("domino:1-1",)
    lay = G.layout(s, OMNISCIENT)
    for move in G.legal_moves(s):
        for pick in G.picks(s, move):
            if pick.startswith("cell:"):
                assert pick in lay.cells
            else:
                assert pick in lay.pieces


def test_explain_names_rule_and_half():
    s = example()
    # the 2-3 picked, then d3 for its 2 half and c3 for its 3: the adjacency rule is the fault when turned round
    assert "equal value" in G.explain(s, ("domino:2-3", "cell:t1:c3", "cell:t1:d3"))
    assert "That cell is fine" in G.explain(s, ("domino:2-3", "cell:t1:d3"))
    # 0-0 on tier 1 over the 1s: the 0 half would rest on a 1
    s2 = play(G.new_state(), "draw 1-1", "draw 0-0", "draw 0-1", "1-1 @c3-d3 t0", "draw 6-6")
    msg = G.explain(s2, ("domino:0-0", "cell:t1:c3", "cell:t1:d3"))
    assert msg.startswith("The 0 half would rest on a 1") and "greater than what lies beneath" in msg
    assert "face down" in G.explain(s2, ("domino:5-5",))


def test_layout_true_sizes_hand_and_pile():
    s = example()
    lay = G.layout(s, OMNISCIENT)
    dom = size("domino")
    hand = [k for k in lay.pieces if k.startswith("domino:") and lay.pieces[k].z == 0.0]
    assert len(hand) == 3
    assert all(lay.pieces[k].face_up and lay.pieces[k].x > 76.2 + dom.w / 2 for k in hand)   # beside the map
    pile = [lay.pieces[f"pile:{i}"] for i in range(22)]
    assert sum(1 for k in lay.pieces if k.startswith("pile:")) == 22
    assert [p.z for p in pile[:8]] == [i * dom.h for i in range(7)] + [0.0]   # stacks of seven, true thickness
    assert all(not p.face_up and p.x < -76.2 - dom.w / 2 for p in pile)
    placed = lay.pieces["domino:1-1"]
    assert placed.get("a") == 1 and placed.get("b") == 1 and placed.heading == 0.0
    vertical = lay.pieces["domino:1-4"]     # c4-c5: along y, the 1 at the -y end
    assert vertical.heading == 90.0 and vertical.get("a") == 1 and vertical.get("b") == 4


def test_hint_and_agents_play_legal_moves():
    s = example()
    mv = G.hint(s, 0, budget=0.05)
    assert mv in G.legal_moves(s)
    rng = random.Random(3)
    for agent in (Player(seed=1, level=1), Solver(seed=1, level=0)):
        state = G.new_state({"deal": 5, "cheat_limit": 5})
        plies = 0
        while G.current_player(state) != TERMINAL and plies < 40:
            if G.current_player(state) == CHANCE:
                move = G.sample_chance(state, rng)
            else:
                move = agent.choose(View.of(G, state, 0))
                assert move in G.legal_moves(state)
            state, _ = G.apply(state, move)
            plies += 1
        assert plies > 10


def test_agents_are_exposed():
    ag = {spec.name: spec for spec in G.agents()}
    assert {"solver", "player"} <= set(ag)
    assert ag["solver"].sees == SEES_ALL and ag["player"].sees == SEES_SEAT     # the solver reads the pile's order
    a = ag["player"].factory(G, 0, "fast")
    s = example()
    assert a.choose(View.of(G, s, 0)) in G.legal_moves(s)


def test_analyser_proves_a_blocked_start():
    """Deal 6 opens 0-6, 1-5, 3-4, then 1-1, 3-3: no three of these five share values in a chain, and every domino
    placed since the ziggurat was last empty shares a value with one placed before it, so three never stand at once
    and no sixth domino is ever drawn: blocked for any number of cheats. The zero-cheat search proves its part too."""
    import time

    from towerworld.games.ziggurat.solver import _ZeroSearch, blocked_at, largest_group
    order = deal_order(6)
    assert [DOMINOES[d] for d in order[:5]] == [(0, 6), (1, 5), (3, 4), (1, 1), (3, 3)]
    assert largest_group(order[:5]) == 2
    assert blocked_at(order) == 5
    assert analyse(G, order, budget=1.0).status == "blocked"
    assert _ZeroSearch(time.perf_counter() + 10).run((-1,) * 108, order[:3], order[3:]) is None
    assert blocked_at(deal_order(1)) is None


def test_feasibility_prunes_a_six_under_an_upper_tier():
    vals = [-1] * 108
    vals[2 * 6 + 2] = 6         # a 6 on c3, tier 0: nothing can ever stand on it
    counts = [8] * 7
    counts[6] -= 1
    counts[0] -= 1
    vals[2 * 6 + 1] = 0
    assert not feasible(vals, counts)
    vals[2 * 6 + 2] = 4
    counts = [8] * 7
    counts[4] -= 1
    counts[0] -= 1
    assert feasible(vals, counts)
    _ = PLACE


def test_placing_playout_replays_through_apply():
    """The search playout keeps its own bitboards; every move it makes is legal and it ends where the rules end."""
    from towerworld.engine.measure import search_states
    from towerworld.games.ziggurat.rules import placing_playout
    rng = random.Random(5)
    starts = [G.new_state(), G.new_state({"deal": 9})] + search_states(G, games=2, every=6)
    for start in starts:
        trace = []
        end = placing_playout(start, rng, 1000, trace)
        state = start
        for move in trace:
            state, _ = G.apply(state, move)
        assert state == end and G.current_player(end) == TERMINAL
        assert trace[-1] == (GIVE_UP,) or G.complete(end)


def test_player_words_on_the_table():
    """Which domino and which cells to click next is shown; hints speak in words ("play the 6-4 on c1-c2 of the bottom
    tier"); the hand label shows only when the hand holds dominoes; tiers contrast."""
    s = example()
    assert G.describe_move(s, G.parse_move(s, "3-2 @c3-d3 t1")) == "play the 3-2 on c3-d3 of the middle tier"
    assert G.describe_move(s, G.parse_move(s, "cheat 1-1")) == \
        "cheat: pick up the 1-1 from c3-d3 of the bottom tier"
    assert G.describe_move(s, G.hint(s, 0, budget=0.05)).split()[0] in ("play", "cheat:")
    hud = G.hud(s, 0)
    assert hud["next"].startswith("Click the ") and "then the cell for its low half" in hud["next"]
    assert "hand" in G.layout(s, 0).labels
    lay = G.layout(s, OMNISCIENT)
    assert lay.pieces["domino:1-1"].get("tier") == 0
    done = play(s, "3-2 @c3-d3 t1", "draw 4-4")
    assert G.layout(done, OMNISCIENT).pieces["domino:2-3"].get("tier") == 1
    import dataclasses
    assert "hand" not in G.layout(dataclasses.replace(s, hand=()), 0).labels, "no label over an empty hand"


def _table_with_two_dominoes(tmp_path):
    """A play table (Ann alone, seed 4) where two dominoes stand on the bottom tier, laid by clicks: cheats are
    possible. Returns (table, settle)."""
    from towerworld.app.play import PlayTable
    from towerworld.engine.match import Match, PlayerSpec
    try:
        from tabletools import settle
    except ImportError:  # tests run as a package
        from tests.tabletools import settle
    match = Match(G, players=[PlayerSpec("Ann")], seed=4, autosave=str(tmp_path / "auto.tower.json"))
    table = PlayTable(match)
    try:
        settle(table)
        for _ in range(2):
            state = match.state
            place = next(m for m in G.legal_moves(state) if m[0] == PLACE and m[1] == 0)
            for pick in G.picks(state, place):
                table.choose(pick)
            settle(table)
    except BaseException:
        table.close()
        raise
    return table, settle


def test_a_cheat_at_the_table_asks_first_and_says_which_cheat_it_is(showbase, tmp_path):
    """Seed: "Every domino picked up from the ziggurat and replaced is counted as a cheat." The table asks before a
    cheat, naming the cheats it adds; the first click plays nothing, Esc cancels, Enter (or Confirm) plays it."""
    table, settle = _table_with_two_dominoes(tmp_path)
    match = table.match
    try:
        assert match.state.cheats == 0
        state = match.state
        cheat = next(m for m in G.legal_moves(state) if m[0] == CHEAT)
        (pick,) = G.picks(state, cheat)
        plies = len(match.plies)

        table.choose(pick)
        settle(table)
        assert len(match.plies) == plies and match.state == state, "the first click on a placed domino plays nothing"
        asked = table.hud.message.getText()
        assert asked.startswith("Cheat: pick up the ") and "? This is your 1st cheat." in asked
        assert asked.endswith("Enter to confirm, Esc to cancel.")
        assert [b["text"] for b in table.hud.buttons] == ["Confirm", "Cancel"]

        table.escape()
        settle(table)
        assert len(match.plies) == plies and match.state.cheats == 0 and table.confirming is None
        assert "Confirm" not in [b["text"] for b in table.hud.buttons]

        table.choose(pick)
        table.commit_exact()
        settle(table)
        assert match.plies[plies].move == cheat and match.state.cheats == 1

        state = match.state
        while G.current_player(state) != 0:
            settle(table)
            state = match.state
        again = next(m for m in G.legal_moves(state) if m[0] == CHEAT)
        table.choose(G.picks(state, again)[0])
        assert "This is your 2nd cheat." in table.hud.message.getText() and match.state.cheats == 1
    finally:
        table.close()


def test_the_cheat_question_counts_every_domino_it_picks_up():
    """Seed: "If the domino that you want to reposition is resting underneath another, both count as cheats.\""""
    s = example()
    assert all(G.confirm_text(s, m, 0) is None for m in G.legal_moves(s) if m[0] != CHEAT)
    assert G.confirm_text(s, G.parse_move(s, "cheat 3-1"), 0) == \
        "Cheat: pick up the 3-1 from c2-d2 of the bottom tier? This is your 1st cheat."
    s = play(s, "3-2 @c3-d3 t1", "draw 4-4")
    assert G.confirm_text(s, G.parse_move(s, "cheat 1-1"), 0) == (
        "Cheat: pick up the 1-1 from c3-d3 of the bottom tier and the one resting on it? It picks up 2 dominoes: "
        "your 1st and 2nd cheats.")
    s = play(s, "cheat 1-1")
    assert "This is your 3rd cheat." in G.confirm_text(s, G.parse_move(s, "cheat 3-1"), 0)


# deal 63 as the fair player once played it, up to where the pile is empty and neither domino in the hand can go on
# without making the ziggurat impossible to finish; it then cheated in circles (lifting one blank domino after another
# to the 200-cheat stop)
DEAL_63_STUCK = (
    "5-2 @c2-c3 t0", "5-3 @d2-d3 t0", "5-1 @b2-b3 t0", "2-4 @b3-c3 t1", "4-0 @c4-d4 t0", "3-3 @e2-e3 t0",
    "3-6 @e4-f4 t0", "6-6 @e3-e4 t1", "0-6 @e5-f5 t0", "2-2 @b4-b5 t0", "4-4 @d3-d4 t1", "3-0 @c5-d5 t0",
    "5-5 @c3-d3 t2", "2-3 @d5-e5 t1", "1-2 @a6-b6 t0", "4-1 @a2-a3 t0", "0-1 @e6-f6 t0", "3-4 @b5-c5 t1",
    "0-2 @c6-d6 t0", "cheat 0-1 @e6-f6 t0", "0-1 @a4-a5 t0", "0-0 @e6-f6 t0", "cheat 6-6 @e3-e4 t1",
    "1-6 @f2-f3 t0", "1-1 @e1-f1 t0", "4-5 @e3-e4 t1", "6-5 @b4-c4 t1", "3-1 @c1-d1 t0", "cheat 1-6 @f2-f3 t0",
    "6-6 @c4-d4 t2", "0-5 @a1-b1 t0", "6-4 @d2-e2 t1")


def _numbered(deal: int, texts) -> object:
    state = G.new_state({"deal": deal})
    for text in texts + ("",):
        while G.current_player(state) == CHANCE:       # a numbered deal: one outcome, the pile's next domino
            state, _ = G.apply(state, G.chance_outcomes(state)[0][0])
        if text:
            state = play(state, text)
    return state


def test_player_never_gives_up_while_a_cheat_can_finish():
    """Rulings: "When no domino in the hand fits anywhere, the player must cheat, or may give up"; the issue: the fair
    player "never gives up while a cheat is possible". With the pile empty nothing is hidden, and the player finds the
    few lifts after which the ziggurat provably goes up, instead of cheating in circles."""
    from towerworld.games.ziggurat.solver import _counts_of, _state_after
    stuck = _numbered(63, DEAL_63_STUCK)
    assert not stuck.unseen and len(stuck.hand) == 2 and stuck.cheats == 3
    fits = [m for m in G.legal_moves(stuck) if m[0] == PLACE]
    assert fits and not any(feasible(_state_after(stuck.vals, stuck.owner, m)[0],
                                     _counts_of([d for d in stuck.hand if d != DINDEX[(m[4], m[5])]]))
                            for m in fits), "every placement leaves a ziggurat that cannot be finished"
    player = Player(seed=4, level=2)
    state = stuck
    while G.current_player(state) != TERMINAL and state.cheats < 30:
        move = player.choose(View.of(G, state, 0))
        assert move != (GIVE_UP,)
        state, _ = G.apply(state, move)
    assert G.complete(state) and state.cheats <= 10, state.cheats


def test_cheat_targets_light_up_unlike_legal_places(showbase, tmp_path):
    """A placed domino that may be picked up (a cheat, which costs a point) lights up red, and the dominoes of the
    hand and the places they may go light up green: a player never mistakes a cheat for a free move."""
    from towerworld.scene.stage import HIGHLIGHT_COSTLY, HIGHLIGHT_TARGET
    table, _settle = _table_with_two_dominoes(tmp_path)
    try:
        state = table.match.state
        cheats = {G.picks(state, m)[0] for m in G.legal_moves(state) if m[0] == CHEAT}
        places = {G.picks(state, m)[0] for m in G.legal_moves(state) if m[0] == PLACE}
        assert cheats and places and not cheats & places
        lit = table.stage.targets
        assert all(lit[p] == HIGHLIGHT_COSTLY for p in cheats)
        assert all(lit[p] == HIGHLIGHT_TARGET for p in places)
        table.choose(next(iter(places)))                  # a hand domino picked: its places are free, green
        cells = [c for c, colour in table.stage.targets.items() if c.startswith("cell:")]
        assert cells and all(table.stage.targets[c] == HIGHLIGHT_TARGET for c in cells)
    finally:
        table.close()


def test_the_pile_count_stays_beside_the_pile_as_it_shrinks():
    """The "pile" label stands just in front of the pile's front stack whatever its size, never in front of an empty
    place where a stack was."""
    dom = size("domino")
    s = G.new_state(None)
    rng = random.Random(3)
    seen = set()
    while not G.is_terminal(s):
        lay = G.layout(s, OMNISCIENT)
        pile = [p for k, p in lay.pieces.items() if k.startswith("pile:")]
        if pile:
            x, y, _z, words = lay.labels["pile"]
            front = min(p.y for p in pile) - dom.d / 2
            assert front - 20.0 <= y < front, (len(pile), y, front)
            assert words == f"pile: {len(pile)}"
            seen.add(len(pile))
        else:
            assert "pile" not in lay.labels
        s = G.apply(s, G.sample_chance(s, rng) if G.current_player(s) < 0 else rng.choice(G.legal_moves(s)))[0]
    assert len(seen) > 5 and min(seen) <= 21         # the front stack has gone at least once
