"""Ziggurat (Tom Gale, rules v2 2007): the game contract over rules.py.

The vocabulary is in board.py, the rules in rules.py, the notation in notation.py, the layout and HUD in layout.py,
heuristics and agents in strategy.py (over the deal analyser's searches in solver.py).
"""
from __future__ import annotations

from towerworld.engine.agent import View
from towerworld.engine.game import CHANCE, OMNISCIENT, TERMINAL, AgentSpec, Game, GameInfo, Option, Variant
from towerworld.engine.words import counted
from towerworld.games.ziggurat import layout, notation, rules, strategy
from towerworld.games.ziggurat.board import (ALL_MASK, CHEAT, DINDEX, DOMINOES, EMPTY, NB, NUMBERED_DEALS, PLACE,
                                             ZState, cell_index, cname, deal_order, dname, title)


# No rule bounds a game: cheats are unlimited unless the cheat_limit option sets one. 50,000 plies is a practical bound
# for playouts and OpenSpiel's GameInfo: uniformly random play gives up after about 500 plies (the longest of 300
# random games took under 10,000). A solitaire's value runs from -1 (nothing standing) to 1 (finished without a
# cheat). The pile's order is hidden.
INFO = GameInfo(min_players=1, max_players=1, min_utility=-1.0, max_utility=1.0, zero_sum=False, chance=True,
                perfect_information=False, max_plies=50_000, max_moves=max(28 * 120 + 28, NUMBERED_DEALS))


