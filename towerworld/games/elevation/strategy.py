"""Elevation's heuristics and its own agents.

`evaluate(state, player)` (`game.heuristic`, what greedy plays on) knows what wins the game: material; height over
neighbouring enemies (a capture needs two steps up, so standing two above an enemy next door is a threat and two below
one is a danger); threats for the side to move and for the other side, with whether a threatened piece has a safe
square to escape to; striking distance (how far the nearest piece is from standing two above each enemy); for the side
ahead, how few safe squares the enemy has left (a lead is converted by trapping); and mobility.

The search evaluates with `static_eval(..., hunting=True)`, which adds what converts a lead over several turns: the
distance to every enemy piece through the terrain for both sides (`_siege`: the step beside it that must be built, a
tile a turn), summed over the pieces so that taking the nearest never makes the rest look farther; the second attacker
at half weight (for a side's last piece, the cheaper of that and draining it: `_drain`, the tiles left beside it);
a threatened piece counting less for each escape square, and one with none counting 0.7 of its value
even while its side is to move (a one-ply defender cannot save it); and 120 / (the smaller side's pieces) for each
piece ahead (the game is won by taking every piece, so one-for-one trades help the side with more). It also sees
danger a turn or two before any threat (`_danger`: an enemy within two squares standing above a piece, an empty square
above a piece that an enemy can step onto) and weighs height over adjacent enemies and average height more than the
plain evaluation: weights fitted to how the lead moved over the next ten plies in the ladder's games.

`ElevationMCTS` (the default opponent, 'mcts') first looks for a forcing turn: one after which, whatever the reply, it
can capture more than the reply took (`forced_gain`, three plies over every reply, refutations first), and plays it at
once. Then it scans every turn for one (`forcing_turn`, the biggest captures first: a capture the evaluation ranks low
is beyond the forcing check's best-ranked turns), and then looks for a plan (`plan_gain`): a quiet turn after which it
has a forcing turn against each of the other side's likely replies (a fork a turn away, which a one-ply player does not
see coming). Two pieces ahead against the other side's last one or two pieces (or against any, once nothing has
been taken for 30 plies) it then hunts (`_hunt`): one ply over every distinct turn on what takes a perched
piece (the tiles beside it, which its own digs never take away, so each one dug off and put beyond is gone for good;
every own piece within two squares of it; its safe squares), the best few checked for a loss the other side forces.
Otherwise it runs UCT over light search states (heights and board only): a turn has 1,000 to 5,000 legal moves, so the
tree widens progressively. At the root every distinct resulting position is ranked by the evaluation and
the ranking is the prior order; below the root captures come first, then the moves of pieces under threat, then a random
sample. Leaves are valued by the evaluation less the root's, squashed to [-1, 1] (far ahead, plain values would all sit
at the ceiling); a side with no complete turn has lost. It never offers a draw, accepts one only when clearly behind,
and unless clearly behind neither returns to an earlier position nor leaves the other side a reply that makes a third
repetition (when every well-visited turn loses material, it looks further for a way out for the hunted pieces, and
failing that plays the turn that loses least). The forcing and safety checks share a count of replies per move, so a
seeded game repeats whatever the load. Normal and strong are simulation budgets; easy is a `Beginner`, one ply that
often overlooks the other side's captures.
"""
from __future__ import annotations

import gc
import math
import random
import time
from collections import Counter
from operator import itemgetter

from towerworld.engine.agent import Agent, parse_budget
from towerworld.engine.game import AgentSpec
from towerworld.games.elevation.board import (
    ACCEPT, ADJACENT, ALL_SQUARES, BIT, DECLINE, DIG_DIG, DIG_MOVE, DRAGON, DRAW, DRAWN, FISH, FISH_DIG_LEAP,
    FISH_LEAP_DIG, LEAPS, LONE_STEP, MOVE_DIG, MOVE_MOVE, NEIGHBOUR_MASK, NEIGHBOURS, ONGOING, SAMURAI, SQUARES,
    UNDERMINE, State, distance)
from towerworld.games.elevation.rules import (NEAR2_MASK, _SQ, _Masks, all_turns, known_piece_groups, position_key,
                                              successor, turns_on)

VALUE = (90.0, 120.0, 100.0)        # samurai, dragon, fish
WIN = 10_000.0
# share of a threatened piece's value by its escape squares (none, one, more): the search's, and the plain heuristic's
ESCAPE_SHARE = (1.0, 0.75, 0.6)
PLAIN_ESCAPE_SHARE = (1.0, 0.6, 0.6)
HUNT_SHARE = 0.5                    # the search's weight of each enemy piece's distance, a share of the plain mean's
TRAPPED_SHARE = 0.7                 # the search's share of a threatened piece that has no square to step to
FOOTING = 0.5                       # the search's weight of the hunted pieces' footing, a share of the distance's
TRADE_DOWN = 120.0                  # the search's value of a piece more, divided by the smaller side's pieces
SCALE = 150.0                       # evaluation points per unit of tanh in the search's values
SIEGE_WEIGHT = 3.0                  # the search's weight of a step of distance through the terrain (see static_eval)
NEAREST_CAP = 12.0                  # the nearest target's distance that the side ahead weighs more (see static_eval)
EDGE = (4.0, 10.0)                  # a level over an adjacent enemy: plain, the search's (see static_eval)
HEIGHT = (1.5, 3.0)                 # a level of average height over the other side's: plain, the search's
DANGER_NEAR = 3.5                   # the search's cost of a piece with an enemy within two squares above it
DANGER_PERCH = 5.0                  # the search's cost of an empty square beside a piece, above it, an enemy can reach


# ---- evaluation ------------------------------------------------------------------------------------------------------

def threats(heights, board, kinds, side: int, rules, lowered: bool = True) -> dict:
    """{enemy square: True} for enemy pieces that `side` could capture in its next turn (close approximation: single
    steps from two or more above, the dragon's two steps, the fish's leap over a middle square raised by a dig, and,
    with `lowered`, over one lowered by a dig: "A dig before the move may raise or lower the middle square". The
    plain heuristic, greedy's, leaves the lowered middle out, as it always has: greedy stays the opponent the ladders
    measured)."""
    sides = _SIDES.get(board)
    if sides is None:
        sides = _sides(board)
    return _threats(heights, board, sides, kinds, side, rules, lowered)


def _threats(heights, board, sides, kinds, side: int, rules, lowered: bool = True) -> dict:
    """threats, given the board's entry of _sides. (The dict returned may be shared: not to be changed.)"""
    # what the board alone decides (which enemies stand next to each piece, which squares a dragon's first step or a
    # fish's leap passes), worked out once per board, side, game's kinds and samurai rule; the heights are compared
    # here
    plans = sides[6]
    samurai_digs = rules.samurai_undermining
    if plans[0] is not kinds or plans[1] != samurai_digs:
        if plans[0] != kinds or plans[1] != samurai_digs:
            plans[2] = plans[3] = None
        plans[0], plans[1] = kinds, samurai_digs
    found = plans[2 + side]
    if found is None:
        found = plans[2 + side] = _threat_plan(board, sides, kinds, side, samurai_digs)
    acting, foes, plan, relevant, known = found
    if not plan:
        return {}
    # the answer depends only on the heights of the squares in the plan and of the enemy pieces: remembered by those
    key = relevant(heights)
    table = known[1 if lowered else 0]
    out: dict | None = table.get(key)
    if out is not None:
        return out
    if _threats_count[0] >= _THREATS_LIMIT:
        _SIDES.clear()                  # (every board's plans, and what they remember, go with it)
        _threats_count[0] = 0
    _threats_count[0] += 1
    out = {}
    table[key] = out
    # the lowest enemy piece: a piece not two above it (one, undermining) takes nothing, and one not above it not even
    # by a second step or a leap
    low = min(foes(heights))
    if max(acting(heights)) <= low:
        return out
    for s, need, singles, kind, more in plan:
        hs = heights[s]
        if hs <= low:
            continue
        if hs - low >= need:
            for e in singles:
                if hs - heights[e] >= need and (need == 2 or heights[e] > 0):
                    out[e] = True
        if kind == DRAGON:
            for m, beside in more:
                hm = heights[m]
                if hm - hs > 1 or hm - low < 2:
                    continue
                for e in beside:
                    if hm - heights[e] >= 2:
                        out[e] = True
        elif kind == FISH:
            for e, mid in more:
                hm = heights[mid]
                if ((hm - hs <= 1 and hm - heights[e] >= 2) or (hm - hs <= 0 and hm + 1 - heights[e] >= 2)
                        or (lowered and hm - hs == 2 and hm - 1 - heights[e] >= 2)):
                    out[e] = True
    return out


