"""K'Dak's tower is a building a player can see into, checked by geometry over whole games.

Every ply of whole games (greedy and random players, driven by the pull driver): no two pieces' boxes (from the
layout's poses and the catalog's true sizes) intersect; from the default camera a sight line to the head of every
pawn reaches it before any other piece; and the rank and suit printed on a tile a pawn stands on are seen past it.
"""
from __future__ import annotations

import random

import pytest

from towerworld.ai import make_agent
from towerworld.engine.driver import Driver
from towerworld.engine.game import SPECTATOR
from towerworld.engine.layout import Layout, Pose, piece_box
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.pieces import size
from towerworld.games.kdak import GAME
from towerworld.scene.camera import framing
from towerworld.scene.xray import enters

ASPECT = 1280 / 800
TOUCH = 1e-6         # boxes that only touch (a pawn on its tile, a coin on its step) do not intersect
PRINT = ((0.0, 5.0), (0.0, -13.7))     # the rank's and the suit's middles on a tile, from the tile's middle


def boxes(layout: Layout) -> dict[str, tuple]:
    """Each piece's box; a stair of levels is its steps (a box each, as tall as the step's height)."""
    out = {}
    for pid, pose in layout.pieces.items():
        if pose.kind != "level_stair":
            out[pid] = piece_box(pose)
            continue
        s = size(pose.kind)
        steps, rise, run = int(pose.get("steps", 6)), float(pose.get("rise", 6.35)), float(pose.get("run", 17))
        heights = pose.get("heights") or tuple(i * rise for i in range(steps))
        for i in range(1, steps):
            y = pose.y + (i - (steps - 1) / 2) * run
            out[f"{pid}:step{i}"] = (pose.x - s.w / 2, y - run / 2, pose.z, pose.x + s.w / 2, y + run / 2,
                                     pose.z + heights[i])
    return out


def intersect(a, b) -> bool:
    return all(a[i] < b[i + 3] - TOUCH and b[i] < a[i + 3] - TOUCH for i in range(3))


def first_hit(bxs: dict, eye, point, skip: str) -> str | None:
    """The piece (other than `skip`) a sight line from `eye` to `point` enters first, if it enters one before the end."""
    best, hit = 1.0 - 1e-4, None
    for pid, b in bxs.items():
        if pid == skip or pid.startswith(skip + ":"):
            continue
        t = enters(b, eye, point)
        if t is not None and t < best:
            best, hit = t, pid
    return hit


def problems(layout: Layout) -> list[str]:
    bxs = boxes(layout)
    found = []
    ids = sorted(bxs)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if a.split(":step")[0] != b.split(":step")[0] and intersect(bxs[a], bxs[b]):
                found.append(f"{a} stands inside {b}")
    eye = framing(layout, aspect=ASPECT).eye()
    pawns = {pid: pose for pid, pose in layout.pieces.items() if pose.kind == "pp_pawn"}
    for pid, pose in pawns.items():
        head = (pose.x, pose.y, pose.z + size("pp_pawn").h * 0.9)
        hit = first_hit(bxs, eye, head, pid)
        if hit is not None:
            found.append(f"{pid} is hidden by {hit}")
    # what lies on the table around the tower: the talismans, the score markers and the die
    for pid, pose in layout.pieces.items():
        if pid.startswith(("talisman:", "score:")) or pid == "die":
            top = (pose.x, pose.y, pose.z + size(pose.kind).h * 0.9)
            hit = first_hit(bxs, eye, top, pid)
            if hit is not None:
                found.append(f"{pid} is hidden by {hit}")
    track = layout.pieces.get("track")
    if track is not None:                     # every square of the score track
        w = size("track").w
        for k in range(13):
            square = (track.x - w / 2 + w * (k + 0.5) / 13, track.y, track.top)
            hit = first_hit(bxs, eye, square, "track")
            if hit is not None and not hit.startswith("score:"):
                found.append(f"square {k * 5} of the score track is hidden by {hit}")
    for tid, tile in layout.pieces.items():
        if tile.kind != "pp_tile" or not tile.face_up or not any(_on(p, tile) for p in pawns.values()):
            continue
        for dx, dy in PRINT:
            mark = (tile.x + dx, tile.y + dy, tile.top)
            hit = first_hit(bxs, eye, mark, tid)
            if hit is not None:
                found.append(f"the print of {tid}, with a pawn on it, is hidden by {hit}")
    return found


def _on(pawn: Pose, tile: Pose) -> bool:
    half = size("pp_tile").w / 2
    return abs(pawn.z - tile.top) < 1e-6 and abs(pawn.x - tile.x) <= half and abs(pawn.y - tile.y) <= half


def whole_game(seed: int, agent: str):
    match = Match(GAME, players=[PlayerSpec(f"P{i + 1}", "ai", agent) for i in range(2)], seed=seed)
    driver = Driver.with_agents(match, {i: make_agent(agent, GAME, seed=seed * 10 + i) for i in range(2)},
                                random.Random(seed))
    yield match.state
    for _ in range(GAME.max_plies or 400):
        if driver.pending().kind == "end":
            return
        driver.run(limit=1)
        yield match.state


@pytest.mark.parametrize("seed,agent", [(1, "greedy"), (2, "greedy"), (3, "random"), (4, "random")])
def test_every_pawn_in_sight_at_every_ply(seed, agent):
    """Every pawn, the print of every tile a pawn stands on, every talisman, score marker and the die are seen from
    the default camera at every ply of whole games."""
    plies = inside = 0
    for state in whole_game(seed, agent):
        layout = GAME.layout(state, SPECTATOR)
        found = problems(layout)
        assert not found, f"ply {plies} (seed {seed}, {agent}): " + "; ".join(found[:4])
        inside += sum(1 for p in state.pawns if p >= 0)
        plies += 1
    assert plies > 20 and inside > 20, "the games went inside the tower"


def test_the_check_finds_a_pawn_inside_an_unlifted_tower(monkeypatch):
    """The check itself: with the storeys resting on each other above the pawns (no opening), a pawn stands inside
    the tiles above it and cannot be seen."""
    import towerworld.games.kdak.layout as kdak_layout
    monkeypatch.setattr(kdak_layout, "OPENING", 0.0)
    found = []
    for state in whole_game(1, "greedy"):
        found += problems(GAME.layout(state, SPECTATOR))
    assert any("stands inside" in f for f in found) and any("is hidden by" in f for f in found), found[:5]
