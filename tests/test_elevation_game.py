"""Elevation beyond single rules: terrain conservation over random games, the layout, the heuristic and the AI."""
from __future__ import annotations

import random

import pytest

from towerworld.ai.agents import make_agent
from towerworld.engine.game import TERMINAL, OMNISCIENT, BadOption
from towerworld.engine.pieces import size
from towerworld.games.elevation import GAME as G
from towerworld.engine.agent import ask
from towerworld.games.elevation.board import DRAW, square_of as sq_of
from towerworld.games.elevation.strategy import ElevationMCTS, _safe_squares, evaluate, forced_gain, threats


def random_game(options, seed, plies=120):
    rng = random.Random(seed)
    st = G.new_state(options)
    states = [st]
    while G.current_player(st) != TERMINAL and len(states) <= plies:
        moves = G.legal_moves(st)
        st, _ = G.apply_unchecked(st, moves[rng.randrange(len(moves))])
        states.append(st)
    return states


@pytest.mark.parametrize("options", [{}, {"terrain": "hills"}, {"terrain": "checker", "ocean": True},
                                     {"undermining": True, "samurai_undermining": True}, {"two_pieces": True}])
def test_terrain_is_conserved(options):
    """Rulings: 108 tiles; a dig only moves a tile. Every reachable state holds the 108 tiles, each exactly once."""
    for seed in range(2):
        for st in random_game(options, seed):
            assert sum(st.heights) == 108
            assert all(len(stack) == h for stack, h in zip(st.stacks, st.heights))
            assert sorted(n for stack in st.stacks for n in stack) == list(range(108))
            on_board = [b for b in st.board if b >= 0]
            assert len(on_board) == len(set(on_board)) == sum(1 for p in st.pos if p >= 0)
            assert all(st.board[p] == i for i, p in enumerate(st.pos) if p >= 0)


def test_layout_every_tile_is_a_piece_stacked_true_to_size():
    st = random_game({}, 5, plies=40)[-1]
    lay = G.layout(st, OMNISCIENT)
    tiles = {k: p for k, p in lay.pieces.items() if p.kind == "terrain"}
    assert len(tiles) == 108
    floor = size("elev_box").h
    th = size("terrain").h
    for s in range(36):
        for level, n in enumerate(st.stacks[s]):
            assert tiles[f"terr:{n:03d}"].z == pytest.approx(floor + level * th)
    pieces = {k: p for k, p in lay.pieces.items() if p.kind == "elev_piece"}
    assert len(pieces) == 12
    for pid, pose in pieces.items():
        assert pose.get("piece") in ("fish", "dragon", "samurai") and pose.get("side") in (0, 1)
    assert len(lay.cells) == 36
    for s in range(36):
        name = f"{'abcdef'[s % 6]}{s // 6 + 1}"
        assert lay.cells[f"sq:{name}"].z == pytest.approx(floor + st.heights[s] * th)
    xmin, ymin, _, xmax, ymax, _ = lay.bounds()
    assert abs(xmin + xmax) < 1 and abs(ymin + ymax) < 100  # around the origin


def test_a_dug_tile_keeps_its_id_in_the_layout():
    st = G.position({"c3": "samurai:0:a", "f6": "samurai:1:a"})
    top = st.stacks[sq_of("b2")][-1]
    before = G.layout(st, OMNISCIENT).pieces[f"terr:{top:03d}"]
    after_state, events = G.apply(st, G.parse_move(st, "Sc3 b2>d4 -c4"))
    after = G.layout(after_state, OMNISCIENT).pieces[f"terr:{top:03d}"]
    assert (before.x, before.y) != (after.x, after.y) and after.z == pytest.approx(4 + 3 * 8)
    assert events[0].kind == "dig" and events[0].pieces[0] == f"terr:{top:03d}"


def test_threats_and_heuristic_see_a_capture():
    st = G.position({"c3": "samurai:0:a", "c4": "fish:1:c", "f6": "dragon:1:b"}, heights={"c3": 5})
    assert sq_of("c4") in threats(st.heights, st.board, st.kinds, 0, st.rules)
    assert not threats(st.heights, st.board, st.kinds, 1, st.rules)
    capture = G.parse_move(st, "Sc3 b2>b3 xc4")
    quiet = G.parse_move(st, "Sc3 b2>b3 -b4")
    assert evaluate(G.apply(st, capture)[0], 0) > evaluate(G.apply(st, quiet)[0], 0)
    assert G.heuristic(st, 0) == evaluate(st, 0)


def test_mcts_takes_the_winning_capture():
    st = G.position({"c3": "samurai:0:a", "c4": "fish:1:c"}, heights={"c3": 5})
    agent = make_agent("mcts", G, 1, "easy")
    move = ask(agent, G, st)
    after, _ = G.apply(st, move)
    assert G.returns(after) == [1.0, -1.0]


