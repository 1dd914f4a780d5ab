"""Carcassonne with The Tower and the Black Tower: the game contract over rules.py (seed 003; docs/rules/carcassonne.md).

Notation is in notation.py, the table in layout.py, agents in strategy.py.
"""
from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import fields
from itertools import accumulate
from typing import Sequence

from towerworld.engine.game import CHANCE, TERMINAL, AgentSpec, BadOption, Event, EventKind, Game, GameInfo, Option
from towerworld.engine.layout import Layout
from towerworld.engine.words import counted

from . import layout as carc_layout
from . import notation, strategy
from . import rules

from .board import (ACTION, CAPTURE, DRAW, FOLLOWERS, K_CAPTURE, K_DRAW, K_FOLLOW, K_NOCAPTURE, K_PASS, K_PLACE,
                    K_RANSOM, K_TOP, K_TOWER, LOW, M_DRAW, M_FOLLOW, M_PLACE, M_TOP, M_TOWER,
                    OVER, PIECE_NAMES, PLACE, RANSOM, SHIFT, SUPPLY, WHITE, CState, Config, pos_of, tower_pieces, xy)
from .layout import meeple_id, tower_id
from .notation import place_words
from .rules import step
from .tiles import CODES, ROTS, TILE_IDS, feature_words, tile_words


# 89 tiles can be drawn, each followed by at most 4 decisions (place, action, capture, ransom); at most 180 frontier
# places x 4 rotations, actions far below that. Two players win 1 or lose -1; from three on the winners get 1 and the
# rest 0 (a shared top is a shared win), so the returns need not sum to 0. The tiles drawn are chance; nothing is secret.
INFO = GameInfo(min_players=2, max_players=6, min_utility=-1.0, max_utility=1.0, zero_sum=False, chance=True,
                perfect_information=True, max_plies=89 + 4 * 89, max_moves=800)


def _event_builder():
    """A maker of Events from (kind, pieces, text, areas), the other fields at their defaults: an Event built slot by
    slot, the same value as Event(...) (whose frozen init sets each field through object.__setattr__, three times
    the cost, on every tile laid). Where Event's fields are not the ones named here, Event itself."""
    names = tuple(f.name for f in fields(Event))
    if names != ("kind", "pieces", "text", "reveals", "visible_to", "areas"):
        return lambda kind, pieces, text, areas: Event(kind, pieces, text, areas=areas)
    new = object.__new__
    slots = Event.__dict__                             # each field's slot descriptor, by name
    set_kind, set_pieces, set_text = slots["kind"].__set__, slots["pieces"].__set__, slots["text"].__set__
    set_reveals, set_visible, set_areas = (slots["reveals"].__set__, slots["visible_to"].__set__,
                                           slots["areas"].__set__)

    def placed(kind, pieces, text, areas):
        e = new(Event)
        set_kind(e, kind)
        set_pieces(e, pieces)
        set_text(e, text)
        set_reveals(e, False)
        set_visible(e, None)
        set_areas(e, areas)
        return e
    return placed


_placed = _event_builder()

# the draw and follower events made so far: (kind, player, tile type or follower, copy) -> the event
_MADE: dict[tuple, Event] = {}