def _threat_plan(board, sides, kinds, side: int, samurai_digs: bool) -> tuple:
    """threats' plan for `side` on the board: (a getter of the heights of the pieces in the plan, one of the enemies'
    heights, the plan, a getter of the heights the answer depends on, and two dicts of answers by those heights,
    without and with `lowered`), the plan for each of the side's pieces that has an enemy in reach, in order of squares:
    (square, the climb a capture needs, the enemies next to it, kind, then for a dragon each empty neighbour with the
    enemies next to that, for a fish each leap over an empty middle square onto an enemy). A piece with no enemy next
    to it, none next to an empty neighbour (a dragon) and none at the end of a leap over an empty square (a fish)
    threatens nothing, whatever the heights."""
    own, foes = sides[side], sides[1 - side]
    foe_mask = sides[3 - side]
    plan = []
    if own and foes:
        sq = _SQ
        for s in own:
            kind = kinds[board[s]]
            need = 1 if (samurai_digs and kind == SAMURAI) else 2
            singles = sq[NEIGHBOUR_MASK[s] & foe_mask]         # (ascending, as foes are)
            more: tuple = ()
            if kind == DRAGON:
                more = tuple([(m, sq[NEIGHBOUR_MASK[m] & foe_mask]) for m in NEIGHBOURS[s]
                              if board[m] < 0 and NEIGHBOUR_MASK[m] & foe_mask])
            elif kind == FISH:
                more = tuple([(e, mid) for e, mid in LEAPS[s] if BIT[e] & foe_mask and board[mid] < 0])
            if singles or more:
                plan.append((s, need, singles, kind, more))
    # the squares whose heights the answer depends on: the plan's and the enemy pieces'
    relevant = set(foes)
    for s, _, singles, kind, more in plan:
        relevant.add(s)
        relevant.update(singles)
        for m, beside in more:
            relevant.add(m)
            relevant.update((beside,) if kind == FISH else beside)
    return (_heights_getter(tuple(s for s, *_ in plan)), _heights_getter(foes), tuple(plan),
            _heights_getter(tuple(sorted(relevant))), ({}, {}))


# threats' answers remembered (by board, side and the heights of the squares in its plan) before all are dropped, with
# the boards (about 8,000 for the bench's four moves)
_THREATS_LIMIT = 60_000
_threats_count = [0]


def _heights_getter(squares: tuple):
    """A function that picks the heights of `squares` (at least one) as a tuple, in C where it can."""
    if len(squares) > 1:
        return itemgetter(*squares)
    q = squares[0] if squares else 0
    return lambda heights: (heights[q],)


# board -> the squares of each side's pieces, ascending, and as bit masks: a board recurs far more often than the
# heights under it (a turn that only digs keeps it), so the pieces are found once per board, not once per look
_SIDES: dict = {}
_SIDES_LIMIT = 20_000               # boards (about 2.6 kB each); all are dropped past this


def _board_sides(board) -> tuple:
    """_sides(board), looked up."""
    found = _SIDES.get(board)
    return found if found is not None else _sides(board)


def _sides(board) -> tuple:
    """(red's squares, blue's squares, ascending, then the same as bit masks, each square's empty neighbours, and by
    side the pairs (its piece, an enemy next to it), and threats' plans: [kinds, samurai rule, red's, blue's], filled
    when first asked for; the siege's codes and each side's getter of its key (see _siege_sum); [kinds, red's
    material less blue's, blue's less red's], filled by static_eval; [red's, blue's] plans of _danger, filled by
    static_eval), remembered for the board."""
    if len(_SIDES) >= _SIDES_LIMIT:
        _SIDES.clear()
    red: list[int] = []
    blue: list[int] = []
    for s in range(SQUARES):
        b = board[s]
        if b >= 0:
            (red if b < 6 else blue).append(s)
    # the empty squares next to each square, and the pairs of enemies next to each other (by side: its piece first)
    red_mask, blue_mask = sum([BIT[s] for s in red]), sum([BIT[s] for s in blue])
    empty = ALL_SQUARES & ~(red_mask | blue_mask)
    sq = _SQ
    free = tuple([sq[near & empty] for near in NEIGHBOUR_MASK])     # (the tuples are shared: rules._SQ)
    facing = tuple([(a, e) for a in red for e in sq[NEIGHBOUR_MASK[a] & blue_mask]])
    # the siege parts' keys (see _siege_sum): each piece's square with its empty neighbours as one shared int, then
    # each side's squares (with whether the other side has one piece left) as one int
    codes = [0] * SQUARES
    for s in red + blue:
        code = s + 64 * (NEIGHBOUR_MASK[s] & empty)
        codes[s] = _CODES.setdefault(code, code)
    codes.append(2 * red_mask + (len(blue) == 1))
    codes.append(2 * blue_mask + (len(red) == 1))
    found = _SIDES[board] = (tuple(red), tuple(blue), red_mask, blue_mask, free,
                             (facing, tuple((e, a) for a, e in facing)), [None, None, None, None], tuple(codes),
                             (itemgetter(SQUARES + SQUARES, *red), itemgetter(SQUARES + SQUARES + 1, *blue)),
                             [None, 0.0, 0.0], [None, None])
    return found


_CODES: dict = {}                   # _sides' codes of a square and its empty neighbours, shared (at most 36 x 256)


# DIST1[e][a]: king-move distance from a to e, minus one (how many steps until a stands next to e)
DIST1 = tuple(tuple(distance(a, e) - 1 for a in range(SQUARES)) for e in range(SQUARES))
RING2 = tuple(tuple(q for q in range(SQUARES) if DIST1[e][q] == 1) for e in range(SQUARES))   # two squares away
SIEGE_FAR = 60.0                    # _siege's cost when no square beside the target is free
SECOND_FAR = 8.0                    # _siege_part's cost for a missing second attacker: across the board, low


def _nearest_reach(heights, attackers, targets) -> float:
    """Sum over targets of how far the nearest attacker is from standing two above it next door (steps plus missing
    levels), for attackers there are (the plain heuristic's striking distance)."""
    total = 0.0
    for e in targets:
        need = heights[e] + 2
        de = DIST1[e]
        best = math.inf
        for a in attackers:
            c = de[a]
            deficit = need - heights[a]
            if deficit > 0:
                c += 0.7 * deficit
            if c < best:
                best = c
        total += best
    return total


def _siege(heights, board, attackers, targets) -> float:
    return _siege_parts(heights, board, attackers, targets)[0]


def _siege_sum(ext, heights, board, free, attackers, targets, who) -> tuple[float, float]:
    """_siege_parts(heights, board, attackers, targets) for one side's pieces against the other's, from the board's
    entry of _sides: `ext` is the heights followed by the board's codes (its item 7), `who` the side's getter of its
    key (item 8). The keys are read from `ext` in C: a target's part is remembered by (its square and its empty
    neighbours as one code, the heights on it and around it), under (the attackers' squares and whether there is one
    target, as one code, and their heights)."""
    total = 0.0
    nearest = math.inf
    alone = len(targets) == 1
    key = who(ext)
    known = _SIEGE_PARTS.get(key)
    if known is None:
        known = _SIEGE_PARTS[key] = {}
    for e in targets:
        key = _AROUND_CODE[e](ext)
        part = known.get(key)
        if part is None:
            if _siege_count[0] >= _SIEGE_PARTS_LIMIT:
                _SIEGE_PARTS.clear()
                _siege_count[0] = 0
                known = _SIEGE_PARTS[who(ext)] = {}
            _siege_count[0] += 1
            part = known[key] = _siege_part(heights, board, free[e], attackers, e, alone)
        total += part
        if part < nearest:
            nearest = part
    return total, nearest


def _siege_parts(heights, board, attackers, targets, free=None) -> tuple[float, float]:
    """Like _nearest_reach, but through the terrain and with the second nearest attacker at half weight (one attacker
    alone is stepped away from; a trap needs a second piece close by): about how many turns the attackers need to
    stand two above each target next door. A capture needs two steps up and a step climbs at most one, so an attacker
    gets there by a dig-then-step onto an empty square A beside the target, raising A from one above the target to
    two: A must first be built up (a tile a turn) and the attacker must stand next to A, at most one below where it
    steps. The side ahead uses this to hunt, so that piling tiles beside a high enemy piece counts as progress;
    standing two above it already costs nothing. Returns the sum over the targets and the nearest target's part. (`free`: the empty neighbours of each
    square, from _sides.)"""
    total = 0.0
    nearest = math.inf
    if free is None:
        free = _board_sides(board)[4]
    alone = len(targets) == 1
    # (the search's evaluation remembers the parts: _siege_sum)
    for e in targets:
        part = _siege_part(heights, board, free[e], attackers, e, alone)
        total += part
        if part < nearest:
            nearest = part
    return total, nearest


# a target's part depends only on the squares around it and on the attackers: remembered by those, since a turn
# changes the surroundings of a target or two and leaves the other parts as they were. (The attackers' code, their
# heights) -> (the target's code, the heights on it and around it) -> its part (about 110 bytes a part)
_SIEGE_PARTS: dict = {}
_SIEGE_PARTS_LIMIT = 100_000        # parts; all are dropped past this
_siege_count = [0]
_AROUND_CODE = tuple(itemgetter(SQUARES + e, e, *NEIGHBOURS[e]) for e in range(SQUARES))


def _siege_part(heights, board, free_e, attackers, e: int, alone: bool) -> float:
    """One target's part of _siege_parts: the nearest attacker's turns to stand two above it next door and half the
    second's (for a side's last piece, `alone`, at most what draining it takes). `free_e`: its empty neighbours."""
    h = heights[e]
    step = h + 1
    # the free squares beside the target: those below a step must be built up to it (stand height `step` for
    # all of them, so one climb term serves them all), the others are stood on as they are, a step below them
    builds = []             # (tiles to add, distances to the square)
    perches = []            # (distances to the square, stand height)
    for q in free_e:
        hq = heights[q]
        if hq < step:
            builds.append((step - hq, DIST1[q]))
        else:
            perches.append((DIST1[q], hq - 1))
    best = second = math.inf
    beside = ADJACENT[e]
    for a in attackers:
        ha = heights[a]
        if ha >= h + 2 and a in beside:
            c = 0.0
        else:
            c = SIEGE_FAR
            if builds:
                nearest_build = 99
                for build, dq in builds:
                    cost = build + dq[a]
                    if cost < nearest_build:
                        nearest_build = cost
                cost = nearest_build + (0.7 * (step - ha) if ha < step else 0.0)
                if cost < c:
                    c = cost
            for dq, stand in perches:
                cost = dq[a] + (0.7 * (stand - ha) if ha < stand else 0.0)
                if cost < c:
                    c = cost
            c += 1.0
        if c < second:
            if c < best:
                best, second = c, best
            else:
                second = c
    if second == math.inf:
        second = max(best, SECOND_FAR)
    part = best + 0.5 * second
    if alone and part > DRAIN_FINISH:
        part = min(part, _drain(heights, board, attackers, e))
    return part


