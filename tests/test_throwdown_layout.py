"""Throwdown on the table: true-size nested towers, the scrapyard lying flat, hands per viewer, picks and HUD words."""
from __future__ import annotations

import math
import random

import pytest

from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR, TERMINAL
from towerworld.engine.pieces import size
from towerworld.games.throwdown import GAME
from towerworld.games.throwdown.cards import BASIC, CARDS, EXCUSE, pyramid_id
from towerworld.games.throwdown.layout import nest_heights, tower_spot
from towerworld.games.throwdown.rules import DEFEND, bits

try:
    from test_throwdown_rules import card, position, play
except ImportError:  # tests run as a package
    from tests.test_throwdown_rules import card, position, play


def test_towers_nest_at_the_rulings_heights():
    """Rulings: 'stacked upright they nest: a medium's base sits ~9.7 above the table on a large, a small's ~19.5; a
    full small-medium-large tower peaks at ~44.9'."""
    s = position({0: ["mountain"]})
    lay = GAME.layout(s, 0)
    red = s.towers[0][0]
    zs = [lay.pieces[pyramid_id(p)].z for p in red]
    assert zs == pytest.approx([0.0, 9.7, 19.5], abs=0.05)
    assert lay.pieces[pyramid_id(red[-1])].top == pytest.approx(44.9, abs=0.1)
    assert nest_heights((2, 0)) == pytest.approx([0.0, 19.5])      # a small straight on a large
    x, y = tower_spot(0, 2, 0)
    assert all(lay.pieces[pyramid_id(p)].x == pytest.approx(x) and lay.pieces[pyramid_id(p)].y == pytest.approx(y)
               for p in red)


def test_scrapyard_pyramids_lie_flat_and_every_pyramid_is_somewhere():
    for n in (2, 5):
        s = GAME.new_state(None, n)
        lay = GAME.layout(s, SPECTATOR)
        pyramids = {pid: p for pid, p in lay.pieces.items() if p.kind.startswith("pyramid_")}
        assert len(pyramids) == 15 * n
        flat = [p for pid, p in pyramids.items() if pid.startswith("pyr:green:")]
        assert len(flat) == 3 * n and all(p.tilt == 90.0 for p in flat)
        assert all(p.tilt == 0.0 for pid, p in pyramids.items() if not pid.startswith("pyr:green:"))


def test_seats_sit_apart_around_the_table():
    for n in range(2, 6):
        spots = [tower_spot(seat, n, t) for seat in range(n) for t in range(4)]
        for i, a in enumerate(spots):
            for b in spots[i + 1:]:
                assert math.dist(a, b) > size("pyramid_3").w + 10


def test_hands_face_up_only_for_their_owner():
    s = position({0: ["mountain", "sea"], 1: ["author"]})
    for viewer, shown in ((0, {0}), (1, {1}), (SPECTATOR, set()), (OMNISCIENT, {0, 1})):
        lay = GAME.layout(s, viewer)
        for seat in (0, 1):
            poses = [p for pid, p in lay.pieces.items() if pid.startswith(f"card:hand:{seat}:")]
            assert len(poses) == len(bits(s.hands[seat]))
            assert all(p.face_up == (seat in shown) for p in poses)
    up = GAME.layout(s, 0).pieces["card:hand:0:0"]
    assert up.look == (("name", "Mountain"), ("rank", "4"), ("suits", "moons,suns"))


def test_pile_height_follows_its_count():
    s = position({0: ["mountain"]})
    lay = GAME.layout(s, 0)
    backs = [p for pid, p in lay.pieces.items() if pid.startswith("card:pile:")]
    count = len(bits(s.pile))
    assert len(backs) == (count + 4) // 5 and max(p.z for p in backs) >= (count - 5) * size("card").h


