"""Arguments are checked before any window opens or any game is played: levels, agent names and their levels, and
options that would do nothing (--fps without --video, --at without --png) are refused in one sentence; and every
sentence puts its nouns in the right number ("1 player", never "1 players")."""
from __future__ import annotations

import pathlib
import re

import pytest

from towerworld.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture
def no_window(monkeypatch):
    """Fail the test if a table, a replay window or an offscreen film is started."""
    import towerworld.app.main as app_main
    import towerworld.app.replay as replay

    def opened(*args, **kwargs):
        raise AssertionError("a window or film was started before the arguments were refused")
    monkeypatch.setattr(app_main, "run_app", opened)
    monkeypatch.setattr(replay, "run_replay", opened)
    monkeypatch.setattr(replay, "render_replay", opened)


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    out = tmp_path_factory.mktemp("records")
    assert main(["simulate", "kdak", "--games", "1", "--seed", "3", "--out", str(out)]) == 0
    return str(next(out.glob("*.tower.json")))


def refused(capsys, args, *words) -> str:
    assert main(args) == 2, f"{args} was not refused"
    err = capsys.readouterr().err.strip()
    assert err.startswith("towerworld: ") and "\n" not in err and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


@pytest.mark.parametrize("args, words", [
    (["play", "kdak", "--level", "impossible"], ["'impossible'", "easy"]),
    (["play", "kdak", "--players", "human,mcts:bogus"], ["'bogus'", "mcts:bogus"]),
    (["play", "kdak", "--players", "human,random:strong"], ["random", "takes no level"]),
    (["play", "kdak", "--players", "human,mcts:"], ["needs a level"]),
    (["play", "kdak", "--players", "human,human", "--level", "strong"], ["--level", "no seat"]),
    (["play", "--level", "strong"], ["needs a game"]),
    (["simulate", "kdak", "--level", "bogus", "--games", "1"], ["--level bogus"]),
    (["simulate", "kdak", "--agents", "random,mcts:bogus", "--games", "1"], ["'bogus'"]),
    (["simulate", "ziggurat", "--agents", "player:bogus", "--games", "1"], ["'bogus'"]),
])
def test_levels_and_agents_are_refused_before_the_table_opens(args, words, capsys, no_window):
    refused(capsys, args, *words)


def test_a_loaded_game_checks_its_agents_and_level_too(record, capsys, no_window):
    refused(capsys, ["play", "--load", record, "--players", "human,mcts:bogus"], "'bogus'")
    refused(capsys, ["play", "--load", record, "--players", "human,mcts", "--level", "impossible"], "'impossible'")


@pytest.mark.parametrize("extra, words", [
    (["--fps", "0"], ["--fps", "--video"]),
    (["--fps", "24"], ["--video"]),
    (["--at", "3"], ["--at", "--png"]),
    (["--video", "out.mp4", "--fps", "0"], ["between 1 and 240"]),
    (["--video", "out.mp4", "--fps", "nan"], ["between 1 and 240"]),
    (["--png", "out.png", "--at", "-2"], ["--at"]),
])
def test_film_options_that_would_do_nothing_are_refused(record, extra, words, capsys, no_window):
    refused(capsys, ["replay", record, *extra], *words)


def test_demo_film_options_too(capsys):
    refused(capsys, ["demo", "kdak-collapse", "--at", "1"], "--png")
    refused(capsys, ["demo", "kdak-collapse", "--fps", "0"], "--video")


def test_a_solitaire_is_for_1_player():
    from towerworld.engine.game import TowerworldError
    from towerworld.engine.match import Match, PlayerSpec
    from towerworld.engine.registry import get_game
    with pytest.raises(TowerworldError) as err:
        Match(get_game("ziggurat"), players=[PlayerSpec("Ann"), PlayerSpec("Bob")])
    assert "is for 1 player," in str(err.value)


# f-strings that put a count before a plural noun: each must be one whose count is never 1 (listed with why), or
# say it through engine.words.counted
NOUNS = ("players|cheats|plies|moves|games|cards|points|pips|tiles|seats|records|turns|talismans|dominoes|followers|"
         "towers|pyramids|coins|storeys|steps|rounds|files|agents|pieces|prisoners|tries|times|captures|pairs|visits|"
         "frames|deals|discards|levels|lines")
NEVER_ONE = {
    ("towerworld/ai/ladder.py", "self.scheduled"),               # games per pair: rounded up to even, at least 2
    ("towerworld/ai/ladder.py", "len(result.agents)"),           # a ladder rates two agents or more
    ("towerworld/ai/ladder.py", "result.games_per_pair"),
    ("towerworld/cli.py", "hi"),                                 # a span lo-hi with hi above lo
    ("towerworld/engine/game.py", "hi"),
    ("towerworld/cli.py", "args.games / elapsed:.2f"),          # a rate, games/s
    ("towerworld/cli.py", "len(paths)"),                         # said only for two files or more
    ("towerworld/engine/record.py", "len(raw)"),                 # each of these is over a limit far above 1
    ("towerworld/engine/record.py", "len(moves)"),
    ("towerworld/engine/record.py", "len(lines)"),
    ("towerworld/engine/record.py", "match.game.max_plies"),
    ("towerworld/engine/record.py", "MAX_LINE_MOVES"),
    ("towerworld/games/elevation/layout.py", "repeats"),         # said from the second repetition on
    ("towerworld/games/kdak/rules.py", "p + 1"),                 # "Player 2 turns up": a verb
    ("towerworld/games/throwdown/layout.py", "'your' if seat == viewer else 'their'"),   # "your own towers"
    ("towerworld/games/throwdown/notation.py", "_colours_words(c.colours)"),           # "red towers"
    ("towerworld/games/ziggurat/layout.py", "count"),            # the branch for two dominoes or more
    ("towerworld/games/ziggurat/layout.py", "last"),
    ("towerworld/scene/video.py", "self.total"),                 # a video of two frames or more
}


def test_no_sentence_puts_a_count_of_one_before_a_plural():
    pattern = re.compile(r"\{([^{}]+)\} (?:[a-z-]+ )?(" + NOUNS + r")\b")
    found = []
    for path in sorted((ROOT / "towerworld").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.endswith("bench.py"):           # benchmark rows for developers, not sentences for players
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if 'f"' not in line and "f'" not in line:
                continue
            for m in pattern.finditer(line):
                if (rel, m.group(1)) not in NEVER_ONE:
                    found.append(f"{rel}:{number}: {m.group(0)}")
    assert not found, "a count before a plural noun (use engine.words.counted): " + "; ".join(found)


def test_counted_says_one_and_many():
    from towerworld.engine.words import counted
    assert counted(1, "cheat") == "1 cheat" and counted(0, "cheat") == "0 cheats"
    assert counted(1, "ply", "plies") == "1 ply" and counted(2, "ply", "plies") == "2 plies"
