"""Pictures of every game for the README and the start screen, rendered offscreen from seeded games.

    python scripts/screenshots.py [GAME ...] [--agents greedy] [--seed 1]

Writes docs/screenshots/GAME-start.png, -middle.png and -end.png (1280x800: an unfinished game as a spectator sees
it, a finished one whole) and models/thumbs/GAME.png (the start screen's button picture, from the middle of the game).
"""
from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("EGL_PLATFORM", "surfaceless")

from towerworld.ai import make_agent  # noqa: E402
from towerworld.engine import registry  # noqa: E402
from towerworld.engine.driver import play_match  # noqa: E402
from towerworld.engine.game import OMNISCIENT, SPECTATOR  # noqa: E402
from towerworld.engine.match import Match, PlayerSpec  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def seeded_game(name: str, agent: str, seed: int) -> Match:
    game = registry.get_game(name)
    n = min(max(2, game.min_players), game.max_players)
    match = Match(game, players=[PlayerSpec(f"Player {i + 1}", "ai", agent) for i in range(n)], seed=seed)
    agents = {i: make_agent(agent, game, seed=seed * 10 + i) for i in range(n)}
    play_match(match, agents, random.Random(seed), max_plies=game.max_plies)
    return match


def shoot(name: str, agent: str, seed: int) -> list[str]:
    from towerworld.scene.offscreen import render_layout
    match = seeded_game(name, agent, seed)
    game = match.game
    folder = os.path.join(ROOT, "docs", "screenshots")
    os.makedirs(folder, exist_ok=True)
    os.makedirs(os.path.join(ROOT, "models", "thumbs"), exist_ok=True)
    out = []
    end = len(match.plies)
    for label, ply in (("start", min(end, 2)), ("middle", end // 2), ("end", end)):
        state = match.state_at(ply)
        # an unfinished game as a spectator sees it (no hand, no pile order); a finished one whole
        viewer = OMNISCIENT if game.is_terminal(state) else SPECTATOR
        path = os.path.join(folder, f"{name}-{label}.png")
        render_layout(game.layout(state, viewer), path, 1280, 800, cutaway=game.cutaway(state, viewer))
        out.append(path)
        if label == "middle":
            thumb = os.path.join(ROOT, "models", "thumbs", f"{name}.png")
            render_layout(game.layout(state, viewer), thumb, 320, 200, cutaway=game.cutaway(state, viewer))
            out.append(thumb)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", help="games to shoot (default: every registered game)")
    p.add_argument("--agents", default="greedy", help="the agent playing every seat")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    for name in args.games or registry.names():
        for path in shoot(name, args.agents, args.seed):
            print(f"wrote {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