DRAIN_FINISH = 2.0                  # _drain: turns to take a last piece once it has come down off its perch


def _drain(heights, board, attackers, e: int) -> float:
    """About how many turns the attackers need to take a side's last piece by draining the free squares beside it.
    A last piece must act every turn: a samurai or a fish by stepping, a dragon at least by digging beside itself, so
    it keeps its height only with the tiles next to it (its own digs move them around but never away). Each tile an
    attacker digs off those squares and puts beyond them is gone for good; with none left the piece must step down,
    and a piece in a pit is soon taken. So a high last piece is hunted by emptying its surroundings, not by building
    a step beside it, which its digs knock down faster than one attacker can build."""
    supply = 0
    near = math.inf
    for q in NEIGHBOURS[e]:
        if board[q] < 0 and heights[q]:
            supply += heights[q]
            dq = DIST1[q]
            for a in attackers:
                if dq[a] < near:
                    near = dq[a]
    if not supply:
        near = 0
    return near + 0.5 * supply + DRAIN_FINISH


HUNT_THREAT = 3.0           # _hunt: a hunted piece threatened (it may still step away)
HUNT_CHECKS = 12            # _hunt: the best turns checked for a loss the other side forces
HUNT_NO_REPEAT = 40         # _hunt: the best turns looked at for one that allows no third repetition
HUNT_GATHER = 1.0           # _hunt_cost: a step an own piece is from within two squares of its nearest hunted piece
HUNT_SUPPLY = 1.0           # _hunt_cost: a tile on a free square beside a hunted piece
HUNT_SAFE = 1.0             # _hunt_cost: a square a hunted piece can step to out of reach
HUNT_HEIGHT = 0.5           # _hunt_cost: a level of a hunted piece
HUNT_POOL = 16              # _hunt: the best one-ply turns valued against every reply (_hunt_reply)
HUNT_BOLD = 12              # _hunt: and the best of the rest by one ply that ignores what the other side takes
HUNT_LAST = 5000.0          # _hunt_reply: the other side's last piece there to be taken (the game)


def _hunt_cost(heights, board, mine, targets) -> float:
    """How far the hunt is from taking the hunted pieces (`targets`, the other side's last ones), lower is better:
    the tiles on the free squares beside them, which keep a perched piece up; how far each own piece is from within
    two squares of its nearest target; the targets' safe squares to step to; and their height."""
    cost = 0.0
    for e in targets:
        supply = 0
        for q in NEIGHBOURS[e]:
            if board[q] < 0:
                supply += heights[q]
        cost += HUNT_SUPPLY * supply + HUNT_HEIGHT * heights[e]
    for a in mine:
        d = min(DIST1[e][a] for e in targets)
        if d > 1:
            cost += HUNT_GATHER * (d - 1)
    cost += HUNT_SAFE * _safe_squares(heights, board, targets, mine)
    return cost


def _hunt_reply(heights, board, kinds, me: int, rules) -> float:
    """The hunt's value of a position after its own turn, the other side to move: the worst, over the other side's
    distinct replies, of what this side then stands to take at once (the last piece: the game; another: its value
    and the trade-down), less what the reply took and the hunt's cost where the hunted pieces then stand. One ply
    sees a hunted piece where it stands, but it steps on: to the twin of a double tower, whose ring the tiles just
    dug away were piled on, or onto a piece whose capture hands over its last piece."""
    enemy = 1 - me
    worst = math.inf
    seen = set()
    for reply in turns_on(heights, board, kinds, enemy, rules, _board_sides(board)):
        h, b, _ = successor(heights, board, reply)
        if (h, b) in seen:
            continue
        seen.add((h, b))
        sides = _board_sides(b)
        mine, targets = sides[me], sides[enemy]
        if not mine:
            return -WIN
        value = -_taken_value(board, kinds, reply, enemy)
        take = _best_take(h, b, kinds, me, rules)
        if take > 0:
            value += HUNT_LAST if len(targets) == 1 else take + TRADE_DOWN
        value -= _hunt_cost(h, b, mine, targets)
        if value < worst:
            worst = value
    return worst if worst < math.inf else WIN           # no reply: the other side has lost


def _hunter_top(heights, hunters) -> list:
    """Per square, the height of the highest hunter beside it (-1 where none): a piece stepping there is in reach of
    a capture when that is two or more above the square."""
    top = [-1] * SQUARES
    for a in hunters:
        ha = heights[a]
        for m in NEIGHBOURS[a]:
            if ha > top[m]:
                top[m] = ha
    return top


def _escapes(heights, board, s: int, top) -> int:
    """Empty neighbours the piece on `s` can step onto (climb at most one) that no hunter stands two above (`top`:
    _hunter_top of the hunters)."""
    hs = heights[s]
    n = 0
    for m in NEIGHBOURS[s]:
        if board[m] < 0 and heights[m] - hs <= 1 and top[m] - heights[m] < 2:
            n += 1
    return n


def evaluate(state: State, player: int) -> float:
    """Heuristic value of `state` for `player` (higher is better); terminal states are +-WIN."""
    if state.outcome != ONGOING:
        if state.outcome == DRAWN:
            return 0.0
        return WIN if state.outcome == player else -WIN
    return static_eval(state.heights, state.board, state.kinds, player, state.mover ^ state.phase, state.rules)


def _threat_value(heights, board, kinds, e: int, hunters, top=None, shares=ESCAPE_SHARE) -> float:
    """What the piece on `e`, threatened by `hunters`, is worth to them: a piece with safe squares to step to is worth
    less, and one way out is easier to close than two, so the share falls with each escape."""
    if top is None:
        top = _hunter_top(heights, hunters)
    return VALUE[kinds[board[e]]] * shares[min(2, _escapes(heights, board, e, top))]


def _pending(gain: list, heights, board, kinds, targets, top, hunting: bool) -> float:
    """What the threats of the side that is not to move are worth while the other side moves: of two threatened
    pieces one can usually be saved, not both. For the search (`hunting`) a threatened piece with no square to step
    to is as good as taken: the side to move cannot save it by stepping away, and a one-ply defender never sees
    that coming."""
    value = 0.5 * (gain[1] if len(gain) > 1 else 0.0) + 0.1 * (gain[0] if gain else 0.0)
    if hunting:
        for e in targets:
            if not _escapes(heights, board, e, top):
                value = max(value, TRAPPED_SHARE * VALUE[kinds[board[e]]])
    return value


