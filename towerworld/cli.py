"""`towerworld ...`: games, play, replay, render, simulate, ladder, check. Bad input gets one sentence and a non-zero exit."""
from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
import traceback

# The program starts here: what Python has made so far lives as long as it does, and goes out of the collector's
# reach, so that the collections during startup walk only what startup makes (as app.main does for the window's)
gc.freeze()

from towerworld import __version__  # noqa: E402
from towerworld.ai import agent_names, agent_spec, make_agent  # noqa: E402
from towerworld.ai.agents import agent_words, default_opponent  # noqa: E402
from towerworld.ai.simple import RandomAgent  # noqa: E402
from towerworld.app.saves import clean_stale_temps, remembered_window_size, unfinished  # noqa: E402
from towerworld.demos import get_demo  # noqa: E402
from towerworld.demos import names as demo_names  # noqa: E402
from towerworld.engine.driver import Driver, play_match  # noqa: E402
from towerworld.engine.game import (OMNISCIENT, SPECTATOR, TERMINAL, TowerworldError, allowed_values,  # noqa: E402
                                    options_from_text)
from towerworld.engine.match import Match, PlayerSpec  # noqa: E402
from towerworld.engine.record import MAX_SEED, is_temp_file, load_match, save_match, shown_path  # noqa: E402
from towerworld.engine.registry import all_games, get_game  # noqa: E402
from towerworld.engine.registry import names as game_names  # noqa: E402
from towerworld.engine.safe_text import shown_text  # noqa: E402
from towerworld.engine.words import counted  # noqa: E402

# Imports inside the commands below are only of what loads a heavy library (Panda3D for a window or a picture,
# asyncio and websockets for the network, numpy for the ladder): `check`, `simulate` and `games` never wait for them.

EXIT_BAD_INPUT = 2
DEFAULT_PORT = 8765


