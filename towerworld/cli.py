"""`towerworld ...`: games, play, replay, render, simulate, check. Bad input gets one sentence and a non-zero exit."""
from __future__ import annotations

import argparse
import os
import sys
import time

from towerworld import __version__
from towerworld.engine.game import TERMINAL, TowerworldError, OMNISCIENT

EXIT_BAD_INPUT = 2


class CliError(TowerworldError):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one sentence, no usage dump
        raise CliError(f"{message[0].upper()}{message[1:].rstrip('.')}. See '{self.prog} --help'.")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="towerworld", description="Stacking board games in true 3D.")
    p.add_argument("--version", action="version", version=f"towerworld {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    sub.add_parser("games", help="list the games and their variants")

    def game_setup(sp):
        sp.add_argument("--variant", help="a named variant (see 'towerworld games')")
        sp.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="a game option")
        sp.add_argument("--seed", type=int, help="seed for shuffles, rolls and draws")

    sp = sub.add_parser("play", help="play a game in a window")
    sp.add_argument("game", nargs="?", help="game name (omit with --load)")
    game_setup(sp)
    sp.add_argument("--players", help="comma-separated seats: human or an agent (random, greedy, mcts...), "
                                      "optionally with a level: mcts:strong")
    sp.add_argument("--load", metavar="FILE", help="continue a saved game")
    sp.add_argument("--new", action="store_true", help="start a new game without offering to resume one")
    sp.add_argument("--level", help="AI level (fast, normal, strong)")
    sp.add_argument("--size", help="window size WxH (default: as last time)")
    sp.add_argument("--frames", type=int, help=argparse.SUPPRESS)  # run N frames offscreen and quit (smoke tests)

    sp = sub.add_parser("replay", help="animated replay of a saved game")
    sp.add_argument("file")
    sp.add_argument("--speed", type=float, default=1.0)
    sp.add_argument("--size", default="1280x800", help="window size WxH")
    sp.add_argument("--frames", type=int, help=argparse.SUPPRESS)

    sp = sub.add_parser("render", help="offscreen picture of a position")
    sp.add_argument("source", help="a game name (start position) or a record file")
    game_setup(sp)
    sp.add_argument("--ply", type=int, help="position after this many plies (record) or random plies (game)")
    sp.add_argument("--players", type=int, help="number of players (game)")
    sp.add_argument("--size", default="1280x800", help="picture size WxH")
    sp.add_argument("--out", required=True, help="PNG file to write")

    sp = sub.add_parser("simulate", help="headless games between agents")
    sp.add_argument("game")
    game_setup(sp)
    sp.add_argument("--agents", default="random,random",
                    help="comma-separated agents, one per seat, optionally with a level: mcts:fast,random")
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--level", help="AI level (fast, normal, strong)")
    sp.add_argument("--out", metavar="DIR", help="write each game's record here")
    sp.add_argument("--no-swap", action="store_true", help="keep agents in their seats (default: rotate every game)")

    sp = sub.add_parser("check", help="validate record files")
    sp.add_argument("files", nargs="+")
    return p


def _needs_scene(game, state) -> None:
    """Refuse, in one sentence, to open a table for a game whose pieces have no 3D models yet."""
    from towerworld.scene.models import missing_models
    missing = missing_models(game.layout(state, OMNISCIENT))
    if missing:
        raise CliError(f"{game.title} has no 3D table yet (no models for {', '.join(sorted(missing))}); "
                       f"'towerworld simulate {game.name}' plays it headless.")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CliError(f"--size must look like 1280x800, not '{text}'.") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise CliError(f"--size must be between 64x64 and 8192x8192, not '{text}'.")
    return w, h


def _options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise CliError(f"An option must look like NAME=VALUE, not '{pair}'.")
        k, v = pair.split("=", 1)
        out[k.strip()] = _value(v.strip())
    return out


def _value(v: str):
    if v.lower() in ("true", "false"):
        return v.lower() == "true"
    try:
        return int(v)
    except ValueError:
        return v


def _match_for(args, players=None):
    from towerworld.engine.match import Match
    from towerworld.engine.registry import get_game
    game = get_game(args.game)
    return Match(game, options=_options(args.option), players=players, seed=args.seed, variant=args.variant)


def _seats(game, spec: str | None, variant: str | None, options: dict):
    """PlayerSpecs from 'human,mcts'; defaults: one human against the MCTS agent (or alone in solitaire games)."""
    from towerworld.ai import agent_names
    from towerworld.engine.match import PlayerSpec
    _, n_default = game.resolve_options(options, variant)
    if spec is None:
        import importlib.util
        # the default opponent is MCTS; where OpenSpiel is not installed (no wheels for Windows), the greedy agent
        searching = "mcts" in game.agents() or importlib.util.find_spec("pyspiel") is not None
        names = ["human"] + ["mcts" if searching else "greedy"] * (n_default - 1)
    else:
        names = [s.strip() for s in spec.split(",") if s.strip()]
    known = agent_names(game)
    seats = []
    for i, name in enumerate(names):
        if name == "human":
            seats.append(PlayerSpec(f"Player {i + 1}", "human"))
        elif name.split(":", 1)[0] in known:
            seats.append(PlayerSpec(f"{name} ({i + 1})", "ai", name))
        else:
            raise CliError(f"'{name}' is not a player: use human or one of {', '.join(known)}.")
    return seats


