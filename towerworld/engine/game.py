"""The game contract every towerworld game implements.

Modelled on OpenSpiel's `spiel.h`: a game is a stateless object of pure functions over small immutable states.
Randomness is explicit: shuffles, rolls and draws are chance moves (`current_player(state) == CHANCE`), recorded like
any other move, so a record replays without ever calling a random generator.
"""
from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Generic, Hashable, Iterable, Sequence, TypeVar

from towerworld.engine.safe_text import shown_text, shown_value

CHANCE = -1
TERMINAL = -2
# Viewers: who is looking at a state. A seat index (0, 1, ...) sees what that player may know; SPECTATOR sees public
# information only; OMNISCIENT sees everything (a finished game, debugging, tests).
SPECTATOR = -3
OMNISCIENT = -4

Move = Hashable
State = Hashable
S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


def draw_outcome(outcomes: Sequence[tuple[Any, float]], rng: random.Random, total: float = 1.0) -> Any:
    """One move of `outcomes` ((move, probability) pairs whose probabilities sum to `total`), drawn from `rng`."""
    r = rng.random() * total
    acc = 0.0
    for move, p in outcomes:
        acc += p
        if r < acc:
            return move
    return outcomes[-1][0]


def may_see(viewer: int, visible_to: tuple[int, ...] | None) -> bool:
    """Whether `viewer` may see something shown to `visible_to` (None: everybody)."""
    return visible_to is None or viewer == OMNISCIENT or viewer in visible_to


class EventKind(str, Enum):
    """Every kind of event a game may report; the stage and HUD order and style animations by these.

    A `str` enum, so `EventKind.ROLL == "roll"` (records and old tests speak in plain words).
    """
    ATTACK = "attack"
    CAPTURE = "capture"
    CHANGE = "change"
    DECLINE = "decline"
    DEFEND = "defend"
    DESTROY = "destroy"
    DIG = "dig"
    DISCARD = "discard"
    DISINTEGRATE = "disintegrate"
    DRAW = "draw"
    END = "end"
    ENTER = "enter"
    FALL = "fall"
    FLIP = "flip"
    GIVE_UP = "give_up"
    LEAVE = "leave"
    LIFT = "lift"
    MOVE = "move"
    OFFER = "offer"
    PASS = "pass"
    PLACE = "place"
    PLAY = "play"
    REMODEL = "remodel"
    REMOVE = "remove"
    RETURN = "return"
    REVEAL = "reveal"
    RISKY = "risky"
    ROLL = "roll"
    SAFE = "safe"
    SCORE = "score"
    SETTLE = "settle"
    SHUFFLE = "shuffle"
    SPEND = "spend"
    STAY = "stay"
    SWITCH = "switch"
    TAKE = "take"
    TALISMAN = "talisman"
    TOPPLE = "topple"

    def __str__(self) -> str:
        return self.value


class TowerworldError(ValueError):
    """Base of every error whose message is one sentence meant for a person."""


class IllegalMove(TowerworldError):
    """A move that the rules forbid; the message says which rule, in words a player understands."""


class BadNotation(TowerworldError):
    """Text that is not a move in the game's notation."""


class BadOption(TowerworldError):
    """A game option or variant that does not exist or has a bad value."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened during a move, in the order it happened.

    `kind` is an EventKind the stage and HUD understand; `pieces` are the piece ids involved, as laid out for the
    viewers who see the event (the stage orders animation phases by events); `text` is the HUD sentence.
    `visible_to` says who may see it: None for everybody, else the seats (OMNISCIENT sees all). A secret (the card
    a player drew) is one event for its owner and, where others see something happen, another without the secret.
    `reveals` marks information that was hidden before (a face-down tile turned up): no undo across it between people.
    `areas` are parts of pieces the event is about, as (piece id, words naming a part of its face in the words of the
    piece's component family): the stage lights them up while the event plays (the tiles' share of a scored city).
    """
    kind: EventKind | str
    pieces: tuple[str, ...] = ()
    text: str = ""
    reveals: bool = False
    visible_to: tuple[int, ...] | None = None
    areas: tuple[tuple[str, str], ...] = ()

    def seen_by(self, viewer: int) -> bool:
        return may_see(viewer, self.visible_to)


