"""Undo by seat: a person takes back only their own moves, made since anyone else acted and revealing nothing; a
person alone against AIs goes back to their previous decision; at a table of several people and an AI the stricter
rule holds. `undo()` acts for the person the table means (the person to move, or the only person); `undo(seat)`
for a named seat (a connection that holds that seat)."""
from __future__ import annotations

import random

import pytest

from towerworld.engine.driver import answer_chance
from towerworld.engine.game import CHANCE, TERMINAL, Event, Game, GameInfo
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game


class Relay(Game):
    """Three seats; a turn is two actions by the same seat: take one coin, take two, or peek at the bottom coin
    (which reveals it). Whoever takes the last coin wins. State: (coins, seat to move, actions made this turn)."""
    name = "relay"
    title = "Relay"

    def info(self):
        return GameInfo(min_players=2, max_players=3, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        chance=False, perfect_information=True, max_plies=80, max_moves=3)

    def new_state(self, options=None, players=None):
        return (20, 0, 0, players or 3)

    def num_players(self, state):
        return state[3]

    def current_player(self, state):
        return TERMINAL if state[0] <= 0 else state[1]

    def legal_moves(self, state):
        return [] if state[0] <= 0 else [("peek",), ("take", 1), ("take", 2)]

    def apply_unchecked(self, state, move):
        coins, seat, made, n = state
        if move[0] == "take":
            coins -= move[1]
            events = [Event("take", (), f"Player {seat + 1} takes {move[1]}.")]
        else:
            events = [Event("peek", (), f"Player {seat + 1} turns the bottom coin up.", reveals=True)]
        made += 1
        return ((coins, (seat + 1) % n, 0, n) if made == 2 else (coins, seat, made, n)), events

    def returns(self, state):
        return [0.0] * state[3]

    def format_move(self, state, move):
        return "peek" if move[0] == "peek" else f"t{move[1]}"

    def parse_move(self, state, text):
        return ("peek",) if text == "peek" else ("take", int(text[1:]))


RELAY = Relay()
T1, T2, PEEK = ("take", 1), ("take", 2), ("peek",)
ANN, BOB, BOT = PlayerSpec("Ann"), PlayerSpec("Bob"), PlayerSpec("Bot", "ai", "random")


def relay(*players: PlayerSpec) -> Match:
    return Match(RELAY, players=list(players))


def play(m: Match, *moves) -> None:
    for move in moves:
        m.apply(move, save=False)


def test_two_people_take_back_only_their_own_moves_before_the_other_acts():
    m = relay(ANN, BOB)
    play(m, T1, T1)                          # Ann's turn, both actions: Bob to move, he has not acted
    assert m.current_player == 1
    assert not m.can_undo() and not m.undo(), "Bob, to move, took back Ann's move"
    assert not m.can_undo(1)
    assert m.can_undo(0) and m.undo(0) and len(m.plies) == 1, "Ann could not take back her move before Bob acted"
    assert m.undo(0) and not m.plies                   # both her actions: nobody else acted after either
    play(m, T1, T1, T2)                      # Bob's first action
    assert not m.can_undo(0), "Ann took back a move after Bob had acted"
    assert m.can_undo() and m.undo() and len(m.plies) == 2         # Bob's own action, on his turn
    assert not m.can_undo() and not m.can_undo(1), "Bob went on to take back Ann's move"
    play(m, PEEK)                            # Bob turns a coin up: seen, it stays
    assert not m.can_undo(1) and "revealed" in m.why_no_undo(1)
    assert not m.can_undo(0)


def test_one_person_against_an_ai_goes_back_to_their_previous_decision():
    m = relay(ANN, BOT)
    play(m, T1, PEEK)                        # Ann's turn, a reveal included
    play(m, PEEK, T1)                        # the AI's turn
    assert m.current_player == 0
    assert m.can_undo() and m.can_undo(0) and not m.can_undo(1)    # an AI seat takes nothing back
    assert m.undo(0) and len(m.plies) == 1, "undo did not go back to before Ann's previous decision"
    assert m.undo() and not m.plies
    play(m, T1, T1)                          # the AI to move
    assert m.can_undo() and m.undo() and len(m.plies) == 1          # the only person, while the AI thinks
    relay_first = relay(BOT, ANN)
    play(relay_first, T1, T1)                # the AI opened: Ann has not moved
    assert not relay_first.can_undo() and "no move of yours" in relay_first.why_no_undo()