class Carcassonne(Game[CState, int]):
    name = "carcassonne"
    title = "Carcassonne with The Tower"
    table_keys = ("R or the wheel over a glowing place turns the tile before you lay it",)
    options = (
        Option("tower", True, "Play with The Tower: 18 tower foundation tiles, tower pieces, capturing followers.",
               label="The Tower expansion"),
        Option("black_tower", True, "Play with the Black Tower mini-expansion: black and white tower pieces "
                                    "(needs The Tower).", label="The Black Tower"),
    )

    def info(self) -> GameInfo:
        return INFO

    # ---- setup -------------------------------------------------------------------------------------------------------
    def new_state(self, options: dict | None = None, players: int | None = None) -> CState:
        opts, n = self.resolve_options(options, None, players)
        if opts["black_tower"] and not opts["tower"]:
            raise BadOption("The Black Tower needs The Tower: switch 'The Tower expansion' on or 'The Black Tower' off.")
        pieces = tower_pieces(n, opts["black_tower"]) if opts["tower"] else (0, 0, 0)
        return rules.initial_state(Config(n, opts["tower"], opts["black_tower"], pieces))

    def num_players(self, state: CState) -> int:
        return state.cfg.players

    def current_player(self, s: CState) -> int:
        ph = s.phase
        if ph == DRAW:
            return CHANCE
        if ph == OVER:
            return TERMINAL
        return s.player

    def chance_outcomes(self, s: CState) -> list:
        if s.phase != DRAW:
            return []
        n = s.bagn
        return [(M_DRAW | t, c / n) for t, c in enumerate(s.bag) if c]

    def sample_chance(self, s: CState, rng: random.Random) -> int:
        """A tile drawn with its bag frequency: the draw of chance_outcomes (the same random number, the same
        running sum of probabilities), without building the list."""
        x = rng.random()
        # the running sums of c / n in bag order (a type not in the bag adds 0.0, which changes no sum); the first
        # type whose sum passes x
        sums = list(accumulate(map(s.bagn.__rtruediv__, s.bag)))
        t = bisect_right(sums, x)
        if t == len(sums):                         # x at or above the last sum, by rounding: the last type left
            t = max(i for i, c in enumerate(s.bag) if c)
        return M_DRAW | t

    def legal_moves(self, s: CState) -> list:
        return rules.legal_moves(s)

    # ---- applying moves -------------------------------------------------------------------------------------------
    def apply_unchecked(self, s: CState, move: int):
        ev: list = []
        ns = step(s, move, ev)
        return ns, [self._event(s, ns, e) for e in ev]

    def _event(self, s: CState, ns: CState, e: tuple) -> Event:
        kind = e[0]
        if kind == "draw" or kind == "follower":
            # events are immutable and these depend on a few small numbers only: each is made once
            key = (kind, s.player, e[1], e[2] if kind == "draw" else 0)
            made = _MADE.get(key)
            if made is None:
                made = _MADE[key] = self._make_event(s, ns, e)
            return made
        return self._make_event(s, ns, e)

    def _make_event(self, s: CState, ns: CState, e: tuple) -> Event:
        kind = e[0]
        if kind == "draw":
            t, k = e[1], e[2]
            return Event(EventKind.DRAW, (TILE_IDS[t][k],), f"Player {s.player + 1} draws {tile_words(t)}.", reveals=True)
        if kind == "discard":
            t, k = e[1], e[2]
            return Event(EventKind.DISCARD, (TILE_IDS[t][k],), f"{_capital(tile_words(t))} fits nowhere and is discarded.",
                         reveals=True)
        if kind == "place":
            t, r, pos, _b, k = e[1]
            x, y = xy(pos)
            return _placed(EventKind.PLACE, (TILE_IDS[t][k],),
                           f"Player {s.player + 1} laid {tile_words(t)} {place_words(x, y)}.", ())
        if kind == "follower":
            fid = e[1]
            return Event(EventKind.PLACE, (meeple_id(fid),), f"Player {fid // FOLLOWERS + 1} deployed a follower.")
        if kind == "tower":
            code, pos = e[1], e[2]
            x, y = xy(pos)
            return Event(EventKind.PLACE, (tower_id(code),),
                         f"Player {s.player + 1} built a {PIECE_NAMES[code & 3]} tower storey {place_words(x, y)}.")
        if kind == "capture":
            fid, how = e[1], e[2]
            whose = "their own follower" if fid // FOLLOWERS == s.player else f"a follower of Player {fid // FOLLOWERS + 1}"
            return Event(EventKind.CAPTURE, (meeple_id(fid),), f"Player {s.player + 1} captured {whose}"
                         + {"own": " (back to its supply).", "prisoner": " (now a prisoner).",
                            "exchange": " and exchanged prisoners."}[how])
        if kind == "exchange":
            fid = e[1]
            return Event(EventKind.RETURN, (meeple_id(fid),), f"Player {fid // FOLLOWERS + 1}'s follower returned in exchange.")
        if kind == "ransom":
            fid, q = e[1], e[2]
            return Event(EventKind.RETURN, (meeple_id(fid),), f"Player {fid // FOLLOWERS + 1} paid 3 points to Player {q + 1} as ransom.")
        if kind == "score":
            win, pts, what, home, node = e[1], e[2], e[3], e[4], e[5]
            who = " and ".join(f"Player {w + 1}" for w in win)
            # the scoring followers lift off home in this event's phase, before anything else moves, while the
            # feature's part of every tile lights up
            return _placed(EventKind.SCORE, tuple(meeple_id(f) for f in home),
                           f"Completed {what}: {who} +{pts}." if win else f"Completed {what}.",
                           carc_layout.feature_areas(ns, node))
        if kind == "final_feature":
            what, win, pts, node = e[1]
            return Event(EventKind.SCORE, (), f"{what.capitalize()}: " + " and ".join(f"Player {w + 1}" for w in win)
                         + f" +{pts}", areas=carc_layout.feature_areas(ns, node))
        if kind == "final":
            # the totals only: each feature's points follow in its own event, floating up from it on the table
            add = e[1]
            return Event(EventKind.SCORE, (), "Final scoring: " + ", ".join(f"Player {i + 1} +{v}" for i, v in enumerate(add))
                         + ".")
        # any other step of the engine: its kind if the engine's vocabulary has it, else a plain move
        return Event(EventKind(kind) if kind in EventKind._value2member_map_ else EventKind.MOVE, (), "")

    def random_playout(self, state: CState, rng: random.Random, max_plies: int | None = None) -> CState:
        """Uniform random play to the end, drawing tiles with their bag frequencies; no events, no move lists kept."""
        limit = max_plies or self.max_plies
        s = state
        plies = 0
        rand = rng.random
        while plies < limit:
            ph = s.phase
            if ph == OVER:
                break
            if ph == DRAW:
                i = int(rand() * s.bagn)
                for t, c in enumerate(s.bag):
                    if i < c:
                        break
                    i -= c
                s = step(s, M_DRAW | t, None)
            elif ph == PLACE:
                s = step(s, rules.random_placement(s.frontier, s.drawn, rand()), None)
            else:
                moves = self.legal_moves(s)
                s = step(s, moves[int(rand() * len(moves))], None)
            plies += 1
        return s

    # ---- outcome ----------------------------------------------------------------------------------------------------
    def scores(self, s: CState) -> list:
        return list(s.scores)

    def returns(self, s: CState) -> list:
        if s.phase != OVER:
            return [0.0] * s.cfg.players
        sc = s.scores
        best = max(sc)
        winners = [i for i, v in enumerate(sc) if v == best]
        n = len(sc)
        if len(winners) == n:
            return [0.0] * n
        if n == 2:
            return [1.0 if i in winners else -1.0 for i in range(n)]
        return [1.0 if i in winners else 0.0 for i in range(n)]

    def result(self, s: CState) -> str:
        sc = s.scores
        best = max(sc)
        winners = [i for i, v in enumerate(sc) if v == best]
        if len(winners) == 1:
            return f"Player {winners[0] + 1} wins with {counted(best, 'point')}."
        return "Shared win: " + ", ".join(f"Player {w + 1}" for w in winners) + f" with {counted(best, 'point')}."

    def heuristic(self, s: CState, player: int) -> float:
        if s.phase == OVER:
            return self.returns(s)[player] * 1000.0
        sc = s.scores
        best_other = max(v for i, v in enumerate(sc) if i != player)
        return float(sc[player] - best_other)

    def state_key(self, s: CState):
        return s.key()

    def format_move(self, s: CState, move: int) -> str:
        return notation.format_move(s, move)

    def parse_move(self, s: CState, text: str) -> int:
        return notation.parse_move(s, text)

    # ---- explaining refusals ---------------------------------------------------------------------------------------
    def why_illegal(self, s: CState, move) -> str:
        if not isinstance(move, int) or isinstance(move, bool):
            return "That is not a Carcassonne move."
        ph = s.phase
        k, v = move >> SHIFT, move & LOW
        if ph == OVER:
            return "The game is over."
        if ph == DRAW:
            return "A tile must be drawn first."
        if k == K_RANSOM:
            return self._why_no_ransom(s, v)
        if ph == PLACE:
            if k != K_PLACE:
                return f"Place the drawn tile ({tile_words(s.drawn)}) first."
            pos, r = v >> 2, v & 3
            x, y = xy(pos)
            if pos in s.board:
                return "There is already a tile there."
            if pos not in s.frontier:
                return "A tile must touch the tiles already placed; that place touches none."
            return (f"The drawn tile ({tile_words(s.drawn)}) turned {90 * r}\u00b0 does not match its neighbours there: every touching "
                    "edge must continue the road, city or field.")
        if ph == CAPTURE:
            if k == K_CAPTURE:
                return "That follower is not in range of the tower just built."
            return "Choose a follower in range to capture, or no capture."
        if ph == RANSOM:
            return "Choose a ransom or no ransom."
        # ACTION
        p = s.player
        free = SUPPLY in s.fl[p * FOLLOWERS:(p + 1) * FOLLOWERS]
        if k == K_FOLLOW:
            if not free:
                return "You have no follower left in your supply."
            t, r = s.tiles[-1][0], s.tiles[-1][1]
            if v >= len(ROTS[t][r].kinds):
                return "The tile just placed has no such feature."
            return (f"The {ROTS[t][r].names[v].split()[0]} is already occupied by a follower: a follower may only go "
                    "on a feature nobody occupies.")
        if k in (K_TOWER, K_TOP):
            pos = v >> 2 if k == K_TOWER else v
            x, y = xy(pos)
            if pos not in s.towers:
                return "There is no tower or tower foundation there."
            stack = s.towers[pos]
            if pos in rules.closed_towers(s.fl):
                return "A follower guards the top of that tower: it is finished."
            if stack and stack[-1] & 3 == WHITE:
                return "That tower is capped with a White Tower piece and cannot change any more."
            if k == K_TOP:
                if not stack:
                    return "A follower can only go on top of a tower with at least one storey."
                return "You have no follower left in your supply."
            ptype = v & 3
            if ptype == WHITE and not stack:
                return "A White Tower piece cannot be played directly to a tower foundation."
            if ptype > WHITE:
                return "There is no such tower piece."
            return f"You have no {PIECE_NAMES[ptype]} tower piece left."
        if k in (K_PLACE, K_DRAW):
            return "The tile is already placed; now deploy a follower, build a tower, or pass."
        return "That is not a legal move here."

    def _why_no_ransom(self, s: CState, captor: int) -> str:
        p = s.player
        if s.ransomed:
            return "A ransom may be paid only once a turn, and you paid one this turn."
        if s.scores[p] < 3:
            return f"A ransom costs 3 points and you have {s.scores[p]}."
        if -2 - captor not in s.fl[p * FOLLOWERS:(p + 1) * FOLLOWERS]:
            return f"Player {captor + 1} holds none of your followers."
        return "A ransom is paid on your own turn."

    def explain(self, s: CState, picks: Sequence[str]) -> str:
        """Why the picks so far lead to no legal move, naming the rule (maps the picks to a move, then why_illegal)."""
        try:
            return self._explain(s, list(picks))
        except (ValueError, IndexError, KeyError):
            return "That is not a legal move here."

    def _explain(self, s: CState, picks: list) -> str:
        if not picks:
            return "Pick something to start a move."
        first = picks[0]
        ph = s.phase
        if ph == OVER:
            return "The game is over."
        if ph == DRAW:
            return "A tile must be drawn from the bag first."
        if first.startswith(("tile:", "bag:")) or (first.startswith("tower:p") and ph != ACTION):
            if ph == PLACE:
                return (f"Place the drawn tile ({tile_words(s.drawn)}) on a glowing open place beside the landscape: "
                        "it must touch a placed tile and match every edge it touches.")
            if ph == ACTION and first.startswith("tile:"):
                return ("The tile is placed: now put a follower on a glowing road, city, field or cloister of it, "
                        "a tower piece on a glowing tower, or pass.")
        if first.startswith("tower:p"):
            return "To build on a tower, click its glowing roof (a tower piece goes on any foundation or open tower)."
        if first.startswith("meeple:") and ph == ACTION:
            return ("A follower goes on a feature of the tile just placed: click the glowing road, city, field or "
                    "cloister itself.")
        if first.startswith("at:"):
            x, y = (int(v) for v in first[3:].split(","))
            pos = pos_of(x, y)
            if ph != PLACE:
                return "The tile is already placed this turn."
            if len(picks) > 1 and picks[1].startswith("rot:"):
                return self.why_illegal(s, M_PLACE | pos << 2 | int(picks[1][4:]) // 90)
            if pos in s.board or pos not in s.frontier:
                return self.why_illegal(s, M_PLACE | pos << 2)
            return f"The drawn tile ({tile_words(s.drawn)}) fits there in no rotation: every touching edge must match."
        if first.startswith("feature:"):
            if ph != ACTION:
                return "Followers are deployed after placing the tile."
            return self.why_illegal(s, M_FOLLOW | int(first[8:]))
        if first.startswith("tower:"):
            if ph != ACTION:
                return "Tower pieces are played after placing the tile, instead of a follower."
            x, y = (int(v) for v in first[6:].split(","))
            pos = pos_of(x, y)
            piece = picks[1][6:] if len(picks) > 1 and picks[1].startswith("piece:") else "normal"
            if piece == "follower":
                return self.why_illegal(s, M_TOP | pos)
            return self.why_illegal(s, M_TOWER | pos << 2 | PIECE_NAMES.index(piece))
        if first.startswith("meeple:"):
            if ph != CAPTURE:
                return "Followers can only be captured right after building a normal or black tower storey."
            return "That follower is not in range of the tower just built."
        if first.startswith("ransom:"):
            return self._why_no_ransom(s, int(first[7:]) - 1)
        if ph == PLACE:
            return f"Place the drawn tile ({tile_words(s.drawn)}) first."
        return "That is not a legal move here."

    # ---- picks ------------------------------------------------------------------------------------------------------
    def picks(self, s: CState, move: int) -> tuple:
        k, v = move >> SHIFT, move & LOW
        if k == K_DRAW:
            return ("bag",)
        if k == K_PLACE:
            x, y = xy(v >> 2)
            return (f"at:{x},{y}", f"rot:{90 * (v & 3)}")
        if k == K_FOLLOW:
            return (f"feature:{v}",)
        if k == K_TOWER:
            x, y = xy(v >> 2)
            return (f"tower:{x},{y}", f"piece:{PIECE_NAMES[v & 3]}")
        if k == K_TOP:
            x, y = xy(v)
            return (f"tower:{x},{y}", "piece:follower")
        if k == K_PASS:
            return ("pass",)
        if k == K_CAPTURE:
            return (meeple_id(v),)
        if k == K_NOCAPTURE:
            return ("pass",)
        if k == K_RANSOM:
            return (f"ransom:{v + 1}",)
        return ("pass",)

    def agents(self) -> tuple[AgentSpec, ...]:
        """Carcassonne's own search ('mcts', replacing the generic one) and 'greedy', both on projected scores."""
        return strategy.AGENTS

    def describe_move(self, s: CState, move) -> str:
        return notation.describe_move(s, move)

    def describe_pick(self, s: CState, picks: Sequence[str], pick: str) -> str:
        """Words for the picks that are buttons, not places: rotations, tower pieces, pass, ransom."""
        if pick.startswith("rot:"):
            turn = int(pick[4:])
            return "as drawn" if turn == 0 else f"turned {turn}\u00b0"
        if pick.startswith("piece:"):
            what = pick[6:]
            return "a follower on top (closes it)" if what == "follower" else f"a {what} tower piece"
        if pick.startswith("ransom:"):
            return f"ransom: pay Player {pick[7:]} 3 points to free a follower"
        if pick == "pass":
            return {ACTION: "no follower or tower", CAPTURE: "no capture", RANSOM: "no ransom"}.get(s.phase, "pass")
        if pick.startswith("feature:") and s.phase == ACTION and s.tiles:
            t, r = s.tiles[-1][:2]
            names = ROTS[t][r].names
            j = int(pick[8:])
            if 0 <= j < len(names):
                return feature_words(names[j])
        if pick.startswith("tower:") and "," in pick:
            x, y = (int(n) for n in pick[6:].split(","))
            return f"the tower {place_words(x, y)}"
        if pick.startswith("at:"):
            x, y = (int(n) for n in pick[3:].split(","))
            return f"the place {place_words(x, y)}"
        return super().describe_pick(s, picks, pick)

    # ---- what the table shows ----------------------------------------------------------------------------------------
    def hud(self, s: CState, viewer: int) -> dict:
        return carc_layout.hud(s, self.result(s))

    panel_keys = ("scores", "supply")

    def panels(self, s: CState, viewer: int) -> list:
        return carc_layout.panels(s)

    def prompt(self, s: CState, viewer: int) -> str:
        return carc_layout.prompt(s)

    def layout(self, s: CState, viewer: int) -> Layout:
        return carc_layout.make_layout(s, viewer)

    def preview(self, s: CState, viewer: int, picks: Sequence[str]) -> dict:
        """The drawn tile where the pointer rests, turned as chosen: the table's ghost before the click."""
        return carc_layout.preview(s, picks)


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]