class CliError(TowerworldError):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one sentence, no usage dump
        raise CliError(f"{message[0].upper()}{message[1:].rstrip('.')}. See '{self.prog} --help'.")


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `command`, only that command's (the others' arguments take a first run
    about 15 ms to set up, a few per cent of a table's startup)."""
    def wanted(name: str) -> bool:
        return command is None or command == name

    p = _Parser(prog="towerworld", description="Stacking board games in true 3D.")
    p.add_argument("--version", action="version", version=f"towerworld {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    if wanted("games"):
        sub.add_parser("games", help="list the games and their variants")

    def game_setup(sp):
        sp.add_argument("--variant", help="a named variant (see 'towerworld games')")
        sp.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="a game option")
        sp.add_argument("--seed", type=_seed, help="seed for shuffles, rolls and draws (a whole number from 0 to "
                                                   "2**63 - 1)")

    if wanted("play"):
        sp = sub.add_parser("play", help="play a game in a window")
        sp.add_argument("game", nargs="?", help="game name (omit with --load)")
        game_setup(sp)
        sp.add_argument("--players", help="comma-separated seats: human or an agent (random, greedy, mcts...), "
                                          "optionally with a level: mcts:strong")
        sp.add_argument("--load", metavar="FILE", help="continue a saved game")
        sp.add_argument("--new", action="store_true", help="start a new game without offering to resume one")
        sp.add_argument("--physics", action="store_true",
                        help="pieces the rules knock off move under Bullet (key P)")
        sp.add_argument("--level", help="AI level (easy, normal, strong)")
        sp.add_argument("--size", help="window size WxH (default: as last time)")
        # run N frames offscreen and quit (smoke tests)
        sp.add_argument("--frames", type=int, help=argparse.SUPPRESS)

    if wanted("replay"):
        sp = sub.add_parser("replay", help="animated replay of a saved game")
        sp.add_argument("file")
        sp.add_argument("--speed", type=float, default=1.0, help="playback speed, above 0 (2 is twice as fast)")
        sp.add_argument("--pause", type=float, default=0.35, metavar="SECONDS",
                        help="seconds the replay holds still between one ply and the next, at speed 1 (default 0.35)")
        sp.add_argument("--size",
                        help="window, video or picture size WxH (default 1280x800 window, 1280x720 video)")
        sp.add_argument("--frames", type=int, help=argparse.SUPPRESS)
        _viewer_option(sp)
        _film_options(sp)

    if wanted("demo"):
        sp = sub.add_parser("demo", help="physics demos (no name: list them)")
        sp.add_argument("name", nargs="?", help="the demo to run (see 'towerworld demo')")
        sp.add_argument("--size",
                        help="window, video or picture size WxH (default 1280x800 window, 1280x720 video)")
        sp.add_argument("--seed", type=_seed, default=1, help="seed for the demo's pushes and pulls")
        sp.add_argument("--frames", type=int, help=argparse.SUPPRESS)
        _film_options(sp)

    if wanted("render"):
        sp = sub.add_parser("render", help="offscreen picture of a position")
        sp.add_argument("source", help="a game name (start position) or a record file")
        game_setup(sp)
        sp.add_argument("--ply", type=int, help="position after this many plies (record) or random plies (game)")
        sp.add_argument("--players", type=int, help="number of players (game)")
        sp.add_argument("--size", default="1280x800", help="picture size WxH")
        sp.add_argument("--out", required=True, help="PNG file to write")
        _viewer_option(sp)

    if wanted("simulate"):
        sp = sub.add_parser("simulate", help="headless games between agents")
        sp.add_argument("game")
        game_setup(sp)
        sp.add_argument("--agents", help="comma-separated agents, one per seat, optionally with a level: "
                                         "mcts:fast,random (default: random in every seat the game or variant has)")
        sp.add_argument("--games", type=int, default=10)
        sp.add_argument("--level", help="AI level (easy, normal, strong)")
        sp.add_argument("--out", metavar="DIR", help="write each game's record here")
        sp.add_argument("--no-swap", action="store_true",
                        help="keep agents in their seats (default: rotate every game)")

    if wanted("ladder"):
        sp = sub.add_parser("ladder", help="rate agents in a round robin (Elo with 95%% intervals)")
        sp.add_argument("game")
        game_setup(sp)
        sp.add_argument("--agents", required=True,
                        help="comma-separated agents, at least two, optionally with a level: "
                             "random,greedy,ismcts:400it")
        sp.add_argument("--games", type=int, default=20,
                        help="games per pair (rounded up to even: both seats, same seeds)")
        sp.add_argument("--level", help="AI level for agents named without one")
        sp.add_argument("--pairs", help="play only these pairs, e.g. mcts/greedy,mcts/random,mcts/mcts:strong "
                                        "(default: every pair)")
        sp.add_argument("--workers", type=int, help="processes to play in (default: every core)")
        sp.add_argument("--json", metavar="FILE", help="results file (default ladder-GAME.json)")
        sp.add_argument("--chart", metavar="FILE",
                        help="PNG chart (default ladder-GAME.png; needs towerworld[ladder])")
        sp.add_argument("--ray", metavar="ADDRESS",
                        help="play on a Ray cluster ('local' starts one here; towerworld[ray])")
        sp.add_argument("--resume", action="store_true",
                        help="keep the games already in the journal beside --json (FILE.games.jsonl) and play only "
                             "the rest: after a stop, or to add games to each pair")
        sp.add_argument("--played-only", action="store_true",
                        help="with --resume: rate the games already in the journal and play none (a ladder still "
                             "running, or stopped for good)")

    if wanted("serve"):
        sp = sub.add_parser("serve", help="run a game server for play across machines")
        sp.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every address)")
        sp.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
        sp.add_argument("--data", metavar="DIR", help="folder where rooms are saved and resumed from "
                                                      "(default ~/.towerworld/rooms)")

    if wanted("host"):
        sp = sub.add_parser("host", help="open a room for friends and print its invite")
        sp.add_argument("game")
        sp.add_argument("--variant", help="a named variant (see 'towerworld games')")
        sp.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="a game option")
        sp.add_argument("--players", help="comma-separated seats: remote (a person who joins; human means the same) "
                                          "or an agent played on the server, like remote,remote,mcts (default: "
                                          "remote at every seat)")
        sp.add_argument("--server", metavar="URL", help="open the room on this server (ws://HOST:PORT); default: "
                                                        "serve it from here")
        sp.add_argument("--clock", type=float, metavar="SECONDS", help="seconds a person has for a move")
        sp.add_argument("--clock-mode", choices=("wait", "ai"), default="wait",
                        help="when the clock runs out: wait (only shown) or ai (an AI moves for them)")
        sp.add_argument("--host", default="0.0.0.0", help="with no --server: address to listen on")
        sp.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"with no --server: port (default "
                                                                       f"{DEFAULT_PORT})")
        sp.add_argument("--data", metavar="DIR", help="with no --server: folder the room is saved in")

    if wanted("join"):
        sp = sub.add_parser("join", help="join a room by its invite (ws://HOST:PORT/ROOM)")
        sp.add_argument("invite")
        sp.add_argument("--name", help="your name at the table")
        sp.add_argument("--seat", type=int, help="the seat to take (default: the first free one)")
        sp.add_argument("--watch", action="store_true", help="watch as a spectator")
        sp.add_argument("--agent", metavar="NAME[:LEVEL]",
                        help="play headless as an agent: random chooses among the legal moves here, any other agent "
                             "of the game is searched on the server from what this seat may know")
        sp.add_argument("--window", action="store_true", help="with --agent: open the table and let the agent make "
                                                              "the seat's moves there, through its buttons")
        sp.add_argument("--log", metavar="FILE", help="write every message received, one JSON object a line")
        sp.add_argument("--new-seat", action="store_true", help="take a new seat instead of rejoining the one "
                                                                "this machine held at that invite")
        sp.add_argument("--size", help="window size WxH (default: as last time)")
        sp.add_argument("--frames", type=int, help=argparse.SUPPRESS)

    if wanted("check"):
        sp = sub.add_parser("check", help="validate record files (folders: every *.tower.json inside): every field, "
                                          "every seat (names of 1 to 60 characters), every move replayed, the "
                                          "result compared; exit 2 if any is refused")
        sp.add_argument("files", nargs="+", metavar="FILE_OR_FOLDER")
    return p