def events_for(events: Iterable[Event], viewer: int) -> list[Event]:
    """The events `viewer` may see, in order."""
    return [e for e in events if may_see(viewer, e.visible_to)]


@dataclass(frozen=True, slots=True)
class Panel:
    """One player's panel on the table, as a viewer may read it.

    `name` is how the game speaks of the seat ("Player 2", or a side: "Blue"); `score` the score in words ("12
    points"); `holdings` what the player holds or has left, a short phrase each ("5 cards", "7 followers"; another
    seat's secret hand by its count only); `to_move` marks the seat whose turn it is; `colour` names the seat's colour
    on the table ("red", "black"), None where the seat has none."""
    seat: int
    name: str
    score: str
    holdings: tuple[str, ...] = ()
    to_move: bool = False
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class Option:
    """One game option. `choices` lists legal values; otherwise `kind` (int, bool, str) and the bounds say what is legal.
    `name` is for records and the command line; `label` is what a player reads on the start screen ("Talismans in
    null tiles"), with `help` as its one line of explanation."""
    name: str
    default: Any
    help: str
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    label: str = ""

    @property
    def words(self) -> str:
        """The option as a player reads it: its label, or its name in words where it has none."""
        return self.label or self.name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Variant:
    """A named preset of options (e.g. K'Dak 'solitaire')."""
    name: str
    help: str
    options: dict = field(default_factory=dict)
    players: tuple[int, int] | None = None  # (min, max) when the variant changes the player count


@dataclass(frozen=True)
class GameInfo:
    """What a game offers, declared once (OpenSpiel's GameType and GameInfo): search, the OpenSpiel adapter and the
    invariant tests read these fields and nothing else.

    `min_utility` / `max_utility` bound every entry of `returns`; `zero_sum` means the returns always sum to 0;
    `chance` whether any state is a chance node; `max_plies` the longest game, chance moves included; `max_moves` the
    most legal moves or chance outcomes at any state."""
    min_players: int
    max_players: int
    min_utility: float
    max_utility: float
    zero_sum: bool
    chance: bool
    perfect_information: bool
    max_plies: int
    max_moves: int


# What an agent may see: its own seat's view (every agent a person meets) or everything (an oracle, measurement only).
SEES_SEAT = "seat"
SEES_ALL = "everything"


@dataclass(frozen=True)
class AgentSpec:
    """One agent a game or the `ai` package offers: `name` (records and the CLI), `words` (what a player reads for
    it: "search", never its name), `factory(game, seed, level) -> Agent` (an engine.agent.Agent), `levels` (the named
    strengths a person may choose, weakest first; empty when it has none), `level` (the default among them), `sees`
    (SEES_SEAT or SEES_ALL: an oracle for measurement, never offered at the table) and `budgeted` (a named level is a
    budget of simulations or iterations, its clock a guard: the agent is an engine.agent.BudgetedAgent)."""
    name: str
    words: str
    factory: Callable[..., Any]
    levels: tuple[str, ...] = ()
    level: str = ""
    sees: str = SEES_SEAT
    budgeted: bool = False

    def seat_words(self, level: str | None = None) -> str:
        """The agent at `level` (default: its default level) in a player's words: "search (strong)"."""
        level = level or self.level
        return self.words + (f" ({level})" if level else "")


def package_help(package: str | None) -> str | None:
    """The text of `package`'s `help.md` (the help overlay's rules and keys), or None when it has none."""
    if not package:
        return None
    from importlib import resources     # 20 ms, for the help overlay only: not on the way to a table's first frame
    try:
        return resources.files(package).joinpath("help.md").read_text(encoding="utf-8").strip()
    except (FileNotFoundError, OSError, ModuleNotFoundError):
        return None


