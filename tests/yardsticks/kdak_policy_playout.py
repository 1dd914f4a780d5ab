"""A speed yardstick, never used by the game: K'Dak's search playout as a second copy of the rules, frozen as it was
at commit 998db28 (towerworld/games/kdak/playout.py there), when the search ran on it.

It plays the climbing policy (strategy.policy_choice) to the end in one loop of its own, retyping the rules on lists
and ints. The game's playouts now run through the rules' one step function (rules.advance, rules.playout); this copy
stays only so that `scripts/bench.py` can time the two on the same work (the `kdak_playout_speed_vs_old_copy` rows)
and tests/test_search_equivalence.py can show that the work is the same: from the same seed both draw the same random
numbers, make the same choices and end in the same state. A rule change is made in rules.py alone; should this copy
then disagree, the equivalence test says so and the yardstick is retired rather than edited.
"""
from __future__ import annotations

import random

from towerworld.games.kdak.board import (DISCARD, END_CAP, END_LOST, END_NORMAL, FLIP, LEVELS, MOVE, NOT_IN, ORTH, OUT,
                                         OVER, REMOVE, REVEAL, ROLL, SPEND, TILES, KState)
from towerworld.games.kdak.rules import GO, OUT_MOVE, SPEND_MOVES, STAY

_TOP = LEVELS - 1
_REMOVE_NOW, _NEXT_TURN = -1, -2        # working stages of the loop below, never stored in a state
_SPEND = SPEND_MOVES[1]


