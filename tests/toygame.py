"""Toy Stack: a tiny test-only game that exercises the whole contract (chance, hidden hands, a layout, variants).

It is not registered under towerworld.games; tests add it explicitly (see `toy_registered`).

Rules. A deck holds the values 1..4, `copies` cards of each. On your turn you first draw a card (a chance move)
into your hand, which the others cannot see, unless the deck is empty. Then you play one card of your hand onto the
shared pile, scoring its value, plus 2 when it matches the value on top of the pile, or you pass; you may only pass
while your hand is within the hand limit and the deck still has cards, or when your hand is empty. The game ends when
the deck and every hand are empty; the highest score wins. Variant "solo" is for one player, who maximises the score.

Notation: `d3` (chance: a 3 is drawn), `p3` (play a 3), `pass`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from towerworld.engine.game import (CHANCE, OMNISCIENT, TERMINAL, BadNotation, BadOption, Event, EventKind, Game,
                                    GameInfo, Option, Variant)
from towerworld.engine.layout import Cell, Layout, Pose, look

VALUES = (1, 2, 3, 4)


@dataclass(frozen=True, slots=True)
class ToyState:
    n: int
    deck: tuple[int, ...]                                  # remaining count per value 1..4
    hands: tuple[tuple[tuple[int, int], ...], ...]         # per player: sorted (value, card number)
    pile: tuple[tuple[int, int], ...]                      # (value, card number), bottom first
    scores: tuple[int, ...]
    to_move: int
    drawing: bool                                          # a draw (chance) is due for to_move
    drawn: int                                             # cards drawn so far (the next card's number)
    limit: int
    copies: int


class ToyGame(Game):
    name = "toy"
    title = "Toy Stack"
    players_without_variant = (2, 3)
    options = (
        Option("copies", 2, "cards of each value in the deck", low=1, high=3),
        Option("hand_limit", 3, "most cards you may hold and still pass", low=1, high=4),
    )
    variants = (
        Variant("solo", "one player maximises the score", {}, players=(1, 1)),
        Variant("quick", "one card of each value", {"copies": 1}),
    )

    def info(self):
        return GameInfo(min_players=1, max_players=3, min_utility=-1.0, max_utility=1.0, zero_sum=False, chance=True,
                        perfect_information=False, max_plies=100, max_moves=5)

    # ---- setup ----------------------------------------------------------------------------------------------------
    def new_state(self, options=None, players=None):
        # Contract friction: new_state does not know the variant, so a variant's player count (solo) cannot be checked
        # by resolve_options here; Match has already checked it.
        opts, _ = self.resolve_options(options)
        n = self.min_players if players is None else players
        if not 1 <= n <= self.max_players:
            raise BadOption(f"Toy Stack is for 1 to {self.max_players} players, not {n}.")
        c = opts["copies"]
        return ToyState(n, (c,) * 4, ((),) * n, (), (0,) * n, 0, True, 0, opts["hand_limit"], c)

    def num_players(self, state):
        return state.n

    # ---- rules ----------------------------------------------------------------------------------------------------
    def current_player(self, state):
        if state.drawing:
            return CHANCE
        if not any(state.deck) and not any(state.hands):
            return TERMINAL
        return state.to_move

    def legal_moves(self, state):
        if self.current_player(state) < 0:
            return []
        hand = state.hands[state.to_move]
        moves = [("play", v) for v in sorted({v for v, _ in hand})]
        if not hand or (len(hand) <= state.limit and any(state.deck)):
            moves.append(("pass",))
        return sorted(moves)

    def chance_outcomes(self, state):
        if not state.drawing:
            return []
        total = sum(state.deck)
        return [(("draw", v), c / total) for v, c in zip(VALUES, state.deck) if c]

    def apply_unchecked(self, state, move):
        kind = move[0]
        p = state.to_move
        if kind == "draw":
            v = move[1]
            deck = list(state.deck)
            deck[v - 1] -= 1
            hands = list(state.hands)
            hands[p] = tuple(sorted(hands[p] + ((v, state.drawn),)))
            new = ToyState(state.n, tuple(deck), tuple(hands), state.pile, state.scores, p, False,
                           state.drawn + 1, state.limit, state.copies)
            others = tuple(i for i in range(state.n) if i != p)
            return new, [Event(EventKind.DRAW, (f"card:{state.drawn}",), f"Player {p + 1} draws a card.",
                               reveals=True, visible_to=others),
                         Event(EventKind.DRAW, (f"card:{state.drawn}",), f"You draw a {v}.", reveals=True,
                               visible_to=(p,))]
        events = []
        hands, pile, scores = state.hands, state.pile, state.scores
        if kind == "play":
            v = move[1]
            hand = list(hands[p])
            card = next(c for c in hand if c[0] == v)
            hand.remove(card)
            gain = v + (2 if pile and pile[-1][0] == v else 0)
            hands = hands[:p] + (tuple(hand),) + hands[p + 1:]
            pile = pile + (card,)
            scores = scores[:p] + (scores[p] + gain,) + scores[p + 1:]
            events.append(Event("play", (f"card:{card[1]}",), f"Player {p + 1} plays a {v} for {gain}.",
                                reveals=True))
        else:
            events.append(Event("pass", (), f"Player {p + 1} passes."))
        nxt = (p + 1) % state.n
        new = ToyState(state.n, state.deck, hands, pile, scores, nxt, any(state.deck), state.drawn, state.limit,
                       state.copies)
        return new, events

    def why_illegal(self, state, move):
        cp = self.current_player(state)
        if cp == TERMINAL:
            return "The game is over."
        if not isinstance(move, tuple) or not move:
            return "That is not a move of Toy Stack."
        if cp == CHANCE or move[0] == "draw":
            return "Only the deck decides which card is drawn."
        hand = state.hands[cp]
        if move[0] == "play" and len(move) == 2:
            return f"You have no {move[1]} in your hand."
        if move == ("pass",):
            if len(hand) > state.limit:
                return f"You may not pass while holding more than {state.limit} cards."
            return "You may not pass while you hold cards and the deck is empty."
        return "That is not a move of Toy Stack."

    def returns(self, state):
        if state.n == 1:
            best = 10 * state.copies + 8 * (state.copies - 1)   # every value played, every possible pair bonus
            return [state.scores[0] / best] if self.is_terminal(state) else [0.0]
        if not self.is_terminal(state):
            return [0.0] * state.n
        best = max(state.scores)
        winners = [i for i, s in enumerate(state.scores) if s == best]
        if len(winners) == 1:
            return [1.0 if i == winners[0] else -1.0 for i in range(state.n)]
        return [0.0 if i in winners else -1.0 for i in range(state.n)]

    def scores(self, state):
        return list(state.scores)

    def observation(self, state, viewer):
        if viewer == OMNISCIENT:
            return state
        player = viewer
        hands = tuple(h if i == player else tuple(sorted(n for _, n in h)) for i, h in enumerate(state.hands))
        return (player, state.n, sum(state.deck), hands, state.pile, state.scores, state.to_move, state.drawing,
                state.drawn, state.limit, state.copies)

    def resample(self, state, viewer, rng: random.Random):
        if viewer == OMNISCIENT:
            return state
        player = viewer
        """A state consistent with what `player` knows: the others' hands and the deck dealt again from the unknown."""
        pool = [v for v, c in zip(VALUES, state.deck) for _ in range(c)]
        for i, h in enumerate(state.hands):
            if i != player:
                pool += [v for v, _ in h]
        rng.shuffle(pool)
        hands = list(state.hands)
        for i, h in enumerate(state.hands):
            if i != player:
                hands[i] = tuple(sorted((pool.pop(), n) for _, n in h))
        deck = tuple(pool.count(v) for v in VALUES)
        return ToyState(state.n, deck, tuple(hands), state.pile, state.scores, state.to_move, state.drawing,
                        state.drawn, state.limit, state.copies)

    # ---- notation -------------------------------------------------------------------------------------------------
    def format_move(self, state, move):
        if move == ("pass",):
            return "pass"
        return ("d" if move[0] == "draw" else "p") + str(move[1])

    def parse_move(self, state, text):
        t = text.strip().lower()
        if t == "pass":
            return ("pass",)
        if len(t) == 2 and t[0] in "dp" and t[1] in "1234":
            return ("draw" if t[0] == "d" else "play", int(t[1]))
        raise BadNotation(f"'{text}' is not Toy Stack notation (d1..d4, p1..p4 or pass).")

    # ---- presentation ---------------------------------------------------------------------------------------------
    def layout(self, state, viewer):
        lay = Layout()
        total = 4 * state.copies
        h = 0.3
        # the deck: undrawn cards face down, the next card on top
        for k, card in enumerate(range(total - 1, state.drawn - 1, -1)):
            lay.place(f"card:{card}", Pose("card", -100.0, 0.0, k * h, face_up=False))
        for k, (v, card) in enumerate(state.pile):
            lay.place(f"card:{card}", Pose("card", 0.0, 0.0, k * h, heading=15.0 * k, look=look(value=v)))
        for i, hand in enumerate(state.hands):
            # in draw order, so a hidden hand's layout says nothing about its values
            for j, (v, card) in enumerate(sorted(hand, key=lambda c: c[1])):
                shown = viewer in (i, OMNISCIENT)
                lay.place(f"card:{card}", Pose("card", -70.0 + 70.0 * j, -120.0 - 100.0 * i, 0.0, face_up=shown,
                                               look=self.hand_look(v, i, shown)))
        lay.cells["pass"] = Cell(100.0, 0.0, 0.0, 60.0, 60.0, "pass")
        return lay

    @staticmethod
    def hand_look(value, owner, shown):
        """A hand card's face is drawn only for those who may see it."""
        return look(value=value, owner=owner) if shown else look(owner=owner)

    def picks(self, state, move):
        if move == ("pass",):
            return ("pass",)
        if move[0] == "draw":
            return (f"card:{state.drawn}",)
        card = next(c for c in state.hands[state.to_move] if c[0] == move[1])
        return (f"card:{card[1]}",)

    def hud(self, state, viewer):
        cp = self.current_player(state)
        turn = "Game over" if cp == TERMINAL else "Drawing" if cp == CHANCE else f"Player {cp + 1} to play"
        return {"turn": turn, "deck": f"{sum(state.deck)} cards in the deck",
                "scores": "  ".join(f"P{i + 1}: {s}" for i, s in enumerate(state.scores))}