class Game(Generic[S, M]):
    """Base class of the contract. Subclasses override the methods marked 'required'.

    State values are hashable and never mutated. `apply` checks legality and explains refusals; `apply_unchecked` is
    the hot path for search and random play and trusts its caller. Methods that show a state take a viewer (a seat,
    SPECTATOR or OMNISCIENT) and never show that viewer what it may not know.
    """
    name: str = ""            # registry key and record field, e.g. "kdak"
    title: str = ""           # shown to people
    # keys this game's table offers beyond every table's own, in a player's words, for the help overlay
    table_keys: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()
    variants: tuple[Variant, ...] = ()
    # the player counts of the rules without a variant, where they are fewer than GameInfo's (which spans them all)
    players_without_variant: tuple[int, int] | None = None
    default_opponent: str = "mcts"   # the agent the start screen and `play` seat against a person

    # ---- what the game offers ----------------------------------------------------------------------------------------
    def info(self) -> GameInfo:
        """The game's declared GameInfo (required)."""
        raise NotImplementedError

    def agents(self) -> tuple[AgentSpec, ...]:
        """The game's own agents (defined in its strategy.py); the `ai` package adds the generic ones."""
        return ()

    @property
    def min_players(self) -> int:
        """The fewest players of the rules without a variant."""
        return (self.players_without_variant or (self.info().min_players, 0))[0]

    @property
    def max_players(self) -> int:
        """The most players of the rules without a variant."""
        return (self.players_without_variant or (0, self.info().max_players))[1]

    @property
    def max_plies(self) -> int:
        return self.info().max_plies

    @property
    def max_moves(self) -> int:
        return self.info().max_moves

    @property
    def perfect_information(self) -> bool:
        return self.info().perfect_information

    # ---- options -------------------------------------------------------------------------------------------------
    def resolve_options(self, options: dict | None = None, variant: str | None = None,
                        players: int | None = None) -> tuple[dict, int]:
        """Full option dict and player count from a variant name and explicit options, or BadOption naming the fault."""
        merged: dict = {o.name: o.default for o in self.options}
        lo, hi = self.min_players, self.max_players
        if variant is not None and not isinstance(variant, str):
            raise BadOption(f"A variant is named by text, not {_shown(variant)}.")
        if not isinstance(options, (dict, type(None))):
            raise BadOption(f"Options are NAME: VALUE pairs, not {_shown(options)}.")
        if variant:
            by_name = {v.name: v for v in self.variants}
            if variant not in by_name:
                variant_names = ", ".join(by_name) or "none"
                raise BadOption(f"{self.title} has no variant '{_cut(variant)}' (variants: {variant_names}).")
            merged.update(by_name[variant].options)
            span = by_name[variant].players
            if span:
                lo, hi = span
        known = {o.name: o for o in self.options}
        for key, value in (options or {}).items():
            if key not in known:
                names = ", ".join(known) or "none"
                raise BadOption(f"{self.title} has no option '{_cut(key)}' (options: {names}).")
            merged[key] = _check_option(known[key], value)
        if players is None:
            players = lo
        if not isinstance(players, int) or isinstance(players, bool) or not lo <= players <= hi:
            counts = f"{lo} player{'' if hi == 1 else 's'}" if lo == hi else f"{lo} to {hi} players"
            raise BadOption(f"{self.title}{' (' + variant + ')' if variant else ''} is for {counts}, "
                            f"not {_shown(players)}.")
        return merged, players

    def non_default_options(self, options: dict) -> dict:
        defaults = {o.name: o.default for o in self.options}
        return {k: v for k, v in options.items() if defaults.get(k, object()) != v}

    # ---- required --------------------------------------------------------------------------------------------------
    def new_state(self, options: dict | None = None, players: int | None = None) -> S:
        """Setup. `options` may be partial; validate with `resolve_options` (required)."""
        raise NotImplementedError

    def num_players(self, state: S) -> int:
        raise NotImplementedError

    def current_player(self, state: S) -> int:
        """The player to move, CHANCE, or TERMINAL (required)."""
        raise NotImplementedError

    def legal_moves(self, state: S) -> list[M]:
        """Sorted, unique decision moves; empty at chance and terminal states (required)."""
        raise NotImplementedError

    def chance_outcomes(self, state: S) -> list[tuple[M, float]]:
        """At a chance state: (outcome, probability) pairs, sorted by outcome, probabilities summing to 1."""
        return []

    def apply_unchecked(self, state: S, move: M) -> tuple[S, list[Event]]:
        """The new state and what happened, trusting that `move` is legal (required)."""
        raise NotImplementedError

    def returns(self, state: S) -> list[float]:
        """Per-player utility at a terminal state (win 1, loss -1, draw 0 in two-player games) (required)."""
        raise NotImplementedError

    def scores(self, state: S) -> list[int]:
        """The visible score of each player (points, captured pieces, cheats...)."""
        return [0] * self.num_players(state)

    def result(self, state: S) -> str:
        """One sentence describing the outcome of a finished game."""
        r = self.returns(state)
        best = max(r)
        winners = [i for i, v in enumerate(r) if v == best]
        if len(winners) != 1:
            return "Draw."
        return f"Player {winners[0] + 1} wins."

    def solitaire_won(self, state: S) -> bool:
        """In a one-player game: did the player achieve the goal (the tower escaped, the ziggurat stands)?"""
        return self.returns(state)[0] > 0

    def observation(self, state: S, viewer: int) -> Hashable:
        """What `viewer` may know, as a hashable value: equal for two states the viewer cannot tell apart, different
        otherwise. Perfect-information games return the state."""
        return state

    def resample(self, state: S, viewer: int, rng: random.Random) -> S:
        """A state drawn from those `viewer` cannot tell from `state` (same observation, layout, hud and legal moves
        for the viewer), with the hidden parts drawn at random. Perfect-information games return the state."""
        return state

    def layout(self, state: S, viewer: int):
        """Where every physical piece is (towerworld.engine.layout.Layout), as `viewer` sees it: a hidden piece lies by
        its back under an id that does not name it (required)."""
        raise NotImplementedError

    def help_text(self) -> str:
        """Short rules and keys for the help overlay: the `help.md` of the package the game's class lives in, or the
        game's title when that package has none."""
        return package_help(sys.modules[type(self).__module__].__package__) or self.title

    def hint(self, state: S, viewer: int, budget: float = 0.5) -> M | None:
        """The game's own suggestion for `viewer` when it is their decision, from what they may know; None leaves the
        hint to the generic greedy agent (which is handed the viewer's View, never the state)."""
        return None

    def format_move(self, state: S, move: M) -> str:
        """The move in the game's notation, as text (required)."""
        raise NotImplementedError

    def parse_move(self, state: S, text: str) -> M:
        """Inverse of format_move in `state`; BadNotation with a clear sentence otherwise.

        The default looks the text up among the legal moves and chance outcomes of `state`.
        """
        text = text.strip()
        for move in self._moves_here(state):
            if self.format_move(state, move) == text:
                return move
        raise BadNotation(f"'{text}' is not a legal move here.")

    # ---- optional, with sensible defaults -------------------------------------------------------------------------
    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def picks(self, state: S, move: M) -> tuple[str, ...]:
        """The clicks that make up `move` on the play screen: piece ids or cell ids, in order."""
        return (self.format_move(state, move),)

    def explain(self, state: S, picks: Sequence[str]) -> str:
        """Why the picks so far lead to no legal move: one sentence naming the rule broken."""
        return "That is not a legal move here."

    def describe_pick(self, state: S, picks: Sequence[str], pick: str) -> str:
        """A few words for a button offering `pick` next, when one click could mean more than one pick."""
        return pick.replace(":", " ").replace("_", " ")

    def preview(self, state: S, viewer: int, picks: Sequence[str]) -> dict:
        """Where the picks so far would put pieces, shown as ghosts while the pointer rests on a next pick: piece id
        -> Pose (towerworld.engine.layout). {} shows nothing (the default)."""
        return {}

    def confirm_text(self, state: S, move: M, viewer: int) -> str | None:
        """A question the table asks before it plays `move` for `viewer` (a move the player may regret: a cheat that
        costs points), in the player's words and ending with "?"; None plays the move at once (the default)."""
        return None

    def hud(self, state: S, viewer: int) -> dict[str, str]:
        """Lines for the HUD, as `viewer` may read them: turn, phase, scores and whatever players should see."""
        cp = self.current_player(state)
        who = "Game over" if cp == TERMINAL else "Chance" if cp == CHANCE else f"Player {cp + 1} to move"
        return {"turn": who, "scores": "  ".join(f"Player {i + 1}: {s}" for i, s in enumerate(self.scores(state)))}

    # the `hud` lines the panels already show (a key, or a key's first word: "supply" covers "supply 1-2"): the table
    # leaves them out of its status lines
    panel_keys: tuple[str, ...] = ("scores",)

    def panels(self, state: S, viewer: int) -> list[Panel]:
        """One panel per player, as `viewer` may read them (what another seat holds in secret by its count only): name,
        score, what they hold or have left, and whose turn it is. The default shows the scores and the seat to
        move."""
        cp = self.current_player(state)
        return [Panel(i, f"Player {i + 1}", str(s), (), cp == i) for i, s in enumerate(self.scores(state))]

    def prompt(self, state: S, viewer: int) -> str:
        """What `viewer` is asked to do now when the decision is theirs, as a short instruction in their words
        ("pick a tower to attack"); the table prints it after "Your turn: ". The default: the hud's "next" line, else
        "make your move"."""
        line = self.hud(state, viewer).get("next", "")
        return line or "make your move"

    def cutaway(self, state: S, viewer: int) -> tuple[float, tuple[str, ...]] | None:
        """A view hint: (height, piece kinds) to ghost the stack pieces at or above that height, so pieces inside a
        tower can be seen and picked. None shows everything."""
        return None

    def heuristic(self, state: S, player: int) -> float:
        """A cheap evaluation for greedy play: higher is better for `player`."""
        if self.is_terminal(state):
            return self.returns(state)[player] * 1000.0
        s = self.scores(state)
        best_other = max((v for i, v in enumerate(s) if i != player), default=0)
        return float(s[player] - best_other)

    def state_key(self, state: S) -> Hashable:
        """A hashable identity of the state (used for repetition and equality checks)."""
        return state

    def reveal_key(self, state: S) -> Hashable | None:
        """What the chance outcome due at `state` reveals, named alike in every line of play that reveals that same
        thing: a K'Dak tile being turned up is that tile, wherever the pawns went first. An outcome once revealed is
        kept under this key (undo, reload and resume show it again). None (the default): the outcome belongs to this
        decision only (a roll, a draw from a shuffled pile), kept under the state itself."""
        return None

    def reveal_item(self, state: S, outcome: M) -> Hashable | None:
        """The one physical thing `outcome` shows, for things that exist once and stay where they were seen (a K'Dak
        tile's identity): kept under one key, it is never drawn under another. None (the default): nothing of the
        kind (a die face, a card from a shuffled pile)."""
        return None

    # ---- derived ----------------------------------------------------------------------------------------------------
    def apply(self, state: S, move: M) -> tuple[S, list[Event]]:
        """Apply a move after checking it is legal; IllegalMove with the reason otherwise. Never mutates `state`."""
        cp = self.current_player(state)
        if cp == TERMINAL:
            raise IllegalMove("The game is over.")
        try:
            hash(move)
        except Exception:  # a list, a dict, a tuple holding one: no move of any game is shaped like that
            raise IllegalMove(f"{_shown(move)} is not a move of {self.title}.") from None
        # the game's own move object: 0.0 == 0 and True == 1 in Python, but only the game's objects are moves
        if cp == CHANCE:
            allowed = {m: m for m, _ in self.chance_outcomes(state)}
            if move not in allowed or type(allowed[move]) is not type(move):
                raise IllegalMove(self.why_impossible(state, move))
        else:
            allowed = {m: m for m in self.legal_moves(state)}
            if move not in allowed or type(allowed[move]) is not type(move):
                raise IllegalMove(self.why_illegal(state, move))
        return self.apply_unchecked(state, allowed[move])

    def apply_texts(self, state: S, *texts: str) -> S:
        """Apply moves written in the game's notation, each parsed and checked in turn (positions in tests, puzzles)."""
        for text in texts:
            state, _ = self.apply(state, self.parse_move(state, text))
        return state

    def why_impossible(self, state: S, outcome: M) -> str:
        """Why `outcome` cannot be what chance does now, as a sentence about the game ("there is no 13 on a die");
        games override this with their own words."""
        return f"{_shown(outcome)} is not a possible outcome here."

    def describe_move(self, state: S, move: M) -> str:
        """The move in a player's words, for hints and the log ("play 6-4 on c1-c2 of the bottom tier"); the
        notation by default."""
        return self.format_move(state, move)

    def why_illegal(self, state: S, move: M) -> str:
        """The reason `move` is refused; games override to name the rule."""
        try:
            return self.explain(state, self.picks(state, move))
        except Exception:  # a move of the wrong shape cannot be picked at all
            return "That is not a legal move here."

    def _moves_here(self, state: S) -> Iterable[M]:
        if self.current_player(state) == CHANCE:
            return [m for m, _ in self.chance_outcomes(state)]
        return self.legal_moves(state)

    def sample_chance(self, state: S, rng: random.Random) -> M:
        return draw_outcome(self.chance_outcomes(state), rng)

    def rollout(self, state: S, rng: random.Random, max_plies: int | None = None) -> S:
        """Play to the end for a search's leaf value. Uniformly random by default; a game whose uniform play says
        nothing (a solitaire where random moves cheat as often as they build) plays a cheap policy instead."""
        return self.random_playout(state, rng, max_plies)

    def search_moves(self, state: S, moves: list[M]) -> list[M]:
        """The legal `moves` a searching agent weighs at `state` (all of them by default). A game in which two careful
        players could both mark time for ever, where the rules set no limit, holds back the moves that only wait; only
        what every player sees may decide, since a searcher passes a sampled state."""
        return moves

    def playout_move(self, state: S, rng: random.Random) -> M:
        """The move the game's playout policy makes for the player to move (a decision, not chance): a search expands
        this move first, so that its tree answers the moves a player would make. Uniformly random by default."""
        moves = self.legal_moves(state)
        return moves[rng.randrange(len(moves))]

    def random_playout(self, state: S, rng: random.Random, max_plies: int | None = None) -> S:
        """Play uniformly random moves (and sampled chance) to the end; the hot loop of rollouts and benchmarks."""
        limit = max_plies or self.max_plies
        cp = self.current_player(state)
        plies = 0
        while cp != TERMINAL and plies < limit:
            if cp == CHANCE:
                move = self.sample_chance(state, rng)
            else:
                moves = self.legal_moves(state)
                move = moves[rng.randrange(len(moves))]
            state, _ = self.apply_unchecked(state, move)
            cp = self.current_player(state)
            plies += 1
        return state


