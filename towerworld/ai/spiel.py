"""A generic adapter exposing any towerworld `Game` as an OpenSpiel (`pyspiel`) python game.

Action i is the i-th legal move (`legal_moves` is sorted) or, at a chance node, the i-th chance outcome. The adapter
keeps the native towerworld state (`state.tw_state`) so search code can step out to fast native play (rollouts).

OpenSpiel's GameType and GameInfo come from the game's declared `GameInfo` (`game.info()`): players, utility bounds,
zero-sum, chance (EXPLICIT_STOCHASTIC or DETERMINISTIC), perfect information and the longest game.

pyspiel is imported lazily: `import towerworld.ai` works without open_spiel installed (it is the optional `research`
extra: `pip install 'towerworld[research]'`). `resample_from_infostate` draws through the game's `resample`, so
OpenSpiel's own `ISMCTSBot` runs on the hidden-information games with no resampler of its own.
"""
from __future__ import annotations

import json
import random
from typing import Any

from towerworld.engine.game import CHANCE, TERMINAL, BadOption, Game, TowerworldError
from towerworld.engine.record import MAX_MOVE_TEXT, RecordError, parse_record_text
from towerworld.engine.registry import all_games, get_game
from towerworld.engine.safe_text import shown_text, shown_value

PREFIX = "towerworld_"

_CLASSES = None
_REGISTERED: set[str] = set()
_CREATORS: list = []


def require_pyspiel() -> Any:
    """The pyspiel module, or BadOption with one sentence when open_spiel is missing."""
    try:
        import pyspiel
    except ImportError:
        raise BadOption("This needs OpenSpiel (the open_spiel package), an optional extra: install it with "
                        "pip install 'towerworld[research]'.") from None
    return pyspiel


def short_name(game: Game) -> str:
    return PREFIX + game.name


def _param_spec(game: Game) -> dict:
    spec = {"variant": "", "players": 0}
    for o in game.options:
        if isinstance(o.default, (bool, int, float, str)) and o.name not in spec:
            spec[o.name] = o.default
    return spec


def _game_type(game: Game):
    pyspiel = require_pyspiel()
    gt = pyspiel.GameType
    info = game.info()
    return gt(
        short_name=short_name(game),
        long_name=f"towerworld {game.title or game.name}",
        dynamics=gt.Dynamics.SEQUENTIAL,
        chance_mode=gt.ChanceMode.EXPLICIT_STOCHASTIC if info.chance else gt.ChanceMode.DETERMINISTIC,
        information=(gt.Information.PERFECT_INFORMATION if info.perfect_information
                     else gt.Information.IMPERFECT_INFORMATION),
        utility=gt.Utility.ZERO_SUM if info.zero_sum else gt.Utility.GENERAL_SUM,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=_param_spec(game),
    )


class _Native:
    """An immutable box around a native state with its cached player and moves; deep-copies to itself."""
    __slots__ = ("game", "state", "_cp", "_moves")

    def __init__(self, game: Game, state):
        self.game = game
        self.state = state
        self._cp: int | None = None
        self._moves: list | None = None

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self

    def __reduce__(self):
        # pyspiel's own State.serialize pickles a python state's attributes; towerworld never pickles (a pickle from
        # outside could run code). States travel as their record instead: state.serialize(), game.deserialize_state.
        raise TypeError("towerworld states are not pickled: use state.serialize() (the record: options and moves).")

    def player(self) -> int:
        if self._cp is None:
            self._cp = self.game.current_player(self.state)
        return self._cp

    def moves(self) -> list:
        if self._moves is None:
            cp = self.player()
            if cp == CHANCE:
                self._moves = [m for m, _ in self.game.chance_outcomes(self.state)]
            elif cp == TERMINAL:
                self._moves = []
            else:
                self._moves = self.game.legal_moves(self.state)
        return self._moves


class _Observer:
    """PyObserver for towerworld games: strings from `game.observation(state, player)`; no tensors."""

    def __init__(self, info_state: bool):
        self.tensor = None
        self.dict: dict = {}
        self._info_state = info_state

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        obs = state.tw_game.observation(state.tw_state, player)
        return f"p{player} {obs!r}"


