"""Fit the search's positional weights to how the lead moved in recorded games of Elevation.

    python scripts/elevation_fit.py docs/ladders/elevation-seed7-ply100.moves.jsonl \\
        docs/ladders/elevation-seed8-ply100.moves.jsonl --horizon 10

Each position (every other ply) is seen from the search's seat: its lead in material `horizon` plies later less its
lead now is regressed on the search's evaluation split in five parts: the levels over adjacent enemies (edge), the
average height over the other side's, `_danger`'s two counts for each side (their difference), and everything else
the evaluation adds to material. A part that predicts the lead's change should weigh in the evaluation about as much
as it predicts, in material points. Each file is fitted alone and tested on the others (mean squared error against
a constant), then all together. docs/rules/elevation.md, "AI", has the weights the search uses.
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from towerworld.games.elevation import GAME
from towerworld.games.elevation import strategy as S

PARTS = ("everything else", "edge (a level)", "height (a level)", "enemies above within two squares",
         "perches")


def parts(state, me: int) -> list[float]:
    """The five parts of the search's evaluation of `state` for `me`, the first four as the evaluation weighs them
    over one unit (see static_eval)."""
    heights, board = state.heights, state.board
    sides = S._board_sides(board)
    mine, theirs = sides[me], sides[1 - me]
    edge = S._edge(heights, sides[5][me])
    height = S._height_lead(heights, mine, theirs)
    my_near, my_perches = S._danger(heights, board, mine, theirs)
    their_near, their_perches = S._danger(heights, board, theirs, mine)
    near, perches = my_near - their_near, my_perches - their_perches
    value = S.static_eval(heights, board, state.kinds, me, state.mover ^ state.phase, state.rules, hunting=True)
    rest = (value - S._lead(board, state.kinds, me) - S.EDGE[1] * edge - S.HEIGHT[1] * height
            + S.DANGER_NEAR * near + S.DANGER_PERCH * perches)
    return [rest, edge, height, near, perches]


def samples(path: str, horizon: int) -> tuple[np.ndarray, np.ndarray]:
    """(parts, the lead's change over `horizon` plies) for every other position of every game in `path`."""
    rows, changes = [], []
    with open(path) as f:
        for record in map(json.loads, f):
            me = record["seats"].index("mcts")
            state = GAME.new_state()
            states = [state]
            for text in record["moves"]:
                state = GAME.apply(state, GAME.parse_move(state, text))[0]
                states.append(state)
            for i in range(0, len(states), 2):
                if states[i].outcome != S.ONGOING:
                    break
                later = states[min(i + horizon, len(states) - 1)]
                rows.append(parts(states[i], me))
                changes.append(S._lead(later.board, later.kinds, me) - S._lead(states[i].board, states[i].kinds, me))
    return np.array(rows), np.array(changes)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    design = np.column_stack([np.ones(len(x)), x])
    return np.linalg.lstsq(design, y, rcond=None)[0]


def error(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    return float(np.mean((np.column_stack([np.ones(len(x)), x]) @ w - y) ** 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("journals", nargs="+", help="games with their moves ({k, seats, moves} a line)")
    parser.add_argument("--horizon", type=int, default=10, help="plies ahead (default 10)")
    args = parser.parse_args()
    data = {path: samples(path, args.horizon) for path in args.journals}
    shipped = [1.0, S.EDGE[1], S.HEIGHT[1], -S.DANGER_NEAR, -S.DANGER_PERCH]
    print(f"{'fitted on':50} " + " | ".join(PARTS) + " | held-out error: constant -> fitted")
    print(f"{'(the search now)':50} " + " | ".join(f"{w:.2f}" for w in shipped))
    for path, (x, y) in data.items():
        w = fit(x, y)
        others = [data[p] for p in data if p != path]
        held = ""
        if others:
            xo, yo = np.vstack([o[0] for o in others]), np.concatenate([o[1] for o in others])
            held = f" | {error(xo[:, :0], yo, fit(x[:, :0], y)):.0f} -> {error(xo, yo, w):.0f}"
        print(f"{path[-50:]:50} " + " | ".join(f"{v:.2f}" for v in w[1:]) + held + f"  ({len(y)} positions)")
    if len(data) > 1:
        x, y = np.vstack([d[0] for d in data.values()]), np.concatenate([d[1] for d in data.values()])
        print(f"{'all':50} " + " | ".join(f"{v:.2f}" for v in fit(x, y)[1:]))


if __name__ == "__main__":
    main()