def test_mcts_does_not_step_under_an_enemy():
    """A piece that ends its turn next to an enemy two steps above it is lost; the search keeps its pieces safe."""
    st = G.position({"d1": "samurai:0:a", "a1": "fish:0:c", "d3": "dragon:1:b", "f6": "samurai:1:a"},
                    heights={"d3": 5})
    mine = lambda state: {p for p in state.pos[:6] if p >= 0}  # noqa: E731
    assert not set(threats(st.heights, st.board, st.kinds, 1, st.rules)) & mine(st)
    for seed in range(2):
        agent = ElevationMCTS(seed=seed, seconds=0.3)
        move = ask(agent, G, st)
        after, _ = G.apply(st, move)
        assert move[0] != DRAW
        assert not set(threats(after.heights, after.board, after.kinds, 1, after.rules)) & mine(after)


@pytest.mark.parametrize("options", [{}, {"undermining": True, "samurai_undermining": True, "ocean": True}])
def test_picks_are_distinct_and_no_turn_is_a_prefix_of_another(options):
    """The play screen narrows turns by pick prefixes: a finished turn must never be the start of a longer one."""
    states = random_game(options, 9, plies=60)
    for st in states[::12]:
        if G.current_player(st) == TERMINAL:
            continue
        picks = {}
        for m in G.legal_moves(st):
            p = G.picks(st, m)
            assert p not in picks
            picks[p] = m
            assert G.parse_move(st, G.format_move(st, m)) == m
        for p in picks:
            for k in range(1, len(p)):
                assert p[:k] not in picks


def test_words_a_player_uses_buttons_events_and_hud():
    """Buttons say what they do, events and the HUD name pieces and squares as a player would, never ids."""
    st = G.position({"c3": "dragon:0:b", "c4": "fish:1:c", "b2": "samurai:0:a", "f6": "samurai:1:a"},
                    heights={"c3": 5})
    move = G.parse_move(st, "Dc3 b3>d4 -d3")
    picks = G.picks(st, move)
    words = [G.describe_pick(st, picks[:i], picks[i]) for i in range(1, len(picks))]
    assert words == ["dig the top tile of b3", "put the tile on d4", "step onto d3"]
    assert G.describe_pick(st, picks[:1], "fish:1:c") == "take the Blue fish on c4"
    _, events = G.apply(st, G.parse_move(st, "Dc3 xc4"))
    texts = " ".join(e.text for e in events)
    assert "Red dragon on c3 takes the Blue fish on c4" in texts
    hud = " ".join(G.hud(st, 0).values())
    assert "Red to move" in hud and "Blue: 1 samurai, 1 fish" in hud
    for text in (texts, hud):
        assert "terr:" not in text and ":0:" not in text and ":1:" not in text


def test_the_default_opponent_never_offers_a_draw():
    """The issue: no draw offers from an agent that is ahead (this one never offers; it accepts only when behind)."""
    st = G.new_state()
    agent = make_agent("mcts", G, 3, "0.2")
    assert ask(agent, G, st)[0] != DRAW
    ahead = G.position({"c3": "dragon:0:b", "d1": "dragon:0:e", "f6": "samurai:1:a"})
    offered = G.apply(G.apply_texts(ahead, "Dc3 b2>d4 b2>d4"), (DRAW, 0))[0]     # Blue offers a draw, Red answers
    assert ask(agent, G, offered) == (DRAW, 2)


def _trap(escape_height: int):
    """Red's samurai on c3 (3) can step to b2 (3), two above the Blue fish in the corner a1 (1); the fish's other
    neighbours a2 and b1 stand at `escape_height`. Blue's samurai is far away on f6."""
    return G.position({"c3": "samurai:0:a", "a1": "fish:1:c", "f6": "samurai:1:a"},
                      heights={"a1": 1, "a2": escape_height, "b1": escape_height, "b2": 3, "c3": 3})


def test_forced_gain_sees_a_trapped_piece_and_an_escape():
    """'A capture needs two steps up' (onto an enemy only if the mover stands at least two steps above it) and a move
    climbs at most one step: a fish at 1 hemmed in by squares at 4 cannot get away from a samurai two above it, but
    one with a square at 2 beside it steps out of reach."""
    for escape_height, trapped in ((4, True), (2, False)):
        st = G.apply_texts(_trap(escape_height), "Sc3 d4>d3 -b2")        # Blue to move, the fish threatened
        gain = forced_gain(st.heights, st.board, st.kinds, 0, st.rules, floor=-1e9)
        assert (gain >= 100) == trapped, (escape_height, gain)


def test_mcts_springs_the_trap_and_takes_the_fish():
    st = _trap(4)
    agent = ElevationMCTS(seed=2, seconds=0.3)
    defender = make_agent("elev-greedy", G, 5, None)
    blue = lambda state: sum(p >= 0 for p in state.pos[6:])  # noqa: E731
    for _ in range(2):
        st, _ = G.apply(st, ask(agent, G, st))
        if blue(st) < 2:
            break
        st, _ = G.apply(st, ask(defender, G, st))
    assert blue(st) == 1 and st.pos[6 + 2] < 0, "Red takes the fish within its first two turns"


