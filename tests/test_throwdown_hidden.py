"""Throwdown's secrets: hands and the unseen pile never reach a viewer who may not know them."""
from __future__ import annotations

import random

import pytest

from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR, TERMINAL
from towerworld.games.throwdown import GAME
from towerworld.games.throwdown.cards import CARDS
from towerworld.games.throwdown.rules import bits


def trajectory(players: int, extended: bool, seed: int, plies: int = 400):
    """(state, move, events) along a seeded random game."""
    rng = random.Random(seed)
    state = GAME.new_state({"extended": extended}, players)
    out = []
    while GAME.current_player(state) != TERMINAL and len(out) < plies:
        if GAME.current_player(state) == CHANCE:
            move = GAME.sample_chance(state, rng)
        else:
            moves = GAME.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        after, events = GAME.apply(state, move)
        out.append((state, move, events))
        state = after
    out.append((state, None, []))
    return out


def _layout_key(lay):
    return (sorted(lay.pieces.items()), sorted(lay.cells.items()), sorted(lay.labels.items()))


@pytest.mark.parametrize("players,extended", [(2, False), (3, True), (5, False)])
def test_resample_is_indistinguishable(players, extended):
    """For every seat and a spectator: observation, layout, HUD, whose turn and (to move) legal moves are the same in
    states resampled from what the viewer knows; hand sizes are kept."""
    rng = random.Random(5)
    steps = trajectory(players, extended, seed=players)
    for state, _, _ in steps[::7]:
        for viewer in list(range(players)) + [SPECTATOR]:
            obs = GAME.observation(state, viewer)
            lay = _layout_key(GAME.layout(state, viewer))
            hud = GAME.hud(state, viewer)
            for _ in range(3):
                other = GAME.resample(state, viewer, rng)
                assert [len(bits(h)) for h in other.hands] == [len(bits(h)) for h in state.hands]
                assert GAME.observation(other, viewer) == obs
                assert _layout_key(GAME.layout(other, viewer)) == lay
                assert GAME.hud(other, viewer) == hud
                assert GAME.current_player(other) == GAME.current_player(state)
                if GAME.current_player(state) == viewer:
                    assert GAME.legal_moves(other) == GAME.legal_moves(state)
                if viewer >= 0:
                    assert other.hands[viewer] == state.hands[viewer]
        assert GAME.resample(state, OMNISCIENT, rng) == state


def test_resample_varies_what_is_hidden():
    state = trajectory(3, False, seed=1, plies=40)[-1][0]
    rng = random.Random(2)
    seen = {GAME.resample(state, 0, rng).hands[1] for _ in range(20)}
    assert len(seen) > 1


def test_events_never_name_a_secret_card():
    """A viewer's events name no card that lies hidden from that viewer (in another hand or the pile) after the
    move; a draw is one event for the drawer, naming the card, and one for the others without it."""
    for players, extended, seed in ((2, False, 3), (4, True, 4)):
        for state, move, events in trajectory(players, extended, seed):
            if move is None:
                continue
            after, _ = GAME.apply(state, move)
            for viewer in range(players):
                hidden = after.pile
                for seat in range(players):
                    if seat != viewer:
                        hidden |= after.hands[seat]
                names = [CARDS[c].name for c in bits(hidden)]
                for event in events:
                    if event.seen_by(viewer):
                        assert not any(name in event.text for name in names if len(name) > 3), (event.text, names)
            if move[0] == "card":
                assert [e.visible_to for e in events][0] == (state.receiver,)


def test_layout_hides_cards_by_their_backs():
    """A card the viewer may not see lies face down with the Decktet back under an id that does not name it."""
    state = trajectory(3, False, seed=2, plies=60)[-1][0]
    for viewer in (0, SPECTATOR):
        lay = GAME.layout(state, viewer)
        names = {c.name for c in CARDS}
        for pid, pose in lay.pieces.items():
            if pose.kind != "card":
                continue
            assert not any(n.lower() in pid for n in names)
            own = pid.startswith(f"card:hand:{viewer}:")
            if pid.startswith("card:hand:") and not own or pid.startswith("card:pile:"):
                assert not pose.face_up and pose.look == (("back", "decktet"),)
            else:
                assert pose.face_up and pose.get("name") in names
    omniscient = GAME.layout(state, OMNISCIENT)
    assert all(p.face_up for pid, p in omniscient.pieces.items() if pid.startswith("card:hand:"))


def test_observation_holds_own_hand_and_sizes_only():
    state = trajectory(2, False, seed=6, plies=30)[-1][0]
    obs = GAME.observation(state, 0)
    assert state.hands[0] in obs and state.hands[1] not in obs[:3]
    assert GAME.observation(state, OMNISCIENT) == state
    assert GAME.observation(state, SPECTATOR)[0] == "public"