# ---- commands ------------------------------------------------------------------------------------------------------------
def cmd_games(args) -> int:
    from towerworld.engine.registry import all_games
    games = all_games()
    if not games:
        print("No games are installed.")
        return 1
    for name, g in games.items():
        span = f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
        print(f"{name:14s} {g.title} ({span} players)")
        for v in g.variants:
            print(f"  --variant {v.name:14s} {v.help}")
        for o in g.options:
            choices = f" [{', '.join(map(str, o.choices))}]" if o.choices else ""
            print(f"  -o {o.name}={o.default!s:10s} {o.help}{choices}")
    return 0


def _window_size(text: str | None) -> tuple[int, int]:
    """--size, else the size the window had last time, else 1280x800."""
    if text:
        return _size(text)
    from towerworld.app.saves import remembered_window_size
    return remembered_window_size() or (1280, 800)


def cmd_play(args) -> int:
    from towerworld.app.main import run_app
    from towerworld.app.saves import unfinished
    from towerworld.engine.record import load_match
    from towerworld.engine.registry import get_game
    w, h = _window_size(args.size)
    if not args.load and not args.game:
        return run_app(size=(w, h), frames=args.frames)     # the start screen
    resume = []
    if args.load:
        match = load_match(args.load)
        if args.players:
            match.players = _seats(match.game, args.players, match.variant, match.options)
    else:
        if not args.game:
            raise CliError("Name a game to play (see 'towerworld games') or give --load FILE.")
        game = get_game(args.game)
        opts = _options(args.option)
        seats = _seats(game, args.players, args.variant, opts)
        from towerworld.engine.match import Match
        match = Match(game, options=opts, players=seats, seed=args.seed, variant=args.variant)
        if not args.new:
            resume = unfinished(game.name)[:3]
    _needs_scene(match.game, match.state)
    return run_app(size=(w, h), frames=args.frames, match=match, level=args.level, resume=resume)


def cmd_replay(args) -> int:
    from towerworld.app.play import run_replay
    from towerworld.engine.record import load_match
    w, h = _size(args.size)
    match = load_match(args.file)
    _needs_scene(match.game, match.state)
    return run_replay(match, size=(w, h), speed=args.speed, frames=args.frames)


def cmd_render(args) -> int:
    import random

    from towerworld.engine.record import load_match
    from towerworld.engine.registry import all_games
    w, h = _size(args.size)
    if not args.out.lower().endswith(".png"):
        raise CliError(f"--out must name a .png file, not '{args.out}'.")
    if args.source in all_games():
        from towerworld.engine.match import Match, PlayerSpec
        from towerworld.engine.registry import get_game
        game = get_game(args.source)
        seats = None if args.players is None else [PlayerSpec(f"Player {i + 1}") for i in range(args.players)]
        match = Match(game, options=_options(args.option), seed=args.seed if args.seed is not None else 1,
                      variant=args.variant, players=seats)
        rng = random.Random(match.seed)
        for _ in range(args.ply or 0):
            if match.over:
                break
            if match.current_player >= 0:
                moves = game.legal_moves(match.state)
                match.apply(moves[rng.randrange(len(moves))], save=False)
            else:
                match.play_chance(save=False)
        state = match.state
    elif os.path.exists(args.source):
        match = load_match(args.source)
        ply = len(match.plies) if args.ply is None else args.ply
        if not 0 <= ply <= len(match.plies):
            raise CliError(f"--ply must be between 0 and {len(match.plies)} for this record.")
        state = match.state_at(ply)
        game = match.game
    else:
        raise CliError(f"'{args.source}' is neither a game (see 'towerworld games') nor a record file.")
    from towerworld.scene.offscreen import render_layout
    _needs_scene(game, state)
    render_layout(game.layout(state, OMNISCIENT), args.out, w, h, cutaway=game.cutaway(state, OMNISCIENT))
    print(f"wrote {args.out}")
    return 0