def static_eval(heights, board, kinds, player: int, to_move: int, rules, hunting: bool = False,
                careless: bool = False) -> float:
    """The evaluation of a light state for `player`. `hunting` (the search's own leaves and rankings) adds what
    converts a lead over several turns: the distance to each enemy through the terrain for the side ahead, the second
    attacker, graded escapes. Without it this is the plain heuristic (`game.heuristic`, greedy's evaluation).
    `careless` (the easy level, a beginner) overlooks what the other side, to move, can take at once."""
    sides = _SIDES.get(board)
    if sides is None:
        sides = _sides(board)
    mine, theirs = sides[player], sides[1 - player]
    if not theirs:
        return WIN
    if not mine:
        return -WIN
    worth = sides[9]
    if worth[0] is not kinds:
        worth[:] = [kinds, _material(board, kinds, sides[0], sides[1]), _material(board, kinds, sides[1], sides[0])]
    material = worth[1 + player]
    score = material
    my_threats = _threats(heights, board, sides, kinds, player, rules, hunting)
    their_threats = _threats(heights, board, sides, kinds, 1 - player, rules, hunting)

    free = sides[4]
    # where the hunters of each side stand guard: needed for threats (escapes) and for the side ahead's trapping
    my_top = _hunter_top(heights, mine) if my_threats or material > 0 else None
    their_top = _hunter_top(heights, theirs) if their_threats or material < 0 else None
    shares = ESCAPE_SHARE if hunting else PLAIN_ESCAPE_SHARE
    my_gain = sorted((_threat_value(heights, board, kinds, e, mine, my_top, shares) for e in my_threats),
                     reverse=True) if my_threats else []
    their_gain = sorted((_threat_value(heights, board, kinds, e, theirs, their_top, shares) for e in their_threats),
                        reverse=True) if their_threats else []
    if to_move == player:
        # I take the best now; of theirs, I can usually save one piece, not two
        score += 0.85 * (my_gain[0] if my_gain else 0.0)
        score -= _pending(their_gain, heights, board, kinds, their_threats, their_top, hunting)
    else:
        if not careless:
            score -= 0.85 * (their_gain[0] if their_gain else 0.0)
        score += _pending(my_gain, heights, board, kinds, my_threats, my_top, hunting)
    # height over neighbouring enemies: standing above is safety and pressure
    score += EDGE[hunting] * _edge(heights, sides[5][player])
    # the side ahead in material hunts (striking distance weighs more) and welcomes trades (fewer pieces left)
    hunt = 3.0 + 6.0 * max(0.0, material) / 100.0
    flee = 3.0 + 6.0 * max(0.0, -material) / 100.0
    # the side ahead counts its distance through the terrain (the steps it must build); the other side the plain one
    if hunting:
        # summed over the enemy pieces, not averaged: taking the easiest one must never make the rest look farther.
        # The sum is weighed alike for both sides: it runs to a few hundred (60 a piece that no free square touches),
        # and a weight that grew with the lead made a piece lost worth more than the piece (greedy took four of the
        # search's pieces in a ladder game while the search's evaluation rose by 500). The side ahead hunts harder
        # through the nearest target alone, capped, so a capture always gains most of the piece's value.
        ext = heights + sides[7]
        my_total, my_nearest = _siege_sum(ext, heights, board, free, mine, theirs, sides[8][player])
        their_total, their_nearest = _siege_sum(ext, heights, board, free, theirs, mine, sides[8][1 - player])
        score -= HUNT_SHARE * (SIEGE_WEIGHT * (my_total - their_total)
                               + (hunt - SIEGE_WEIGHT) * min(NEAREST_CAP, my_nearest)
                               - (flee - SIEGE_WEIGHT) * min(NEAREST_CAP, their_nearest))
    else:
        score -= (hunt * _nearest_reach(heights, mine, theirs) / len(theirs)
                  - flee * _nearest_reach(heights, theirs, mine) / len(mine))
    score += material * (12 - len(mine) - len(theirs)) / 24.0
    if hunting:
        # the game is won by taking every piece, whatever they are worth: the side with more pieces gains by each
        # one-for-one trade (4 against 2 becomes 3 against 1), so a dragon for a fish is a good trade late
        score += TRADE_DOWN * (len(mine) - len(theirs)) / min(len(mine), len(theirs))
    # a lead is converted by trapping: the side ahead gains as the other side's safe squares run out
    if material > 0:
        score -= 0.03 * material * _free_safe_squares(heights, free, theirs, my_top)
    elif material < 0:
        score -= 0.03 * material * _free_safe_squares(heights, free, mine, their_top)
    if hunting:
        # and by taking away the high footing next to the hunted pieces: a piece that must move (the last one) keeps
        # its height only by stepping onto a square as high as its own, and climbs out of reach by building one
        if material > 0:
            score -= FOOTING * HUNT_SHARE * hunt * _free_footing(heights, free, theirs)
        elif material < 0:
            score += FOOTING * HUNT_SHARE * flee * _free_footing(heights, free, mine)
    # mobility
    score += 0.8 * (_free_mobility(heights, free, mine) - _free_mobility(heights, free, theirs))
    score += HEIGHT[hunting] * _height_lead(heights, mine, theirs)
    if hunting:
        # danger a turn or two before any threat: fitted, with edge and height, to how the lead moved over the next
        # ten plies in the ladder's games (docs/rules/elevation.md, "AI")
        plans = sides[10]
        if plans[0] is None:
            plans[0] = _danger_plan(board, sides[0], sides[1])
            plans[1] = _danger_plan(board, sides[1], sides[0])
        my_near, my_perches = _planned_danger(heights, plans[player])
        their_near, their_perches = _planned_danger(heights, plans[1 - player])
        score -= DANGER_NEAR * (my_near - their_near) + DANGER_PERCH * (my_perches - their_perches)
    return score


def _edge(heights, facing) -> float:
    """Height over neighbouring enemies, `facing` (own piece, enemy next to it) pairs: standing two above is safety and
    pressure (2), two below danger (-2), a level between them half."""
    edge = 0.0
    for a, e in facing:
        d = heights[a] - heights[e]
        edge += 2 if d >= 2 else -2 if d <= -2 else d * 0.5
    return edge


def _height_lead(heights, mine, theirs) -> float:
    """The average height of the pieces on `mine` less that of those on `theirs`."""
    get = heights.__getitem__
    return sum(map(get, mine)) / len(mine) - sum(map(get, theirs)) / len(theirs)


def _danger(heights, board, pieces, enemies) -> tuple[int, int]:
    """(how many of `pieces` have an enemy within two squares standing above them, how many empty squares beside
    them stand above them with an enemy next to that square at most one below it). A capture needs two levels up: an
    enemy one above and two squares off is a dig and a step from it, and such a square is a dig from being its
    perch."""
    return _planned_danger(heights, _danger_plan(board, pieces, enemies))


def _danger_plan(board, pieces, enemies) -> tuple:
    """What `_danger` needs of the board: for each of `pieces`, the enemies within two squares, and each empty square
    beside it that has an enemy next to it, with those enemies (the heights decide the rest)."""
    plan = []
    for p in pieces:
        distance = DIST1[p]
        close = tuple(q for q in enemies if distance[q] <= 1)
        perches = []
        for s in NEIGHBOURS[p]:
            if board[s] < 0:
                beside = tuple(q for q in enemies if DIST1[s][q] == 0)
                if beside:
                    perches.append((s, beside))
        plan.append((p, close, tuple(perches)))
    return tuple(plan)


def _planned_danger(heights, plan) -> tuple[int, int]:
    """_danger from its board's plan."""
    near = perches = 0
    for p, close, beside_p in plan:
        up = heights[p] + 1
        for q in close:
            if heights[q] >= up:
                near += 1
                break
        for s, beside in beside_p:
            height = heights[s]
            if height >= up:
                for q in beside:
                    if heights[q] >= height - 1:
                        perches += 1
                        break
    return near, perches


def _material(board, kinds, mine, theirs) -> float:
    """The value of the pieces on `mine` less those on `theirs`."""
    material = 0.0
    for s in mine:
        material += VALUE[kinds[board[s]]]
    for s in theirs:
        material -= VALUE[kinds[board[s]]]
    return material


def _safe_squares(heights, board, hunted, hunters, top=None) -> int:
    """How many squares the `hunted` pieces can step to (climb at most one) where no hunter stands two above."""
    if top is None:
        top = _hunter_top(heights, hunters)
    return _free_safe_squares(heights, _board_sides(board)[4], hunted, top)


def _free_safe_squares(heights, free, hunted, top) -> int:
    """_safe_squares from each square's empty neighbours (`free`, see _sides) and the hunters' `top`."""
    n = 0
    for s in hunted:
        limit = heights[s] + 1
        for m in free[s]:
            hm = heights[m]
            if hm <= limit and top[m] - hm < 2:
                n += 1
    return n


def _footing(heights, board, pieces) -> int:
    """For each piece, how high it can stay by stepping: 2 with a free square one above it next door, 1 with one as
    high, 0 when every square it can step to is lower."""
    return _free_footing(heights, _board_sides(board)[4], pieces)


def _free_footing(heights, free, pieces) -> int:
    n = 0
    for s in pieces:
        hs = heights[s]
        best = 0
        for m in free[s]:
            d = heights[m] - hs
            if d == 1:
                best = 2
                break
            if d == 0:
                best = 1
        n += best
    return n


def _mobility(heights, board, squares) -> int:
    return _free_mobility(heights, _board_sides(board)[4], squares)


def _free_mobility(heights, free, squares) -> int:
    """The empty squares next to each of `squares` that it can step onto (climb at most one), summed."""
    n = 0
    for s in squares:
        limit = heights[s] + 1
        for m in free[s]:
            if heights[m] <= limit:
                n += 1
    return n


# ---- light search states ---------------------------------------------------------------------------------------------

# by the shape of a turn: where in its tuple the squares it steps onto are (see _stepped), and where the square it ends
# on is (a turn that only digs ends where it started, item 0)
_STEPS_AT = {DIG_MOVE: (4,), FISH_DIG_LEAP: (4,), MOVE_DIG: (2,), FISH_LEAP_DIG: (2,), LONE_STEP: (2,),
             MOVE_MOVE: (2, 3), DIG_DIG: (), UNDERMINE: ()}
_LANDING_AT = tuple((_STEPS_AT[kind] or (0,))[-1] for kind in range(8))
_STEPS_AT_KIND = tuple(_STEPS_AT[kind] for kind in range(8))


def _stepped(move) -> tuple:
    """The squares a turn steps onto, where it may capture (a dragon's two steps: both; digs alone: none)."""
    return tuple([move[i] for i in _STEPS_AT_KIND[move[1]]])


def _captures(board, move, side: int) -> bool:
    for i in _STEPS_AT_KIND[move[1]]:
        v = board[move[i]]
        if v >= 0 and v // 6 != side:
            return True
    return False


# (id of a turn group, the victims within two squares of its piece) -> (the group, its turns that capture): a group
# (rules.piece_turn_groups) is shared by every position with the same masks, and which of its turns capture depends
# only on where the victims stand near the piece, so the filter over its hundreds of turns is done once per such pair
_CAPTURING: dict = {}
_CAPTURING_LIMIT = 50_000


def _capturing_turns(groups, s: int, victims: int) -> list:
    """The turns of `groups` (the piece on `s`'s, from piece_turn_groups) that capture, in order: those that step
    onto a square of `victims` (a bit mask of the other side's pieces)."""
    near = victims & NEAR2_MASK[s]
    out: list = []
    if not near:
        return out
    for group in groups:
        key = (id(group), near)
        known = _CAPTURING.get(key)
        if known is None or known[0] is not group:
            if len(_CAPTURING) >= _CAPTURING_LIMIT:
                _CAPTURING.clear()
            known = _CAPTURING[key] = (group, [m for m in group if _takes(m, near)])
        out += known[1]
    return out


