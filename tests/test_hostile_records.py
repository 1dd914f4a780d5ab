"""Property tests (hypothesis): random JSON and random moves thrown at record loading and Match.apply.

Whatever comes
in, loading either returns a replayed match or refuses with one RecordError sentence free of terminal control
characters; Match.apply either applies a legal move or refuses with IllegalMove, leaving the match as it was.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from towerworld.engine import registry
from towerworld.engine.game import CHANCE, IllegalMove
from towerworld.engine.match import Match
from towerworld.engine.record import RecordError, match_from_record, match_to_record, parse_record_text

try:
    from toygame import GAME as TOY, NIM
except ImportError:  # tests run as a package
    from tests.toygame import GAME as TOY, NIM

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
UNSAFE = "\x1b\x07\x00\u202e\u2066\u200f"

scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10 ** 40, max_value=10 ** 60)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
           | st.sampled_from(["", "kdak", "toy", "towerworld-record", "human", "ai", "d1", "p1", "t1", "pass",
                              "\x1b[2J", "\u202e", "9" * 400]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(st.text(max_size=12), inner, max_size=5), max_leaves=25)


@pytest.fixture(scope="module", autouse=True)
def toys_registered():
    for toy in (TOY, NIM):
        registry.register(toy)
    yield
    for toy in (TOY, NIM):
        registry.unregister(toy.name)


def played(game, plies: int, seed: int) -> Match:
    m = Match(game, seed=seed)
    rng = random.Random(seed)
    while len(m.plies) < plies and not m.over:
        if m.current_player == CHANCE:
            m.apply(game.sample_chance(m.state, rng), save=False)
        else:
            moves = game.legal_moves(m.state)
            m.apply(moves[rng.randrange(len(moves))], save=False)
    return m


GOOD = {name: json.loads(json.dumps(match_to_record(played(game, 8, 3)))) for name, game in
        (("toy", TOY), ("toynim", NIM))}


def loads_or_refuses(data) -> None:
    try:
        match_from_record(data)
    except RecordError as e:
        msg = str(e)
        assert msg.strip() and "\n" not in msg and len(msg) < 700, msg
        assert not any(c in msg for c in UNSAFE), msg


@SETTINGS
@given(json_values)
def test_random_json_is_refused_in_one_sentence(data):
    loads_or_refuses(data)


@SETTINGS
@given(st.sampled_from(sorted(GOOD)), st.sampled_from(["format", "format_version", "game", "options", "variant",
                                                       "seeded", "players", "moves", "result", "created"]), json_values)
def test_one_field_replaced_by_random_json(name, field, value):
    loads_or_refuses(dict(GOOD[name], **{field: value}))


@SETTINGS
@given(st.sampled_from(sorted(GOOD)), st.integers(min_value=0, max_value=12),
       st.lists(st.text(max_size=8) | st.sampled_from(["d1", "d2", "d3", "d4", "p1", "p2", "pass", "t1", "t2", "t3"]),
                max_size=6))
def test_random_move_texts_spliced_into_a_record(name, at, texts):
    base = GOOD[name]
    loads_or_refuses(dict(base, moves=base["moves"][:at] + texts))


@SETTINGS
@given(st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_random_bytes_are_parsed_or_refused(raw):
    try:
        data = parse_record_text(raw, "The file")
    except RecordError as e:
        assert "\n" not in str(e)
        return
    loads_or_refuses(data)


@SETTINGS
@given(json_values.map(lambda v: json.dumps(v, allow_nan=True)))
def test_random_json_text_is_parsed_or_refused(text):
    try:
        data = parse_record_text(text.encode("utf-8"), "The file")
    except RecordError:
        return
    loads_or_refuses(data)


moves = (json_values | st.tuples(scalars, scalars) | st.tuples(st.sampled_from(["take", "play", "pass", "draw"]),
                                                                 json_values)
         | st.tuples(st.sampled_from(["take", "play"]), st.integers(min_value=-3, max_value=6)))


@pytest.mark.parametrize("name", sorted(registry.names()) + ["toy", "toynim"])
def test_random_moves_never_crash_match_apply(name):
    game = {"toy": TOY, "toynim": NIM}.get(name) or registry.get_game(name)
    start = played(game, 6, 1)

    @SETTINGS
    @given(moves)
    def throw(move):
        m = Match(game, seed=1)
        for p in start.plies:
            m.apply(p.move, save=False)
        before, plies = m.state, len(m.plies)
        try:
            m.apply(move, save=False)
        except IllegalMove as e:
            assert "\n" not in str(e) and not any(c in str(e) for c in UNSAFE)
            assert m.state == before and len(m.plies) == plies
        else:
            assert len(m.plies) == plies + 1

    throw()
