"""K'Dak's Tower of Confusion (and Camel Wash), by Jim Adams and Amy Enge: the game contract over rules.py."""
from __future__ import annotations

import random

from towerworld.engine.game import CHANCE, TERMINAL, AgentSpec, BadOption, Game, GameInfo, Option, Variant
from towerworld.engine.words import counted
from towerworld.games.kdak import layout, notation, strategy
from towerworld.games.kdak.board import (END_CAP, END_LOST, LEVELS, MOVE, NOT_IN, OVER, REVEAL, ROLL, RUNNING,
                                         TILES, TITLES, KState, Opts)
from towerworld.games.kdak.rules import advance, decision_moves, playout, unseen_identities, why_illegal


# No rule bounds the climb (the seed sets no limit; the move_cap option may): 20,000 plies is a practical bound for
# playouts and OpenSpiel's GameInfo (uniformly random two-player games take about 150 plies, rarely 300). A player
# weighs at most 24 moves. Two players win 1 and lose -1 (a tie 0); the solitaire and cooperative rules give every pawn
# the same value, from -1 (lost) to 1, so the returns need not sum to 0. Identities are decided by chance when revealed:
# the state holds only public facts.
INFO = GameInfo(min_players=1, max_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=False, chance=True,
                perfect_information=True, max_plies=20_000, max_moves=24)


