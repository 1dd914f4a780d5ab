"""Each game's ladder of the shipped agents, written to docs/measurements/: ladders.md, with JSON and charts.

    python scripts/ladders.py --games 100              # every game, 100 games a pair (hours on a small machine)
    python scripts/ladders.py --only kdak --games 20   # one game; the others' sections are kept
    python scripts/ladders.py --games 100 --resume     # go on from the games already in docs/measurements/*.games.jsonl

Each game plays its default opponent against every other shipped agent (and greedy against random), seats
alternated with the same seeds, in parallel on every core. docs/measurements/GAME.md keeps each game's section, with
the machine, date and command that made it; docs/measurements/ladders.md joins them (docs/measurements/README.md
says which published figure rests on which file).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import sys
import time
from collections import Counter

from towerworld.ai.agents import default_opponent
from towerworld.ai.ladder import report, run_ladder, write_chart, write_json
from towerworld.engine.registry import get_game

# the shipped agents of each two-player game, weakest first (Ziggurat is solitaire: scripts/ziggurat_figures.py)
LADDERS = {
    "kdak": ["random", "greedy", "memory", "mcts:easy", "mcts", "mcts:strong"],
    "elevation": ["random", "greedy", "elev-greedy", "mcts:easy", "mcts", "mcts:strong"],
    "throwdown": ["random", "throwdown-greedy", "ismcts:easy", "ismcts", "ismcts:strong"],
    "carcassonne": ["random", "greedy", "mcts:easy", "mcts", "mcts:strong"],
}
# the goals of the opponents issue: the default opponent's score against these (draws count half)
GOALS = {"random": 0.99, "greedy": 0.75, "elev-greedy": 0.75, "throwdown-greedy": 0.75}
LEVEL_GAP = 150         # Elo each level of the default opponent must stand above the one below
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "measurements")


def pairs_for(agents: list[str], default: str) -> list[tuple[str, str]]:
    """The default opponent against every other agent, and the first greedy agent against random."""
    pairs = [(default, a) for a in agents if a != default]
    greedy = next(a for a in agents if "greedy" in a)
    return pairs + [(greedy, "random")]


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores, {model}"


def section(game: str, data: dict, command: str, minutes: float, workers: int, day: str, heading: str | None = None,
            chart: str | None = None) -> str:
    """A game's section of docs/measurements/ladders.md from a ladder's JSON (`LadderResult.to_json(timings=True)`),
    under `heading` (the game's title), with the chart `chart`.png beside it (the game's name)."""
    pace = data.get("seconds_per_move", {})
    default = default_opponent(get_game(game))
    lines = [f"## {heading or get_game(game).title}", "",
             f"`{command}`: {data['games_per_pair']} games a pair"
             + (f" (only {len(data['games'])} of {data['games_scheduled']} played so far)"
                if "games_scheduled" in data else "")
             + f", seed {data['seed']}, on {machine()} ({workers} at "
             f"once), {day}, {minutes:.0f} minutes.", "",
             "| agent | Elo | 95% interval | seconds a move |", "|---|---:|---|---:|"]
    for r in sorted(data["ratings"], key=lambda r: -r["elo"]):
        s = pace.get(r["agent"])
        lines.append(f"| `{r['agent']}` | {round(r['elo']) + 0:d} | {r['low']:.0f} to {r['high']:.0f} | "
                     + ("-" if s is None else f"{s:.2f}") + " |")
    against = data["matrix"].get(default, {})
    if against:
        lines += ["", f"| `{default}` against | wins-draws-losses | score | goal |", "|---|---|---:|---|"]
    for other, row in against.items():
        played = row["wins"] + row["draws"] + row["losses"]
        share = (row["wins"] + 0.5 * row["draws"]) / played
        goal = GOALS.get(other)
        verdict = "" if goal is None else f"{goal:.0%}: " + ("met" if share >= goal else "not met")
        lines.append(f"| `{other}` | {row['wins']}-{row['draws']}-{row['losses']} | {share:.0%} | {verdict} |")
    lines += _level_rows(default, data)
    endings = Counter(g["ending"] for g in data["games"] if g.get("ending"))
    if len(endings) > 8:             # scores make every ending its own: count them by their words
        endings = Counter(re.sub(r"\d+", "N", text) for text in endings.elements())
    lines += ["", "How the games ended:", ""]
    lines += [f"    {count:5d}  {text}" for text, count in endings.most_common(8)]
    rest = sum(endings.values()) - sum(c for _, c in endings.most_common(8))
    if rest:
        lines.append(f"    {rest:5d}  other endings")
    lines += ["", f"![{game} ladder]({chart or game}.png)", ""]
    return "\n".join(lines)


def _level_rows(default: str, data: dict) -> list[str]:
    """The default opponent's levels, weakest first, with each one's Elo over the level below (goal: LEVEL_GAP) and
    their games against each other, where the ladder played them."""
    elo = {r["agent"]: r["elo"] for r in data["ratings"]}
    levels = [a for a in (f"{default}:easy", default, f"{default}:strong") if a in elo]
    if len(levels) < 2:
        return []
    lines = ["", "| level | Elo over the level below | games between them (upper level's wins-draws-losses) | goal |",
             "|---|---:|---|---|"]
    for lower, upper in zip(levels, levels[1:]):
        gap = elo[upper] - elo[lower]
        row = data["matrix"].get(upper, {}).get(lower)
        games = "-" if row is None else f"{row['wins']}-{row['draws']}-{row['losses']}"
        verdict = f"{LEVEL_GAP}: " + ("met" if gap >= LEVEL_GAP else "not met")
        lines.append(f"| `{upper}` over `{lower}` | {gap:.0f} | {games} | {verdict} |")
    return lines


def join_sections() -> str:
    """docs/measurements/ladders.md from every game's section."""
    folder = OUT
    # a game's main section (GAME.md) first, then its other parts (GAME-PART.md, from --part)
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    files = [f for g in LADDERS for f in [f"{g}.md"] + [n for n in names if n.startswith(f"{g}-") and n.endswith(".md")]
             if f in names]
    texts = [open(os.path.join(folder, f), encoding="utf-8").read() for f in files]
    head = ("# Ladders of the shipped agents\n\nMade by `towerworld ladder`, through `scripts/ladders.py` (each section "
            "gives its command, sample and machine). Elo is relative to the field of each game (average 0); a draw "
            "counts half. Ziggurat is solitaire: its figures are in `scripts/ziggurat_figures.py`.\n\n")
    path = os.path.join(OUT, "ladders.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + "\n".join(texts))
    return path


def _copy(source: str, target: str) -> None:
    """Copy unless the ladder was already written where its section keeps it."""
    if not (os.path.exists(target) and os.path.samefile(source, target)):
        shutil.copyfile(source, target)


def from_json(path: str, command: str, minutes: float, workers: int, part: str | None = None,
              heading: str | None = None) -> str:
    """Write a game's section from a ladder already played with `towerworld ladder --json PATH --chart PNG` (the chart
    beside it, same name); the section quotes `command`. `part` names a further section of the same game (GAME-PART),
    kept beside its main one, under `heading`."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    game = data["game"]
    name = f"{game}-{part}" if part else game
    folder = OUT
    os.makedirs(folder, exist_ok=True)
    _copy(path, os.path.join(folder, f"{name}.json"))
    chart = os.path.splitext(path)[0] + ".png"
    if os.path.exists(chart):
        _copy(chart, os.path.join(folder, f"{name}.png"))
    day = datetime.date.fromtimestamp(os.path.getmtime(path)).isoformat()
    with open(os.path.join(folder, f"{name}.md"), "w", encoding="utf-8") as f:
        f.write(section(game, data, command, minutes, workers, day, heading, name))
    return name


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games a pair (even: both seats with the same seeds)")
    p.add_argument("--only", help="comma-separated games (default: all)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--from-json", metavar="FILE", help="write the section of a ladder already played (its JSON, and "
                   "the chart of the same name beside it) instead of playing one")
    p.add_argument("--command", help="with --from-json: the command that played it, quoted in the section")
    p.add_argument("--minutes", type=float, default=0.0, help="with --from-json: how long it took")
    p.add_argument("--part", help="with --from-json: a further section of the game (e.g. 'field'), kept beside its "
                   "main one")
    p.add_argument("--heading", help="with --from-json: the section's heading (default: the game's title)")
    p.add_argument("--resume", action="store_true", help="keep the games in docs/measurements/GAME.games.jsonl (each "
                   "game is written there as it ends) and play only the rest, e.g. after a stop or with more --games")
    args = p.parse_args(argv)
    if args.from_json:
        if not args.command:
            print("--from-json needs --command: the command that played the ladder.", file=sys.stderr)
            return 2
        if args.part and not re.fullmatch(r"[a-z0-9]+", args.part):
            print(f"--part takes lower-case letters and digits, not {args.part!r}.", file=sys.stderr)
            return 2
        game = from_json(args.from_json, args.command, args.minutes, args.workers, args.part, args.heading)
        print(f"wrote the {game} section; {join_sections()}")
        return 0
    games = [g.strip() for g in args.only.split(",")] if args.only else list(LADDERS)
    unknown = [g for g in games if g not in LADDERS]
    if unknown:
        print(f"There is no ladder for '{unknown[0]}' (ladders: {', '.join(LADDERS)}).", file=sys.stderr)
        return 2
    folder = OUT
    os.makedirs(folder, exist_ok=True)
    for game in games:
        agents = LADDERS[game]
        default = default_opponent(get_game(game))
        t0 = time.perf_counter()

        def progress(done, total):
            print(f"\r{game}: {done}/{total} games, {time.perf_counter() - t0:.0f} s", end="", file=sys.stderr)

        result = run_ladder(game, agents, games=args.games, seed=args.seed, workers=args.workers,
                            progress=progress, pairs=pairs_for(agents, default),
                            journal=os.path.join(folder, f"{game}.games.jsonl"), resume=args.resume)
        print(file=sys.stderr)
        print(report(result))
        write_json(result, os.path.join(folder, f"{game}.json"))
        write_chart(result, os.path.join(folder, f"{game}.png"))
        text = section(game, result.to_json(timings=True), f"python scripts/ladders.py --only {game} --games "
                       f"{args.games}", (time.perf_counter() - t0) / 60, args.workers, datetime.date.today().isoformat())
        with open(os.path.join(folder, f"{game}.md"), "w", encoding="utf-8") as f:
            f.write(text)
    print(f"wrote {join_sections()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