def cmd_simulate(args) -> int:
    from towerworld.ai import make_agent
    from towerworld.engine.driver import play_match
    from towerworld.engine.match import Match, PlayerSpec
    from towerworld.engine.record import save_match
    from towerworld.engine.registry import get_game

    game = get_game(args.game)
    opts = _options(args.option)
    names = [s.strip() for s in args.agents.split(",") if s.strip()]
    _, n_players = game.resolve_options(opts, args.variant, len(names))
    if args.games < 1:
        raise CliError("--games must be at least 1.")
    base_seed = args.seed if args.seed is not None else 1
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    stats: dict[str, dict] = {n: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "score": 0.0} for n in names}
    results: dict[str, int] = {}
    score_hist: dict[int, int] = {}
    plies_total = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        shift = 0 if args.no_swap or n_players == 1 else g % n_players
        seat_names = names[shift:] + names[:shift]
        seats = [PlayerSpec(f"{n} ({i + 1})", "ai", n) for i, n in enumerate(seat_names)]
        match = Match(game, options=opts, players=seats, seed=base_seed + g, variant=args.variant)
        agents = [make_agent(n, game, seed=base_seed * 1000 + g * 10 + i, level=args.level)
                  for i, n in enumerate(seat_names)]
        play_match(match, dict(enumerate(agents)), match.rng)
        plies_total += len(match.plies)
        r = game.returns(match.state)
        sc = game.scores(match.state)
        best = max(r)
        for i, n in enumerate(seat_names):
            st = stats[n]
            st["games"] += 1
            st["score"] += sc[i]
            if n_players == 1:
                st["wins" if game.solitaire_won(match.state) else "losses"] += 1
            elif r.count(best) > 1 and r[i] == best:
                st["draws"] += 1
            elif r[i] == best:
                st["wins"] += 1
            else:
                st["losses"] += 1
        if n_players == 1:
            key = (game.solitaire_won(match.state), sc[0])
            score_hist[key] = score_hist.get(key, 0) + 1
        res = game.result(match.state)
        results[res] = results.get(res, 0) + 1
        if args.out:
            save_match(match, os.path.join(args.out, f"{game.name}-{base_seed + g:06d}.tower.json"))
        _progress(g + 1, args.games, t0)
    elapsed = time.perf_counter() - t0
    print(file=sys.stderr)
    print(f"{game.title}: {args.games} games, agents {', '.join(names)}, seeds {base_seed}..{base_seed + args.games - 1}")
    print(f"{'agent':12s} {'games':>6s} {'wins':>6s} {'draws':>6s} {'losses':>6s} {'win %':>6s} {'mean score':>11s}")
    for n, st in stats.items():
        share = 100.0 * st["wins"] / st["games"] if st["games"] else 0.0
        print(f"{n:12s} {st['games']:6d} {st['wins']:6d} {st['draws']:6d} {st['losses']:6d} {share:6.1f} "
              f"{st['score'] / max(1, st['games']):11.2f}")
    if score_hist:
        # solitaire: how the finished games scored (for Ziggurat the score is the cheats), and how many were not won
        won = {k[1]: v for k, v in score_hist.items() if k[0]}
        lost = sum(v for k, v in score_hist.items() if not k[0])
        n = args.games
        print("won, by score: " + (", ".join(f"{k}: {v} ({100.0 * v / n:.0f}%)" for k, v in sorted(won.items()))
                                  or "none"))
        print(f"not won: {lost} ({100.0 * lost / n:.0f}%)")
    print("results:")
    for text, count in sorted(results.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {count:5d}  {text}")
    print(f"mean plies {plies_total / args.games:.1f}; {args.games / elapsed:.2f} games/s")
    return 0


def _progress(done: int, total: int, t0: float) -> None:
    if not sys.stderr.isatty() and done not in (total,) and done % max(1, total // 10):
        return
    width = 30
    filled = int(width * done / total)
    rate = done / max(1e-9, time.perf_counter() - t0)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:.2f}/s")
    if not sys.stderr.isatty():
        sys.stderr.write("\n")
    sys.stderr.flush()


def cmd_check(args) -> int:
    from towerworld.engine.record import load_match
    bad = 0
    for path in args.files:
        try:
            match = load_match(path)
        except TowerworldError as e:
            print(f"{path}: {e}")
            bad += 1
            continue
        state = "finished" if match.game.current_player(match.state) == TERMINAL else "in progress"
        print(f"{path}: ok, {match.game.name}, {len(match.plies)} plies, {state}: {match.result_text()}")
    return 1 if bad else 0


COMMANDS = {"games": cmd_games, "play": cmd_play, "replay": cmd_replay, "render": cmd_render,
            "simulate": cmd_simulate, "check": cmd_check}


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        if not args.command:     # `towerworld` alone opens the start screen
            args = parser.parse_args(["play"] + list(argv or []))
        return COMMANDS[args.command](args)
    except TowerworldError as e:
        print(f"towerworld: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("towerworld: interrupted.", file=sys.stderr)
        return 130
    except OSError as e:
        print(f"towerworld: {e.strerror or e}{': ' + e.filename if getattr(e, 'filename', None) else ''}.",
              file=sys.stderr)
        return 1
    except Exception as e:  # a bug: one sentence for the person, the details in a log for us
        log = _log_crash()
        print(f"towerworld: something went wrong inside towerworld ({type(e).__name__}: {e}); "
              f"details are in {log}.", file=sys.stderr)
        return 3


def _log_crash() -> str:
    import traceback
    folder = os.path.join(os.path.expanduser("~"), ".towerworld")
    path = os.path.join(folder, "error.log")
    try:
        os.makedirs(folder, exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(time.strftime("%Y-%m-%d %H:%M:%S ") + traceback.format_exc() + "\n")
    except OSError:
        return "(the log could not be written)"
    return path


if __name__ == "__main__":
    sys.exit(main())