def _classes():
    """Build the pyspiel subclasses on first use (so pyspiel is only imported when needed)."""
    global _CLASSES
    if _CLASSES is not None:
        return _CLASSES
    pyspiel = require_pyspiel()
    P_CHANCE = int(pyspiel.PlayerId.CHANCE)
    P_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
    SpielGame: Any = pyspiel.Game          # pyspiel is imported here, on first use: its classes are values to mypy
    SpielState: Any = pyspiel.State

    class TowerworldSpielGame(SpielGame):
        """One towerworld game with fixed options and player count, as a pyspiel game."""

        def __init__(self, game: Game, params: dict | None = None, initial=None):
            params = dict(params or {})
            variant = params.pop("variant", "") or None
            players = params.pop("players", 0) or None
            if initial is None:
                defaults = {o.name: o.default for o in game.options}
                options = {k: v for k, v in params.items() if defaults.get(k, object()) != v}
                self.tw_options, n = game.resolve_options(options, variant, players)
                initial = game.new_state(self.tw_options, n)
            else:  # a game around a given state (search from a position): its options are already in the state
                self.tw_options = {o.name: o.default for o in game.options}
                n = game.num_players(initial)
            self.tw_game = game
            self.tw_variant = variant
            self.tw_initial = initial
            declared = game.info()
            info = pyspiel.GameInfo(
                num_distinct_actions=declared.max_moves,
                max_chance_outcomes=declared.max_moves if declared.chance else 0,
                num_players=n,
                min_utility=declared.min_utility,
                max_utility=declared.max_utility,
                utility_sum=0.0 if declared.zero_sum else None,
                max_game_length=declared.max_plies)
            full = {**_param_spec(game), **{k: v for k, v in self.tw_options.items() if k in _param_spec(game)},
                    "variant": variant or "", "players": n}
            super().__init__(_game_type(game), info, full)

        def new_initial_state(self, tw_state=None):
            return TowerworldSpielState(self, self.tw_initial if tw_state is None else tw_state)

        def deserialize_state(self, text):
            """The state `serialize` wrote (a record: options and moves), every move replayed with legality checks;
            RecordError with one sentence for anything else."""
            return state_from_record(self, text)

        def make_py_observer(self, iig_obs_type=None, params=None):
            if params:
                raise ValueError(f"Observation parameters not supported; passed {params}")
            return _Observer(bool(iig_obs_type is not None and iig_obs_type.perfect_recall))

    class TowerworldSpielState(SpielState):
        """A pyspiel state wrapping a native towerworld state (`tw_state`).

        pyspiel clones a python state by deep-copying each attribute; the only attribute is a `_Native` box that
        deep-copies to itself (native states are immutable), so a clone costs no copying of the game or the state.
        """

        def __init__(self, sgame: TowerworldSpielGame, tw_state):
            super().__init__(sgame)
            self._n = _Native(sgame.tw_game, tw_state)

        @property
        def tw_game(self):
            return self._n.game

        @property
        def tw_state(self):
            return self._n.state

        # the native side --------------------------------------------------------------------------------------------
        def native_moves(self):
            """The moves (or chance outcomes) in action order."""
            return self._n.moves()

        def action_of(self, move) -> int:
            return self._n.moves().index(move)

        # the pyspiel API ------------------------------------------------------------------------------------------------
        def current_player(self):
            cp = self._n.player()
            if cp == CHANCE:
                return P_CHANCE
            if cp == TERMINAL:
                return P_TERMINAL
            return cp

        def _legal_actions(self, player):
            if player != self._n.player():
                return []
            return list(range(len(self._n.moves())))

        def chance_outcomes(self):
            n = self._n
            if n.player() != CHANCE:
                return []
            return [(i, p) for i, (_, p) in enumerate(n.game.chance_outcomes(n.state))]

        def _apply_action(self, action):
            n = self._n
            state, _ = n.game.apply_unchecked(n.state, n.moves()[action])
            self._n = _Native(n.game, state)

        def _action_to_string(self, player, action):
            n = self._n
            moves = n.moves()
            if 0 <= action < len(moves):
                return n.game.format_move(n.state, moves[action])
            return f"action {action}"

        def is_terminal(self):
            return self._n.player() == TERMINAL

        def returns(self):
            n = self._n
            if n.player() == TERMINAL:
                return [float(r) for r in n.game.returns(n.state)]
            return [0.0] * n.game.num_players(n.state)

        def resample_from_infostate(self, player_id, probability_sampler):
            """A state `player_id` cannot tell from this one (same information state, same player to move), its hidden
            parts drawn by the game's `resample`; `probability_sampler()` gives floats in [0, 1) (OpenSpiel's
            `UniformProbabilitySampler`), from which the draw is seeded, so a seeded sampler repeats the draw."""
            n = self._n
            rng = random.Random(int(probability_sampler() * 2 ** 53))
            return TowerworldSpielState(self.get_game(), n.game.resample(n.state, player_id, rng))

        def __str__(self):
            return repr(self._n.state)

        def serialize(self):
            """The state as a record (JSON: game, variant, options, players and the moves in notation), never a
            pickle."""
            return record_of_state(self)

    _CLASSES = (TowerworldSpielGame, TowerworldSpielState)
    return _CLASSES