def _seed(text: str) -> int:
    """--seed: a whole number a record can hold (0 to 2**63 - 1); refused in one sentence otherwise."""
    try:
        value = int(text.strip())
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SEED or len(text.strip()) > 20:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {MAX_SEED}, not '{shown_text(text, 40)}'")
    return value


def _viewer_option(sp) -> None:
    sp.add_argument("--viewer", metavar="WHO",
                    help="whose view: a player number (1, 2, ...), spectator (what everybody sees) or all (a finished "
                         "game only); default: spectator, and all once the game is finished")


def _film_options(sp) -> None:
    """Offscreen output shared by replay and demo: a video at a fixed frame rate, or a still."""
    sp.add_argument("--video", metavar="OUT.mp4", help="render offscreen to an H.264 video instead of a window")
    sp.add_argument("--fps", type=float, help="video frames per second, 1 to 240 (default 30; with --video)")
    sp.add_argument("--png", metavar="OUT.png", help="render a still offscreen instead of a window")
    sp.add_argument("--at", type=float, help="the moment of the still, in seconds (default: the end; with --png)")
    sp.add_argument("--physics", action="store_true", help="physical crumbles: removed and falling pieces move "
                                                           "under Bullet, then settle onto the rules layout")


def _film_checked(args) -> float:
    """The frame rate of --video; --fps and --at refused, before anything loads or opens, where they would do
    nothing (no --video, no --png) or are out of range."""
    if args.fps is not None and not args.video:
        raise CliError("--fps sets the frame rate of a video: give --video OUT.mp4 too, or leave out --fps.")
    if args.at is not None and not args.png:
        raise CliError("--at picks the moment of a still picture: give --png OUT.png too, or leave out --at.")
    fps = 30.0 if args.fps is None else args.fps
    if not 1 <= fps <= 240:
        raise CliError(f"--fps must be between 1 and 240 frames per second, not {fps:g}.")
    if args.at is not None and not args.at >= 0:
        raise CliError(f"--at counts seconds from the start, so it cannot be {args.at:g}.")
    return fps


def _needs_scene(game, state) -> None:
    """Refuse, in one sentence, to open a table for a game whose pieces have no 3D models yet."""
    from towerworld.scene.components import missing_models
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


def _options(game, pairs: list[str]) -> dict:
    """Option values from -o NAME=VALUE pairs, validated strictly against `game`'s options."""
    texts: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise CliError(f"An option must look like NAME=VALUE, not '{shown_text(pair)}'.")
        name, value = (part.strip() for part in pair.split("=", 1))
        if name in texts:
            raise CliError(f"Option '{shown_text(name)}' is given twice.")
        texts[name] = value
    return options_from_text(game, texts)


def _seat_names(spec: str, flag: str) -> list[str]:
    """The comma-separated seats of --players or --agents; an empty list or an empty seat is refused."""
    names = [s.strip() for s in spec.split(",")]
    if not spec.strip() or any(not n for n in names):
        raise CliError(f"{flag} must name one seat per player, separated by commas (like human,mcts), "
                       f"not '{shown_text(spec)}'.")
    return names


def _writable_file(path: str) -> None:
    """Refuse, naming the path and the reason, an --out file that cannot be written, before any work is done."""
    folder = os.path.dirname(os.path.abspath(path)) or "."
    if os.path.isdir(path):
        raise CliError(f"--out {shown_text(path, 300)} is a folder; name a file in it.")
    if not os.path.isdir(folder):
        why = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise CliError(f"--out {shown_text(path, 300)} cannot be written: {shown_text(folder, 300)} {why}.")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CliError(f"--out {shown_text(path, 300)} cannot be written: permission denied.")


def _writable_folder(path: str, flag: str = "--out") -> None:
    """Create the folder given to `flag`, or refuse naming the flag, the path and the reason."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise CliError(f"{flag} {shown_text(path, 300)} cannot be used as a folder: {e.strerror or e}.") from None
    if not os.access(path, os.W_OK):
        raise CliError(f"{flag} {shown_text(path, 300)} cannot be written: permission denied.")


def _takes_levels(game, name: str) -> bool:
    """Whether agent `name` of `game` plays at levels, as its AgentSpec declares."""
    return bool(agent_spec(name, game).levels)


def check_agents(game, names: list[str], level: str | None) -> None:
    """Refuse, before any game or window starts, an agent that does not exist, a level an agent does not have
    ('mcts:bogus', '--level impossible'), a level given to an agent that has none ('random:strong'), and --level
    where no seat's agent plays at levels. `names` are seats: human or an agent, optionally with ':level'."""
    known = agent_names(game)
    levelled = False
    for name in names:
        if name == "human":
            continue
        agent, _, own = name.partition(":")
        if agent not in known:
            raise CliError(f"'{shown_text(name)}' is not a player: use human or one of {', '.join(known)}.")
        takes = _takes_levels(game, agent)
        if ":" in name and not takes:
            raise CliError(f"The {agent} agent plays at one strength, so '{shown_text(name)}' takes no level: "
                           f"name it {agent}.")
        if ":" in name and not own:
            raise CliError(f"'{shown_text(name)}' needs a level after the colon, like {agent}:strong.")
        try:
            make_agent(name, game, seed=0, level=level)
        except TowerworldError as e:
            raise CliError(f"'{shown_text(name)}': {shown_text(str(e), 300)}") from None
        levelled |= takes and not own
    if level is not None and not levelled:
        raise CliError(f"--level {shown_text(level, 40)} sets how strongly a searching AI plays, and no seat here "
                       f"takes it (seats: {shown_text(', '.join(names), 200)}).")