class Ziggurat(Game):
    name = "ziggurat"
    title = "Ziggurat"
    options = (
        Option("cheat_limit", 0, "0: no limit (the seed sets none); n: the game ends, given up, once n cheats are "
                                 "counted", low=0, high=1000, label="Cheats allowed"),
        Option("deal", 0, "0: a shuffled pile (every draw a chance move); n >= 1: the fixed numbered deal n; "
                          "-1: one of numbered deals 1-1000, as the draws pin it down", low=-1, high=1_000_000_000,
               label="Numbered deal"),
    )
    variants = (
        Variant("numbered", "FreeCell-style numbered deals: the pile is one of deals 1-1000, the one the draws "
                            "pin down (the solver agent reads its order; nobody else sees it)", {"deal": -1}),
    )

    def info(self) -> GameInfo:
        return INFO

    # ---- setup ------------------------------------------------------------------------------------------------------
    def new_state(self, options=None, players=None):
        opts, _ = self.resolve_options(options, players=players)
        deal = opts["deal"]
        pile = deal_order(deal) if deal > 0 else ()
        return ZState(EMPTY, EMPTY, (), ALL_MASK, pile, 0, opts["cheat_limit"], deal)

    def num_players(self, state):
        return 1

    # ---- rules ------------------------------------------------------------------------------------------------------
    def current_player(self, state):
        return rules.current_player(state)

    def legal_moves(self, state):
        return rules.legal_moves(state)

    def chance_outcomes(self, state):
        return rules.chance_outcomes(state)

    def apply_unchecked(self, state, move):
        return rules.step(state, move)

    # ---- outcome ----------------------------------------------------------------------------------------------------
    def complete(self, state) -> bool:
        return rules.complete(state)

    def solitaire_won(self, state):
        """Won means the ziggurat stands, however many cheats it took (the title says how well)."""
        return self.complete(state)

    def returns(self, state):
        """A standing ziggurat is worth 1 less a share per cheat; an unfinished one -1 plus a share per domino standing
        less one per cheat (rules.returns)."""
        return rules.returns(state)

    def rollout(self, state, rng, max_plies=None):
        """Search rollouts place a random fitting domino while one fits and give up when none does (rules.py):
        uniform play cheats as often as it builds and never finishes a deal, so its value says nothing."""
        limit = max_plies or self.max_plies
        if self.current_player(state) == TERMINAL:
            return state
        return rules.placing_playout(state, rng, limit)

    def scores(self, state):
        return [state.cheats]

    def result(self, state):
        if self.complete(state):
            c = state.cheats
            return (f"{title(c)}: the ziggurat stands with {c} cheat{'s' if c != 1 else ''}.")
        if state.gave_up:
            return f"Given up with {counted(state.cheats, 'cheat')}, the ziggurat unfinished: Disgraceful Blundering Saboteur."
        if self.current_player(state) == TERMINAL:
            return (f"Given up after {counted(state.cheats, 'cheat')} (the limit is {state.limit}): "
                    f"Disgraceful Blundering Saboteur.")
        return "in progress"

    def observation(self, state, viewer):
        # the pile order and the deal number stay hidden: only which dominoes are unseen is known
        return (state.vals, state.owner, state.hand, state.unseen, state.cheats, state.limit, state.gave_up)

    def resample(self, state, viewer, rng):
        """What the player knows with the unknown made concrete: the pile order is forgotten, so every draw becomes a
        chance move among the unseen dominoes again (search never sees a numbered deal's order)."""
        if viewer == OMNISCIENT:
            return state
        if state.deal == 0:
            return state
        return ZState(state.vals, state.owner, state.hand, state.unseen, (), state.cheats, state.limit, 0,
                      state.gave_up)

    def heuristic(self, state, player=0):
        if self.is_terminal(state):
            return self.returns(state)[0] * 1000.0
        placed = sum(1 for v in state.vals if v >= 0) // 2
        return placed - 3.0 * state.cheats

    def agents(self) -> tuple[AgentSpec, ...]:
        return strategy.AGENTS

    def hint(self, state, viewer, budget: float = 0.5):
        """The move the fair player rates best from what `viewer` may know (the hand, the ziggurat, which dominoes are
        unseen; never the pile order). None when it is not the viewer's decision."""
        if self.current_player(state) != viewer:
            return None
        return strategy.Player(seed=0, budget=budget).choose(View.of(self, state, viewer))

    # ---- notation (notation.py) --------------------------------------------------------------------------------------
    def format_move(self, state, move):
        return notation.format_move(state, move)

    def parse_move(self, state, text):
        return notation.parse_move(state, text)

    # ---- explanations -----------------------------------------------------------------------------------------------
    def why_impossible(self, state, outcome) -> str:
        return rules.why_impossible(state, outcome)

    def why_illegal(self, state, move):
        return rules.why_illegal(state, move)

    def placement_problem(self, state, t, c1, c2, v1, v2) -> str | None:
        """The first rule a placement breaks, as a sentence; None when it is legal."""
        return rules.placement_problem(state, t, c1, c2, v1, v2)

    def explain(self, state, picks):
        cp = self.current_player(state)
        if cp == TERMINAL:
            return "The game is over."
        if cp == CHANCE:
            return "The next domino must be drawn from the pile first."
        if not picks:
            return "Pick a domino in your hand, or a placed domino to pick it up (a cheat)."
        first = picks[0]
        if not first.startswith("domino:"):
            return "Pick a domino in your hand first (or a placed domino to cheat)."
        try:
            lo, hi = (int(x) for x in first[7:].split("-"))
            d = DINDEX[(lo, hi)]
        except (ValueError, KeyError):
            return "That is not a domino."
        if d not in state.hand:
            if d in state.owner:
                return f"Picking up the {dname(d)} is a cheat; pick it alone."
            return f"The {dname(d)} is still face down in the pile."
        cells = []
        for p in picks[1:3]:
            parts = p.split(":")
            if len(parts) != 3 or parts[0] != "cell" or not parts[1].startswith("t"):
                return "Pick two side-by-side cells of the foundation map for the domino."
            try:
                cells.append((int(parts[1][1:]), cell_index(parts[2])))
            except (ValueError, IndexError):
                return "Pick two side-by-side cells of the foundation map for the domino."
        if len(cells) == 1:
            t, c = cells[0]
            partners = [(t, n) for n in NB[c]]
            reasons = []
            for _, n in partners:
                for a, b in ((lo, hi), (hi, lo)):
                    r = rules.pair_problem(state, t, c, n, a, b)
                    if r is None:
                        return "That cell is fine: now pick the cell for the other half."
                    reasons.append(r)
            # the first half's own fault beats a fault of its possible partners
            own = [r for r in reasons if cname(c) in r]
            return (own or reasons or ["No domino fits there."])[0]
        if len(cells) >= 2:
            (t, c1), (t2, c2) = cells[0], cells[1]
            if t != t2:
                return "No balancing: both halves of a domino lie on the same tier."
            r = rules.pair_problem(state, t, c1, c2, lo, hi)
            if r is None and lo != hi:
                r = rules.pair_problem(state, t, c1, c2, hi, lo)
            return r or "That is not a legal move here."
        return "That is not a legal move here."

    # ---- play screen ------------------------------------------------------------------------------------------------
    def picks(self, state, move):
        kind = move[0]
        if kind == PLACE:
            _, t, c1, c2, v1, v2 = move
            d = DINDEX[(v1, v2)]
            lo, hi = DOMINOES[d]
            # the first cell takes the low half (as the hand shows it, low half on the left), the second the high
            if v1 == lo:
                return (f"domino:{dname(d)}", f"cell:t{t}:{cname(c1)}", f"cell:t{t}:{cname(c2)}")
            return (f"domino:{dname(d)}", f"cell:t{t}:{cname(c2)}", f"cell:t{t}:{cname(c1)}")
        if kind == CHEAT:
            return (f"domino:{dname(move[1])}",)
        return (self.format_move(state, move),)


    # ---- what a viewer sees (layout.py) ----------------------------------------------------------------------------
    def hud(self, state, viewer):
        return layout.hud(self, state, viewer)

    panel_keys = ("cheats", "hand", "pile")

    def panels(self, state, viewer):
        return layout.panels(self, state, viewer)

    def prompt(self, state, viewer):
        return layout.prompt(self, state, viewer)

    def layout(self, state, viewer):
        return layout.build_layout(state, viewer)

    def describe_move(self, state, move) -> str:
        """The move in a player's words, for hints: "play the 6-4 on c1-c2 of the bottom tier"."""
        return layout.describe_move(state, move)

    def describe_pick(self, state, picks, pick) -> str:
        return layout.describe_pick(state, picks, pick)

    def confirm_text(self, state, move, viewer):
        """Seed: "Every domino picked up from the ziggurat and replaced is counted as a cheat": the table asks before
        a cheat, saying which cheats it adds."""
        return layout.confirm_text(state, move)

