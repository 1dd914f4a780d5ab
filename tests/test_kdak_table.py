"""K'Dak at the table: the labels it shows (the level labels by the stair, and the memory aid's names of face-down
tiles whose faces were seen) never overlap on screen at the default camera, from the start of a game to its end."""
from __future__ import annotations

import random

import pytest

try:
    from tabletools import label_box, overlap, settle
except ImportError:  # tests run as a package
    from tests.tabletools import label_box, overlap, settle

from towerworld.ai import make_agent
from towerworld.engine.driver import play_match
from towerworld.engine.match import Match, PlayerSpec
from towerworld.games.kdak import GAME


def _greedy_game(seed: int) -> Match:
    match = Match(GAME, players=[PlayerSpec("P1", "ai", "greedy"), PlayerSpec("P2", "ai", "greedy")], seed=seed)
    play_match(match, {i: make_agent("greedy", GAME, seed=seed * 10 + i) for i in range(2)}, random.Random(seed),
               max_plies=GAME.max_plies)
    return match


def _table_at(played: Match, ply: int, tmp_path):
    """A table of two people at `ply` of a played game, with the memory aid on."""
    from towerworld.app.play import PlayTable
    match = Match(GAME, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=played.seed,
                  autosave=str(tmp_path / f"auto-{played.seed}-{ply}.tower.json"))
    for p in played.plies[:ply]:
        match.apply(p.move, save=False)
    table = PlayTable(match)
    settle(table)
    table.toggle_memory()
    table.camera.reset()
    return table


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_labels_never_overlap_at_the_default_camera(showbase, tmp_path, seed):
    """The memory-aid labels never overlap: every label shown (level labels, and one memory label per column
    naming its seen face-down tiles top down) is a screen box apart from every other at the start, middle and end."""
    played = _greedy_game(seed)
    end = len(played.plies)
    named = 0
    for ply in (2, end // 2, end):
        table = _table_at(played, ply, tmp_path)
        try:
            stage = table.stage
            labels = {f"layout label {i}": holder for i, holder in enumerate(stage.labels_root.getChildren())}
            labels |= {f"memory label on {pid}": tag for pid, tag in stage.memory_tags.items()}
            shown = {name: label_box(table.base, holder) for name, holder in labels.items() if not holder.isHidden()}
            names = sorted(shown)
            for i, a in enumerate(names):
                box = shown[a]
                assert -1 <= box[0] and box[2] <= 1 and -1 <= box[1] and box[3] <= 1, f"{a} off the screen"
                for b in names[i + 1:]:
                    assert not overlap(box, shown[b]), f"{a} overlaps {b} at ply {ply} of {end} (seed {seed})"
            named += len(stage.memory_tags)
        finally:
            table.close()
    assert named >= 2, "the memory aid named seen tiles in some columns"
