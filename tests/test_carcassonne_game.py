"""Carcassonne: conservation of every tile and piece over random games, options, notation and refusals."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from towerworld.ai.agents import make_agent
from towerworld.engine.game import CHANCE, TERMINAL, BadNotation, BadOption, OMNISCIENT
from towerworld.games.carcassonne import GAME
from towerworld.games.carcassonne import board as B
from towerworld.games.carcassonne import tiles as TL

try:
    from slowclock import crawl_clock, first_real_choice
except ImportError:  # tests run as a package
    from tests.slowclock import crawl_clock, first_real_choice


def check_conservation(s):
    """Every tile is on the board, in the bag, discarded or in hand; every follower and tower piece is on the board,
    in a supply or a prisoner; the union-find's follower counts agree with the followers."""
    n = s.cfg.players
    count = Counter()
    for t, _r, _p, _b, _k in s.tiles:
        count[t] += 1
    for t, _k in s.discarded:
        count[t] += 1
    if s.phase == B.PLACE:
        count[s.drawn] += 1
    for t, c in enumerate(s.bag):
        count[t] += c
    for t, total in enumerate(TL.COUNT):
        expected = total if (s.cfg.tower or not TL.IS_TOWER_TILE[t]) else 0
        assert count[t] == expected, f"tile {TL.CODES[t]}: {count[t]} != {expected}"
    assert s.bagn == sum(s.bag)
    ids = [(t, k) for t, _r, _p, _b, k in s.tiles] + list(s.discarded)
    assert len(set(ids)) == len(ids)
    # followers
    assert len(s.fl) == n * B.FOLLOWERS
    recount = Counter()
    for fid, loc in enumerate(s.fl):
        owner = fid // B.FOLLOWERS
        if loc >= 0:
            assert loc < len(s.parent) and s.nkind[loc] in (TL.ROAD, TL.CITY, TL.FIELD, TL.CLOISTER)
            recount[B.find(s.parent, loc)] += 1 << (4 * owner)
        elif loc <= B.TOP0:
            pos = B.TOP0 - loc
            assert pos in s.towers and s.towers[pos] and s.towers[pos][-1] & 3 != B.WHITE
        elif loc != B.SUPPLY:
            captor = -2 - loc
            assert 0 <= captor < n and captor != owner
    for node in range(len(s.parent)):
        if s.parent[node] == node:
            assert s.occ[node] == recount.get(node, 0), f"follower count of feature {node}"
    # tower pieces
    used = Counter()
    codes = []
    for pos, stack in s.towers.items():
        assert s.tiles[s.board[pos]][0] in [t for t in range(len(TL.TILES)) if TL.IS_TOWER_TILE[t]]
        for i, code in enumerate(stack):
            p, ptype, k = B.piece_parts(code)
            used[p, ptype] += 1
            codes.append(code)
            if ptype == B.WHITE:
                assert i == len(stack) - 1 and i > 0            # white caps a tower under construction, for good
    assert len(set(codes)) == len(codes)
    for p in range(n):
        for ptype in range(3):
            assert used[p, ptype] + s.tsup[3 * p + ptype] == s.cfg.pieces[ptype]


CONFIGS = [(2, None), (3, None), (6, None), (2, {"black_tower": False}), (4, {"tower": False, "black_tower": False})]


@pytest.mark.parametrize("players, options", CONFIGS)
def test_every_tile_and_piece_is_conserved_in_random_games(players, options):
    rng = random.Random(players * 101 + len(options or {}))
    for _game in range(3):
        s = GAME.new_state(options, players)
        plies = 0
        while True:
            check_conservation(s)
            cp = GAME.current_player(s)
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                move = GAME.sample_chance(s, rng)
            else:
                moves = GAME.legal_moves(s)
                move = moves[rng.randrange(len(moves))]
            if plies % 40 == 0:
                lay = GAME.layout(s, OMNISCIENT)
                kinds = Counter(p.kind for p in lay.pieces.values())
                assert kinds["meeple"] == players * B.FOLLOWERS
                assert kinds["tower_piece"] == players * sum(s.cfg.pieces)
                assert kinds["ccs_tile"] == (90 if s.cfg.tower else 72)
            s, _ = GAME.apply(s, move)
            plies += 1
            assert plies <= GAME.max_plies
        assert s.bagn == 0
        # the random playout (fast path) ends in a finished game too
        end = GAME.random_playout(GAME.new_state(options, players), rng)
        check_conservation(end)
        assert GAME.current_player(end) == TERMINAL