GAME = ToyGame()


class LeakyToy(ToyGame):
    """Toy Stack with a deliberate leak: face-down hand cards carry their value in the look, as if the printing showed
    through the back. The hidden-information harness must catch it (tests/test_hidden_info.py)."""
    name = "leakytoy"

    @staticmethod
    def hand_look(value, owner, shown):
        return look(value=value, owner=owner)


LEAKY = LeakyToy()


class ToyNim(Game):
    """Toy Nim: deterministic, perfect information, no chance. Take 1 to `max_take` coins from the stack; whoever takes
    the last coin wins. Notation: `t2` (take two). State: (coins left, player to move, max_take)."""
    name = "toynim"
    title = "Toy Nim"
    options = (
        Option("stones", 7, "coins in the stack at the start", low=1, high=15),
        Option("max_take", 3, "most coins one move may take", low=1, high=3),
    )

    def info(self):
        return GameInfo(min_players=2, max_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True, chance=False,
                        perfect_information=True, max_plies=15, max_moves=3)

    def new_state(self, options=None, players=None):
        opts, n = self.resolve_options(options, None, players)
        return (opts["stones"], 0, opts["max_take"])

    def num_players(self, state):
        return 2

    def current_player(self, state):
        return TERMINAL if state[0] == 0 else state[1]

    def legal_moves(self, state):
        if state[0] == 0:
            return []
        return [("take", k) for k in range(1, min(state[2], state[0]) + 1)]

    def apply_unchecked(self, state, move):
        k = move[1]
        ids = tuple(f"coin:{i}" for i in range(state[0] - k, state[0]))
        return (state[0] - k, 1 - state[1], state[2]), [Event("take", ids, f"Player {state[1] + 1} takes {k}.")]

    def why_illegal(self, state, move):
        if state[0] == 0:
            return "The game is over."
        return f"You may take 1 to {min(state[2], state[0])} coins."

    def returns(self, state):
        if state[0]:
            return [0.0, 0.0]
        winner = 1 - state[1]          # the player who took the last coin
        return [1.0 if i == winner else -1.0 for i in range(2)]

    def format_move(self, state, move):
        return f"t{move[1]}"

    def parse_move(self, state, text):
        t = text.strip()
        if len(t) == 2 and t[0] == "t" and t[1] in "123":
            return ("take", int(t[1]))
        raise BadNotation(f"'{text}' is not Toy Nim notation (t1, t2 or t3).")

    def layout(self, state, viewer):
        lay = Layout()
        for i in range(state[0]):
            lay.place(f"coin:{i}", Pose("pp_coin", 0.0, 0.0, i * 3.18))
        lay.place("marker", Pose("marker", 40.0, -20.0 + 40.0 * state[1], 0.0))   # whose turn it is
        lay.cells["table"] = Cell(0.0, 0.0, 0.0, 40.0, 40.0, "table")
        return lay

    def picks(self, state, move):
        return (f"coin:{state[0] - move[1]}",) if state[0] else ("table",)


NIM = ToyNim()