class KDakGame(Game):
    name = "kdak"
    title = "K'Dak's Tower of Confusion"
    table_keys = ("P: physical crumbles (tiles knocked out of the tower fall under gravity)",)
    players_without_variant = (2, 2)
    options = (
        Option("talisman", False, "talisman variant: every null tile turned face up gives a talisman (an extra turn)",
               label="Talismans in null tiles"),
        Option("crumble_from_start", False, "the tower crumbles from the first turn (solitaire / cooperative)",
               label="Crumbling from the start"),
        Option("level5_talisman", False, "a talisman lies by level 5: fetch it to open the door; titles at the end "
                                         "(solitaire / cooperative)", label="Talisman by level 5"),
        Option("up_needs_two", True, "going up needs at least two face-up tiles on your level",
               label="Going up needs two face-up tiles"),
        Option("pooled", False, "the players pool their points (cooperative)", label="Pooled score"),
        Option("move_cap", 0, "0: none (the rules set none); n: the game ends after n moves, die rolls included, "
                              "scored as it stands (solitaire / cooperative: lost, nobody escaped)", low=0,
               high=100_000, label="Move limit"),
    )
    _SOLO = {"crumble_from_start": True, "level5_talisman": True, "up_needs_two": False}
    variants = (
        Variant("standard", "two players climb, then escape the crumbling tower", {}, players=(2, 2)),
        Variant("talisman", "null tiles hold talismans that give extra turns", {"talisman": True}, players=(2, 2)),
        Variant("solitaire", "Kaka alone: the tower crumbles at once; fetch the talisman on level 5 and escape",
                dict(_SOLO), players=(1, 1)),
        Variant("cooperative", "the solitaire rules for two pawns with a pooled score",
                {**_SOLO, "pooled": True}, players=(2, 2)),
    )

    def info(self) -> GameInfo:
        return INFO

    # ---- setup -------------------------------------------------------------------------------------------------------
    def resolve_options(self, options=None, variant=None, players=None):
        """Options and player count. Without a count, the options decide: one player for the solitaire rules (the
        level-5 talisman without a pooled score), two otherwise; combinations that make no game are refused."""
        merged, _ = super().resolve_options(options, variant, None)
        n = players
        if n is None:
            n = 1 if merged["level5_talisman"] and not merged["pooled"] else 2
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 2:
            raise BadOption(f"{self.title} is for one or two players, not {n!r}.")
        v = next((x for x in self.variants if x.name == variant), None)
        if v is not None and v.players and not v.players[0] <= n <= v.players[1]:
            raise BadOption(f"{self.title} ({variant}) is for {v.players[0]} player{'s' if v.players[0] > 1 else ''}, "
                            f"not {n}.")
        _check_combo(merged, n)
        return merged, n

    def new_state(self, options=None, players=None) -> KState:
        merged, n = self.resolve_options(options, None, players)
        o = Opts(merged["talisman"], merged["crumble_from_start"], merged["level5_talisman"],
                 merged["up_needs_two"], merged["pooled"], merged["move_cap"], n)
        cols = tuple(tuple(4 * lv + c for lv in range(LEVELS)) for c in range(4))
        return KState(o, cols, 0, (-1,) * TILES, (NOT_IN,) * n, (0,) * n, (0,) * n, False, 0, MOVE, (), -1, 0, 0,
                      False, (), 0, -1 if o.l5t else -2, RUNNING)

    def num_players(self, state):
        return state.opts.n

    # ---- rules -------------------------------------------------------------------------------------------------------
    def current_player(self, state):
        st = state.stage
        if st == OVER:
            return TERMINAL
        if st == ROLL or st == REVEAL:
            return CHANCE
        return state.turn

    def legal_moves(self, state):
        return decision_moves(state)

    def chance_outcomes(self, state):
        if state.stage == ROLL:
            return [(("roll", r), 1 / 6) for r in range(6)]
        if state.stage == REVEAL:
            left = unseen_identities(state.ident)
            p = 1 / len(left)
            return [(("reveal", v), p) for v in left]
        return []

    def reveal_key(self, state):
        """A tile turned up is that tile (its slot), whichever way the pawns came to it."""
        if state.stage == REVEAL and state.pending:
            return ("tile", state.pending[1])
        return None

    def reveal_item(self, state, outcome):
        """A tile's identity exists once: seen on one tile, it is never turned up on another."""
        return outcome[1] if outcome[0] == "reveal" else None

    def apply_unchecked(self, state, move):
        ev: list = []
        return advance(state, move, ev), ev

    def random_playout(self, state, rng: random.Random, max_plies=None):
        """Fast random play: the rules' step function without events (rules.playout)."""
        return playout(state, rng, max_plies or self.max_plies)

    def rollout(self, state, rng: random.Random, max_plies=None):
        """Leaf playouts for search: a cheap climbing policy (climb straight up, spare level 5 and your own column,
        then hunt face-down tiles), 15% uniform. Uniform play climbs by a random walk: under the solitaire rules it
        almost never reaches level 5, and in the two-player game it spends half its plies wandering, which tells a
        search little and costs twice the time. The playout steps through the rules' own move generation and step
        function (rules.playout), as `apply_unchecked` does."""
        return playout(state, rng, max_plies or self.max_plies, strategy.policy_choice)

    def search_moves(self, state, moves):
        """After a long climb, a search goes up and never down (strategy.patient_moves): two searching players would
        otherwise wait below for each other for ever."""
        return strategy.patient_moves(state, moves)

    # ---- outcome -----------------------------------------------------------------------------------------------------
    def scores(self, state):
        if state.opts.pooled:
            total = sum(state.scores)
            return [total] * state.opts.n
        return list(state.scores)

    def lost(self, state) -> bool:
        """Solitaire / cooperative: the game is lost (level 5 gone, or out of the tower, before the talisman)."""
        return state.opts.l5t and state.stage == OVER and state.tower_tal < 0

    def returns(self, state):
        n = state.opts.n
        if state.stage != OVER:
            return [0.0] * n
        if state.opts.l5t:
            if state.tower_tal < 0 or state.end == END_CAP:
                return [-1.0] * n
            return [min(1.0, sum(state.scores) / 53)] * n
        s = state.scores
        if n == 1:
            return [0.0]
        if s[0] == s[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if s[0] > s[1] else [-1.0, 1.0]

    def result(self, state):
        if state.stage != OVER:
            return "in progress"
        o = state.opts
        who = "Kaka" if o.n == 1 else "Kaka and Baba"
        capped = f"The move limit of {counted(o.move_cap, 'move')} (die rolls included) was reached"
        if o.l5t:
            if state.end == END_CAP:
                return f"{capped} before {who} escaped: lost."
            if state.end == END_LOST:
                return (f"Level 5 crumbled before {who} reached the talisman: lost (and a pounding headache from the "
                        "Phuzzy Pharaohs).")
            if state.tower_tal < 0:
                return f"{who} left the tower without the talisman: lost."
            total = sum(state.scores)
            title = next((t for pts, t in TITLES if total >= pts), None)
            if title:
                return f"{who} escaped with {counted(total, 'point')}: {title}!"
            return f"{who} escaped with {counted(total, 'point')}, short of the 37 a camel boy needs."
        s = state.scores
        w = 0 if s[0] > s[1] else 1
        told = f"Draw, {s[0]} to {s[1]}." if s[0] == s[1] else f"Player {w + 1} wins, {s[w]} to {s[1 - w]}."
        return f"{capped}: {told[0].lower()}{told[1:]}" if state.end == END_CAP else told

    def solitaire_won(self, state) -> bool:
        """Solitaire statistics count a win only with a title: out with the talisman and 37 points or more."""
        return (state.opts.l5t and state.stage == OVER and state.end != END_CAP and state.tower_tal >= 0
                and sum(state.scores) >= TITLES[-1][0])

    def title_for(self, points: int) -> str | None:
        return next((t for pts, t in TITLES if points >= pts), None)

    # ---- explanations ------------------------------------------------------------------------------------------------
    def why_impossible(self, state, outcome) -> str:
        return self.why_illegal(state, outcome)     # the refusal reasons speak of dice and draws too

    def why_illegal(self, state, move) -> str:
        return why_illegal(state, move)

    def explain(self, state, picks) -> str:
        move = notation.move_from_picks(state, picks)
        if move is None:
            return "That is not a legal move here."
        if move in self.legal_moves(state):
            return "That move is legal."
        return why_illegal(state, move)

    # ---- notation, picks, layout, hud (in their own modules) ---------------------------------------------------------
    def format_move(self, state, move):
        return notation.format_move(state, move)

    def parse_move(self, state, text):
        return notation.parse_move(state, text)

    def describe_move(self, state, move):
        return notation.describe_move(state, move)

    def describe_pick(self, state, picks, pick):
        return notation.describe_pick(state, picks, pick)

    def picks(self, state, move):
        return notation.picks(state, move)

    def layout(self, state, viewer):
        return layout.build_layout(state)

    def hud(self, state, viewer):
        return layout.hud(self, state)

    panel_keys = ("scores", "pawns", "talismans")

    def panels(self, state, viewer):
        return layout.panels(self, state)

    def prompt(self, state, viewer):
        return layout.prompt(state)

    def observation(self, state, viewer):
        """Everything in the state is public: identities of never-seen tiles are not in it (decided when revealed)."""
        return state

    def heuristic(self, state, player):
        return strategy.heuristic(self, state, player)

    def agents(self) -> tuple[AgentSpec, ...]:
        return strategy.AGENTS


def _check_combo(o: dict, n: int) -> None:
    if o["pooled"] and not o["level5_talisman"]:
        raise BadOption("A pooled score belongs to the cooperative rules: turn on 'Talisman by level 5' too.")
    if o["pooled"] and n != 2:
        raise BadOption("A pooled score needs two players.")
    if n == 1 and not o["level5_talisman"]:
        raise BadOption("One player plays the solitaire rules: choose the 'solitaire' variant.")
    if n == 2 and o["level5_talisman"] and not o["pooled"]:
        raise BadOption("With the level-5 talisman two players play cooperatively: turn on 'Pooled score' too.")
    if o["talisman"] and o["level5_talisman"]:
        raise BadOption("The talisman variant's null-tile talismans do not mix with the solitaire level-5 talisman.")