def _cut(text, limit: int = 40) -> str:
    """Text from outside (a record, the command line) as it may appear in a one-sentence message: escaped (no terminal
    control or bidi characters reach the reader) and cut short."""
    return shown_text(text, limit)


def _shown(value, limit: int = 40) -> str:
    """A value from outside as it may appear in a one-sentence message: its repr, bounded in depth and length, made
    safe like `_cut`."""
    return shown_value(value, limit)


def allowed_values(opt: Option) -> str:
    """The values `opt` takes, in words: the end of a refusal, and `towerworld games`."""
    if opt.choices:
        return "one of " + ", ".join(_option_text(c) for c in opt.choices)
    if isinstance(opt.default, bool):
        return "true or false"
    if isinstance(opt.default, int):
        if opt.low is not None and opt.high is not None:
            return f"a whole number between {opt.low} and {opt.high}"
        if opt.low is not None:
            return f"a whole number of at least {opt.low}"
        if opt.high is not None:
            return f"a whole number of at most {opt.high}"
        return "a whole number"
    if isinstance(opt.default, float):
        return "a number"
    return "text"


def _option_text(value) -> str:
    """An option value as the command line and the records' readers write it (true/false, not True/False)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_option(opt: Option, value):
    """`value` if it is a legal value of `opt`, exactly (no coercion: 20.9 is not 20, "off" is not false); BadOption
    naming the option and its allowed values otherwise."""
    def refuse():
        return BadOption(f"Option '{opt.name}' must be {allowed_values(opt)}, not {_shown(value)}.")

    if opt.choices:
        # compare type and value, so True does not pass for a choice of 1 nor 1.0 for 1
        if not any(type(value) is type(c) and value == c for c in opt.choices):
            raise refuse()
        return value
    if isinstance(opt.default, bool):
        if not isinstance(value, bool):
            raise refuse()
        return value
    if isinstance(opt.default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise refuse()
        if (opt.low is not None and value < opt.low) or (opt.high is not None and value > opt.high):
            raise refuse()
        return value
    if isinstance(opt.default, float):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value \
                or value in (float("inf"), float("-inf")):
            raise refuse()
        return float(value)
    if isinstance(opt.default, str) and not isinstance(value, str):
        raise refuse()
    return value


_INT_TEXT = re.compile(r"[+-]?[0-9]{1,18}")


def option_from_text(opt: Option, text: str):
    """The value of `opt` written as `text` on the command line (-o NAME=VALUE), validated like a record's value:
    an int option takes only an integer, a bool only true or false, a choice only one of its choices."""
    text = text.strip()
    if opt.choices:
        for c in opt.choices:
            if _option_text(c) == text or (isinstance(c, str) and c.lower() == text.lower()):
                return c
        raise BadOption(f"Option '{opt.name}' must be {allowed_values(opt)}, not '{_cut(text)}'.")
    if isinstance(opt.default, bool):
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
        raise BadOption(f"Option '{opt.name}' must be {allowed_values(opt)}, not '{_cut(text)}'.")
    if isinstance(opt.default, int):
        if not _INT_TEXT.fullmatch(text):
            raise BadOption(f"Option '{opt.name}' must be {allowed_values(opt)}, not '{_cut(text)}'.")
        return _check_option(opt, int(text))
    if isinstance(opt.default, float):
        try:
            value = float(text)
        except ValueError:
            raise BadOption(f"Option '{opt.name}' must be {allowed_values(opt)}, not '{_cut(text)}'.") from None
        return _check_option(opt, value)
    return _check_option(opt, text)


def options_from_text(game: Game, texts: dict[str, str]) -> dict:
    """Option values from NAME -> VALUE texts (the command line's -o), each validated strictly; BadOption naming the
    option otherwise."""
    known = {o.name: o for o in game.options}
    out = {}
    for name, text in texts.items():
        if name not in known:
            names = ", ".join(known) or "none"
            raise BadOption(f"{game.title} has no option '{_cut(name)}' (options: {names}).")
        out[name] = option_from_text(known[name], text)
    return out