def test_attack_picks_card_then_eligible_tower():
    s = position({0: ["journey"]})
    paths = {GAME.picks(s, m) for m in GAME.legal_moves(s) if m[0] == "attack"}
    hand = "card:hand:0:0"
    assert paths == {(hand, "tower:1:1"), (hand, "tower:1:3")}       # blue and black towers only
    assert "attack" in GAME.explain(s, (hand, "tower:1:0"))
    assert GAME.describe_pick(s, (hand,), "tower:1:3") == "Player 2's black tower d"
    assert GAME.describe_pick(s, (), hand) == "the Journey (3)"


def test_defence_is_a_set_of_cards_then_confirm():
    s = play(position({0: ["castle"], 1: ["journey", "sailor", "cave"]}), "attack castle 2a")
    assert s.stage == DEFEND
    paths = {GAME.picks(s, m) for m in GAME.legal_moves(s)}
    hand = {c: f"card:hand:1:{bits(s.hands[1]).index(card(c))}" for c in ("journey", "sailor", "cave")}
    assert (frozenset({hand["journey"], hand["sailor"]}), "confirm") in paths
    assert (frozenset({hand["cave"]}), "confirm") in paths and ("no defence",) in paths
    assert GAME.explain(s, (frozenset({hand["journey"]}), "confirm")).startswith("A defence's ranks must add up")


def test_hud_speaks_to_the_target():
    s = play(position({0: ["mountain"], 1: ["author"]}), "attack mountain 2d")
    assert GAME.hud(s, 1)["turn"] == "Player 1 attacks your black tower d with the Mountain (4), 1 pip. Defend?"
    assert "Player 2 decides" in GAME.hud(s, 0)["turn"]
    assert "card:" not in " ".join(GAME.hud(s, 1).values())
    assert GAME.hud(s, 0)["hands"] == "Player 1: 0 cards  Player 2: 1 card"


def test_cards_and_pyramids_are_conserved():
    """Random play never creates or loses a card or a pyramid; event pieces are ids the viewers' layouts know."""
    for n, extended in ((2, False), (4, True)):
        rng = random.Random(n)
        s = GAME.new_state({"extended": extended}, n)
        deck = len(CARDS) if extended else BASIC
        while GAME.current_player(s) != TERMINAL:
            if GAME.current_player(s) == CHANCE:
                move = GAME.sample_chance(s, rng)
            else:
                moves = GAME.legal_moves(s)
                move = moves[rng.randrange(len(moves))]
            after, events = GAME.apply(s, move)
            held = [c for h in after.hands for c in bits(h)] + bits(after.pile) + list(after.discards)
            if after.attack:
                held += [after.attack[1]] + ([EXCUSE] if after.attack[2] else [])
            assert sorted(held) == list(range(deck))
            standing = [p for seat in after.towers for t in seat for p in t]
            assert sorted(standing + bits(after.scrap)) == list(range(15 * n))
            for e in events:
                for viewer in (e.visible_to or (0,))[:1]:
                    before_lay, after_lay = GAME.layout(s, viewer), GAME.layout(after, viewer)
                    known = set(before_lay.pieces) | set(after_lay.pieces) | set(after_lay.cells)
                    assert set(e.pieces) <= known, (e, move)
            s = after


def test_every_refused_pick_gets_one_sentence():
    """Random click sequences over the table and the buttons: explain never fails and answers in one sentence."""
    rng = random.Random(9)
    s = GAME.new_state({"extended": True}, 3)
    buttons = ["draw", "pass", "confirm", "no defence", "no swap"]
    for _ in range(250):
        if GAME.current_player(s) == TERMINAL:
            break
        if GAME.current_player(s) == CHANCE:
            s, _ = GAME.apply(s, GAME.sample_chance(s, rng))
            continue
        lay = GAME.layout(s, OMNISCIENT)
        spots = sorted(lay.pieces) + sorted(lay.cells) + buttons
        for _ in range(5):
            clicks = [rng.choice(spots) for _ in range(rng.randint(1, 4))]
            text = GAME.explain(s, clicks)
            assert text and "\n" not in text and len(text) < 300 and text.endswith("."), (clicks, text)
        moves = GAME.legal_moves(s)
        s, _ = GAME.apply(s, moves[rng.randrange(len(moves))])
