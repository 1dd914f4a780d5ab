"""Ziggurat (Tom Gale, rules v2 2007): state, moves, apply and the Game subclass.

The board geometry and the pure placement rules live in board.py (shared with the deal analyser in solver.py); the
notation in notation.py, the layout and HUD in layout.py, heuristics and agents in strategy.py.
"""
from __future__ import annotations

from towerworld.engine.agent import View
from towerworld.engine.game import (CHANCE, OMNISCIENT, TERMINAL, AgentSpec, Event, EventKind, Game, GameInfo,
                                    IllegalMove, Option, Variant)
from towerworld.games.ziggurat import layout as _layout
from towerworld.games.ziggurat import notation as _notation
from towerworld.games.ziggurat.playout import placing_playout
from towerworld.games.ziggurat.board import (  # noqa: F401  (re-exported: the rules' vocabulary)
    ALL_MASK, CHEAT, DEAL, DINDEX, DOMINOES, DRAW, EMPTY, GIVE_UP, IN_TIER, NB, NCELLS, NUMBERED_DEALS, PLACE,
    TIER_SQUARES, ZState, cell_index, cname, deal_order, dname, heights, lift, placements, position_of,
    sorted_placements, tier_counts, title,
)

CHEAT_SCALE = 28     # without a cheat limit, a ziggurat finished with this many cheats or more is worth 0


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
                                 "counted", low=0, high=1000),
        Option("deal", 0, "0: a shuffled pile (every draw a chance move); n >= 1: the fixed numbered deal n; "
                          "-1: a chance move picks numbered deal 1-1000", low=-1, high=1_000_000_000),
    )
    variants = (
        Variant("numbered", "FreeCell-style numbered deals: the first chance move picks deal 1-1000, which fixes the "
                            "pile order (the solver agent reads it; nobody else sees it)", {"deal": -1}),
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
        if state.gave_up or (state.limit and state.cheats >= state.limit):
            return TERMINAL
        if state.deal < 0:
            return CHANCE
        if len(state.hand) < 3 and state.unseen:
            return CHANCE
        if not state.hand:
            return TERMINAL
        return 0

    def legal_moves(self, state):
        if self.current_player(state) != 0:
            return []
        # placements first, then cheats by domino, then giving up: PLACE < CHEAT < GIVE_UP, so this is sorted
        moves = sorted_placements(state.vals, state.hand)
        moves += [(CHEAT, d) for d in sorted(set(state.owner)) if d >= 0]
        if len(moves) == 0 or moves[0][0] != PLACE:
            moves.append((GIVE_UP,))
        return moves

    def chance_outcomes(self, state):
        if self.current_player(state) != CHANCE:
            return []
        if state.deal < 0:
            p = 1.0 / NUMBERED_DEALS
            return [((DEAL, n), p) for n in range(1, NUMBERED_DEALS + 1)]
        if state.pile:
            return [((DRAW, state.pile[0]), 1.0)]
        ds = [d for d in range(28) if state.unseen >> d & 1]
        p = 1.0 / len(ds)
        return [((DRAW, d), p) for d in ds]

    def apply_unchecked(self, state, move):
        kind = move[0]
        if kind == PLACE:
            _, t, c1, c2, v1, v2 = move
            d = DINDEX[(v1, v2)]
            s1, s2 = t * 36 + c1, t * 36 + c2
            nv = list(state.vals)
            no = list(state.owner)
            nv[s1] = v1
            nv[s2] = v2
            no[s1] = no[s2] = d
            hand = tuple(x for x in state.hand if x != d)
            new = ZState(tuple(nv), tuple(no), hand, state.unseen, state.pile, state.cheats, state.limit, state.deal)
            return new, [Event(EventKind.PLACE, (f"domino:{dname(d)}",),
                               f"{v1}-{v2} placed on {cname(c1)}-{cname(c2)}, tier {t}.")]
        if kind == DRAW:
            d = move[1]
            hand = tuple(sorted(state.hand + (d,)))
            pile = state.pile[1:] if state.pile else ()
            new = ZState(state.vals, state.owner, hand, state.unseen & ~(1 << d), pile, state.cheats, state.limit,
                         state.deal)
            return new, [Event(EventKind.DRAW, (f"domino:{dname(d)}",), f"You draw the {dname(d)}.", reveals=True)]
        if kind == CHEAT:
            d = move[1]
            nv, no, lifted = lift(state.vals, state.owner, d)
            hand = tuple(sorted(state.hand + tuple(lifted)))
            cheats = state.cheats + len(lifted)
            new = ZState(nv, no, hand, state.unseen, state.pile, cheats, state.limit, state.deal)
            names = ", ".join(dname(x) for x in lifted)
            text = (f"Cheat: the {dname(d)} is picked up" + (f" with what rested on it ({names})" if len(lifted) > 1
                                                              else "") + f"; {len(lifted)} cheat"
                    + ("s" if len(lifted) > 1 else "") + f", {cheats} in all.")
            return new, [Event(EventKind.LIFT, tuple(f"domino:{dname(x)}" for x in lifted), text)]
        if kind == GIVE_UP:
            new = ZState(state.vals, state.owner, state.hand, state.unseen, state.pile, state.cheats, state.limit,
                         state.deal, True)
            return new, [Event(EventKind.GIVE_UP, (), "You give up: the gods are not pleased.")]
        if kind == DEAL:
            n = move[1]
            new = ZState(state.vals, state.owner, state.hand, state.unseen, deal_order(n), state.cheats,
                         state.limit, n)
            return new, [Event(EventKind.SHUFFLE, (), "The dominoes are mixed face down.")]
        raise IllegalMove("That is not a Ziggurat move.")

    # ---- outcome ----------------------------------------------------------------------------------------------------
    def complete(self, state) -> bool:
        return not state.hand and not state.unseen and state.deal >= 0

    def solitaire_won(self, state):
        """Won means the ziggurat stands, however many cheats it took (the title says how well)."""
        return self.complete(state)

    def returns(self, state):
        """A standing ziggurat is worth 1 less a share per cheat (0 cheats: 1; the cheat limit, or CHEAT_SCALE cheats
        without one: 0); an unfinished one
        is worth -1 plus a share per domino standing less one per cheat, so every finished ziggurat beats every
        unfinished one and a search can tell a near miss from a collapse without learning that cheating pays."""
        if self.complete(state):
            scale = state.limit or CHEAT_SCALE
            return [1.0 - min(state.cheats, scale) / scale]
        if self.current_player(state) == TERMINAL:
            placed = sum(1 for v in state.vals if v >= 0) // 2
            return [-1.0 + max(0, placed - state.cheats) / 28.0]
        return [0.0]

    def rollout(self, state, rng, max_plies=None):
        """Search rollouts place a random fitting domino while one fits and give up when none does (playout.py):
        uniform play cheats as often as it builds and never finishes a deal, so its value says nothing."""
        limit = max_plies or self.max_plies
        while self.current_player(state) == CHANCE and state.deal < 0 and limit > 0:
            state, _ = self.apply_unchecked(state, self.sample_chance(state, rng))   # the numbered deal is picked
            limit -= 1
        if self.current_player(state) == TERMINAL:
            return state
        return placing_playout(state, rng, limit)

    def scores(self, state):
        return [state.cheats]

    def result(self, state):
        if self.complete(state):
            c = state.cheats
            return (f"{title(c)}: the ziggurat stands with {c} cheat{'s' if c != 1 else ''}.")
        if state.gave_up:
            return f"Given up with {state.cheats} cheats, the ziggurat unfinished: Disgraceful Blundering Saboteur."
        if self.current_player(state) == TERMINAL:
            return (f"Given up after {state.cheats} cheats (the limit is {state.limit}): "
                    f"Disgraceful Blundering Saboteur.")
        return "in progress"

    def observation(self, state, viewer):
        # the pile order and the deal number stay hidden: only which dominoes are unseen is known
        return (state.vals, state.owner, state.hand, state.unseen, state.cheats, state.limit, state.deal < 0,
                state.gave_up)

    def resample(self, state, viewer, rng):
        """What the player knows with the unknown made concrete: the pile order is forgotten, so every draw becomes a
        chance move among the unseen dominoes again (search never sees a numbered deal's order)."""
        if viewer == OMNISCIENT:
            return state
        if state.deal <= 0:
            return state
        return ZState(state.vals, state.owner, state.hand, state.unseen, (), state.cheats, state.limit, 0,
                      state.gave_up)

    def heuristic(self, state, player=0):
        if self.is_terminal(state):
            return self.returns(state)[0] * 1000.0
        placed = sum(1 for v in state.vals if v >= 0) // 2
        return placed - 3.0 * state.cheats

    def agents(self) -> tuple[AgentSpec, ...]:
        from towerworld.games.ziggurat.strategy import AGENTS
        return AGENTS

    def hint(self, state, viewer, budget: float = 0.5):
        """The move the fair player rates best from what `viewer` may know (the hand, the ziggurat, which dominoes are
        unseen; never the pile order). None when it is not the viewer's decision."""
        if self.current_player(state) != viewer:
            return None
        from towerworld.games.ziggurat.strategy import Player
        return Player(seed=0, budget=budget).choose(View.of(self, state, viewer))

    # ---- notation (notation.py) --------------------------------------------------------------------------------------
    def format_move(self, state, move):
        return _notation.format_move(state, move)

    def parse_move(self, state, text):
        return _notation.parse_move(state, text)

    # ---- explanations -----------------------------------------------------------------------------------------------
    def why_impossible(self, state, outcome) -> str:
        """Why `outcome` cannot be what chance does now, as a sentence about the dominoes and the pile."""
        kind = outcome[0] if isinstance(outcome, tuple) and outcome else None
        if state.deal < 0:
            if kind == DEAL and len(outcome) == 2 and isinstance(outcome[1], int):
                return f"Numbered deals run from 1 to {NUMBERED_DEALS}: there is no deal {outcome[1]}."
            return f"First a numbered deal from 1 to {NUMBERED_DEALS} is picked (for example 'deal 417')."
        if kind == DEAL:
            return "The deal is already fixed: now the next domino is drawn from the pile."
        if kind != DRAW or len(outcome) != 2 or not isinstance(outcome[1], int) or not 0 <= outcome[1] < 28:
            return "Now the next domino is drawn from the pile (for example 'draw 5-1')."
        d = outcome[1]
        if d in state.hand:
            return f"The {dname(d)} is already in your hand, not in the pile."
        if d in state.owner:
            return f"The {dname(d)} already stands in the ziggurat, not in the pile."
        return f"The pile order of this deal is fixed, and the {dname(d)} is not the next domino."

    def why_illegal(self, state, move):
        cp = self.current_player(state)
        if cp == TERMINAL:
            return "The game is over."
        if cp == CHANCE:
            return self.why_impossible(state, move)
        if not isinstance(move, tuple) or not move:
            return "That is not a Ziggurat move."
        if move[0] == CHEAT:
            d = move[1] if len(move) == 2 and isinstance(move[1], int) and 0 <= move[1] < 28 else None
            if d is None:
                return "That is not a domino."
            if d in state.hand:
                return f"The {dname(d)} is in your hand: only a domino standing in the ziggurat can be picked up."
            return f"The {dname(d)} is still face down in the pile: only a placed domino can be picked up."
        if move[0] == GIVE_UP:
            return "You may only give up when no domino in your hand fits anywhere."
        if move[0] in (DRAW, DEAL):
            return "Drawing from the pile happens by itself after each placement."
        if move[0] != PLACE or len(move) != 6:
            return "That is not a Ziggurat move."
        reason = self.placement_problem(state, *move[1:])
        return reason or "That is not a legal move here."

    def placement_problem(self, state, t, c1, c2, v1, v2) -> str | None:
        """The first rule a placement breaks, as a sentence; None when it is legal."""
        if not (0 <= v1 <= 6 and 0 <= v2 <= 6):
            return "Domino halves run from 0 to 6."
        d = DINDEX[(v1, v2)]
        if d not in state.hand:
            if d in {x for x in state.owner if x >= 0}:
                return f"The {dname(d)} already stands in the ziggurat (picking it up is a cheat)."
            return f"The {dname(d)} is not in your hand: it is still face down in the pile."
        if c2 not in NB[c1]:
            return f"{cname(c1)} and {cname(c2)} are not side by side."
        if not 0 <= t <= 2:
            return "The tiers are t0 (bottom), t1 and t2 (top)."
        for c in (c1, c2):
            if not IN_TIER[t][c]:
                return (f"No overhang: tier {t} is the centred square {TIER_SQUARES[t]}, and {cname(c)} lies "
                        f"outside it.")
        h = heights(state.vals)
        for c in (c1, c2):
            if h[c] > t:
                return f"{cname(c)} is already covered on tier {t}."
        for c in (c1, c2):
            if h[c] < t:
                return (f"No balancing: on tier {t} each half must rest on a domino half directly below, and "
                        f"{cname(c)} has nothing on tier {t - 1}.")
        if t:
            for c, v in ((c1, v1), (c2, v2)):
                b = state.vals[(t - 1) * 36 + c]
                if v <= b:
                    word = "an equal" if v == b else "a greater"
                    return (f"The {v} half would rest on a {b} ({word} value): each half must be greater than what "
                            f"lies beneath.")
        if any(x >= 0 for x in state.vals[:NCELLS]):
            ok = False
            for c, v in ((c1, v1), (c2, v2)):
                for n in NB[c]:
                    if any(state.vals[u * 36 + n] == v for u in range(3)):
                        ok = True
            if not ok:
                return (f"Neither half is beside a half of equal value (a {v1} next to {cname(c1)} or a {v2} next "
                        f"to {cname(c2)}, on any tier; diagonals do not count).")
        return None

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
                    r = self._pair_problem(state, t, c, n, a, b)
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
            r = self._pair_problem(state, t, c1, c2, lo, hi)
            if r is None and lo != hi:
                r = self._pair_problem(state, t, c1, c2, hi, lo)
            return r or "That is not a legal move here."
        return "That is not a legal move here."

    def _pair_problem(self, state, t, c1, c2, v1, v2):
        if c1 > c2:
            c1, c2, v1, v2 = c2, c1, v2, v1
        return self.placement_problem(state, t, c1, c2, v1, v2)

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


    # ---- what a viewer sees (layout.py) --------------------------------------------------------------------------------
    def hud(self, state, viewer):
        return _layout.hud(self, state, viewer)

    def layout(self, state, viewer):
        return _layout.build_layout(state, viewer)

    def describe_move(self, state, move) -> str:
        """The move in a player's words, for hints: "play 6-4 on c1-c2 of the bottom tier"."""
        return _layout.describe_move(state, move)

    def confirm_text(self, state, move, viewer):
        """Seed: "Every domino picked up from the ziggurat and replaced is counted as a cheat": the table asks before
        a cheat, saying which cheats it adds."""
        return _layout.confirm_text(state, move)