def _seats(game, spec: str | None, variant: str | None, options: dict):
    """PlayerSpecs from 'human,mcts'; defaults: one human against the game's default opponent (or alone in solitaire
    games)."""
    _, n_default = game.resolve_options(options, variant)
    if spec is None:
        names = ["human"] + [default_opponent(game)] * (n_default - 1)
    else:
        names = _seat_names(spec, "--players")
    known = agent_names(game)
    seats = []
    for i, name in enumerate(names):
        if name == "human":
            seats.append(PlayerSpec(f"Player {i + 1}", "human"))
        elif name.split(":", 1)[0] in known:
            seats.append(PlayerSpec(f"AI {i + 1}, {agent_words(name, game)}", "ai", name))
        else:
            raise CliError(f"'{shown_text(name)}' is not a player: use human or one of {', '.join(known)}.")
    return seats


# ---- commands ------------------------------------------------------------------------------------------------------------
def cmd_games(args) -> int:
    games = all_games()
    if not games:
        print("No games are installed.")
        return 1
    for name, g in games.items():
        print(f"{name:14s} {g.title} ({_players_text(*player_span(g))})")
        for v in g.variants:
            count = f" ({_players_text(*v.players)})" if v.players else ""
            print(f"  --variant {v.name:14s} {v.help}{count}")
        for o in g.options:
            setting = f"{o.name}={_option_word(o.default)}"
            print(f"  -o {setting:28s} {o.help} ({allowed_values(o)})")
    return 0


def player_span(game) -> tuple[int, int]:
    """The fewest and most players of `game` over its variants (K'Dak: 1 in solitaire, 2 otherwise)."""
    lo, hi = game.min_players, game.max_players
    for v in game.variants:
        if v.players:
            lo, hi = min(lo, v.players[0]), max(hi, v.players[1])
    return lo, hi


def _players_text(lo: int, hi: int) -> str:
    if lo == hi:
        return f"{lo} player{'s' if lo != 1 else ''}"
    return f"{lo}-{hi} players"