def test_two_people_and_an_ai_keep_the_stricter_rule():
    m = relay(ANN, BOB, BOT)
    play(m, T1, T1)                          # Ann's turn: Bob to move
    play(m, T1, T1)                          # Bob's turn: the AI to move
    assert m.current_player == 2
    assert m.can_undo(1) and not m.can_undo(0), "Ann took back a move after Bob had acted"
    assert not m.can_undo(2)
    play(m, T1, T2)                          # the AI's turn: Ann to move
    assert not m.can_undo() and not m.undo(), "Ann took back the AI's and Bob's moves, as if alone against it"
    assert not m.can_undo(1), "Bob took back his move after the AI had acted"
    assert "your own last move" in m.why_no_undo()
    play(m, PEEK)
    assert not m.can_undo(0), "Ann took back a move that turned a coin up"
    play(m, T1)                              # Bob to move
    assert m.current_player == 1
    assert m.can_undo(0) and not m.can_undo(1), "Bob took back Ann's move"
    assert m.undo(0) and len(m.plies) == 7 and not m.can_undo(0)


def test_a_seat_that_is_not_there_takes_nothing_back():
    m = relay(ANN, BOB)
    play(m, T1)
    assert not m.can_undo(5) and not m.undo(-1) and not m.undo(CHANCE)
    assert len(m.plies) == 1


def _random_table(name: str, players: list[PlayerSpec], seed: int, plies: int):
    """A match of `name` played at random (chance from the match) for `plies` plies, yielding after every ply."""
    rng = random.Random(seed)
    m = Match(get_game(name), players=players, seed=seed)
    while len(m.plies) < plies and not m.over:
        if m.current_player == CHANCE:
            answer_chance(m)
        else:
            moves = m.game.legal_moves(m.state)
            m.apply(moves[rng.randrange(len(moves))], save=False)
        yield m


@pytest.mark.parametrize("name", ["throwdown", "carcassonne"])
def test_at_a_mixed_table_no_person_takes_back_anything_but_their_own_unrevealing_move(name):
    """Two people and an AI at a real game: for every seat at every ply, undo may take back only the latest ply, only
    when that seat made it and it revealed nothing (never the other person's, the AI's or chance's)."""
    allowed = 0
    for m in _random_table(name, [ANN, BOB, BOT], 7, 160):
        for seat in range(3):
            target = m._undo_target(seat)
            if target is None:
                continue
            last = m.plies[-1]
            assert target == len(m.plies) - 1, f"seat {seat} would take back {len(m.plies) - target} plies"
            assert last.mover == seat and not last.reveals, f"seat {seat} would take back {last.text}"
            allowed += 1
    assert allowed, "the test never met a move that could be taken back"


@pytest.mark.parametrize("name", ["throwdown", "carcassonne"])
def test_one_person_against_two_ais_goes_back_across_their_replies(name):
    crossed = 0
    for m in _random_table(name, [BOT, ANN, BOT], 8, 120):
        target = m._undo_target(1)
        mine = [i for i, p in enumerate(m.plies) if p.mover == 1]
        assert target == (mine[-1] if mine else None)
        crossed += target is not None and target < len(m.plies) - 1
    assert crossed


def test_undo_says_whose_moves_it_takes_back():
    """"Move taken back." said nothing of the AI's reply that went with it: the table names what went, to the person
    who asked and (at a network table) to everyone else."""
    from towerworld.engine.words import played_again, taken_back
    m = relay(ANN, PlayerSpec("AI 2, random", "ai", "random"))
    names = [p.name for p in m.players]
    play(m, T1, T1, T1, T1)                  # Ann's turn, then the AI's
    assert m.undo_takes() == [0, 1, 1] and m.undo_takes(1) == []
    assert taken_back(m.undo_takes(), names) == "Taken back: your move and the reply of AI 2, random."
    assert taken_back(m.undo_takes(), names, "Ann") == "Ann took back their last move and the reply of AI 2, random."
    assert m.undo() == [0, 1, 1] and m.undo_takes() == [0]       # (undo says what it took, as undo_takes did)
    # redo says what it played again ("Move replayed." said nothing of the AI's reply that came back with it)
    assert played_again(m.redo(), names) == "Played again: your move and the reply of AI 2, random."
    assert m.redo() == [] and m.undo() == [0, 1, 1]
    assert taken_back(m.undo_takes(), names) == "Taken back: your move."
    three = relay(ANN, PlayerSpec("Bo", "ai", "random"), PlayerSpec("Cy", "ai", "random"))
    play(three, T1, T1, T1, T1, T1, T1)
    assert taken_back(three.undo_takes(), [p.name for p in three.players]) == \
        "Taken back: your move and the replies of Bo and Cy."