def test_the_side_ahead_prefers_the_enemy_hemmed_in():
    """Ahead in material, fewer safe squares for the enemy is better (a lead is converted by trapping), and the
    further ahead, the more it counts."""
    def gain_of_hemming(extra: dict) -> float:
        pieces = {"c3": "dragon:0:b", "e3": "dragon:0:e", "a1": "fish:1:c", **extra}
        open_field = G.position(pieces, heights={"a1": 1, "a2": 2, "b1": 2, "b2": 2}, mover=1)
        hemmed = G.position(pieces, heights={"a1": 1, "a2": 2, "b1": 4, "b2": 4}, mover=1)
        assert _safe_squares(hemmed.heights, hemmed.board, [sq_of("a1")], [sq_of("c3"), sq_of("e3")]) == 1
        assert _safe_squares(open_field.heights, open_field.board, [sq_of("a1")], [sq_of("c3"), sq_of("e3")]) == 3
        return evaluate(hemmed, 0) - evaluate(open_field, 0)

    far_ahead = gain_of_hemming({})                          # two dragons against a fish
    less_ahead = gain_of_hemming({"f6": "samurai:1:a"})      # and a samurai far away, on squares the change misses
    assert far_ahead > 0 and far_ahead > less_ahead + 1.0


def test_ahead_the_search_never_returns_to_an_earlier_position():
    """'Each undo the other player's move three times in a row' is a draw: ahead, the search keeps the game moving."""
    st = G.position({"c3": "dragon:0:b", "d1": "dragon:0:e", "f6": "samurai:1:a"})
    st = G.apply_texts(st, "Dc3 -c4", "Sf6 e6>e5 -e6", "Dc4 -c3")
    for seed in range(3):
        move = ask(ElevationMCTS(seed=seed, seconds=0.2), G, st)
        after, _ = G.apply(st, move)
        assert after.history[-1] not in st.history[:-1], G.format_move(st, move)


def test_levels_are_simulation_budgets_and_repeat_exactly():
    """A named level is a number of simulations with a clock that only guards a slow machine, and a ladder takes that
    clock away, so a seeded agent's choice there does not depend on the load; "300it" has no clock at all."""
    from towerworld.ai.ladder import budget_alone
    assert ElevationMCTS.budget("easy") == (ElevationMCTS.SAFETY_SECONDS["easy"], ElevationMCTS.LEVELS["easy"])
    assert budget_alone(make_agent("mcts", G, 1, "normal")).seconds is None
    assert budget_alone(make_agent("mcts", G, 1, "0.5")).seconds == 0.5
    assert ElevationMCTS.budget("300it") == (None, 300) and ElevationMCTS.budget("0.5") == (0.5, None)
    st = G.apply_texts(G.new_state(), "Db1 -b2 -b3", "De6 -e5 -e4")
    picks = set()
    for _ in range(2):
        agent = make_agent("mcts", G, 7, "300it")
        picks.add(ask(agent, G, st))
        assert agent.last_iterations == 300
    assert len(picks) == 1
    with pytest.raises(BadOption, match="level must be one of easy, normal, strong"):
        ElevationMCTS(level="fastest")


def test_the_search_sees_the_other_sides_trap_coming():
    """The trap of _trap() from the other side: Blue's samurai on c3 can step to b2, two above Red's hemmed-in fish
    on a1. A Red turn elsewhere loses the fish; digging b2 down and stepping onto it does not. The search plays a turn
    that keeps its material."""
    st = G.position({"a1": "fish:0:c", "f1": "samurai:0:a", "c3": "samurai:1:a"},
                    heights={"a1": 1, "a2": 4, "b1": 4, "b2": 3, "c3": 3})
    agent = ElevationMCTS(seed=3, level="300it")
    agent.kinds, agent.rules = st.kinds, st.rules
    assert agent._loses_material(st, G.parse_move(st, "Sf1 e1>e2 -f2"))
    assert not agent._loses_material(st, G.parse_move(st, "Fa1 b2>a2 -b2"))
    move = ask(agent, G, st)
    assert not agent._loses_material(st, move), G.format_move(st, move)


def test_a_named_level_answers_within_its_safety_clock(monkeypatch):
    """At normal the forcing check once ran 47 CPU seconds on one move (no clock): a player waits at most the level's
    safety clock, whatever the position."""
    from towerworld.games.elevation import strategy
    clock = [0.0]

    def slow():                          # every look at the clock finds a second gone
        clock[0] += 1.0
        return clock[0]

    monkeypatch.setattr(strategy.time, "perf_counter", slow)
    st = G.apply_texts(G.new_state(), "Db1 -b2 -b3", "De6 -e5 -e4")
    agent = make_agent("mcts", G, 7, "normal")
    move = ask(agent, G, st)
    assert move in G.legal_moves(st)
    assert agent.last_iterations < ElevationMCTS.LEVELS["normal"]       # the clock, not the budget, ended it