def _takes(move, victims: int) -> bool:
    """Whether `move` steps onto a square of `victims` (a bit mask): _captures on masks."""
    for i in _STEPS_AT_KIND[move[1]]:
        if BIT[move[i]] & victims:
            return True
    return False


def _landing(move) -> int:
    """The square where the acting piece ends its turn."""
    return move[_LANDING_AT[move[1]]]


def _pressure(heights, board, side: int) -> list:
    """Per square, how good it is for a piece of `side` to end there: next to enemies two or more below (a threat),
    not next to enemies two or more above (a danger), high rather than low."""
    out = [0.3 * hq for hq in heights]
    # each enemy adds to the squares next to it and two away, enemies in order of squares: every square's sum is
    # made in the same order as square by square
    for e in _board_sides(board)[1 - side]:
        he = heights[e]
        for q in NEIGHBOURS[e]:
            d = heights[q] - he
            out[q] += 3.0 if d >= 2 else -4.0 if d <= -2 else 0.5 * d
        for q in RING2[e]:
            out[q] += 0.3 if heights[q] - he >= 1 else 0.0
    return out


# ---- forcing lines ---------------------------------------------------------------------------------------------------

def _taken_value(board, kinds, move, side: int) -> float:
    """Material `side` captures with `move` (a dragon's two steps may take two pieces)."""
    total = 0.0
    for i in _STEPS_AT_KIND[move[1]]:
        v = board[move[i]]
        if v >= 0 and v // 6 != side:
            total += VALUE[kinds[v]]
    return total


def _best_take(heights, board, kinds, side: int, rules) -> float:
    """What `side`, to move, can win at once: the most valuable piece it threatens, less a samurai's worth when the
    captor could be taken back there (see _retaken)."""
    best = 0.0
    for e in threats(heights, board, kinds, side, rules):
        value = VALUE[kinds[board[e]]]
        if value > best and _retaken(heights, board, kinds, e, side):
            value -= VALUE[SAMURAI]
        if value > best:
            best = value
    return best


