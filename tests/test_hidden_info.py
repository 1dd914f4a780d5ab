"""The hidden-information harness: for every registered game, by random play, nobody can tell the true state from a
resample of what they know.

For each player: the observation, layout, hud, panels, the events they were shown, and (when they are to move) the
legal moves are identical in the true state and in many resamples. Spectators (public information only) are checked
the same way. Events are compared for the viewer's own moves and for chance (another player's move may reveal
their secret: that is new information). A deliberately leaky toy game proves that each check can fail.
"""
from __future__ import annotations

import random

import pytest

from towerworld.engine import registry
from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR, TERMINAL, Game, events_for

try:
    from toygame import GAME as TOY, LEAKY
except ImportError:  # tests run as a package
    from tests.toygame import GAME as TOY, LEAKY

SEEDS = (11, 12)
MAX_PLIES = 300
STATES = 16            # states checked per game (spread over each random game)
RESAMPLES = 6


class Leak(AssertionError):
    """What a viewer could tell apart."""


def _layout_key(layout):
    return (sorted(layout.pieces.items()), sorted(layout.cells.items()), sorted(layout.labels.items()))


def _random_game(game: Game, players: int, seed: int, variant: str | None = None) -> list[tuple]:
    """(state, move) pairs of one random game; the move is None at the end."""
    options, n = game.resolve_options(None, variant, players)
    rng = random.Random(seed)
    state = game.new_state(options, n)
    out = []
    while game.current_player(state) != TERMINAL and len(out) < MAX_PLIES:
        cp = game.current_player(state)
        if cp == CHANCE:
            move = game.sample_chance(state, rng)
        else:
            moves = game.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        out.append((state, move))
        state, _ = game.apply_unchecked(state, move)
    out.append((state, None))
    return out


def _applies(game: Game, state, move) -> bool:
    cp = game.current_player(state)
    if cp == CHANCE:
        return move in {m for m, _ in game.chance_outcomes(state)}
    return cp >= 0 and move in set(game.legal_moves(state))


def check_viewer(game: Game, state, move, viewer: int, rng: random.Random) -> None:
    """Raise Leak when a resample for `viewer` looks different to `viewer` than the true state."""
    true_obs = game.observation(state, viewer)
    true_layout = _layout_key(game.layout(state, viewer))
    true_hud = game.hud(state, viewer)
    true_panels = game.panels(state, viewer)
    mover = game.current_player(state)
    to_move = mover == viewer
    true_moves = game.legal_moves(state) if to_move else None
    # Events of the viewer's own moves and of chance must not depend on what the viewer cannot know. (Another
    # player's move may reveal their secret: what it shows is new information, so it is not compared.)
    if move is None or mover not in (viewer, CHANCE):
        move = None
    true_events = events_for(game.apply_unchecked(state, move)[1], viewer) if move is not None else None
    for _ in range(RESAMPLES):
        other = game.resample(state, viewer, rng)
        if game.observation(other, viewer) != true_obs:
            raise Leak(f"viewer {viewer}: the observation differs in a resample")
        if _layout_key(game.layout(other, viewer)) != true_layout:
            raise Leak(f"viewer {viewer}: the layout differs in a resample")
        if game.hud(other, viewer) != true_hud:
            raise Leak(f"viewer {viewer}: the HUD differs in a resample")
        if game.panels(other, viewer) != true_panels:
            raise Leak(f"viewer {viewer}: the panels differ in a resample")
        if to_move and game.prompt(other, viewer) != game.prompt(state, viewer):
            raise Leak(f"viewer {viewer}: the instruction differs in a resample")
        if to_move and game.legal_moves(other) != true_moves:
            raise Leak(f"viewer {viewer}: the legal moves differ in a resample")
        if move is not None and _applies(game, other, move):
            if events_for(game.apply_unchecked(other, move)[1], viewer) != true_events:
                raise Leak(f"viewer {viewer}: the events shown differ in a resample")


def check_chance_events(game: Game, state, viewer: int) -> None:
    """Chance outcomes that leave `viewer` with the same observation must show `viewer` the same events (a card
    dealt to another player is "a card" whichever it was)."""
    shown: dict = {}
    for outcome, _ in game.chance_outcomes(state)[:24]:
        after, events = game.apply_unchecked(state, outcome)
        key = game.observation(after, viewer)
        seen = events_for(events, viewer)
        if shown.setdefault(key, seen) != seen:
            raise Leak(f"viewer {viewer}: the events shown tell apart chance outcomes the viewer cannot")


def check_game(game: Game, players: int, variant: str | None = None) -> int:
    """Run the harness over random games; returns the number of (state, viewer) checks made."""
    rng = random.Random(5)
    checks = 0
    for seed in SEEDS:
        history = _random_game(game, players, seed, variant)
        step = max(1, len(history) // STATES)
        for state, move in history[::step]:
            viewers = list(range(game.num_players(state))) + [SPECTATOR]
            for viewer in viewers:
                check_viewer(game, state, move, viewer, rng)
                if game.current_player(state) == CHANCE:
                    check_chance_events(game, state, viewer)
                checks += 1
    return checks


def cases():
    out = []
    for name in registry.names():
        game = registry.get_game(name)
        for variant in [None] + [v.name for v in game.variants]:
            v = next((x for x in game.variants if x.name == variant), None)
            lo, hi = v.players if v is not None and v.players else (game.min_players, game.max_players)
            for n in sorted({lo, hi}):
                out.append(pytest.param(name, variant, n, id=f"{name}-{variant or 'default'}-{n}p"))
    return out


@pytest.mark.parametrize("name,variant,players", cases())
def test_nobody_can_tell_the_truth_from_a_resample(name, variant, players):
    game = registry.get_game(name)
    assert check_game(game, players, variant) > 0


@pytest.mark.parametrize("players", [2, 3])
def test_the_toy_with_secret_hands_passes(players):
    assert check_game(TOY, players) > 0


def test_the_leaky_toy_is_caught():
    """Face-down cards that show their value through the back: the layout check must fail."""
    with pytest.raises(Leak, match="layout"):
        check_game(LEAKY, 2)


def test_a_leak_in_the_events_is_caught():
    """A draw event that names the card to everyone must fail the events check."""
    from towerworld.engine.game import Event

    class LoudDraw(type(TOY)):
        name = "louddraw"

        def apply_unchecked(self, state, move):
            new, events = super().apply_unchecked(state, move)
            if move[0] == "draw":
                events = [Event(e.kind, e.pieces, f"Player {state.to_move + 1} draws a {move[1]}.", e.reveals)
                          for e in events[:1]]
            return new, events

    with pytest.raises(Leak, match="events"):
        check_game(LoudDraw(), 2)


def test_omniscient_sees_the_true_state():
    state = _random_game(TOY, 2, 3)[4][0]
    assert TOY.resample(state, OMNISCIENT, random.Random(1)) == state
    lay = TOY.layout(state, OMNISCIENT)
    assert all(pose.face_up for pid, pose in lay.pieces.items() if pose.get("owner") is not None)


def test_a_panel_that_names_another_hand_is_caught():
    """A panel that lists every seat's cards (not only their count) must fail the panels check."""
    from towerworld.engine.game import Panel

    class LoudPanels(type(TOY)):
        name = "loudpanels"

        def panels(self, state, viewer):
            return [Panel(i, f"Player {i + 1}", str(state.scores[i]), tuple(str(c[0]) for c in hand))
                    for i, hand in enumerate(state.hands)]

    with pytest.raises(Leak, match="panels"):
        check_game(LoudPanels(), 2)
