#!/usr/bin/env python3
"""Instructions a move's stage update and a position's rebuild take, counted by callgrind: the bench's stage ratio
without the noise of a shared machine (its rows time CPU seconds, which other processes' load moves by a third).

    python scripts/stage_instructions.py ziggurat            # both sides: medians per update and per rebuild
    python scripts/stage_instructions.py ziggurat --moves     # and every move's count, with what the move changed

Runs itself under valgrind (needs valgrind, its headers and a C compiler: the counter is switched on and off around
each timed window by callgrind's client requests, from a small library built on the first run into a temporary
folder). The moves, the warm-up and the fresh stages are the bench's (scripts/bench.py stage_rows): STAGE_MOVES moves
of random play from seed 3, each side played once to warm the caches, then one counted pass of each. Counts are of
user-space instructions only: a system call (a clock read) counts for little here and about 0.75 us of CPU time.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import glob
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
os.environ.setdefault("EGL_PLATFORM", "surfaceless")

COUNTER_C = """#include <valgrind/callgrind.h>
void cg_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
void cg_dump(const char *what) { CALLGRIND_DUMP_STATS_AT(what); }
"""


def counter_library(folder: str) -> str:
    source, library = os.path.join(folder, "counter.c"), os.path.join(folder, "libcounter.so")
    with open(source, "w") as out:
        out.write(COUNTER_C)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    return library


def counted(name: str, library: str) -> None:
    """Under callgrind: every update, then every rebuild, each in a dump of its own."""
    from scripts.bench import STAGE_MOVES, stage_games
    from towerworld.engine.registry import all_games
    from towerworld.scene.offscreen import base
    from towerworld.scene.stage import Stage
    counter = ctypes.CDLL(library)
    b = base(640, 400)
    games = stage_games(all_games()[name], STAGE_MOVES)[0]
    positions = [layout for steps in games for layout, _ in steps[1:]]

    def updates(count: bool) -> None:
        for steps in games:
            stage = Stage(b.render)
            stage.show(steps[0][0])
            for i in range(1, len(steps)):
                if count:
                    counter.cg_toggle()
                interval = stage.transition(steps[i - 1][0], steps[i][0], steps[i][1])
                interval.start()
                interval.finish()
                if count:
                    counter.cg_toggle()
                    counter.cg_dump(b"update")
            stage.root.removeNode()

    def rebuilds(count: bool) -> None:
        for layout in positions[::2]:
            if count:
                counter.cg_toggle()
            fresh = Stage(b.render)
            fresh.show(layout)
            if count:
                counter.cg_toggle()
                counter.cg_dump(b"rebuild")
            fresh.root.removeNode()

    updates(False)
    rebuilds(False)
    gc.collect()
    gc.freeze()         # as the bench does
    updates(True)
    rebuilds(True)


def report(name: str, folder: str, moves: bool) -> None:
    from scripts.bench import STAGE_MOVES, stage_games
    from towerworld.engine.registry import all_games
    from towerworld.scene.stage import plan
    sides: dict[str, list[int]] = {"update": [], "rebuild": []}
    for path in sorted(glob.glob(os.path.join(folder, "cg.out.*")), key=lambda p: int(p.rsplit(".", 1)[1])):
        what, count = None, None
        with open(path) as dump:
            for line in dump:
                if line.startswith("desc: Trigger: Client Request:"):
                    what = line.rsplit(":", 1)[1].strip()
                elif line.startswith("summary:"):
                    count = int(line.split()[1])
                    break
        if what in sides and count is not None:
            sides[what].append(count)
    update, rebuild = statistics.median(sides["update"]), statistics.median(sides["rebuild"])
    print(f"{name}: update {update:,.0f} instructions (median of {len(sides['update'])} moves), rebuild "
          f"{rebuild:,.0f} (median of {len(sides['rebuild'])} positions): ratio {rebuild / update:.2f}")
    if moves:
        games = stage_games(all_games()[name], STAGE_MOVES)[0]
        pairs = [(steps[i - 1], steps[i]) for steps in games for i in range(1, len(steps))]
        for count, ((old, _), (new, events)) in zip(sides["update"], pairs):
            changed = " | ".join(",".join(f"{c.action}:{c.piece}" for c in phase) for phase in plan(old, new, events))
            extra = " cells" if old.cells != new.cells else ""
            extra += " labels" if old.labels != new.labels else ""
            print(f"{count:>10,}  {changed or '(nothing moves)'}{extra}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--moves", action="store_true", help="every move's count and what it changed")
    parser.add_argument("--counted", metavar="LIBRARY", help=argparse.SUPPRESS)    # (the run under callgrind)
    args = parser.parse_args(argv)
    if args.counted:
        counted(args.game, args.counted)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        library = counter_library(folder)
        subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                        f"--callgrind-out-file={os.path.join(folder, 'cg.out')}", sys.executable,
                        os.path.abspath(__file__), args.game, "--counted", library],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report(args.game, folder, args.moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
