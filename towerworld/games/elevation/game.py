"""Elevation (seed 004): the game contract over rules.py.

The vocabulary and the state are in board.py, turn generation, the step and the refusals in rules.py, the notation
and event texts in notation.py, the table in layout.py, the evaluation and agents in strategy.py.
"""
from __future__ import annotations

from towerworld.engine.game import (TERMINAL, AgentSpec, BadNotation, Event, EventKind, Game, GameInfo, IllegalMove,
                                    Option, Variant)
from towerworld.games.elevation import layout, notation, strategy
from towerworld.games.elevation.board import (DRAW, ONGOING, PIECES, SETUPS, SQUARES, TERRAIN_PRESETS, WIN0, WIN1,
                                              Rules, State, home_square)
from towerworld.games.elevation.rules import (advance, all_turns, build_state, is_legal, refusal, result_text,
                                              why_illegal)


# A turn is at most 3 plies (offer, decline, the turn) and in the two-pieces game 4; the cap is at most 2000 turns. Per
# piece at most 56 dig pairs: dragon 448 + 448 + 56*56 + 64 + 8 + 56, fish 448 + 448 + 224 + 224 + 56, samurai
# 448 + 448 + 56; two of each (whatever the setup, a bound for six dragons is far above), plus an offer. A win is 1,
# a loss -1, a draw 0 for both; no chance, nothing hidden.
INFO = GameInfo(min_players=2, max_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True, chance=False,
                perfect_information=True, max_plies=2000 * 4 + 4,
                max_moves=6 * (448 + 448 + 56 * 56 + 64 + 8 + 56) + 1)


