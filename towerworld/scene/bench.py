"""Bench rows for the stage's combining, for scripts/bench.py: a finished game's table as the stage shows it, the
geoms drawn while one piece animates (the pieces of its chunk draw themselves) and the time the stage takes to
combine the resting pieces from nothing and again after a move that left them resting (medians of 5).

A game's own bench rows never import the scene: figures that need the stage live here, for any game of the registry.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter

from towerworld.engine.game import OMNISCIENT, Game
from towerworld.engine.registry import get_game, names
from towerworld.scene.offscreen import base
from towerworld.scene.stage import Stage


def combine_rows(game: Game, seed: int = 5) -> list[tuple[str, float, str, str]]:
    """(name, value, goal, unit) rows named after `game`: `GAME_draw_calls_full_board_animating` (geoms drawn while a
    piece of the most numerous kind moves), `GAME_combine_ms` and `GAME_recombine_ms`."""
    b = base(640, 400)
    players = min(max(2, game.min_players), game.max_players)
    state = game.random_playout(game.new_state(None, players), random.Random(seed))
    full = game.layout(state, OMNISCIENT)
    stage = Stage(b.render)
    stage.show(full)
    commonest = Counter(pose.kind for pose in full.pieces.values()).most_common(1)[0][0]
    moving = next(pid for pid in stage.nodes if full.pieces[pid].kind == commonest)
    stage.uncombine({moving})           # a move under way: only the chunk holding the moving piece lets go
    animating = sum(np.node().getNumGeoms() for np in stage.root.findAllMatches("**/+GeomNode") if not np.isHidden())
    stage.show(full)
    again, fresh = [], []
    for _ in range(5):
        t = time.perf_counter()
        stage.combine()                 # after a move that changed nothing resting: the chunks are taken back
        again.append(time.perf_counter() - t)
        stage.uncombine()
        stage._drop_chunks()            # the stage's own reset between measurements (this module is the scene's)
        t = time.perf_counter()
        stage.combine()                 # from nothing: every resting piece flattened into chunks
        fresh.append(time.perf_counter() - t)
        stage.uncombine()
    stage.root.removeNode()
    return [(f"{game.name}_draw_calls_full_board_animating", animating, "", "geoms"),
            (f"{game.name}_combine_ms", round(statistics.median(fresh) * 1000, 2), "", "ms"),
            (f"{game.name}_recombine_ms", round(statistics.median(again) * 1000, 2), "", "ms")]


if __name__ == "__main__":
    for name in sys.argv[1:] or names():
        for row in combine_rows(get_game(name)):
            print(" | ".join(str(v) for v in row))
