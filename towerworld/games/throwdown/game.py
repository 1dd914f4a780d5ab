"""Ziggurat Demolition Throwdown, by P.D. Magnus: the game contract over rules.py (rules text: seed 002)."""
from __future__ import annotations

import random

from towerworld.engine.agent import View
from towerworld.engine.game import (CHANCE, OMNISCIENT, TERMINAL, AgentSpec, BadOption, Game, GameInfo, Option,
                                    Variant)
from towerworld.engine.words import counted
from towerworld.games.throwdown import layout, notation, strategy
from towerworld.games.throwdown.board import (ATTRITION, CHANGE, DEAL, DEFEND, DRAW, HAND, OVER, START, START_COLOURS,
                                              TURN, TState, bits)
from towerworld.games.throwdown.cards import BASIC, BASIC_DECK, CARDS, FULL_DECK, GREEN, SHORT, pyramid
from towerworld.games.throwdown.rules import (_name, _step, _W, attack_moves, change_options, defence_moves,
                                              remodel_moves, standing_pips)


# Every turn spends or draws cards; every pass through the pile costs each player still in a pip of attrition, and a
# player has at most 24 pips: see docs/rules/throwdown.md for the 40,000-ply bound. The winner gets 1, everybody else
# -1, and on a tie for the most points everybody loses (so the returns need not sum to 0). Hands are secret.
INFO = GameInfo(min_players=2, max_players=5, min_utility=-1.0, max_utility=1.0, zero_sum=False, chance=True,
                perfect_information=False, max_plies=40_000, max_moves=1_000)


def extended_deck(extended: bool, names: str) -> int:
    """The deck as a bit set: the 36 basic cards, and with `extended` the extended deck's cards `names` names (by
    their short names joined with '+'; empty: all nine). The seed: "you can add some or all of the extended deck
    cards". BadOption for a name that is none of the nine."""
    words = [w.strip().lower() for w in names.split("+")] if names.strip() else []
    if not extended:
        if words:
            raise BadOption("'Extended cards in play' picks cards of the extended deck: turn on 'The extended deck' too.")
        return BASIC_DECK
    if not words:
        return FULL_DECK
    by_name = {SHORT[c]: c for c in range(BASIC, len(CARDS))}
    deck = BASIC_DECK
    for word in words:
        if word not in by_name:
            raise BadOption(f"'{word[:30]}' is not a card of the extended deck ({', '.join(by_name)}).")
        deck |= 1 << by_name[word]
    return deck