class Elevation(Game):
    name = "elevation"
    title = "Elevation"
    options = (
        Option("terrain", "flat", "starting terrain (108 tiles): flat three deep, hills (a central plateau), valley "
               "(low between the armies), checker (2 and 4 alternating)", choices=tuple(TERRAIN_PRESETS),
               label="Starting terrain"),
        Option("setup", "standard", "home row order from file a: standard S D F F D S, fish-wings F D S S D F, "
               "dragons-centre S F D D F S, dragons-wings D S F F S D", choices=tuple(SETUPS), label="Home row order"),
        Option("two_pieces", False, "each turn, two different pieces act one after the other",
               label="Two pieces a turn"),
        Option("undermining", False, "any piece may instead dig a tile from beneath an enemy and not move",
               label="Undermining"),
        Option("samurai_undermining", False, "a samurai's dig (in a basic move) may come from beneath an enemy",
               label="Samurai undermining"),
        Option("ocean", False, "a piece on the bottom of the box may step onto any adjacent square",
               label="The ocean rule"),
        Option("move_cap", 200, "the game is drawn after this many turns", low=20, high=2000,
               label="Turns before a draw"),
        Option("draw_offers", True, "players may offer a draw instead of moving; the opponent accepts or declines",
               label="Draw offers"),
    )
    variants = (
        Variant("two-pieces", "Each player moves two pieces a turn.", {"two_pieces": True}),
        Variant("undermining", "Undermining: dig from beneath an enemy and forgo the move.", {"undermining": True}),
        Variant("samurai", "Samurai undermining: samurai may dig beneath enemies and still move.",
                {"samurai_undermining": True}),
        Variant("ocean", "The ocean rule: from the bottom of the box, step anywhere adjacent.", {"ocean": True}),
        Variant("hills", "Start on a central plateau (108 tiles).", {"terrain": "hills"}),
        Variant("valley", "Start with a valley between the armies (108 tiles).", {"terrain": "valley"}),
        Variant("checker", "Start on a checkerboard of low and high squares (108 tiles).", {"terrain": "checker"}),
        Variant("fish-wings", "Fish on the wings, samurai in the centre.", {"setup": "fish-wings"}),
        Variant("dragons-centre", "Dragons in the centre, samurai on the wings.", {"setup": "dragons-centre"}),
        Variant("dragons-wings", "Dragons on the wings, fish in the centre.", {"setup": "dragons-wings"}),
    )

    def info(self) -> GameInfo:
        return INFO

    # ---- setup ------------------------------------------------------------------------------------------------------
    def new_state(self, options=None, players=None) -> State:
        rules = self._rules(options, players)
        home = SETUPS[rules.setup]
        kinds = tuple(home[i % 6] for i in range(PIECES))
        placement = {i: home_square(i // 6, i % 6) for i in range(PIECES)}
        return build_state(rules, TERRAIN_PRESETS[rules.terrain], placement, kinds)

    def _rules(self, options, players=None) -> Rules:
        opts, _ = self.resolve_options(options, None, players)
        return Rules(**opts)

    def position(self, pieces: dict, heights=None, mover: int = 0, options: dict | None = None) -> State:
        """A custom position (puzzles, tests): `pieces` maps square names to piece ids ("dragon:0:b": kind, side,
        starting file); `heights` is a dict of square name -> height (others 3) or a 36-tuple."""
        rules = self._rules(options)
        home = SETUPS[rules.setup]
        kinds = list(home[i % 6] for i in range(PIECES))
        if heights is None:
            hs = list(TERRAIN_PRESETS[rules.terrain])
        elif isinstance(heights, dict):
            hs = [3] * SQUARES
            for name, h in heights.items():
                hs[notation.square_or_refuse(name)] = h
        else:
            hs = list(heights)
        placement = {}
        for name, pid in pieces.items():
            piece, kind = layout.parse_piece_id(pid)
            kinds[piece] = kind
            placement[piece] = notation.square_or_refuse(name)
        return build_state(rules, hs, placement, tuple(kinds), mover)

    def num_players(self, state) -> int:
        return 2

    def current_player(self, state: State) -> int:
        if state.outcome != ONGOING:
            return TERMINAL
        return state.mover ^ state.phase

    def legal_moves(self, state: State) -> list:
        return all_turns(state)

    # ---- applying ---------------------------------------------------------------------------------------------------
    def apply_unchecked(self, st: State, move) -> tuple[State, list]:
        new = advance(st, move)
        events = notation.turn_events(st, move) if move[0] != DRAW else notation.draw_events(st, move[1])
        if new.outcome != ONGOING:
            events.append(Event(EventKind.END, (), result_text(new.outcome, new.reason)))
        return new, events

    def apply(self, state: State, move) -> tuple[State, list]:
        if self.current_player(state) == TERMINAL:
            raise IllegalMove("The game is over.")
        if not is_legal(state, move):
            raise IllegalMove(why_illegal(state, move))
        return self.apply_unchecked(state, move)

    def is_legal(self, state: State, move) -> bool:
        """Whether `move` is a legal move now, without generating every turn of the position."""
        return is_legal(state, move)

    # ---- results ----------------------------------------------------------------------------------------------------
    def returns(self, state: State) -> list:
        if state.outcome in (WIN0, WIN1):
            return [1.0, -1.0] if state.outcome == WIN0 else [-1.0, 1.0]
        return [0.0, 0.0]

    def scores(self, state: State) -> list:
        """Enemy pieces captured by each player."""
        return [sum(1 for p in state.pos[6:] if p < 0), sum(1 for p in state.pos[:6] if p < 0)]

    def result(self, state: State) -> str:
        if state.outcome == ONGOING:
            return "in progress"
        return result_text(state.outcome, state.reason)

    def state_key(self, state: State):
        return (state.heights, state.board, state.mover, state.phase, state.used)

    # ---- what players see -------------------------------------------------------------------------------------------
    def layout(self, state: State, viewer: int):
        return layout.build_layout(state)

    def hud(self, state: State, viewer: int) -> dict:
        return layout.hud_lines(state, self.result(state))

    panel_keys = ("scores", "pieces")

    def panels(self, state: State, viewer: int) -> list:
        return layout.panels(state, state.outcome != ONGOING)

    def prompt(self, state: State, viewer: int) -> str:
        return layout.prompt(state)

    def format_move(self, state: State, move) -> str:
        return notation.format_move(state, move)

    def describe_move(self, state: State, move) -> str:
        return notation.describe_turn(state, move)

    def parse_move(self, state: State, text: str):
        move = notation.parse_move(state, text)
        if not self.is_legal(state, move):
            if move[0] == DRAW:
                raise BadNotation(f"'{notation.shown(text)}' is not possible now: {self.why_illegal(state, move)}")
            raise BadNotation(f"'{notation.shown(text)}' is not legal here: {self.why_illegal(state, move)}")
        return move

    def picks(self, state: State, move) -> tuple:
        return notation.picks(state, move)

    def describe_pick(self, state: State, picks, pick: str) -> str:
        return notation.describe_pick(state, picks, pick)

    def explain(self, state: State, picks) -> str:
        if state.outcome != ONGOING:
            return "The game is over."
        if state.phase == 1:
            return "Answer the draw offer first: accept or decline."
        found = notation.actions_from_picks(state, picks)
        if isinstance(found, str):
            return found
        s, acts, complete = found
        return refusal(state, s, acts, complete) or "No complete legal turn continues from these picks."

    def why_illegal(self, state: State, move) -> str:
        return why_illegal(state, move)

    # ---- strategy (strategy.py) -------------------------------------------------------------------------------------
    def heuristic(self, state: State, player: int) -> float:
        """Material, height over neighbouring enemies, threats, escape squares and mobility (strategy.evaluate)."""
        return strategy.evaluate(state, player)

    def agents(self) -> tuple[AgentSpec, ...]:
        """Elevation's own agents (strategy.AGENTS): 'mcts' (the default opponent) and 'elev-greedy'."""
        return strategy.AGENTS

    def hint(self, state: State, viewer: int, budget: float = 0.5):
        if self.current_player(state) != viewer:
            return None
        return strategy.best_turn(state, budget)