def policy_playout(state: KState, rng: random.Random, limit: int) -> KState:
    """The end of a playout from `state` (at most `limit` plies, chance included): rolls and reveals uniformly at
    random, decisions by the climbing policy (15% uniform)."""
    o = state.opts
    talisman, crumble, l5t, up2, n, cap = o.talisman, o.crumble, o.l5t, o.up2, o.n, o.move_cap
    cols = [list(col) for col in state.cols]
    up = state.up
    ident = list(state.ident)
    left = sorted(set(range(TILES)).difference(ident))      # identities not seen yet, ascending
    heights = [len(col) for col in cols]
    standing = sum(heights)
    pawns = list(state.pawns)
    outs = pawns.count(OUT)
    scores = list(state.scores)
    tal = list(state.tal)
    door, turn, stage, pending = state.door, state.turn, state.stage, state.pending
    roll, level, fell, free = state.roll, state.level, state.fell, state.free
    discards = list(state.discards)
    plies, tower_tal, end = state.plies, state.tower_tal, state.end
    rand = rng.random
    steps = 0
    moves: list[tuple]
    move: tuple | None
    climb: tuple | None
    while stage != OVER and steps < limit:
        steps += 1
        # ---- the move: a chance outcome or the policy's decision, as (kind, a, b) ---------------------------------
        p = turn
        if stage == ROLL:
            r = int(rand() * 6)
            roll = r
            h = max(heights)
            level = r if r < h else h - 1
            stage = REMOVE
            plies += 1
            if cap and plies >= cap:
                end, stage = END_CAP, OVER
            continue
        after = False          # True: go on with the end of the pawn's move (_after_move)
        if stage == REVEAL:
            v = left.pop(int(rand() * len(left)))
            what, slot = pending
            pending = ()
            ident[slot] = v
            if what == FLIP:
                stage = MOVE
                # _flip
                up |= 1 << slot
                rank = v % 6
                if door and rank:
                    scores[p] += rank
                if rank == 0 and talisman:
                    tal[p] += 1
                after = True
            else:
                slot_removed = slot
                stage = _REMOVE_NOW
        elif stage == REMOVE:
            cands = [c for c in range(4) if heights[c] > level]
            k = len(cands)
            if k == 1 or rand() < 0.15:
                c = cands[int(rand() * k)]
            else:
                slot = pawns[p]
                mine = slot & 3 if slot >= 0 else -1
                good = [c for c in cands if c != mine and heights[c] < LEVELS]
                good = good or [c for c in cands if c != mine] or cands
                c = good[int(rand() * len(good))]
            slot = cols[c][level]
            if ident[slot] < 0:
                stage = REVEAL
                pending = (DISCARD, slot)
            else:
                slot_removed = slot
                stage = _REMOVE_NOW
        elif stage == SPEND:
            if rand() < 0.15:
                move = SPEND_MOVES[int(rand() * 2)]
            else:
                move = _SPEND
            if move is _SPEND:
                tal[p] -= 1
                free = l5t
                stage = MOVE
            else:
                stage = _NEXT_TURN
        else:
            # MOVE: the pawn's moves in sorted order (rules.pawn_moves), then the policy
            slot = pawns[p]
            if slot == NOT_IN:
                moves = [GO[c][0] for c in range(4) if heights[c]]
                here = False
            else:
                here = True
                c = slot & 3
                col = cols[c]
                lv = col.index(slot)
                n1, n2 = ORTH[c]
                reach1, reach2 = heights[n1] > lv, heights[n2] > lv
                moves = []
                if reach1 and n1 < c:
                    moves.append(GO[n1][lv])
                if reach2 and n2 < c:
                    moves.append(GO[n2][lv])
                if lv:
                    moves.append(GO[c][lv - 1])
                climb = None
                if heights[c] > lv + 1:
                    if not up2:
                        climb = GO[c][lv + 1]
                    else:
                        count = 0
                        for cl in cols:
                            if len(cl) > lv and up >> cl[lv] & 1:
                                count += 1
                        if count >= 2:
                            climb = GO[c][lv + 1]
                    if climb is not None:
                        moves.append(climb)
                if reach1 and n1 > c:
                    moves.append(GO[n1][lv])
                if reach2 and n2 > c:
                    moves.append(GO[n2][lv])
                if lv == 0 and door:
                    moves.append(OUT_MOVE)
                if not moves or (fell >> p & 1 and not up >> slot & 1):
                    moves.append(STAY)
            k = len(moves)
            move = None
            if k == 1 or rand() < 0.15:
                move = moves[int(rand() * k)]
            elif here:
                if not door:
                    if climb is not None:
                        move = climb
                    else:
                        for m in moves:
                            if m[0] == "go" and m[2] == lv and heights[m[1]] == LEVELS:
                                move = m
                                break
                else:
                    if moves[-1] is STAY:
                        move = STAY
                    else:
                        best_v = -1.0
                        for m in moves:
                            if m[0] == "go":
                                s = cols[m[1]][m[2]]
                                if not up >> s & 1:
                                    iv = ident[s]
                                    value = iv % 6 if iv >= 0 else 2.5
                                    if value > best_v:
                                        move, best_v = m, value
                        if move is None and moves[-1] is OUT_MOVE and rand() < 0.5:
                            move = OUT_MOVE
                if move is None:
                    move = moves[int(rand() * k)]
            else:
                move = moves[int(rand() * k)]
            kind = move[0]
            if kind == "go":
                slot = cols[move[1]][move[2]]
                pawns[p] = slot
                fell &= ~(1 << p)
                if up >> slot & 1:
                    after = True
                elif ident[slot] < 0:
                    stage = REVEAL
                    pending = (FLIP, slot)
                else:
                    up |= 1 << slot
                    v = ident[slot]
                    rank = v % 6
                    if door and rank:
                        scores[p] += rank
                    if rank == 0 and talisman:
                        tal[p] += 1
                    after = True
            elif kind == "stay":
                was = fell >> p & 1
                fell &= ~(1 << p)
                if was and slot >= 0 and not up >> slot & 1:
                    if ident[slot] < 0:
                        stage = REVEAL
                        pending = (FLIP, slot)
                    else:
                        up |= 1 << slot
                        v = ident[slot]
                        rank = v % 6
                        if door and rank:
                            scores[p] += rank
                        if rank == 0 and talisman:
                            tal[p] += 1
                        after = True
                else:
                    after = True
            else:           # out
                pawns[p] = OUT
                outs += 1
                fell &= ~(1 << p)
                after = True
        # ---- the rule steps that follow ------------------------------------------------------------------------------
        turn_over = False      # True: the end of the turn follows (_end_turn)
        if after:
            if not door:
                slot = pawns[p]
                if slot >= 0:
                    col = cols[slot & 3]
                    if len(col) == LEVELS and col[_TOP] == slot:
                        door = True           # the switch
                        if tower_tal == -1:
                            tower_tal = p
                            tal[p] += 1
                        up = 0
            if outs == n:
                ended = END_NORMAL
            elif l5t:
                ended = END_LOST if tower_tal == -1 and LEVELS not in heights else 0
            else:
                ended = END_NORMAL if door and up.bit_count() == standing else 0
            if ended:
                end, stage = ended, OVER
            elif (door or crumble) and not free:
                stage = ROLL
            else:
                turn_over = True
        elif stage == _REMOVE_NOW:
            slot = slot_removed
            c = slot & 3
            col = cols[c]
            lv = col.index(slot)
            del col[lv]
            heights[c] -= 1
            standing -= 1
            up &= ~(1 << slot)
            discards.append(slot)
            if slot in pawns:
                for q in range(n):
                    if pawns[q] == slot:
                        if lv:
                            pawns[q] = col[lv - 1]
                            fell |= 1 << q
                        else:
                            pawns[q] = OUT
                            outs += 1
                            fell &= ~(1 << q)
            if outs == n:
                ended = END_NORMAL
            elif l5t:
                ended = END_LOST if tower_tal == -1 and LEVELS not in heights else 0
            else:
                ended = END_NORMAL if door and up.bit_count() == standing else 0
            if ended:
                end, stage = ended, OVER
            else:
                turn_over = True
        if turn_over:
            if tal[p] > 0 and pawns[p] >= 0:
                stage = SPEND
            else:
                stage = _NEXT_TURN
        if stage == _NEXT_TURN:
            for i in range(1, n + 1):
                q = (p + i) % n
                if pawns[q] != OUT:
                    turn, stage, free = q, MOVE, False
                    break
            else:
                end, stage = END_NORMAL, OVER
        plies += 1
        if cap and plies >= cap and stage != OVER:
            end, stage = END_CAP, OVER
    return KState(o, tuple(map(tuple, cols)), up, tuple(ident), tuple(pawns), tuple(scores), tuple(tal), door, turn,
                  stage, pending, roll, level, fell, free, tuple(discards), plies, tower_tal, end)

