"""Elevation's speed rows, collected by scripts/bench.py: `rows()` gives (name, value, goal, unit).

Legal-move generation looks each piece's turns up in tables filled on first use (rules.py), so it is timed on positions
the tables have not seen. `elevation_legal_moves_us` (the goal) is the search's case: random children of positions
along random games, each generated for the first time right after its parent, with tables that hold only other games'
positions, as in a process that has played before ("fresh"). Beside it: positions along those other games from emptied
tables ("cold"), the same positions once more ("warm"), and the plain reference generator (reference.py) on them. CPU
time per position, medians of three rounds; beside them the floor: copying each finished list. Applying a turn: with its events (`apply_unchecked`) and the search's
`advance`, CPU time a turn over 500 turns of one position, medians of three runs after one.
"""
from __future__ import annotations

import random
import statistics
import time

from towerworld.engine.game import TERMINAL
from towerworld.games.elevation import GAME
from towerworld.games.elevation.reference import reference_turns
from towerworld.games.elevation.rules import ONGOING, State, advance, all_turns, clear_tables


def _random_positions(n: int, seed: int) -> list[State]:
    """Positions along random games (start, opening, middle game)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        st = GAME.new_state()
        while GAME.current_player(st) != TERMINAL and len(out) < n and st.turns < 60:
            out.append(st)
            moves = all_turns(st)
            st = advance(st, moves[rng.randrange(len(moves))])
    return out


def _children(parents: list[State], per_parent: int, seed: int) -> list[tuple[State, list[State]]]:
    """Each parent with `per_parent` positions one random turn later (games still going)."""
    rng = random.Random(seed)
    out = []
    for st in parents:
        turns = [m for m in all_turns(st) if m[0] >= 0]
        kids = [advance(st, turns[rng.randrange(len(turns))]) for _ in range(per_parent)]
        out.append((st, [k for k in kids if k.outcome == ONGOING]))
    return out


def _per_turn_us(apply_all, turns: int) -> float:
    """CPU microseconds a turn of `apply_all()` (every turn applied once), the median of three runs after one."""
    apply_all()
    spent = []
    for _ in range(3):
        t0 = time.process_time()
        apply_all()
        spent.append(time.process_time() - t0)
    return statistics.median(spent) / turns * 1e6


def _copy_us(positions: list[State]) -> float:
    """CPU microseconds per position to copy its finished list of turns into a new list: the floor of any generator
    that hands out a new list of the same tuples."""
    lists = [all_turns(st) for st in positions]
    t0 = time.process_time()
    for turns in lists:
        out: list = []
        out += turns
    return (time.process_time() - t0) / len(lists) * 1e6


def legal_moves_us(positions: list[State], rounds: int, generate=all_turns) -> float:
    t0 = time.process_time()
    for _ in range(rounds):
        for st in positions:
            generate(st)
    return (time.process_time() - t0) / (rounds * len(positions)) * 1e6


def fresh_legal_moves_us(families: list[tuple[State, list[State]]]) -> float:
    """CPU microseconds per child position, each generated for the first time right after its parent (as a search
    expands a node)."""
    spent, n = 0.0, 0
    for parent, kids in families:
        all_turns(parent)
        t0 = time.process_time()
        for st in kids:
            all_turns(st)
        spent += time.process_time() - t0
        n += len(kids)
    return spent / n * 1e6


def _note(value: float, goal: float, why: str, at_most: bool = True) -> str:
    """How far a figure is from its goal, and why ("" when the goal is met)."""
    if (value <= goal) if at_most else (value >= goal):
        return ""
    factor = value / goal if at_most else goal / value
    return f"{factor:.2f}x short of {'<=' if at_most else '>='}{goal:g}: {why}"


def rows(seconds: float = 2.0) -> list[tuple]:
    positions = _random_positions(120, 11)
    families = _children(_random_positions(60, 12), 8, 5)
    moves = statistics.mean(len(all_turns(st)) for _, kids in families for st in kids)
    fresh, cold, warm = [], [], []
    for _ in range(3):
        clear_tables()
        cold.append(legal_moves_us(positions, 1))
        warm.append(legal_moves_us(positions, 2))
        fresh.append(fresh_legal_moves_us(families))        # the tables hold the positions above, never these
    reference = legal_moves_us(positions[::4], 1, reference_turns)
    copy_us = statistics.median(_copy_us(positions) for _ in range(3))
    st = positions[len(positions) // 2]
    turns = all_turns(st)[1:501]
    apply_us = _per_turn_us(lambda: [GAME.apply_unchecked(st, m) for m in turns], len(turns))
    advance_us = _per_turn_us(lambda: [advance(st, m) for m in turns], len(turns))
    legal_us = round(statistics.median(fresh), 1)
    warm_us = statistics.median(warm)
    # the search's rate is scripts/bench.py's mcts_sims_per_s_elevation: the shipped level's fixed budget, on
    # positions along whole games
    return [
        ("elevation_legal_moves_per_position", round(moves), "", "moves"),
        ("elevation_legal_moves_us", legal_us, "<= 45", "us (fresh positions)",
         _note(legal_us, 45, f"about {round(moves):,} turns a position, each its own tuple: copying a position's "
                             f"finished list into a new one alone takes {copy_us:.0f} us (a reference count touched "
                             f"per turn); a position whose pieces are all known (warm) costs "
                             f"{warm_us:.0f} us, that copy and six table lookups; a fresh child adds "
                             f"{max(legal_us - warm_us, 0):.0f} us: the pieces its parent's turn came near (about "
                             "half on a 6x6 board of king-move neighbours) have new keys, and their groups are looked "
                             "up or generated (rules.piece_turn_groups). Under the goal only with fewer objects a "
                             "turn: moves as ints, or the groups handed out without a flat list")),
        ("elevation_legal_moves_us_cold", round(statistics.median(cold), 1), "", "us (emptied tables)"),
        ("elevation_legal_moves_us_warm", round(statistics.median(warm), 1), "", "us (seen before)"),
        ("elevation_legal_moves_us_reference", round(reference), "", "us (plain generator)"),
        ("elevation_apply_us", round(apply_us, 1), "<= 50", "us", _note(apply_us, 50, "see a profile")),
        ("elevation_advance_us", round(advance_us, 1), "", "us (the search's apply, no events)"),
    ]


def bench_rows(seconds: float = 2.0) -> list[tuple]:
    """The rows as scripts/bench.py reads them: (name, value, goal, unit) and, where a goal is missed, a note."""
    return rows(seconds)


def main() -> None:
    """Print the rows. (Matches of the default opponent against other agents: `towerworld ladder elevation --agents
    mcts,elev-greedy`.)"""
    for name, value, goal, unit, *note in rows():
        print(f"{name:40s} {value:>10} {unit:22s} goal {goal} {' '.join(n for n in note if n)}")


if __name__ == "__main__":
    main()