def _option_word(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _window_size(text: str | None) -> tuple[int, int]:
    """--size, else the size the window had last time, else 1280x800."""
    if text:
        return _size(text)
    return remembered_window_size() or (1280, 800)


def cmd_play(args) -> int:
    # no collections on the way to the first frame (run_app goes on from here, and lets the collector back once the
    # first frame is drawn): each would walk startup's objects again
    gc.disable()
    try:
        return _play(args)
    finally:
        gc.enable()


def _play(args) -> int:
    from towerworld.app.main import run_app
    w, h = _window_size(args.size)
    clean_stale_temps()         # what a save killed half-way left behind goes as the window starts
    if not args.load and not args.game:
        given = [flag for flag, value in (("--players", args.players), ("--level", args.level),
                                          ("--variant", args.variant), ("--seed", args.seed),
                                          ("-o", args.option)) if value]
        if given:
            raise CliError(f"{' and '.join(given)} {'needs' if len(given) == 1 else 'need'} a game: name one too, "
                           f"like 'towerworld play kdak {given[0]} ...'.")
        return run_app(size=(w, h), frames=args.frames)     # the start screen
    resume = []
    if args.load:
        match = load_match(args.load)
        _load_fits(args, match)
        if args.players:
            seats = _seats(match.game, args.players, match.variant, match.options)
            if len(seats) != len(match.players):
                raise CliError(f"--players names {counted(len(seats), 'seat')}, but the saved game has {len(match.players)}.")
            match.players = seats
        check_agents(match.game, [(p.agent or "human") if p.is_ai else "human" for p in match.players], args.level)
    else:
        if not args.game:
            raise CliError("Name a game to play (see 'towerworld games') or give --load FILE.")
        game = get_game(args.game)
        opts = _options(game, args.option)
        seats = _seats(game, args.players, args.variant, opts)
        check_agents(game, [(p.agent or "human") if p.is_ai else "human" for p in seats], args.level)
        match = Match(game, options=opts, players=seats, seed=args.seed, variant=args.variant)
        if not args.new:
            resume = unfinished(game.name, limit=3)
    _needs_scene(match.game, match.state)
    return run_app(size=(w, h), frames=args.frames, match=match, level=args.level, resume=resume,
                   physics=args.physics)


def _load_fits(args, match) -> None:
    """--load continues a saved game as it is: refuse a record of another game, or setup flags it would ignore."""
    if args.game and args.game != match.game.name:
        raise CliError(f"{shown_text(args.load, 300)} is a record of {match.game.name}, not {shown_text(args.game)}.")
    if args.variant or args.option or args.seed is not None:
        raise CliError("--load continues a saved game with its own variant, options and chance; "
                       "leave out --variant, -o and --seed.")


def cmd_replay(args) -> int:
    from towerworld.app.replay import check_pause, check_speed, render_replay, run_replay
    check_speed(args.speed)
    check_pause(args.pause)
    fps = _film_checked(args)
    offscreen = bool(args.video or args.png)
    w, h = _size(args.size or ("1280x720" if offscreen else "1280x800"))
    match = load_match(args.file)
    _needs_scene(match.game, match.state)
    viewer = picture_viewer(args.viewer, len(match.players), match.over)
    if offscreen:
        for path in render_replay(match, video=args.video, png=args.png, at=args.at, fps=fps, size=(w, h),
                                  speed=args.speed, physics=args.physics, viewer=viewer, pause=args.pause):
            print(f"wrote {path}")
        return 0
    return run_replay(match, size=(w, h), speed=args.speed, frames=args.frames, physics=args.physics, viewer=viewer,
                      pause=args.pause)


def picture_viewer(text: str | None, players: int, finished: bool) -> int:
    """--viewer as the viewer a picture is drawn for: a seat (1-based on the command line), SPECTATOR, or OMNISCIENT
    (every hand) only for a finished game. The default: SPECTATOR, OMNISCIENT once the game is finished."""
    if text is None:
        return OMNISCIENT if finished else SPECTATOR
    word = text.strip().lower()
    if word == "spectator":
        return SPECTATOR
    if word in ("all", "everything"):
        if not finished:
            raise CliError("This game is not finished, so it is shown only as one player or a spectator sees it: "
                           "--viewer all is for finished games.")
        return OMNISCIENT
    if word.isdigit() and 1 <= int(word) <= players:
        return int(word) - 1
    raise CliError(f"--viewer must be a player number from 1 to {players}, spectator or all, "
                   f"not '{shown_text(text, 40)}'.")


def cmd_demo(args) -> int:
    if not args.name:
        for name in demo_names():
            print(f"{name:22s} {get_demo(name).summary}")
        return 0
    fps = _film_checked(args)
    demo = get_demo(args.name)
    offscreen = bool(args.video or args.png)
    w, h = _size(args.size or ("1280x720" if offscreen else "1280x800"))
    if args.video:
        from towerworld.demos.show import demo_video
        print(f"wrote {demo_video(demo.name, args.video, fps=fps, size=(w, h), seed=args.seed)}")
    if args.png:
        from towerworld.demos.show import demo_png
        at = demo.seconds if args.at is None else args.at
        if not 0 <= at <= demo.seconds:
            raise CliError(f"--at must be between 0 and {demo.seconds:g} seconds for {demo.name}.")
        print(f"wrote {demo_png(demo.name, args.png, at, size=(w, h), seed=args.seed)}")
    if offscreen:
        return 0
    from towerworld.demos.viewer import run_demo
    return run_demo(demo.name, size=(w, h), seed=args.seed, frames=args.frames)


def play_random_plies(match, plies: int, rng) -> None:
    """Play uniformly random moves and chance outcomes (both from `rng`) through the driver until `match` has `plies`
    plies; CliError when the game ends sooner (so 'render GAME --ply N' shows exactly N plies or says why not)."""
    player = RandomAgent(rng=rng)
    Driver.with_agents(match, dict.fromkeys(range(len(match.players)), player), rng).run(plies - len(match.plies))
    if len(match.plies) < plies:
        raise CliError(f"This game ended after {counted(len(match.plies), 'ply', 'plies')}; --ply must be at most "
                       "that.")


def cmd_render(args) -> int:
    w, h = _size(args.size)
    if not args.out.lower().endswith(".png"):
        raise CliError(f"--out must name a .png file, not '{shown_text(args.out)}'.")
    _writable_file(args.out)
    if args.ply is not None and args.ply < 0:
        raise CliError(f"--ply counts plies from the start, so it cannot be negative ({args.ply}).")
    if args.source in game_names():
        game = get_game(args.source)
        if args.players is not None and not 1 <= args.players <= 16:
            raise CliError(f"--players must be a number of players, not {args.players}.")
        seats = None if args.players is None else [PlayerSpec(f"Player {i + 1}") for i in range(args.players)]
        seed = args.seed if args.seed is not None else 1
        match = Match(game, options=_options(game, args.option), seed=seed, variant=args.variant, players=seats)
        play_random_plies(match, args.ply or 0, random.Random(seed))
        state = match.state
        shown_ply = len(match.plies)
    elif os.path.exists(args.source):
        if args.variant or args.option or args.seed is not None or args.players is not None:
            raise CliError("A record brings its own variant, options, players and chance; "
                           "leave out --variant, -o, --seed and --players.")
        match = load_match(args.source)
        ply = len(match.plies) if args.ply is None else args.ply
        if ply > len(match.plies):
            raise CliError(f"--ply must be at most {len(match.plies)}: this record has {counted(len(match.plies), 'ply', 'plies')}.")
        state = match.state_at(ply)
        shown_ply = ply
        game = match.game
    else:
        raise CliError(f"'{shown_text(args.source)}' is neither a game (see 'towerworld games') nor a record file.")
    from towerworld.scene.offscreen import render_layout
    from towerworld.scene.stage import last_move_before
    _needs_scene(game, state)
    viewer = picture_viewer(args.viewer, len(match.players), match.over)     # the record's end, not the --ply shown
    try:
        render_layout(game.layout(state, viewer), args.out, w, h, cutaway=game.cutaway(state, viewer),
                      last=last_move_before(match, shown_ply, viewer))
    except OSError as e:
        raise CliError(f"--out {shown_text(args.out, 300)} cannot be written: {e.strerror or e}.") from None
    print(f"wrote {shown_text(args.out, 200)}")
    return 0


def cmd_simulate(args) -> int:

    game = get_game(args.game)
    opts = _options(game, args.option)
    if args.agents is None:
        # as many seats as the game (or its variant) has by default: ziggurat and kdak's solitaire are for one
        _, n_players = game.resolve_options(opts, args.variant)
        names = ["random"] * n_players
    else:
        names = _seat_names(args.agents, "--agents")
        _, n_players = game.resolve_options(opts, args.variant, len(names))
    if args.games < 1:
        raise CliError("--games must be at least 1.")
    check_agents(game, names, args.level)
    if args.seed is None:       # fresh games every run; the seed is printed, so `--seed` repeats the run
        base_seed = random.SystemRandom().randrange(1, 10 ** 9)
    else:
        base_seed = args.seed
        if base_seed + args.games - 1 > MAX_SEED:
            raise CliError(f"--seed {base_seed} with --games {args.games} would go past the largest seed, "
                           f"{MAX_SEED}.")
    if args.out:
        _writable_folder(args.out)
    stats: dict[str, dict] = {n: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "score": 0.0} for n in names}
    results: dict[str, int] = {}
    score_hist: dict[tuple[bool, int], int] = {}     # solitaire: (won, score) -> games
    plies_total = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        shift = 0 if args.no_swap or n_players == 1 else g % n_players
        seat_names = names[shift:] + names[:shift]
        # named as the app names its AI seats ("AI 2, greedy"): a replay of the record reads the same as a table
        seats = [PlayerSpec(f"AI {i + 1}, {agent_words(n, game)}", "ai", n) for i, n in enumerate(seat_names)]
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
    played = counted(args.games, "game")
    seeds = f"seed {base_seed}" if args.games == 1 else f"seeds {base_seed}..{base_seed + args.games - 1}"
    print(f"{game.title}: {played}, agents {', '.join(names)}, {seeds} (the same games again: --seed {base_seed})")
    width = max([12] + [len(n) for n in stats])      # agent names such as throwdown-greedy keep the columns straight
    print(f"{'agent':{width}s} {'games':>6s} {'wins':>6s} {'draws':>6s} {'losses':>6s} {'win %':>6s} "
          f"{'mean score':>11s}")
    for n, st in stats.items():
        share = 100.0 * st["wins"] / st["games"] if st["games"] else 0.0
        print(f"{n:{width}s} {st['games']:6d} {st['wins']:6d} {st['draws']:6d} {st['losses']:6d} {share:6.1f} "
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


def _progress(done: int, total: int, t0: float, kept: int = 0) -> None:
    """A progress bar on stderr (every tenth of the way when stderr is not a terminal); `kept` games came from a
    journal, so they count in the bar but not in the rate."""
    if not sys.stderr.isatty() and done not in (total,) and done % max(1, total // 10):
        return
    width = 30
    filled = int(width * done / total)
    rate = (done - kept) / max(1e-9, time.perf_counter() - t0)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {'game' if total == 1 else 'games'}, {rate:.2f}/s")
    if not sys.stderr.isatty():
        sys.stderr.write("\n")
    sys.stderr.flush()


def cmd_ladder(args) -> int:
    from towerworld.ai.ladder import journal_path, report, resolve_game, run_ladder, write_chart, write_json
    names = [s.strip() for s in args.agents.split(",") if s.strip()]
    options = _options(resolve_game(args.game), args.option)
    if args.workers is not None and not 1 <= args.workers <= 256:
        raise CliError("--workers must be between 1 and 256.")
    chart = args.chart or f"ladder-{args.game.replace(':', '-')}.png"
    json_path = args.json or f"ladder-{args.game.replace(':', '-')}.json"
    if not chart.lower().endswith(".png"):
        raise CliError(f"--chart must name a .png file, not '{shown_text(chart)}'.")
    for option, path in (("--json", json_path), ("--chart", chart)):   # refused before the games, not after
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise CliError(f"{option} {shown_text(path, 300)} cannot be written there.")
    pairs = None
    if args.pairs is not None:
        pairs = [tuple(p.strip().split("/")) for p in args.pairs.split(",") if p.strip()]
        if not pairs or any(len(p) != 2 for p in pairs):
            raise CliError("--pairs takes pairs of agents joined by '/', separated by commas, like mcts/greedy,"
                           "mcts/random.")
    t0 = time.perf_counter()
    journal = journal_path(json_path)
    kept: dict = {}           # games from the journal: the first report comes when the first new game ends
    try:
        result = run_ladder(args.game, names, games=args.games, seed=args.seed if args.seed is not None else 1,
                            options=options, variant=args.variant, level=args.level, workers=args.workers,
                            progress=lambda done, total: _progress(done, total, t0, kept.setdefault("n", done - 1)),
                            ray_address=args.ray,
                            pairs=pairs, journal=journal, resume=args.resume, play=not args.played_only)
    except KeyboardInterrupt:
        print(f"\ntowerworld: interrupted; the games that finished are kept in {shown_text(journal, 300)}: run the "
              f"same command with --resume to go on.", file=sys.stderr)
        return 130
    print(file=sys.stderr)
    if result.resumed:
        print(f"kept {counted(result.resumed, 'game')} already played (from {shown_text(journal, 300)})")
    print(report(result))
    write_json(result, json_path)
    print(f"wrote {json_path}")
    try:
        write_chart(result, chart)
        print(f"wrote {chart}")
    except TowerworldError as e:          # no matplotlib: the ratings stand without the picture
        print(f"no chart: {e}")
    return 0


def _record_paths(sources: list[str]) -> list[str]:
    """The files to check: each file named, and every *.tower.json inside each folder named (sorted, not recursive)."""
    paths = []
    for source in sources:
        if os.path.isdir(source):
            try:
                inside = sorted(e.path for e in os.scandir(source)    # not the temp file of a save
                                if e.name.endswith(".tower.json") and not is_temp_file(e.name))
            except OSError:
                inside = [source]       # the folder gets a verdict line saying it cannot be read
            paths.extend(inside)
        else:
            paths.append(source)
    return paths


EXIT_CHECK_FAILED = 3       # check itself failed inside on some file (a bug to report), not the file


def check_one(path: str) -> tuple[bool, str]:
    """(ok, verdict) for one record file: loaded, replayed and its stored result compared; never raises."""
    return _check_one(path)[:2]


def _check_one(path: str) -> tuple[bool, str, int]:
    """(ok, verdict, exit code) for one record file."""
    try:
        match = load_match(path)
    except TowerworldError as e:
        return False, str(e), EXIT_BAD_INPUT
    except MemoryError:
        return False, "too large to check.", EXIT_BAD_INPUT
    except Exception as e:  # a bug in towerworld, not the file's fault; the other files still get their verdicts
        return (False, f"could not be checked: towerworld failed inside ({type(e).__name__}); please report it.",
                EXIT_CHECK_FAILED)
    try:        # each AI seat's agent as it would play: a level it does not have ('mcts:bogus') is refused here
        check_agents(match.game, [(p.agent or "human") if p.is_ai else "human" for p in match.players], None)
    except TowerworldError as e:
        return False, f"{shown_text(str(e), 300)[:-1]} (a seat of this record).", EXIT_BAD_INPUT
    state = "finished" if match.game.current_player(match.state) == TERMINAL else "in progress"
    return True, (f"ok, {match.game.name}, {counted(len(match.plies), 'ply', 'plies')}, {state}: "
                  f"{shown_text(match.result_text(), 120)}"), 0


def cmd_check(args) -> int:
    """One verdict line per file; exit 0 when every file is a sound record, 2 when any is refused or cannot be read,
    3 when checking one failed inside towerworld."""
    paths = _record_paths(args.files)
    if not paths:
        print("No record files (*.tower.json) found.")
        return 1
    bad, code = 0, 0
    for path in paths:
        ok, verdict, exit_code = _check_one(path)
        bad += not ok
        code = max(code, exit_code)
        print(f"{shown_path(path, 200)}: {shown_text(verdict, 400)}", flush=True)
    if len(paths) > 1:
        print(f"{len(paths) - bad} of {len(paths)} records ok.")
    return code


def _port(port: int) -> int:
    if not 0 <= port <= 65535:
        raise CliError(f"--port must be from 0 to 65535, not {port}.")
    return port


def _rooms_dir(path: str | None) -> str:
    folder = path or os.path.join(os.path.expanduser("~"), ".towerworld", "rooms")
    _writable_folder(folder, "--data")
    return folder


async def _serving(host: str, port: int, data: str, then=None):
    from towerworld.net.server import Server
    server = Server(data)
    try:
        await server.start(host, port)
    except OSError as e:
        raise CliError(f"Cannot listen on {host}:{port}: {e.strerror or e}.") from None
    try:
        if then is not None:
            await then(server)
        import asyncio
        await asyncio.Future()
    finally:
        await server.stop()


def cmd_serve(args) -> int:
    import asyncio
    data = _rooms_dir(args.data)

    async def announce(server):
        from towerworld.net.client import reachable_address
        reach = (f"; others reach it at ws://{reachable_address()}:{server.port}"
                 if args.host in ("0.0.0.0", "::", "") else "")
        print(f"towerworld server on ws://{args.host}:{server.port} (rooms kept in {shown_text(data, 200)}{reach}); "
              f"Ctrl-C stops it.", flush=True)
    asyncio.run(_serving(args.host, _port(args.port), data, announce))
    return 0


def cmd_host(args) -> int:
    import asyncio

    from towerworld.net.client import create_room, reachable_address, server_url
    game = get_game(args.game)
    _options(game, args.option)                          # refused here, in the command line's words
    texts = dict(pair.split("=", 1) for pair in args.option)
    texts = {k.strip(): v.strip() for k, v in texts.items()}
    if args.players is None:
        _, n = game.resolve_options(None, args.variant)
        players = ["remote"] * n
    else:
        players = ["remote" if seat == "human" else seat for seat in _seat_names(args.players, "--players")]
    if args.clock is not None and not 0 < args.clock <= 86400:
        raise CliError(f"--clock must be a number of seconds above 0, not {args.clock:g}.")

    async def open_room(url: str) -> None:
        code = await create_room(url, game.name, players, args.variant, texts, args.clock, args.clock_mode)
        print("Invite (give this to the other players; they run towerworld join INVITE):", flush=True)
        print(f"{url.rstrip('/')}/{code}", flush=True)

    if args.server:
        asyncio.run(open_room(server_url(args.server)))
        return 0
    data = _rooms_dir(args.data)
    host = reachable_address() if args.host in ("0.0.0.0", "::", "") else args.host

    async def then(server):
        await open_room(f"ws://{host}:{server.port}")
        print("This room is served from here; Ctrl-C stops the server (the room is saved and resumes with "
              "towerworld serve).", flush=True)
    asyncio.run(_serving(args.host, _port(args.port), data, then))
    return 0


def cmd_join(args) -> int:
    import asyncio

    from towerworld.net import client as net
    net.parse_invite(args.invite)
    if args.watch and args.agent:
        raise CliError("--watch and --agent do not go together: a watcher makes no moves.")
    if args.log:
        _writable_file(args.log)
    if args.window and not args.agent:
        raise CliError("--window goes with --agent NAME: without an agent, join opens the table for you anyway.")
    if args.window or (not args.agent and not (args.watch and args.log)):
        from towerworld.app.remote import run_remote
        token = None if args.watch or args.new_seat else net.remembered_token(args.invite)
        return run_remote(args.invite, name=args.name, seat=args.seat, watch=args.watch, log=args.log,
                          size=_window_size(args.size), frames=args.frames, token=token, agent=args.agent)
    token = None if args.watch or args.new_seat else net.remembered_token(args.invite)
    done = asyncio.run(net.play(args.invite, agent=None if args.watch else args.agent, watch=args.watch,
                                name=args.name, seat=args.seat, token=token, log=args.log,
                                remember=None if args.watch else args.invite))
    who = "watched" if args.watch else f"played as Player {done.seat + 1}"
    print(f"{who}: {shown_text(done.result, 200) or 'the game is not over'}")
    return 0


COMMANDS = {"games": cmd_games, "play": cmd_play, "replay": cmd_replay, "render": cmd_render,
            "simulate": cmd_simulate, "ladder": cmd_ladder, "check": cmd_check, "demo": cmd_demo,
            "serve": cmd_serve, "host": cmd_host, "join": cmd_join}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(argv[0] if argv and argv[0] in COMMANDS else None)
    try:
        args = parser.parse_args(argv)
        if not args.command:     # `towerworld` alone opens the start screen
            args = parser.parse_args(["play"] + argv)
        return COMMANDS[args.command](args)
    except TowerworldError as e:
        print(f"towerworld: {shown_text(str(e), 400)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("towerworld: interrupted.", file=sys.stderr)
        return 130
    except OSError as e:
        where = f": {e.filename}" if getattr(e, "filename", None) else ""
        print(f"towerworld: {shown_text(f'{e.strerror or e}{where}', 400)}.", file=sys.stderr)
        return 1
    except Exception as e:  # a bug: one sentence for the person, the details in a log for us
        log = _log_crash()
        print(f"towerworld: something went wrong inside towerworld ({type(e).__name__}: {shown_text(str(e), 200)}); "
              f"details are in {log}.", file=sys.stderr)
        return 3


def _log_crash() -> str:
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
