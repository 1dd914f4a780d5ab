"""The Carcassonne Game object: turn flow, notation, picks, layout and HUD over the engine in engine.py."""
from __future__ import annotations

import random
import re
from typing import Sequence

from towerworld.engine.game import (CHANCE, TERMINAL, BadNotation, BadOption, Event, Game, IllegalMove, Option)
from towerworld.engine.layout import Cell, Layout, Pose, look

from . import engine as E
from . import tiles as TL
from .engine import (ACTION, CAPTURE, DRAW, FOLLOWERS, OVER, PLACE, RANSOM, SUPPLY, TOP0, WHITE, LOW, SHIFT,
                     K_CAPTURE, K_DRAW, K_FOLLOW, K_NOCAPTURE, K_NORANSOM, K_PASS, K_PLACE, K_RANSOM, K_TOP,
                     K_TOWER, M_CAPTURE, M_DRAW, M_FOLLOW, M_NOCAPTURE, M_NORANSOM, M_PASS, M_PLACE, M_RANSOM,
                     M_TOP, M_TOWER, CState, Config, pos_of, xy)
from .tiles import ROTS, COUNT, CODES, INDEX

TILE_MM = 45.0
TILE_H = 2.0
STOREY = 12.0
MEEPLE_H = 16.0


class Carcassonne(Game):
    name = "carcassonne"
    title = "Carcassonne with The Tower"
    min_players = 2
    max_players = 6
    options = (
        Option("tower", True, "Play with The Tower: 18 tower foundation tiles, tower pieces, capturing followers."),
        Option("black_tower", True, "Play with the Black Tower mini-expansion: black and white tower pieces "
                                    "(needs The Tower)."),
    )
    # 89 tiles can be drawn; each placed tile is followed by at most 4 decisions (place, action, capture, ransom).
    max_plies = 89 + 4 * 89
    # at most 180 frontier places x 4 rotations; actions stay far below that.
    max_moves = 800
    perfect_information = True
    has_chance = True

    # ---- setup -------------------------------------------------------------------------------------------------------
    def new_state(self, options: dict | None = None, players: int | None = None) -> CState:
        opts, n = self.resolve_options(options, None, players)
        if opts["black_tower"] and not opts["tower"]:
            raise BadOption("The Black Tower needs The Tower: switch 'tower' on or 'black_tower' off.")
        pieces = E.tower_pieces(n, opts["black_tower"]) if opts["tower"] else (0, 0, 0)
        return E.initial_state(Config(n, opts["tower"], opts["black_tower"], pieces))

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

    def legal_moves(self, s: CState) -> list:
        ph = s.phase
        if ph == PLACE:
            return E.placements(s.frontier, s.drawn)
        if ph == ACTION:
            return E.action_moves(s)
        if ph == CAPTURE:
            return [M_CAPTURE | f for f in s.cands] + [M_NOCAPTURE]
        if ph == RANSOM:
            return E.ransom_moves(s)
        return []

    # ---- applying moves -------------------------------------------------------------------------------------------
    def apply_unchecked(self, s: CState, move: int):
        ev: list = []
        ns = step(s, move, ev)
        return ns, [self._event(s, ns, e) for e in ev]

    def _event(self, s: CState, ns: CState, e: tuple) -> Event:
        kind = e[0]
        if kind == "draw":
            t, k = e[1], e[2]
            return Event("draw", (f"tile:{CODES[t]}:{k}",), f"Drew tile {CODES[t]}.", reveals=True)
        if kind == "discard":
            t, k = e[1], e[2]
            return Event("discard", (f"tile:{CODES[t]}:{k}",), f"Tile {CODES[t]} fits nowhere and is discarded.",
                         reveals=True)
        if kind == "place":
            t, r, pos, _b, k = e[1]
            x, y = xy(pos)
            return Event("place", (f"tile:{CODES[t]}:{k}",), f"P{s.player + 1} placed {CODES[t]} at {x},{y}.")
        if kind == "follower":
            fid = e[1]
            return Event("place", (meeple_id(fid),), f"P{fid // FOLLOWERS + 1} deployed a follower.")
        if kind == "tower":
            code, pos = e[1], e[2]
            x, y = xy(pos)
            return Event("place", (tower_id(code),),
                         f"P{s.player + 1} built a {E.PIECE_NAMES[code & 3]} tower storey at {x},{y}.")
        if kind == "capture":
            fid, how = e[1], e[2]
            return Event("capture", (meeple_id(fid),), f"P{s.player + 1} captured a follower of P{fid // FOLLOWERS + 1}"
                         + {"own": " (back to its supply).", "prisoner": " (now a prisoner).",
                            "exchange": " and exchanged prisoners."}[how])
        if kind == "exchange":
            fid = e[1]
            return Event("return", (meeple_id(fid),), f"Prisoner of P{fid // FOLLOWERS + 1} returned in exchange.")
        if kind == "ransom":
            fid, q = e[1], e[2]
            return Event("return", (meeple_id(fid),), f"P{fid // FOLLOWERS + 1} paid 3 points to P{q + 1} as ransom.")
        if kind == "score":
            win, pts, what = e[1], e[2], e[3]
            who = ", ".join(f"P{w + 1}" for w in win)
            return Event("score", (), f"{who} scored {pts} for a {what}.")
        if kind == "final":
            return Event("score", (), "Final scoring: " + ", ".join(f"P{i + 1} +{v}" for i, v in enumerate(e[1])) + ".")
        return Event(kind, (), "")

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
                s = step(s, E.random_placement(s.frontier, s.drawn, rand()), None)
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
            return f"Player {winners[0] + 1} wins with {best} points."
        return "Shared win: " + ", ".join(f"Player {w + 1}" for w in winners) + f" with {best} points."

    def heuristic(self, s: CState, player: int) -> float:
        if s.phase == OVER:
            return self.returns(s)[player] * 1000.0
        sc = s.scores
        best_other = max(v for i, v in enumerate(sc) if i != player)
        return float(sc[player] - best_other)

    def state_key(self, s: CState):
        return s.key()

    # ---- notation ---------------------------------------------------------------------------------------------------
    def format_move(self, s: CState, move: int) -> str:
        k, v = move >> SHIFT, move & LOW
        if k == K_DRAW:
            return f"draw {CODES[v]}"
        if k == K_PLACE:
            x, y = xy(v >> 2)
            return f"{CODES[s.drawn]} {x},{y} r{90 * (v & 3)}"
        if k == K_FOLLOW:
            t, r = s.tiles[-1][0], s.tiles[-1][1]
            return f"follower {ROTS[t][r].names[v]}"
        if k == K_TOWER:
            x, y = xy(v >> 2)
            return f"{E.PIECE_NAMES[v & 3]} tower {x},{y}"
        if k == K_TOP:
            x, y = xy(v)
            return f"follower on tower {x},{y}"
        if k == K_PASS:
            return "pass"
        if k == K_CAPTURE:
            return f"capture P{v // FOLLOWERS + 1}.{v % FOLLOWERS + 1}"
        if k == K_NOCAPTURE:
            return "no capture"
        if k == K_RANSOM:
            return f"ransom from P{v + 1}"
        if k == K_NORANSOM:
            return "no ransom"
        raise BadNotation(f"{move!r} is not a Carcassonne move.")

    _RE_PLACE = re.compile(r"^([A-Z]{1,2})\s+(-?\d+)\s*,\s*(-?\d+)\s+r(0|90|180|270)$")
    _RE_TOWER = re.compile(r"^(normal|black|white)\s+tower\s+(-?\d+)\s*,\s*(-?\d+)$")
    _RE_TOP = re.compile(r"^follower on tower\s+(-?\d+)\s*,\s*(-?\d+)$")
    _RE_CAPTURE = re.compile(r"^capture P(\d)\.(\d)$")
    _RE_RANSOM = re.compile(r"^ransom from P(\d)$")

    def parse_move(self, s: CState, text: str) -> int:
        t = " ".join(text.strip().split())
        if t.startswith("draw "):
            code = t[5:].strip()
            if code not in INDEX:
                raise BadNotation(f"'{code}' is not a tile code (codes: {', '.join(CODES)}).")
            return M_DRAW | INDEX[code]
        m = self._RE_PLACE.match(t)
        if m:
            code, x, y, rot = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
            if s.phase == PLACE and code != CODES[s.drawn]:
                raise BadNotation(f"The tile to place is {CODES[s.drawn]}, not {code}.")
            if not (-100 < x < 100 and -100 < y < 100):
                raise BadNotation(f"{x},{y} is far outside the table.")
            return M_PLACE | pos_of(x, y) << 2 | rot // 90
        if t.startswith("follower on tower"):
            m = self._RE_TOP.match(t)
            if not m:
                raise BadNotation("Write a follower on a tower as 'follower on tower X,Y'.")
            x, y = int(m.group(1)), int(m.group(2))
            if not (-100 < x < 100 and -100 < y < 100):
                raise BadNotation(f"{x},{y} is far outside the table.")
            return M_TOP | pos_of(x, y)
        if t.startswith("follower "):
            name = t[9:]
            if s.phase != ACTION:
                raise BadNotation("A follower goes on the tile just placed, and no tile was just placed.")
            tt, r = s.tiles[-1][0], s.tiles[-1][1]
            names = ROTS[tt][r].names
            canon = _canon_feature(name)
            for j, nm in enumerate(names):
                if _canon_feature(nm) == canon:
                    return M_FOLLOW | j
            raise BadNotation(f"The tile just placed has no feature '{name}' (it has: {', '.join(names)}).")
        m = self._RE_TOWER.match(t)
        if m:
            x, y = int(m.group(2)), int(m.group(3))
            if not (-100 < x < 100 and -100 < y < 100):
                raise BadNotation(f"{x},{y} is far outside the table.")
            return M_TOWER | pos_of(x, y) << 2 | E.PIECE_NAMES.index(m.group(1))
        if t == "pass":
            return M_PASS
        if t == "no capture":
            return M_NOCAPTURE
        if t == "no ransom":
            return M_NORANSOM
        m = self._RE_CAPTURE.match(t)
        if m:
            p, k = int(m.group(1)), int(m.group(2))
            if not (1 <= p <= s.cfg.players and 1 <= k <= FOLLOWERS):
                raise BadNotation(f"There is no follower P{p}.{k}.")
            return M_CAPTURE | (p - 1) * FOLLOWERS + k - 1
        m = self._RE_RANSOM.match(t)
        if m:
            q = int(m.group(1))
            if not 1 <= q <= s.cfg.players:
                raise BadNotation(f"There is no player P{q}.")
            return M_RANSOM | q - 1
        raise BadNotation(f"'{text.strip()}' is not Carcassonne notation (see docs/rules/carcassonne.md).")

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
        if ph == PLACE:
            if k != K_PLACE:
                return f"Place the drawn tile {CODES[s.drawn]} first."
            pos, r = v >> 2, v & 3
            x, y = xy(pos)
            if pos in s.board:
                return f"There is already a tile at {x},{y}."
            if pos not in s.frontier:
                return f"A tile must touch the tiles already placed; {x},{y} touches none."
            return (f"Tile {CODES[s.drawn]} rotated {90 * r} does not match its neighbours at {x},{y}: every touching "
                    "edge must continue the road, city or field.")
        if ph == CAPTURE:
            if k == K_CAPTURE:
                return "That follower is not in range of the tower just built."
            return "Choose a follower in range to capture, or no capture."
        if ph == RANSOM:
            if k == K_RANSOM:
                return "You can only ransom a follower held by that player, with at least 3 points."
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
                return f"There is no tower or tower foundation at {x},{y}."
            stack = s.towers[pos]
            if pos in E.closed_towers(s.fl):
                return f"A follower guards the top of the tower at {x},{y}: it is finished."
            if stack and stack[-1] & 3 == WHITE:
                return f"The tower at {x},{y} is capped with a White Tower piece and cannot change any more."
            if k == K_TOP:
                if not stack:
                    return "A follower can only go on top of a tower with at least one storey."
                return "You have no follower left in your supply."
            ptype = v & 3
            if ptype == WHITE and not stack:
                return "A White Tower piece cannot be played directly to a tower foundation."
            if ptype > WHITE:
                return "There is no such tower piece."
            return f"You have no {E.PIECE_NAMES[ptype]} tower piece left."
        if k in (K_PLACE, K_DRAW):
            return "The tile is already placed; now deploy a follower, build a tower, or pass."
        return "That is not a legal move here."

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
        if first.startswith("at:"):
            x, y = (int(v) for v in first[3:].split(","))
            pos = pos_of(x, y)
            if ph != PLACE:
                return "The tile is already placed this turn."
            if len(picks) > 1 and picks[1].startswith("rot:"):
                return self.why_illegal(s, M_PLACE | pos << 2 | int(picks[1][4:]) // 90)
            if pos in s.board or pos not in s.frontier:
                return self.why_illegal(s, M_PLACE | pos << 2)
            return f"Tile {CODES[s.drawn]} fits at {x},{y} in no rotation: every touching edge must match."
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
            return self.why_illegal(s, M_TOWER | pos << 2 | E.PIECE_NAMES.index(piece))
        if first.startswith("meeple:"):
            if ph != CAPTURE:
                return "Followers can only be captured right after building a normal or black tower storey."
            return "That follower is not in range of the tower just built."
        if first.startswith("ransom:"):
            return ("You can only ransom at the end of your turn, with at least 3 points, from a player holding "
                    "your follower.")
        if ph == PLACE:
            return f"Place the drawn tile {CODES[s.drawn]} first."
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
            return (f"tower:{x},{y}", f"piece:{E.PIECE_NAMES[v & 3]}")
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

    # ---- HUD ---------------------------------------------------------------------------------------------------------
    def hud(self, s: CState, viewer: int) -> dict:
        n = s.cfg.players
        if s.phase == OVER:
            turn = "Game over: " + self.result(s)
        elif s.phase == DRAW:
            turn = f"P{s.player + 1} draws a tile"
        else:
            turn = f"P{s.player + 1}: {E.PHASE_NAMES[s.phase]}"
        out = {"turn": turn, "scores": "  ".join(f"P{i + 1}: {v}" for i, v in enumerate(s.scores)),
               "bag": f"{s.bagn} tiles in the bag, {len(s.discarded)} discarded"}
        if s.phase == PLACE:
            out["tile"] = f"Tile to place: {CODES[s.drawn]}"
        sup = []
        for p in range(n):
            f = sum(1 for loc in s.fl[p * FOLLOWERS:(p + 1) * FOLLOWERS] if loc == SUPPLY)
            pris = sum(1 for fid, loc in enumerate(s.fl) if loc == -2 - p)
            text = f"P{p + 1}: {f} followers"
            if s.cfg.tower:
                a, b, c = s.tsup[3 * p:3 * p + 3]
                text += f", tower pieces {a}" + (f" +{b} black +{c} white" if s.cfg.black else "")
                text += f", holds {pris} prisoners"
            sup.append(text)
        out["supply"] = "; ".join(sup)
        return out

    # ---- layout ------------------------------------------------------------------------------------------------------
    def layout(self, s: CState, viewer: int) -> Layout:
        return make_layout(self, s)


def _canon_feature(name: str) -> tuple:
    words = name.split()
    return (words[0],) + tuple(sorted(words[1:])) if words else ()


def meeple_id(fid: int) -> str:
    return f"meeple:p{fid // FOLLOWERS + 1}:{fid % FOLLOWERS + 1}"


def tower_id(code: int) -> str:
    p, t, k = E.piece_parts(code)
    return f"tower:p{p + 1}:{E.PIECE_NAMES[t]}:{k + 1}"


# ---- the turn machine -----------------------------------------------------------------------------------------------
def step(s: CState, move: int, ev) -> CState:
    """Apply a legal move. ev is a list collecting event tuples, or None on the fast path."""
    k = move >> SHIFT
    ns = s.copy()
    if k == K_PLACE:
        v = move & LOW
        t = s.drawn
        E.put_tile(ns, t, v & 3, v >> 2, COUNT[t] - s.bag[t] - 1)
        ns.phase = ACTION
        ns.drawn = -1
        if ev is not None:
            ev.append(("place", ns.tiles[-1]))
        return ns
    if k == K_DRAW:
        t = move & LOW
        bag = list(s.bag)
        bag[t] -= 1
        ns.bag = tuple(bag)
        ns.bagn = s.bagn - 1
        kk = COUNT[t] - bag[t] - 1
        if E.placeable(s.frontier, t):
            ns.drawn = t
            ns.phase = PLACE
            if ev is not None:
                ev.append(("draw", t, kk))
        else:
            ns.discarded = s.discarded + ((t, kk),)
            if ev is not None:
                ev.append(("discard", t, kk))
            if ns.bagn == 0:
                _finish(ns, ev)
        return ns
    p = s.player
    if k == K_PASS:
        return _end_action(ns, ev)
    if k == K_FOLLOW:
        j = move & LOW
        base = s.tiles[-1][3]
        f0 = p * FOLLOWERS
        fid = s.fl.index(SUPPLY, f0, f0 + FOLLOWERS)
        fl = list(s.fl)
        fl[fid] = base + j
        ns.fl = tuple(fl)
        occ = list(s.occ)
        occ[E.find(ns.parent, base + j)] += 1 << (4 * p)
        ns.occ = occ
        if ev is not None:
            ev.append(("follower", fid))
        return _end_action(ns, ev)
    if k == K_TOWER:
        v = move & LOW
        pos, ptype = v >> 2, v & 3
        sup = list(s.tsup)
        i = 3 * p + ptype
        sup[i] -= 1
        ns.tsup = tuple(sup)
        code = E.piece_code(p, ptype, s.cfg.pieces[ptype] - sup[i] - 1)
        towers = s.towers.copy()
        towers[pos] = towers[pos] + (code,)
        ns.towers = towers
        if ev is not None:
            ev.append(("tower", code, pos))
        if ptype != WHITE:
            cands = E.capture_candidates(ns, pos)
            if cands:
                ns.phase = CAPTURE
                ns.cands = cands
                return ns
        return _end_action(ns, ev)
    if k == K_TOP:
        pos = move & LOW
        f0 = p * FOLLOWERS
        fid = s.fl.index(SUPPLY, f0, f0 + FOLLOWERS)
        fl = list(s.fl)
        fl[fid] = TOP0 - pos
        ns.fl = tuple(fl)
        if ev is not None:
            ev.append(("follower", fid))
        return _end_action(ns, ev)
    if k == K_CAPTURE:
        _capture(ns, p, move & LOW, ev)
        ns.cands = ()
        return _end_action(ns, ev)
    if k == K_NOCAPTURE:
        ns.cands = ()
        return _end_action(ns, ev)
    if k == K_RANSOM:
        q = move & LOW
        f0 = p * FOLLOWERS
        fid = s.fl.index(-2 - q, f0, f0 + FOLLOWERS)
        fl = list(s.fl)
        fl[fid] = SUPPLY
        ns.fl = tuple(fl)
        sc = list(s.scores)
        sc[p] -= 3
        sc[q] += 3
        ns.scores = tuple(sc)
        if ev is not None:
            ev.append(("ransom", fid, q))
        return _next_turn(ns, ev)
    if k == K_NORANSOM:
        return _next_turn(ns, ev)
    raise IllegalMove(f"{move!r} is not a Carcassonne move.")


def _capture(ns: CState, p: int, fid: int, ev) -> None:
    fl = list(ns.fl)
    loc = fl[fid]
    q = fid // FOLLOWERS
    if loc >= 0:
        occ = list(ns.occ)
        occ[E.find(ns.parent, loc)] -= 1 << (4 * q)
        ns.occ = occ
    if q == p:
        fl[fid] = SUPPLY
        how = "own"
    else:
        f0 = p * FOLLOWERS
        mine = [i for i in range(f0, f0 + FOLLOWERS) if fl[i] == -2 - q]
        if mine:
            fl[fid] = SUPPLY
            fl[mine[0]] = SUPPLY
            how = "exchange"
        else:
            fl[fid] = -2 - p
            how = "prisoner"
    ns.fl = tuple(fl)
    if ev is not None:
        ev.append(("capture", fid, how))
        if how == "exchange":
            ev.append(("exchange", mine[0]))


def _end_action(ns: CState, ev) -> CState:
    E.score_completed(ns, ev)
    if E.ransom_moves(ns):
        ns.phase = RANSOM
        return ns
    return _next_turn(ns, ev)


def _next_turn(ns: CState, ev) -> CState:
    ns.player = (ns.player + 1) % ns.cfg.players
    if ns.bagn == 0:
        _finish(ns, ev)
    else:
        ns.phase = DRAW
    return ns


def _finish(ns: CState, ev) -> None:
    add, _details = E.final_scores(ns)
    ns.scores = tuple(a + b for a, b in zip(ns.scores, add))
    ns.phase = OVER
    if ev is not None:
        ev.append(("final", add))


# ---- layout ----------------------------------------------------------------------------------------------------------
# feature spots on a tile, in tile units from its centre, at rotation 0 (then rotated)
_EDGE_SPOT = ((0.0, 0.33), (0.33, 0.0), (0.0, -0.33), (-0.33, 0.0))
_HALF_SPOT = ((-0.22, 0.36), (0.22, 0.36), (0.36, 0.22), (0.36, -0.22), (0.22, -0.36), (-0.22, -0.36),
              (-0.36, -0.22), (-0.36, 0.22))


def feature_spot(t: int, r: int, j: int) -> tuple[float, float]:
    R = ROTS[t][r]
    kind = R.kinds[j]
    locs = R.locs[j]
    if kind == TL.CLOISTER or not locs:
        return (0.0, 0.0) if kind == TL.CLOISTER else (0.2, 0.2)
    if kind == TL.FIELD:
        pts = [_HALF_SPOT[h] for h in locs if h >= 0] or [(0.2, 0.2)]
        x, y = pts[0]
        return (x * 0.95, y * 0.95)
    if len(locs) == 1:
        return _EDGE_SPOT[locs[0]]
    xs = sum(_EDGE_SPOT[d][0] for d in locs) / len(locs)
    ys = sum(_EDGE_SPOT[d][1] for d in locs) / len(locs)
    if abs(xs) < 0.05 and abs(ys) < 0.05:
        xs, ys = (0.12, 0.0) if kind == TL.ROAD else (0.12, 0.12)
    return (xs, ys)


def make_layout(game: Carcassonne, s: CState) -> Layout:
    lay = Layout()
    n = s.cfg.players
    minx = min((xy(p)[0] for _t, _r, p, _b, _k in s.tiles), default=0)
    maxx = max((xy(p)[0] for _t, _r, p, _b, _k in s.tiles), default=0)
    miny = min((xy(p)[1] for _t, _r, p, _b, _k in s.tiles), default=0)
    maxy = max((xy(p)[1] for _t, _r, p, _b, _k in s.tiles), default=0)
    for t, r, pos, _base, kk in s.tiles:
        x, y = xy(pos)
        lay.place(f"tile:{CODES[t]}:{kk}", Pose("ccs_tile", x * TILE_MM, y * TILE_MM, 0.0, heading=-90.0 * r,
                                                 look=look(tile=CODES[t], rotation=90 * r)))
    side_x = (maxx + 2.5) * TILE_MM
    # the bag: a face-down stack of the remaining tiles
    for i in range(s.bagn):
        lay.place(f"bag:{i}", Pose("ccs_tile", (minx - 3) * TILE_MM, miny * TILE_MM, i * TILE_H, face_up=False,
                                   look=look(tile="back")))
    if s.phase == PLACE:
        kk = COUNT[s.drawn] - s.bag[s.drawn] - 1
        lay.place(f"tile:{CODES[s.drawn]}:{kk}", Pose("ccs_tile", (minx - 3) * TILE_MM, (miny + 1.5) * TILE_MM,
                                                      0.0, look=look(tile=CODES[s.drawn], rotation=0)))
        for i, rot in enumerate((0, 90, 180, 270)):
            lay.cells[f"rot:{rot}"] = Cell((minx - 4.5 + i) * TILE_MM, (miny + 3) * TILE_MM, 0.0, 40.0, 40.0,
                                           f"{rot}°")
        for pos in s.frontier:
            x, y = xy(pos)
            lay.cells[f"at:{x},{y}"] = Cell(x * TILE_MM, y * TILE_MM, 0.0, TILE_MM, TILE_MM, f"{x},{y}")
    for i, (t, kk) in enumerate(s.discarded):
        lay.place(f"tile:{CODES[t]}:{kk}", Pose("ccs_tile", (minx - 5) * TILE_MM, (miny + i * 1.1) * TILE_MM, 0.0,
                                                look=look(tile=CODES[t], rotation=0)))
    # towers
    tops = {}
    for pos, stack in s.towers.items():
        x, y = xy(pos)
        for lvl, code in enumerate(stack):
            lay.place(tower_id(code), Pose("tower_piece", x * TILE_MM, y * TILE_MM, TILE_H + lvl * STOREY,
                                           look=look(colour=E.PIECE_NAMES[code & 3], player=(code >> 8) + 1)))
        tops[pos] = TILE_H + len(stack) * STOREY
        lay.cells[f"tower:{x},{y}"] = Cell(x * TILE_MM, y * TILE_MM, tops[pos], 18.0, 17.0, f"tower {x},{y}")
    # supply places for each player: followers, tower pieces, prisoners they hold
    def supply_xy(p: int, slot: int, row: int) -> tuple[float, float]:
        return (side_x + slot * 20.0, (maxy - p * 2.0) * TILE_MM - row * 20.0)
    held = [0] * n
    for fid, loc in enumerate(s.fl):
        p = fid // FOLLOWERS
        mid = meeple_id(fid)
        lk = look(player=p + 1)
        if loc == SUPPLY:
            x, y = supply_xy(p, fid % FOLLOWERS, 0)
            lay.place(mid, Pose("meeple", x, y, 0.0, look=lk))
        elif loc <= TOP0:
            pos = TOP0 - loc
            x, y = xy(pos)
            lay.place(mid, Pose("meeple", x * TILE_MM, y * TILE_MM, tops[pos], look=lk))
        elif loc <= -2:
            q = -2 - loc
            x, y = supply_xy(q, FOLLOWERS + 1 + held[q], 0)
            held[q] += 1
            lay.place(mid, Pose("meeple", x, y, 0.0, look=lk))
        else:
            t, r, pos, base = s.tiles[s.ntile[loc]][:4]
            fx, fy = feature_spot(t, r, loc - base)
            x, y = xy(pos)
            kind = s.nkind[loc]
            lay.place(mid, Pose("meeple", (x + fx) * TILE_MM, (y + fy) * TILE_MM, TILE_H, look=lk,
                                tilt=90.0 if kind == TL.FIELD else 0.0))
    if s.cfg.tower:
        for p in range(n):
            for ptype in range(3):
                total = s.cfg.pieces[ptype]
                left = s.tsup[3 * p + ptype]
                for kk in range(total - left, total):
                    code = E.piece_code(p, ptype, kk)
                    x, y = supply_xy(p, kk, 1 + ptype)
                    lay.place(tower_id(code), Pose("tower_piece", x, y, 0.0,
                                                   look=look(colour=E.PIECE_NAMES[ptype], player=p + 1)))
                if p == s.player and s.phase == ACTION:
                    x, y = supply_xy(p, -1, 1 + ptype)
                    lay.cells[f"piece:{E.PIECE_NAMES[ptype]}"] = Cell(x, y, 0.0, 18.0, 17.0, E.PIECE_NAMES[ptype])
    if s.phase == ACTION:
        t, r, pos, base = s.tiles[-1][:4]
        x, y = xy(pos)
        for j in range(len(ROTS[t][r].kinds)):
            fx, fy = feature_spot(t, r, j)
            lay.cells[f"feature:{j}"] = Cell((x + fx) * TILE_MM, (y + fy) * TILE_MM, TILE_H, 12.0, 12.0,
                                             ROTS[t][r].names[j])
        x, y = supply_xy(s.player, 0, -1)
        lay.cells["piece:follower"] = Cell(x, y, 0.0, 16.0, 16.0, "follower")
    if s.phase in (ACTION, CAPTURE, RANSOM):
        x, y = supply_xy(s.player, -2, 0)
        lay.cells["pass"] = Cell(x, y, 0.0, 20.0, 20.0, "pass")
    if s.phase == RANSOM:
        for q in range(n):
            x, y = supply_xy(q, FOLLOWERS + 1, -1)
            lay.cells[f"ransom:{q + 1}"] = Cell(x, y, 0.0, 20.0, 20.0, f"ransom from P{q + 1}")
    if s.phase == DRAW:
        lay.cells["bag"] = Cell((minx - 3) * TILE_MM, miny * TILE_MM, s.bagn * TILE_H, TILE_MM, TILE_MM, "draw")
    return lay