def test_fast_playout_matches_checked_play():
    """random_playout draws with the bag's frequencies and applies the same steps: replaying its choices through the
    checked apply gives the same final state."""
    s0 = GAME.new_state()
    rng = random.Random(3)
    s = s0
    while GAME.current_player(s) != TERMINAL:
        if GAME.current_player(s) == CHANCE:
            move = GAME.sample_chance(s, rng)
        else:
            moves = GAME.legal_moves(s)
            move = moves[rng.randrange(len(moves))]
        s2, _ = GAME.apply(s, move)
        s3, _ = GAME.apply_unchecked(s, move)
        assert s2 == s3 and hash(s2) == hash(s3)
        s = s2
    assert GAME.returns(s) in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_options_and_player_counts():
    with pytest.raises(BadOption, match="needs The Tower"):
        GAME.new_state({"tower": False}, 2)
    with pytest.raises(BadOption, match="2 to 6 players"):
        GAME.new_state(None, 7)
    with pytest.raises(BadOption):
        GAME.new_state({"farms": True}, 2)
    base = GAME.new_state({"tower": False, "black_tower": False}, 2)
    assert not any(TL.IS_TOWER_TILE[t] and c for t, c in enumerate(base.bag))


def test_notation_and_refusals():
    s = GAME.new_state()
    assert GAME.format_move(s, B.M_DRAW | TL.INDEX["TQ"]) == "draw TQ"
    assert GAME.parse_move(s, "draw TQ") == B.M_DRAW | TL.INDEX["TQ"]
    with pytest.raises(BadNotation, match="not a tile code"):
        GAME.parse_move(s, "draw ZZ")
    with pytest.raises(BadNotation, match="not Carcassonne notation"):
        GAME.parse_move(s, "jump over the moon")
    s = GAME.apply(s, GAME.parse_move(s, "draw V"))[0]
    with pytest.raises(BadNotation, match="tile to place is V"):
        GAME.parse_move(s, "U 0,1 r0")
    m = GAME.parse_move(s, "V  0 , -1  r0")
    assert GAME.format_move(s, m) == "V 0,-1 r0"
    assert GAME.picks(s, m) == ("at:0,-1", "rot:0")
    lay = GAME.layout(s, OMNISCIENT)
    assert "at:0,-1" in lay.cells and "rot:0" not in lay.cells       # rotations are buttons
    assert GAME.describe_pick(s, ["at:0,-1"], "rot:90") == "turned 90\u00b0"
    s = GAME.apply(s, m)[0]
    for move in GAME.legal_moves(s):
        assert GAME.parse_move(s, GAME.format_move(s, move)) == move
        for pick in GAME.picks(s, move):
            spatial = pick in GAME.layout(s, OMNISCIENT).cells or pick in GAME.layout(s, OMNISCIENT).pieces
            assert spatial or pick.startswith(("rot:", "piece:", "ransom:", "pass")), pick
    with pytest.raises(BadNotation, match="no feature"):
        GAME.parse_move(s, "follower city N")
    assert GAME.why_illegal(s, B.M_TOWER | B.pos_of(3, 3) << 2).startswith("There is no tower")
    hud = GAME.hud(s, OMNISCIENT)
    assert hud["turn"].startswith("Player 1") and "bag" in hud


def test_explain_names_the_rule():
    s = GAME.apply(GAME.new_state(), GAME.parse_move(GAME.new_state(), "draw E"))[0]
    assert "touches none" in GAME.explain(s, ["at:5,5"])
    assert "does not match" in GAME.explain(s, ["at:0,1", "rot:0"])
    assert "already a tile" in GAME.explain(s, ["at:0,0"])
    assert "no rotation" in GAME.explain(s, ["at:1,0"])
    from towerworld.games.carcassonne.positions import build
    s = build(tiles=[("TB", 0, -1, 0)])
    s = GAME.apply(s, GAME.parse_move(s, "draw U"))[0]
    s = GAME.apply(s, GAME.parse_move(s, "U 1,0 r0"))[0]
    assert "directly to a tower foundation" in GAME.explain(s, ["tower:0,-1", "piece:white"])
    assert "at least one storey" in GAME.explain(s, ["tower:0,-1", "piece:follower"])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_status_lines_fit_a_window_for_every_player_count(players):
    """The supply of six players on one status line ran off the window: two players a line, each in words."""
    from towerworld.engine.game import OMNISCIENT
    from towerworld.engine.registry import get_game
    game = get_game("carcassonne")
    state = game.new_state(None, players)
    hud = game.hud(state, OMNISCIENT)
    supply = [v for k, v in hud.items() if k.startswith("supply")]
    assert len(supply) == (players + 1) // 2
    assert all(len(f"{k}: {v}") <= 140 for k, v in hud.items())
    import re
    assert re.match(r"Player 1: 7 followers, \d+ tower pieces \(\d black, \d white\); Player 2: ", supply[0])


