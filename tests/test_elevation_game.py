"""Elevation beyond single rules: terrain conservation over random games, the layout, the heuristic and the AI."""
from __future__ import annotations

import random

import pytest

from towerworld.engine.game import TERMINAL, OMNISCIENT
from towerworld.engine.pieces import size
from towerworld.games.elevation import GAME as G
from towerworld.engine.agent import ask
from towerworld.games.elevation.board import DRAW, square_of as sq_of
from towerworld.games.elevation.strategy import ElevationMCTS, evaluate, threats


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
    agent = G.agents()["mcts"](G, 1, "easy")
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
    agent = G.agents()["mcts"](G, 3, "0.2")
    assert ask(agent, G, st)[0] != DRAW
    ahead = G.position({"c3": "dragon:0:b", "d1": "dragon:0:e", "f6": "samurai:1:a"})
    offered = G.apply(G.apply_texts(ahead, "Dc3 b2>d4 b2>d4"), (DRAW, 0))[0]     # Blue offers a draw, Red answers
    assert ask(agent, G, offered) == (DRAW, 2)