def _retaken(heights, board, kinds, e: int, side: int) -> bool:
    """Whether a piece of `side` that captured on `e` could be taken back there: an other enemy piece two above it
    next door, an enemy dragon two steps away over an empty square two above it, or an enemy fish leaping onto it
    over such a square (a square of `side` next to `e` counts as empty: the captor may have come from there). Not
    when a dragon of `side` stands two above `e` next door: it takes and steps on. And the way over a middle square
    must hold whether the captor's dig (beside `e`) raises it or lowers it by one: a dragon that took on c4 and dug a
    tile onto c3 (9 to 10) left the dragon on c2 at 8 no way back (a retake trusted there costs the search a piece)."""
    he = heights[e]
    for q in NEIGHBOURS[e]:
        v = board[q]
        if v >= 0 and v // 6 == side and kinds[v] == DRAGON and heights[q] - he >= 2:
            return False
    for q in NEIGHBOURS[e]:
        v = board[q]
        if v >= 0 and v // 6 != side and heights[q] - he >= 2:
            return True
    for q in RING2[e]:
        v = board[q]
        if v < 0 or v // 6 == side:
            continue
        hq = heights[q]
        if kinds[v] == DRAGON:
            for m in NEIGHBOURS[q]:
                if (m in ADJACENT[e] and (board[m] < 0 or board[m] // 6 == side) and heights[m] + 1 - hq <= 1
                        and heights[m] - 1 - he >= 2):
                    return True
        elif kinds[v] == FISH:
            for target, mid in LEAPS[q]:
                if (target == e and (board[mid] < 0 or board[mid] // 6 == side) and heights[mid] + 1 - hq <= 1
                        and heights[mid] - 1 - he >= 2):
                    return True
    return False


def _lead(board, kinds, side: int) -> float:
    """`side`'s material less the other side's."""
    lead = 0.0
    for b in board:
        if b >= 0:
            lead += VALUE[kinds[b]] if b // 6 == side else -VALUE[kinds[b]]
    return lead


def forced_gain(heights, board, kinds, side: int, rules, floor: float, work: list | None = None) -> float:
    """The least material `side` wins over the other side's reply and `side`'s capture after it, `side` having just
    moved: for every reply, what `side` can then take less what the reply took. A reply that leaves `side` nothing is
    what a defender plays, so the scan stops as soon as the result is at most `floor` (replies by the threatened
    pieces and captures are tried first: they are the likely refutations). A defender with no turn has lost: WIN.
    `work`, when given, holds how many more replies may be looked at (shared by every check of one move); the scan
    stops when it runs out, and the caller must then not trust the result."""
    enemy = 1 - side
    hunted = threats(heights, board, kinds, side, rules)
    # a capture takes a piece the other side threatens, landing at most two squares from where the capturing piece
    # stood (the dragon's two steps, the leap)
    targets = threats(heights, board, kinds, enemy, rules)
    sides = _SIDES.get(board)
    if sides is None:
        sides = _sides(board)
    reach = 0
    for t in targets:
        reach |= NEAR2_MASK[t]
    near = {q for q in sides[enemy] if BIT[q] & reach}          # (ascending, as a scan of the squares made it)
    # the likely refutations are generated alone first: most scans end among them, and generating every reply
    # (some 2,000) cost more than looking at the few that decide
    own = sides[2 + enemy]
    masks = _Masks.light(heights, own, sides[3 - enemy])
    first = []
    for q in hunted.keys() | near:
        groups = known_piece_groups(heights, masks, own, q, kinds[board[q]], rules)
        if q in hunted:
            for group in groups:
                first += group
        else:
            first += _capturing_turns(groups, q, masks.enemy)
    worst, done = _worst_reply(heights, board, kinds, side, rules, first, WIN, floor, work)
    if done:
        return worst
    replies = turns_on(heights, board, kinds, enemy, rules, _board_sides(board))
    if not replies:
        return WIN
    if work is not None:
        work[0] -= len(replies) // 20     # generating them
    return _worst_reply(heights, board, kinds, side, rules, replies, worst, floor, work)[0]


def _worst_reply(heights, board, kinds, side: int, rules, replies, worst: float, floor: float,
                 work) -> tuple[float, bool]:
    """The least `side` nets over `replies` (what it can take next, less what the reply took), starting from `worst`;
    and whether the scan stopped early (at or below `floor`, or out of work)."""
    enemy = 1 - side
    for m in replies:
        if work is not None:
            if work[0] <= 0:
                return worst, True
            work[0] -= 1
        h, b, _ = successor(heights, board, m)
        net = _best_take(h, b, kinds, side, rules) - _taken_value(board, kinds, m, enemy)
        if net < worst:
            worst = net
            if worst <= floor:
                return worst, True
    return worst, False


# ---- plans: a quiet turn that prepares a forcing one -----------------------------------------------------------------

PLAN_WIDTH = 8          # the best-ranked turns tried as the first turn of a plan
PLAN_REPLIES = 3        # the other side's best replies by the plain evaluation (a one-ply player's) a plan must beat
PLAN_VERIFIED = 1       # plans verified against those replies in one move (each costs a scan of every reply)
FORCED_GAIN_WORK = 30   # what forced_gain's first look (the likely refutations, generated alone) costs in replies


def forcing_turn(heights, board, kinds, side: int, rules, floor: float, work: list) -> tuple:
    """(turn, gain): the first turn of `side`, to move, found to win more than `floor` whatever the reply (what it
    takes plus forced_gain); (None, floor) when none does, or when `work` runs out first (then the scan is not
    trusted). The largest gain is not looked for: every further turn would cost a full scan of its replies."""
    seen: set = set()
    turns = turns_on(heights, board, kinds, side, rules, _board_sides(board))
    # the biggest captures first: they are the likeliest forcing turns, and the work may run out before the quiet ones
    taken = [_taken_value(board, kinds, m, side) for m in turns]
    for now, m in sorted(zip(taken, turns), key=itemgetter(0), reverse=True):    # (stable: ties keep their order)
        if work[0] <= 0:
            return None, floor
        work[0] -= 1                    # a successor and a threat scan
        h, b, _ = successor(heights, board, m)
        known = len(seen)
        seen.add((h, b))
        if len(seen) == known:
            continue                    # a position already looked at
        if not now and not threats(h, b, kinds, side, rules):
            continue
        work[0] -= FORCED_GAIN_WORK
        gain = now + forced_gain(h, b, kinds, side, rules, floor - now, work)
        if work[0] <= 0:
            return None, floor
        if gain > floor:
            return m, gain
    return None, floor


def likely_replies(heights, board, kinds, side: int, rules, count: int, work: list) -> list:
    """The `count` turns of `side` that rank best by the plain evaluation (the turns a one-ply player picks among),
    one per resulting position, best first."""
    seen = {}
    turns = turns_on(heights, board, kinds, side, rules, _board_sides(board))
    work[0] -= 5 * len(turns)           # a plain evaluation costs about five looks at a reply
    for m in turns:
        h, b, _ = successor(heights, board, m)
        key = (h, b)
        if key not in seen:
            seen[key] = (static_eval(h, b, kinds, side, 1 - side, rules), m)
    return [m for _, m in sorted(seen.values(), key=lambda vm: vm[0], reverse=True)[:count]]


def plan_gain(heights, board, kinds, side: int, rules, move, floor: float, work: list) -> float:
    """What the plan that starts with `move` (of `side`) wins at least: against each of the other side's likely
    replies (likely_replies), the forcing turn that follows (forcing_turn) less what the reply took; -WIN when some
    reply leaves none (or the work runs out)."""
    h, b, _ = successor(heights, board, move)
    won = _taken_value(board, kinds, move, side)
    worst = math.inf
    replies = likely_replies(h, b, kinds, 1 - side, rules, PLAN_REPLIES, work)
    if not replies:
        return WIN
    for reply in replies:
        h2, b2, _ = successor(h, b, reply)
        taken = _taken_value(b, kinds, reply, 1 - side)
        turn, gain = forcing_turn(h2, b2, kinds, side, rules, floor + taken - won, work)
        if turn is None:
            return -WIN                 # this reply leaves no forcing turn (or the scan ran out of work)
        worst = min(worst, won + gain - taken)
    return worst


# ---- the search -----------------------------------------------------------------------------------------------------

def squash(value: float, anchor: float) -> float:
    """A leaf's evaluation as a search value in [-1, 1], measured from `anchor` (the root position's evaluation from
    the same side): far ahead, every leaf would otherwise sit near tanh's ceiling, and the differences between turns
    that hunt and turns that dawdle would shrink below the search's exploration noise. A won or lost leaf is +-1."""
    if value >= WIN:
        return 1.0
    if value <= -WIN:
        return -1.0
    return math.tanh((value - anchor) / SCALE)


def _seen_twice(history) -> set:
    """The position keys in `history` that arose twice already: a third is a draw."""
    return {k for k, n in Counter(history).items() if n >= 2}


def answer_draw_offer(state: State):
    """The reply of the side asked to agree a draw (phase 1): accept only when clearly behind."""
    me = state.mover ^ state.phase
    return (DRAW, ACCEPT) if evaluate(state, me) < -150 else (DRAW, DECLINE)


def _sample(rng: random.Random, population: list, k: int) -> list:
    """rng.sample(population, k), the same draws and the same list: for a population larger than the table of a set
    of k (a node's ~2,000 turns), the loop of random.sample with its calls of _randbelow inlined (getrandbits of n's
    bits until one below n not drawn before); otherwise random.sample itself."""
    n = len(population)
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize or type(rng) is not random.Random:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    bits = n.bit_length()
    selected: set = set()
    add = selected.add
    result = []
    for _ in range(k):
        j = getrandbits(bits)
        while j >= n or j in selected:
            j = getrandbits(bits)
        add(j)
        result.append(population[j])
    return result


class _Node:
    __slots__ = ("heights", "board", "mover", "moves", "children", "visits", "value", "lost")

    def __init__(self, heights, board, mover):
        self.heights = heights
        self.board = board
        self.mover = mover           # the side to move here
        self.moves = None            # candidate moves in prior order
        self.children = {}
        self.visits = 0
        self.value = 0.0             # summed values for the side that moved INTO this node
        self.lost = False            # the side to move has no piece or no turn


class ElevationMCTS(Agent):
    """UCT with progressive widening over prior-ordered complete turns; evaluation at the leaves."""
    name = "mcts"
    # simulations a move: the same choice whatever the machine's load, so a seeded ladder repeats exactly; on an idle
    # machine normal takes well under a second (about 3,600 simulations a CPU second on the bench's positions)
    LEVELS = {"easy": 150, "normal": 2_000, "strong": 4_000}
    # a named level's clock only guards a slow machine or a position where the forcing check runs long (47 CPU s was
    # seen at normal with no clock); a ladder takes it away (ladder.budget_alone), so seeds still decide there
    SAFETY_SECONDS = {"easy": 1.0, "normal": 4.0, "strong": 12.0}
    WORK_PER_SIMULATION = 60          # replies the checks may look at per simulation of the budget (about 10 us each)

    def __init__(self, seed=None, level=None, seconds: float | None = None, c: float = 0.5, sample: int = 24,
                 root_width: int = 30, reply_pool: int = 48, max_iterations: int = 1_000_000,
                 forcing_width: int = 40):
        self.rng = random.Random(seed)
        self.seconds: float | None = seconds       # None: no clock, the simulation budget alone ends the search
        self.max_iterations = max_iterations
        self.budgeted = False       # True: the simulations decide, a clock only guards (see SAFETY_SECONDS)
        if seconds is None:
            self.seconds, budget = self.budget(level)
            self.max_iterations = budget or max_iterations
            self.budgeted = budget is not None
        self.c = c
        self.sample = sample
        self.root_width = root_width
        self.reply_pool = reply_pool
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.last_forced: float | None = None      # the material the last forcing turn wins, when one was played
        self.forcing_width = forcing_width
        self.forcing_share = 0.5
        self.check_width = 3           # best-visited turns checked for a forcing reply before one is played
        self.rescue_checks = 12        # when all of those lose material: further turns of the hunted pieces checked
        self.rescue_pool = 400         # turns looked at one ply ahead to choose those
        # replies the forcing check and the safety checks may look at in one move (half each, the forcing check's
        # leftover to the safety checks): counted, not timed, so a seeded game repeats; a position where most turns
        # lose material had cost 41 CPU seconds without a bound
        self.check_work = self.WORK_PER_SIMULATION * min(self.max_iterations, self.LEVELS["strong"])
        self._work: list[float] = [0]
        self.plan_work = self.check_work // 2     # replies and turns the plan search may look at in one move
        self.last_plan = None                 # the first turn of the last plan played (tests, measurements)
        self._playing_on = False
        self._me = 0
        self._anchor = 0.0             # the root's evaluation for the side to move there (see squash)

    @classmethod
    def budget(cls, level) -> tuple[float | None, int | None]:
        """(seconds or None, simulations or None) for a level: a name, simulations such as "500it", or seconds."""
        levels = {name: (cls.SAFETY_SECONDS[name], simulations) for name, simulations in cls.LEVELS.items()}
        return parse_budget(level, levels, "normal", "Elevation MCTS", "simulations")

    # ---- entry points ---------------------------------------------------------------------------------------------
    def choose(self, view):
        """The move for the view's seat (Elevation has no secrets: the resample is the true state)."""
        return self.choose_state(view.resample(self.rng))

    def choose_state(self, state: State):
        # The collector is paused for the move: the search makes no reference cycles (a tree of nodes, tuples and
        # tables of tuples), so a collection finds nothing to free, yet each full one walked every object the tables
        # hold (about a tenth of a move's CPU time on the bench's positions, more than its share of instructions: the
        # walk waits on memory). Whatever it was, on or off, it is put back.
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            return self._choose_state(state)
        finally:
            if collecting:
                gc.enable()

    def _choose_state(self, state: State):
        moves = all_turns(state)
        me = state.mover ^ state.phase
        if state.phase == 1:
            return answer_draw_offer(state)
        turns = [m for m in moves if m[0] != DRAW]
        if len(turns) == 1:
            return turns[0]
        start = time.perf_counter()
        deadline = math.inf if self.seconds is None else start + self.seconds
        self.kinds, self.rules = state.kinds, state.rules
        self._me = me
        self._anchor = static_eval(state.heights, state.board, state.kinds, me, me, state.rules, True)
        root = _Node(state.heights, state.board, me)
        root.moves = self._root_order(state, turns)
        if root.moves and root.moves[0][1] >= WIN / 2:
            return root.moves[0][0]                     # a winning capture
        ordered = root.moves
        self._work = [self.check_work // 2]
        forcing = self._forcing(state, root.moves, math.inf if self.seconds is None
                                else start + self.forcing_share * self.seconds)
        if forcing is not None and not (self._playing_on and self._allows_repetition(
                state, forcing, _seen_twice(state.history))):
            return forcing              # (a forcing turn the other side can answer with a third repetition is not)
        self._work = [self._work[0] + self.check_work // 2]
        plan = self._plan(state, root.moves, deadline)
        if plan is not None and not (self._playing_on and self._allows_repetition(
                state, plan, _seen_twice(state.history))):
            return plan
        if self._hunting(state):
            return self._hunt(state, turns)
        # the prior: the best-ranked positions (and every capture) get the search's time
        root.moves = [m for m, _ in root.moves[:self.root_width]] + [
            m for m, _ in root.moves[self.root_width:] if _captures(state.board, m, me)]
        it = 0
        while it < self.max_iterations and (it < 8 or time.perf_counter() < deadline):
            self._simulate(root)
            it += 1
        self.last_iterations = it
        self.last_seconds = time.perf_counter() - start
        ranked = sorted(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value / max(kv[1].visits, 1)),
                        reverse=True)
        return self._pick(state, [m for m, _ in ranked], [m for m, _ in ordered], deadline)

    HUNT_LEFT = 2           # the other side's pieces at most, for the hunt (see _hunt)
    HUNT_STUCK = 30         # plies with nothing taken after which the hunt plays whatever the other side has left

    def _hunting(self, state: State) -> bool:
        """Whether the hunt plays this turn: this side two pieces more, and the other side down to HUNT_LEFT or
        nothing taken for HUNT_STUCK plies. Against three or four pieces the search converts more often than the hunt
        while it is still taking them; once it has stood still that long it mostly stands still to the move cap
        (docs/rules/elevation.md, "The hunt"), and the hunt, which drains and gathers, does better there."""
        if state.rules.two_pieces:
            return False
        me = state.mover
        mine = sum(1 for b in state.board if b >= 0 and b // 6 == me)
        theirs = sum(1 for b in state.board if b >= 0 and b // 6 != me)
        return 0 < theirs and mine >= theirs + 2 and (theirs <= self.HUNT_LEFT or
                                                      len(state.history) >= self.HUNT_STUCK)

    def _hunt(self, state: State, turns: list):
        """The endgame against the other side's last pieces, on what takes a perched piece. Its own digs only move
        the tiles beside it around, so each tile dug off that ring and put beyond is gone for good, and with none
        left it must step down into the pit; so: the tiles on the free squares beside each hunted piece (fewest),
        every own piece within two squares of its nearest hunted piece (where it can dig the ring and is out of a
        single step's reach), the hunted pieces' safe squares (fewest), their height, and threats on them. One ply
        over every distinct turn picks a pool, valued then against every reply (_hunt_reply); never a piece left to
        be taken for nothing, and never back to an earlier position."""
        me, enemy = state.mover, 1 - state.mover
        kinds, rules = state.kinds, state.rules
        ranked = []         # (one ply, one ply ignoring what the other side takes at once, turn, heights, board, gain)
        seen = set()
        for m in turns:
            h, b, _ = successor(state.heights, state.board, m)
            if (h, b) in seen:
                continue
            seen.add((h, b))
            sides = _board_sides(b)
            mine, targets = sides[me], sides[enemy]
            if not targets:
                return m                                    # the last piece taken
            taken = _taken_value(state.board, kinds, m, me)
            # each of the last pieces taken is a step nearer the end, whatever it is worth: a dragon for a fish is a
            # good trade here (as the search's TRADE_DOWN says)
            gain = taken + (TRADE_DOWN if taken else 0.0)
            if position_key(h, b, kinds, enemy, -1) in state.history:
                gain -= 1000.0
            value = gain - _hunt_cost(h, b, mine, targets)
            if threats(h, b, kinds, me, rules):
                value += HUNT_THREAT
            value += self.rng.random() * 1e-3
            ranked.append((value - _best_take(h, b, kinds, enemy, rules), value, m, h, b, gain))
        ranked.sort(key=itemgetter(0), reverse=True)
        # a piece the other side may take is worth setting there when taking it costs the last piece: the bold pool
        # does not count what the other side takes, and the reply decides
        pool = ranked[:HUNT_POOL] + sorted(ranked[HUNT_POOL:], key=itemgetter(1), reverse=True)[:HUNT_BOLD]
        valued = sorted(((gain + _hunt_reply(h, b, kinds, me, rules) + self.rng.random() * 1e-3, m)
                         for _, _, m, h, b, gain in pool), key=itemgetter(0), reverse=True)
        order = [m for _, m in valued]
        pooled = set(order)
        order += [m for _, _, m, *_ in ranked if m not in pooled]
        # the best few are checked as the search's own choices are (_forced_loss), and the first that loses nothing
        # is played; a capture taken back at once is no loss here (far ahead, each trade brings the end nearer)
        need = VALUE[SAMURAI] - 10.0
        # far ahead, a draw is the worst result left: a turn after which the other side can make a position's third
        # repetition is not played (two dragons side by side digging in turn recreate the positions the hunter is
        # to move in, and the other side's return is not this side's own, which the ranking refuses)
        twice = _seen_twice(state.history)
        looked = 0                  # the best turns whose repetition is known (all but `no_repeat` allow one)
        no_repeat = None            # the first of those that allows none
        for m in order[:HUNT_CHECKS]:
            if self._work[0] <= 0:
                break
            looked += 1
            if twice and self._allows_repetition(state, m, twice):
                continue
            if no_repeat is None:
                no_repeat = m
            if self._forced_loss(state, m, trades=True)[0] < need:
                return m
        if twice:
            if no_repeat is not None:
                return no_repeat
            for m in order[looked:HUNT_NO_REPEAT]:
                if not self._allows_repetition(state, m, twice):
                    return m
        return order[0]

    def _pick(self, state: State, visited: list, ordered: list, deadline: float = math.inf):
        """The turn to play: the best-visited one that leaves the other side neither a third repetition (unless this
        side is clearly behind) nor a forcing turn of its own. When none of the best `check_width` does, up to
        `rescue_checks` more are tried: first the turns of the pieces the refutations hunt (stepping out of a trap
        often ranks low at first sight), then the other visited turns, then the ranking, those from which the other
        side can take nothing at once before the rest. Failing that, it plays the best-visited turn, or, 150 or more
        ahead in material, the first turn that allows no repetition. Once the checks' count of replies is spent, the
        first turn that allows no repetition is played unchecked."""
        twice = _seen_twice(state.history) if self._playing_on else set()
        in_danger: set = set()
        no_repeat: list = []            # the turns that allow no repetition, whatever they lose
        need = VALUE[SAMURAI] - 10.0

        repeating: set = set()          # squares of the pieces whose turns let the other side repeat

        def clean(m) -> bool:
            if twice and self._allows_repetition(state, m, twice):
                repeating.add(m[0])
                return False
            no_repeat.append(m)
            if self.rules.two_pieces or self._work[0] <= 0:
                return True             # out of work: the first turn not refuted
            loss, hunted = self._forced_loss(state, m)
            if loss < need:
                return True
            in_danger.update(hunted)
            return False

        for m in visited[:self.check_width]:
            if time.perf_counter() > deadline:
                return m                # out of time: the best-visited turn not yet refuted
            if clean(m):
                return m
        checked = set(visited[:self.check_width])
        more = [m for m in dict.fromkeys([m for m in ordered if m[0] in in_danger] + visited[self.check_width:]
                                         + ordered) if m not in checked][:self.rescue_pool]
        # those the other side cannot take anything from at once first (a cheap look one ply ahead), and those of
        # pieces whose turns were not undone to a repetition, so that the few full checks go to turns that stand a
        # chance
        enemy = 1 - state.mover
        exposed = []
        for m in more:
            h, b, _ = successor(state.heights, state.board, m)
            exposed.append((_best_take(h, b, self.kinds, enemy, self.rules)
                            - _taken_value(state.board, self.kinds, m, state.mover) >= need, m[0] in repeating))
        tries = 0
        for _, _, m in sorted(zip(exposed, range(len(more)), more)):
            if tries >= self.rescue_checks or time.perf_counter() > deadline:
                break
            if m in checked:
                continue
            tries += 1
            if clean(m):
                return m
        if twice and no_repeat and _lead(state.board, state.kinds, state.mover) >= 150:
            return no_repeat[0]         # far ahead, a piece is better given up than the game drawn
        # the search's favourite: the check stops at the first refutation, so its losses do not rank the turns (the
        # turn that seemed to lose least lost a dragon to a line the search had seen)
        return visited[0]

    def _loses_material(self, state: State, move) -> set:
        """The squares (before `move`) of the pieces the other side can win by force after `move` (see _forced_loss),
        when that is at least a samurai's worth; empty otherwise."""
        self._work = [math.inf]
        loss, hunted = self._forced_loss(state, move)
        return hunted if loss >= VALUE[SAMURAI] - 10.0 else set()

    def _forced_loss(self, state: State, move, trades: bool = False) -> tuple[float, set]:
        """Material the other side wins by force after `move` with its first such reply found (forced_gain from its
        side, over its capturing and threatening replies, less what `move` took; 0 below a samurai's worth less 10),
        and the squares (before `move`) of the pieces it hunts then. The scan stops at that first reply: looking for
        the largest loss took seconds where most turns lose something. With `trades`, a capture whose captor this
        side can take back at once is no loss."""
        me = state.mover
        h, b, now = successor(state.heights, state.board, move)
        if now and not any(p >= 0 and p // 6 != me for p in b):
            return 0.0, set()
        enemy = 1 - me
        bar = VALUE[SAMURAI] - 10.0 - 1e-6
        won = _taken_value(state.board, self.kinds, move, me)
        landing = _landing(move)
        for reply in turns_on(h, b, self.kinds, enemy, self.rules, _board_sides(b)):
            if self._work[0] <= 0:
                break
            self._work[0] -= 3          # a successor and a threat scan
            h2, b2, _ = successor(h, b, reply)
            taken = _taken_value(b, self.kinds, reply, enemy)
            hunted = threats(h2, b2, self.kinds, enemy, self.rules)
            if not taken and not hunted:
                continue
            if taken and trades and _landing(reply) in threats(h2, b2, self.kinds, me, self.rules):
                continue
            loss = taken + forced_gain(h2, b2, self.kinds, enemy, self.rules, bar - taken + won, self._work) - won
            if loss > bar and self._work[0] > 0:
                lost = set(hunted) | {q for q in range(SQUARES) if b[q] >= 0 and b[q] // 6 == me and b2[q] != b[q]}
                return loss, {move[0] if q == landing else q for q in lost} or {move[0]}
        return 0.0, set()

    def _allows_repetition(self, state: State, move, keys: set) -> bool:
        """Whether some reply to `move` leads to a position whose key is in `keys`."""
        me = state.mover
        h, b, _ = successor(state.heights, state.board, move)
        for reply in turns_on(h, b, self.kinds, 1 - me, self.rules, _board_sides(b)):
            h2, b2, _ = successor(h, b, reply)
            if position_key(h2, b2, self.kinds, me, -1) in keys:
                return True
        return False

    def _forcing(self, state: State, ranked: list, deadline: float):
        """A turn that wins material whatever the reply (see forced_gain), or None: among the best-ranked turns that
        capture or threaten, the one whose least gain is largest, when that is at least a samurai's worth."""
        if state.rules.two_pieces:
            return None                 # the light states search one piece a turn; a second piece could refute
        me = state.mover
        kinds, rules = state.kinds, state.rules
        best, best_gain = None, VALUE[SAMURAI] - 10.0
        tried = 0
        for m, _ in ranked:
            if tried >= self.forcing_width or (tried and time.perf_counter() > deadline):
                break
            h, b, _ = successor(state.heights, state.board, m)
            now = _taken_value(state.board, kinds, m, me)
            if not now and not threats(h, b, kinds, me, rules):
                continue
            tried += 1
            gain = now + forced_gain(h, b, kinds, me, rules, best_gain - now, self._work)
            if self._work[0] <= 0:
                break                   # this turn's replies were not all looked at
            if gain > best_gain:
                best, best_gain = m, gain
        self.last_forced = best_gain if best is not None else None
        return best

    def _plan(self, state: State, ranked: list, deadline: float):
        """The first turn of a plan, or None: among the best-ranked turns that leave the other side nothing to take at
        once, one after which this side would have a forcing turn were the other side to pass (cheap, and most turns
        fail it), then one that still has a forcing turn after each of the other side's likely replies (plan_gain),
        when it loses nothing itself (_forced_loss). A fork takes one turn to prepare and a one-ply player does not
        see it coming; the forcing check alone sees only forks already there."""
        if state.rules.two_pieces:
            return None
        me, enemy = state.mover, 1 - state.mover
        kinds, rules = state.kinds, state.rules
        need = VALUE[SAMURAI] - 10.0
        work = [self.plan_work]
        # the forcing check looks at the best-ranked turns only, and a plan's second turn may rank low: every turn
        # is scanned here, so that the turn a plan prepared is played
        ready, _ = forcing_turn(state.heights, state.board, kinds, me, rules, need, work)
        if ready is not None:
            return ready
        verified = 0
        for m, _ in ranked[:PLAN_WIDTH]:
            if work[0] <= 0 or verified >= PLAN_VERIFIED or time.perf_counter() > deadline:
                break
            h, b, _ = successor(state.heights, state.board, m)
            if _best_take(h, b, kinds, enemy, rules) >= need:
                continue
            if forcing_turn(h, b, kinds, me, rules, need, work)[0] is None:
                continue
            verified += 1
            if plan_gain(state.heights, state.board, kinds, me, rules, m, need, work) <= need:
                continue
            if self._forced_loss(state, m)[0] < need:
                self.last_plan = m
                return m
        return None

    def _root_order(self, state: State, turns: list) -> list:
        """(move, value) for every distinct resulting position, best first; a side that is not clearly behind never
        returns to a position that arose before (unless every turn does): that invites a third repetition, a draw."""
        me = state.mover
        seen = {}
        playing_on = self._playing_on = evaluate(state, me) > -50      # not clearly behind: play on for the win
        repeats = set()         # left out unless behind: the search below the root cannot see repetition
        for m in turns:
            h, b, gain = successor(state.heights, state.board, m)
            key = (h, b)
            if key in seen:
                continue
            v = static_eval(h, b, self.kinds, me, 1 - me, self.rules, True)
            # a return to an earlier position invites a third repetition by the other side
            if playing_on and position_key(h, b, self.kinds, 1 - me, -1) in state.history:
                v = min(v, 0.0)
                repeats.add(m)
            seen[key] = (v + self.rng.random() * 1e-3, m)
        ranked = [(m, v) for v, m in sorted(seen.values(), reverse=True)]
        fresh = [mv for mv in ranked if mv[0] not in repeats]
        return fresh or ranked

    # ---- below the root --------------------------------------------------------------------------------------------
    def _order(self, node: _Node, ranked: bool = False) -> list:
        """Candidate turns for a node: captures, moves of threatened pieces, a random sample of the rest."""
        heights, board, side = node.heights, node.board, node.mover
        sides = _SIDES.get(board)
        if sides is None:
            sides = _sides(board)
        own = sides[2 + side]
        masks = _Masks.light(heights, own, sides[3 - side])
        targets = _threats(heights, board, sides, self.kinds, side, self.rules)
        danger = _threats(heights, board, sides, self.kinds, 1 - side, self.rules)
        moves: list = []
        caps: list = []
        rescue: list = []
        for s in sides[side]:
            groups = known_piece_groups(heights, masks, own, s, self.kinds[board[s]], self.rules)
            for group in groups:
                moves += group
            if targets and any(DIST1[e][s] <= 1 for e in targets):
                caps += _capturing_turns(groups, s, masks.enemy)
            if s in danger:
                # (a group holds turns of one shape, but for the dragon's steps: both kinds of step)
                for group in groups:
                    if group and group[0][1] != DIG_DIG and group[0][1] != UNDERMINE:
                        rescue += group
        if not moves:
            return moves
        if len(rescue) > self.sample:
            rescue = _sample(self.rng, rescue, self.sample)
        pool = _sample(self.rng, moves, min(4 * self.sample, len(moves)))
        pressure = _pressure(heights, board, side)
        landing_at = _LANDING_AT
        pool.sort(key=lambda m: pressure[m[landing_at[m[1]]]], reverse=True)
        if not ranked:
            return list(dict.fromkeys(caps + rescue + pool[:self.sample]))
        # the replies to the root's candidates: ranked by the evaluation, so the search meets the best ones first
        more = _sample(self.rng, moves, min(self.reply_pool, len(moves)))
        candidates = list(dict.fromkeys(caps + rescue + pool[:self.sample] + more))
        scored = []
        for m in candidates:
            h, b, _ = successor(heights, board, m)
            scored.append((static_eval(h, b, self.kinds, side, 1 - side, self.rules, True), m))
        scored.sort(key=lambda vm: vm[0], reverse=True)
        return [m for _, m in scored]

    def _allowed(self, node: _Node) -> int:
        return min(len(node.moves or ()), 2 + int(math.sqrt(node.visits)))

    def _simulate(self, root: _Node) -> None:
        path = [root]
        node = root
        while True:
            if node.lost:
                break
            if node.moves is None:
                node.moves = self._order(node, ranked=len(path) == 2)
                if not node.moves:
                    node.lost = True
                    break
            best, best_u = None, -1e18
            logn = math.log(node.visits + 1)
            children = node.children
            c, sqrt = self.c, math.sqrt
            for m in node.moves[:self._allowed(node)]:
                ch = children.get(m)
                if ch is None:
                    best = m
                    break
                visits = ch.visits
                u = ch.value / visits + c * sqrt(logn / visits)
                if u > best_u:
                    best_u, best = u, m
            ch = children.get(best)
            if ch is None:
                h, b, _ = successor(node.heights, node.board, best)
                ch = _Node(h, b, 1 - node.mover)
                node.children[best] = ch
                path.append(ch)
                node = ch
                break
            path.append(ch)
            node = ch
        leaf = path[-1]
        if leaf.lost:
            v_mover = -1.0                       # the side to move at the leaf has lost
        else:
            v = static_eval(leaf.heights, leaf.board, self.kinds, leaf.mover, leaf.mover, self.rules, True)
            v_mover = squash(v, self._anchor if leaf.mover == self._me else -self._anchor)
        # values are stored for the side that moved into each node: the opponent of that node's mover
        for n in path:
            n.visits += 1
            n.value += -v_mover if n.mover == leaf.mover else v_mover


class GreedyThreat(Agent):
    """One ply on the evaluation over every distinct resulting position: cheap, a baseline for the search."""
    name = "elev-greedy"

    def __init__(self, seed=None, level=None):
        self.search = ElevationMCTS(seed=seed, seconds=0.0)

    def choose(self, view):
        state = view.resample(self.search.rng)
        if state.phase == 1:
            return self.search.choose_state(state)
        turns = [m for m in all_turns(state) if m[0] != DRAW]
        self.search.kinds, self.search.rules = state.kinds, state.rules
        return self.search._root_order(state, turns)[0][0]


class Beginner(Agent):
    """The easy level: one ply on the plain evaluation, as greedy plays, except that on most turns it overlooks what
    the other side could take at once after its turn (`careless`): it sees its own chances, climbs and closes in, and
    often leaves a piece where it can be taken, as a beginner does. A search's budget alone made no beatable level:
    the search at 150 simulations drew the one at 1,000 in 9 games of 10. Overlooking on six turns in ten, normal
    beat it 4-6-0 on the ladder's first 10 seeds (about 150 Elo, the draws at the cap); on nine in ten, 6-4-0."""
    name = "mcts"
    budgeted = False            # the easy level of a budgeted spec: no clock, nothing to take away
    seconds: float | None = None
    OVERSIGHT = 0.9             # the share of turns on which it overlooks the other side's captures

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, view):
        return self.choose_state(view.resample(self.rng))

    def choose_state(self, state: State):
        if state.phase == 1:
            return answer_draw_offer(state)
        me = state.mover
        careless = self.rng.random() < self.OVERSIGHT
        best: list = []
        best_value = -math.inf
        seen = set()
        for m in all_turns(state):
            if m[0] == DRAW:
                continue
            h, b, _ = successor(state.heights, state.board, m)
            if (h, b) in seen:
                continue
            seen.add((h, b))
            value = static_eval(h, b, state.kinds, me, 1 - me, state.rules, careless=careless)
            if value > best_value + 1e-9:
                best, best_value = [m], value
            elif value >= best_value - 1e-9:
                best.append(m)
        return best[self.rng.randrange(len(best))]


def best_turn(state: State, budget: float = 0.5):
    """A hint: the search's choice within `budget` seconds."""
    return ElevationMCTS(seed=0, seconds=budget).choose_state(state)


AGENTS = (
    AgentSpec("mcts", "search",
              lambda game, seed=None, level=None: Beginner(seed) if level == "easy" else ElevationMCTS(seed, level),
              ("easy", "normal", "strong"), "normal", budgeted=True),
    AgentSpec("elev-greedy", "threat greedy", lambda game, seed=None, level=None: GreedyThreat(seed, level)),
)