class ThrowdownGame(Game):
    name = "throwdown"
    title = "Ziggurat Demolition Throwdown"
    options = (
        Option("extended", False, "add the extended Decktet: the Excuse, four Pawns and four Courts",
               label="The extended deck"),
        Option("extended_cards", "", "with extended: only these of its nine cards, by name joined with '+' "
                                     "(excuse+watchman+consul); empty: all nine", label="Extended cards in play"),
    )
    variants = (
        Variant("extended", "the extended deck: the Excuse (defence as any Ace, or an unblockable attack), Pawns "
                "(1-pip attacks) and Courts (2-pip attacks)", {"extended": True}),
    )
    default_opponent = "ismcts"      # searches what its seat may know; determinized MCTS would peek through samples

    def info(self) -> GameInfo:
        return INFO

    # ---- setup -------------------------------------------------------------------------------------------------------
    def new_state(self, options=None, players=None) -> TState:
        merged, n = self.resolve_options(options, None, players)
        towers = tuple(tuple(tuple(pyramid(c, size, s) for size in (3, 2, 1)) for c in START_COLOURS) for s in range(n))
        scrap = sum(1 << pyramid(GREEN, size, s) for size in (1, 2, 3) for s in range(n))
        deck = extended_deck(bool(merged["extended"]), merged["extended_cards"])
        return TState(n, bool(merged["extended"]), (0,) * n, deck, (), towers, scrap, (0,) * n, (0,) * n, -1, START,
                      (), (), (), -1, 0)

    def num_players(self, state):
        return state.n

    # ---- rules -------------------------------------------------------------------------------------------------------
    def current_player(self, state):
        st = state.stage
        if st in (START, DEAL, DRAW):
            return CHANCE
        if st == TURN:
            return state.turn
        if st == DEFEND:
            return state.attack[3]
        if st == CHANGE:
            return state.change[0]
        if st == ATTRITION:
            return state.queue[0]
        return TERMINAL

    def legal_moves(self, state):
        st = state.stage
        if st == TURN:
            p = state.turn
            moves = attack_moves(state, p)
            if bin(state.hands[p]).count("1") < HAND:
                moves.append(("draw",))
            moves += remodel_moves(state, p)
            return sorted(moves) if moves else [("pass",)]
        if st == DEFEND:
            return defence_moves(state)
        if st == CHANGE:
            return sorted(("change", code) for code in change_options(state.scrap, state.change[3]))
        if st == ATTRITION:
            seat = state.queue[0]
            return [("attrition", t) for t, tower in enumerate(state.towers[seat]) if tower]
        return []

    def chance_outcomes(self, state):
        if state.stage == START:
            return [(("start", s), 1 / state.n) for s in range(state.n)]
        if state.stage in (DEAL, DRAW):
            cards = bits(state.pile)
            p = 1 / len(cards)
            return [(("card", c), p) for c in cards]
        return []

    def apply_unchecked(self, state, move):
        ev: list = []
        w = _W(state, ev)
        _step(w, move)
        return w.freeze(), ev

    def random_playout(self, state, rng: random.Random, max_plies=None):
        """Fast random play: the same rule steps without events."""
        limit = max_plies or self.max_plies
        plies = 0
        while state.stage != OVER and plies < limit:
            if state.stage in (DEAL, DRAW):
                cards = bits(state.pile)
                move = ("card", cards[rng.randrange(len(cards))])
            elif state.stage == START:
                move = ("start", rng.randrange(state.n))
            else:
                moves = self.legal_moves(state)
                move = moves[rng.randrange(len(moves))]
            w = _W(state, None)
            _step(w, move)
            state = w.freeze()
            plies += 1
        return state

    # ---- outcome -----------------------------------------------------------------------------------------------------
    def scores(self, state):
        """Points for destroyed towers plus one per pip still standing (the final count if the battle ended now)."""
        return [state.points[s] + standing_pips(state, s) for s in range(state.n)]

    def winners(self, state) -> list[int]:
        s = self.scores(state)
        best = max(s)
        return [i for i, v in enumerate(s) if v == best]

    def returns(self, state):
        """Win 1, loss -1. The seed: "If there is a tie, then an uninvolved wizard from down the hall claims the
        battle as a victory over all of you": on a tie for the most points everybody loses, the tied players too."""
        if state.stage != OVER:
            return [0.0] * state.n
        top = self.winners(state)
        if len(top) == 1:
            return [1.0 if i == top[0] else -1.0 for i in range(state.n)]
        return [-1.0] * state.n

    def result(self, state):
        if state.stage != OVER:
            return "in progress"
        s = self.scores(state)
        top = self.winners(state)
        if len(top) == 1:
            return f"{_name(top[0])} wins with {counted(s[top[0]], 'point')}."
        names = " and ".join(_name(i) for i in top)
        return f"{names} tie with {counted(s[top[0]], 'point')}: an uninvolved wizard from down the hall wins."

    # ---- hidden information ------------------------------------------------------------------------------------------
    def observation(self, state, viewer):
        """Own hand (for a seat), everybody's hand sizes, and everything public; OMNISCIENT: the state."""
        if viewer == OMNISCIENT:
            return state
        public = (state.n, state.extended, tuple(bin(h).count("1") for h in state.hands), bin(state.pile).count("1"),
                  state.discards, state.towers, state.scrap, state.points, state.losses, state.turn, state.stage,
                  state.attack, state.change, state.queue, state.receiver, state.to_deal)
        if 0 <= viewer < state.n:
            return ("seat", viewer, state.hands[viewer], public)
        return ("public", public)

    def resample(self, state, viewer, rng: random.Random):
        """Deal every card the viewer cannot see (others' hands and the unseen pile) again at random, keeping every
        hand size."""
        if viewer == OMNISCIENT:
            return state
        hidden = [s for s in range(state.n) if s != viewer]
        unseen = state.pile
        for s in hidden:
            unseen |= state.hands[s]
        pool = bits(unseen)         # in card order: where each unseen card truly lies must not steer the shuffle
        rng.shuffle(pool)
        hands = list(state.hands)
        for s in hidden:
            k = bin(state.hands[s]).count("1")
            hands[s] = sum(1 << c for c in pool[:k])
            pool = pool[k:]
        return state._replace(hands=tuple(hands), pile=sum(1 << c for c in pool))

    # ---- explanations, notation, picks, layout, hud (in their own modules) -------------------------------------------
    def why_impossible(self, state, outcome) -> str:
        return self.why_illegal(state, outcome)     # the refusal reasons speak of dice and draws too

    def why_illegal(self, state, move) -> str:
        return notation.why_illegal(self, state, move)

    def explain(self, state, picks) -> str:
        return notation.explain(self, state, picks)

    def describe_move(self, state, move) -> str:
        return notation.describe_move(state, move)

    def describe_pick(self, state, picks, pick) -> str:
        return notation.describe_pick(state, picks, pick)

    def format_move(self, state, move):
        return notation.format_move(state, move)

    def parse_move(self, state, text):
        return notation.parse_move(state, text)

    def picks(self, state, move):
        return notation.picks(state, move)

    def layout(self, state, viewer):
        return layout.build_layout(state, viewer)

    def hud(self, state, viewer):
        return layout.hud(self, state, viewer)

    panel_keys = ("scores", "hands")

    def panels(self, state, viewer):
        return layout.panels(self, state, viewer)

    def prompt(self, state, viewer):
        return layout.prompt_for(self, state, viewer)

    def hint(self, state, viewer, budget: float = 0.5):
        """The greedy agent's move for `viewer`, from the viewer's View (its own hand, the rest resampled)."""
        if self.current_player(state) != viewer or viewer < 0:
            return None
        return strategy.GreedyAgent(self, seed=0, samples=3).choose(View.of(self, state, viewer))

    def rollout(self, state, rng: random.Random, max_plies=None):
        """A search's playout: the strategy module's cheap policy for a few turns, then the heuristic judges (uniform
        play to the end takes some 300 plies and mostly tells who drew the better cards)."""
        return strategy.rollout(state, rng, max_plies)

    def playout_move(self, state, rng: random.Random):
        return strategy.policy_move(state, rng.random)

    def heuristic(self, state, player):
        return strategy.heuristic(self, state, player)

    def agents(self) -> tuple[AgentSpec, ...]:
        return strategy.AGENTS