def spiel_game(game: Game, variant: str | None = None, options: dict | None = None, players: int | None = None,
               initial=None):
    """A pyspiel.Game for `game` with the given variant, options and player count (no registration needed).

    With `initial` (a native state), the pyspiel game starts from that state instead: search agents use this to
    search from the position they are asked about, whatever options or variant produced it.
    """
    cls, _ = _classes()
    params = dict(options or {})
    if variant:
        params["variant"] = variant
    if players:
        params["players"] = players
    return cls(game, params, initial)


def register(game: Game) -> str:
    """Register `game` with pyspiel under `towerworld_<name>` (once per process); returns the short name."""
    pyspiel = require_pyspiel()
    name = short_name(game)
    if name in _REGISTERED or name in pyspiel.registered_names():
        _REGISTERED.add(name)
        return name
    base, _ = _classes()

    # A class, not a closure: pyspiel keeps the creator until after the interpreter finalizes, and freeing a plain
    # function then aborts the process; a class lives in a reference cycle and is never freed there.
    class Creator(base):  # type: ignore[valid-type,misc]  # a class made at run time (pyspiel's)
        def __init__(self, params=None):
            super().__init__(game, params)

    Creator.__name__ = Creator.__qualname__ = f"TowerworldSpielGame_{game.name}"
    _CREATORS.append(Creator)
    pyspiel.register_game(_game_type(game), Creator)
    _REGISTERED.add(name)
    return name


def register_all() -> list[str]:
    """Register every game of the registry; returns their short names."""
    return [register(g) for g in all_games().values()]


def load_game(name: str, **params):
    """pyspiel.load_game for a towerworld game name ("kdak" or "towerworld_kdak"), registering it on demand."""
    pyspiel = require_pyspiel()
    game = get_game(name[len(PREFIX):] if name.startswith(PREFIX) else name)
    register(game)
    return pyspiel.load_game(short_name(game), params)


def record_of_state(sstate) -> str:
    """JSON text of the record that leads from the game's initial state to `sstate`: game, variant, non-default
    options, player count and every move (chance outcomes included) in the game's notation."""

    sgame = sstate.get_game()
    game = sgame.tw_game
    state, texts = sgame.tw_initial, []
    for action in sstate.history():
        move = _Native(game, state).moves()[action]
        texts.append(game.format_move(state, move))
        state, _ = game.apply_unchecked(state, move)
    if state != sstate.tw_state:
        raise BadOption("This state was set from a position, not played from its game's start, so it has no record.")
    return json.dumps({"game": game.name, "variant": sgame.tw_variant, "players": game.num_players(state),
                       "options": game.non_default_options(sgame.tw_options), "moves": texts})


def state_from_record(sgame, text: str):
    """The pyspiel state of `sgame` that `record_of_state` wrote: the record is parsed with the records' limits, must
    match `sgame` (game, variant, options, players) and replays move by move with legality checks."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    data = parse_record_text(raw, "The serialized state")
    game = sgame.tw_game
    state = sgame.new_initial_state()
    setup = {"game": game.name, "variant": sgame.tw_variant, "players": game.num_players(state.tw_state),
             "options": game.non_default_options(sgame.tw_options)}
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        raise RecordError("A serialized state is a JSON object with a list of 'moves'.")
    for key, value in setup.items():
        if data.get(key) != value:
            raise RecordError(f"The serialized state's '{key}' is {shown_value(data.get(key), 40)}, but this game's "
                              f"is {shown_value(value, 40)}.")
    for ply, move_text in enumerate(data["moves"], start=1):
        if not isinstance(move_text, str) or len(move_text) > MAX_MOVE_TEXT or state.is_terminal():
            raise RecordError(f"Ply {ply} of the serialized state is not a move here.")
        native = state.tw_state
        try:
            move = game.parse_move(native, move_text)
            game.apply(native, move)                  # legality, with the rule's reason when refused
        except TowerworldError as e:
            raise RecordError(f"Ply {ply} ('{shown_text(move_text, 30)}'): {shown_text(str(e), 200)}") from None
        state.apply_action(state.action_of(move))
    return state


def spiel_state(sgame, tw_state):
    """A pyspiel state of `sgame` holding the native state `tw_state` (history not replayed)."""
    return sgame.new_initial_state(tw_state)