def test_buttons_for_followers_name_the_feature_in_words():
    """When one click could mean several features, the table's buttons say "the city (north, south)", never an id
    such as "feature 0"."""
    from towerworld.games.carcassonne.tiles import feature_words
    assert feature_words("city N S") == "the city (north, south)"
    assert feature_words("field EL ER") == "the field (east)"
    assert feature_words("cloister") == "the cloister"
    rng = random.Random(4)
    state = GAME.new_state(None, 2)
    seen = 0
    while GAME.current_player(state) != TERMINAL and seen < 20:
        if GAME.current_player(state) == CHANCE:
            state, _ = GAME.apply(state, GAME.sample_chance(state, rng))
            continue
        for move in GAME.legal_moves(state):
            for step in GAME.picks(state, move):
                for pick in (step if isinstance(step, frozenset) else (step,)):
                    words = GAME.describe_pick(state, (), pick)
                    if pick.startswith(("feature:", "tower:", "at:")):
                        seen += 1
                        assert ":" not in words and "feature" not in words, words
        state, _ = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert seen >= 20


def test_the_drawn_tile_is_told_in_words():
    """The status and the log said only the catalog's letter ("Drew tile A."): a player is told what is on the tile."""
    from towerworld.engine.game import OMNISCIENT
    from towerworld.games.carcassonne.tiles import CODES, tile_words
    assert tile_words(CODES.index("A")) == "a cloister and a road"
    assert tile_words(CODES.index("C")) == "a city on four sides with a pennant"
    assert tile_words(CODES.index("H")) == "two cities on one side each"
    assert tile_words(CODES.index("TB")) == "a tower foundation"
    state = GAME.new_state(None, 2)
    rng = random.Random(3)
    for _ in range(6):                                   # a few draws: each status line names its tile in words
        while GAME.current_player(state) != CHANCE:
            state, _ = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        state, events = GAME.apply(state, GAME.sample_chance(state, rng))
        words = tile_words(state.drawn)
        assert words in events[-1].text
        line = GAME.hud(state, OMNISCIENT)["tile"]
        assert words in line and len(f"tile: {line}") <= 140
    assert max(len(f"tile: Tile to place: {c}, {tile_words(i)}") for i, c in enumerate(CODES)) <= 140


def test_a_level_is_a_simulation_budget_and_a_ladder_takes_its_clock_away(monkeypatch):
    """Like every searching agent, Carcassonne's `mcts` plays a named level as a count of simulations, with a clock
    that only stops a very slow machine; a ladder removes the clock, so the same seed gives the same game on an idle
    machine, a loaded one or a cluster. A level in seconds keeps its clock; a bad level is one sentence."""
    from towerworld.ai.ladder import budget_alone
    from towerworld.engine.agent import ask
    from towerworld.games.carcassonne import strategy
    state = first_real_choice(GAME, 4)
    crawl_clock(monkeypatch, strategy)
    budget = strategy.LEVELS["easy"][1]
    clocked = make_agent("mcts", GAME, 1, "easy")
    ask(clocked, GAME, state)
    assert clocked.last_simulations < budget                            # the clock cut it short
    unclocked = budget_alone(make_agent("mcts", GAME, 1, "easy"))
    ask(unclocked, GAME, state)
    assert unclocked.last_simulations == budget
    assert budget_alone(make_agent("mcts", GAME, 1, "0.5")).seconds == 0.5
    assert make_agent("mcts", GAME, 1, "300it").max_simulations == 300
    with pytest.raises(BadOption, match="Carcassonne search level must be one of easy"):
        make_agent("mcts", GAME, 1, "quick")


def test_every_event_is_the_event_its_fields_make():
    """The events of a random game with The Tower are whole Events: each equals the Event built from its fields
    through the dataclass, every field set."""
    from dataclasses import fields
    from towerworld.engine.game import Event
    rng = random.Random(9)
    s = GAME.new_state(None, 3)
    kinds = Counter()
    while GAME.current_player(s) != TERMINAL:
        moves = GAME.legal_moves(s)
        move = GAME.sample_chance(s, rng) if GAME.current_player(s) == CHANCE else moves[rng.randrange(len(moves))]
        s, events = GAME.apply_unchecked(s, move)
        for e in events:
            assert type(e) is Event
            assert e == Event(*(getattr(e, f.name) for f in fields(Event)))
            kinds[e.kind] += 1
    assert kinds["place"] > 60 and kinds["score"] > 5
