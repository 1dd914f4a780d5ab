"""The command line as a person meets it: every bad input is one sentence and a non-zero exit, never a traceback."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args, timeout=300):
    env = dict(os.environ, EGL_PLATFORM="surfaceless", PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "towerworld", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def one_sentence(stream: str) -> bool:
    lines = [ln for ln in stream.strip().splitlines() if ln.strip()]
    return len(lines) == 1 and "Traceback" not in stream


def test_games_lists_every_game_with_variants():
    r = run("games")
    assert r.returncode == 0
    for name in ("kdak", "--variant solitaire"):
        assert name in r.stdout


@pytest.mark.parametrize("args", [
    ("play", "nosuchgame"),
    ("render", "kdak", "--out", "x.txt"),
    ("render", "kdak", "--size", "huge", "--out", "x.png"),
    ("simulate", "kdak", "--agents", "random,wizard", "--games", "1"),
    ("simulate", "kdak", "--variant", "nosuch"),
    ("simulate", "kdak", "-o", "talisman=maybe"),
    ("simulate", "kdak", "-o", "nosuch=1"),
    ("simulate", "kdak", "--games", "0"),
    ("replay", "/nonexistent/file.tower.json"),
    ("frobnicate",),
])
def test_bad_input_is_one_sentence(args):
    r = run(*args)
    assert r.returncode != 0
    assert one_sentence(r.stderr), r.stderr


def test_simulate_writes_records_that_check_accepts(tmp_path):
    r = run("simulate", "kdak", "--agents", "random,greedy", "--games", "3", "--seed", "4", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "games/s" in r.stdout and "wins" in r.stdout
    files = sorted(str(p) for p in tmp_path.glob("*.tower.json"))
    assert len(files) == 3
    c = run("check", *files)
    assert c.returncode == 0, c.stdout
    assert c.stdout.count(": ok,") == 3
    # the seats are named as the app names its AI seats, so that a replay reads as the table did ("greedy (2) (AI)"
    # stood in the panels)
    import json
    names = [[p["name"] for p in json.load(open(f))["players"]] for f in files]
    assert names[0] == ["AI 1, random", "AI 2, greedy"] and names[1] == ["AI 1, greedy", "AI 2, random"], names


def test_check_names_the_file_and_the_ply(tmp_path):
    r = run("simulate", "kdak", "--games", "1", "--seed", "9", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = next(tmp_path.glob("*.tower.json"))
    record = json.loads(path.read_text())
    record["moves"][5] = "fly to the moon"
    bad = tmp_path / "bad.tower.json"
    bad.write_text(json.dumps(record))
    c = run("check", str(path), str(bad))
    assert c.returncode == 2
    line = next(ln for ln in c.stdout.splitlines() if ln.startswith(str(bad)))
    assert "Ply 6" in line


def test_render_writes_a_png_of_a_record_position(tmp_path):
    r = run("simulate", "kdak", "--games", "1", "--seed", "2", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = next(tmp_path.glob("*.tower.json"))
    out = tmp_path / "pos.png"
    r = run("render", str(path), "--ply", "10", "--size", "320x200", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run("render", str(path), "--ply", "100000", "--out", str(out))
    assert r.returncode != 0 and one_sentence(r.stderr)


def test_replay_and_play_open_offscreen(tmp_path):
    r = run("simulate", "kdak", "--games", "1", "--seed", "3", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = next(tmp_path.glob("*.tower.json"))
    assert run("replay", str(path), "--frames", "30").returncode == 0
    assert run("play", "--load", str(path), "--players", "human,human", "--frames", "5").returncode == 0


def test_simulate_a_solitaire_reports_wins_by_score():
    r = run("simulate", "kdak", "--variant", "solitaire", "--agents", "random", "--games", "3", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert "won, by score:" in r.stdout and "not won:" in r.stdout


def test_play_without_a_display_says_so_in_one_sentence():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(EGL_PLATFORM="surfaceless", PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-m", "towerworld", "play", "kdak"], capture_output=True, text=True,
                       timeout=120, env=env, cwd=ROOT)
    assert r.returncode != 0
    assert one_sentence(r.stderr), r.stderr
    assert "desktop session" in r.stderr


# ---- check you can trust ---------------------------------------------------------------------------------------
def _damaged_folder(folder, good: str) -> list[str]:
    """A folder of damaged records beside one good one; returns every file name check must give a verdict on."""
    record = json.loads(open(good, encoding="utf-8").read())
    text = json.dumps(record)

    def write(name, content):
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))

    write("digits.tower.json", text.replace('"format_version": 3', '"format_version": ' + "7" * 5000))
    write("infinity.tower.json", text.replace('"format_version": 3', '"format_version": Infinity'))
    write("e999.tower.json", text.replace('"format_version": 3', '"format_version": 1e999'))
    write("nested.tower.json", "[" * 500_000)
    write("binary.tower.json", bytes(range(256)) * 10)
    write("escape.tower.json", json.dumps(dict(record, moves=record["moves"][:3] + ["\x1b[2J\u202eboom"])))
    write("winner.tower.json", json.dumps(dict(record, result=dict(record["result"], text="Player 9 wins."))))
    write("option.tower.json", json.dumps(dict(record, options={"move_cap": 20.9})))
    os.mkfifo(folder / "fifo.tower.json")
    os.symlink("/dev/zero", folder / "zero.tower.json")
    write("\x1b[31mred.tower.json", text)
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tower.json"))


def test_check_gives_every_damaged_file_one_escaped_verdict(tmp_path):
    """Every file passed to check gets exactly one verdict line; the exit code is 2 if any fails; nothing
    crashes.' and 'Text from a file is shown escaped (no terminal control or bidi characters)'."""
    r = run("simulate", "kdak", "--games", "1", "--seed", "9", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    good = str(next(tmp_path.glob("*.tower.json")))
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    names = _damaged_folder(damaged, good)
    c = run("check", str(damaged), "/dev/zero", good, timeout=60)
    assert c.returncode == 2 and "Traceback" not in c.stdout + c.stderr
    assert not any(ch in c.stdout for ch in "\x1b\x07\u202e"), c.stdout
    lines = c.stdout.splitlines()
    verdicts = lines[:-1]
    assert len(verdicts) == len(names) + 2 and lines[-1] == f"2 of {len(names) + 2} records ok."
    ok = [ln for ln in verdicts if ": ok," in ln]
    assert len(ok) == 2 and any("\\x1b[31mred" in ln for ln in ok)
    for name, words in [("digits", "5000 digits"), ("infinity", "Infinity"), ("e999", "1e999"), ("nested", "nested"),
                        ("binary", "not a text file"), ("escape", "Ply 4"), ("winner", "result says"),
                        ("option", "whole number"), ("fifo", "not a regular file"), ("zero", "not a regular file")]:
        line = next(ln for ln in verdicts if f"/{name}.tower.json:" in ln)
        assert words in line, line


def test_check_memory_stays_small_on_a_worst_case_file(tmp_path):
    """Check returns within seconds, with memory under 400 MB for any input (a 20 MB record)."""
    big = tmp_path / "lists.tower.json"
    big.write_text('{"moves": [' + "[]," * (5 * 1024 * 1024 // 3 - 20) + "[]]}")
    huge = tmp_path / "huge.tower.json"                # like the 20 MB record of the issue: refused before reading
    huge.write_text('{"moves": [' + "[]," * (19 * 1024 * 1024 // 3) + "[]]}")
    probe = ("import resource, subprocess, sys; r = subprocess.run([sys.executable, '-m', 'towerworld', 'check'] + "
             "sys.argv[1:], capture_output=True, text=True); "
             "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); print(r.stdout)")
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-c", probe, str(big), str(huge)], capture_output=True, text=True,
                       timeout=120, env=env, cwd=ROOT)
    code, peak_kb = r.stdout.split("\n", 1)[0].split()
    assert code == "2" and r.stdout.count(".tower.json: ") == 2, r.stdout + r.stderr
    assert int(peak_kb) < 400 * 1024, f"check peaked at {int(peak_kb) // 1024} MB"


def test_check_accepts_folders_and_says_when_there_is_nothing(tmp_path):
    c = run("check", str(tmp_path))
    assert c.returncode == 1 and "No record files" in c.stdout


# ---- strict options, seats, --out, --load, --ply (issues #10.4, #14.6) ------------------------------------------------
@pytest.mark.parametrize("option,words", [
    ("move_cap=20.9", "whole number between 0 and 100000"),
    ("talisman=off", "true or false"),
    ("talisman=1", "true or false"),
    ("move_cap", "NAME=VALUE"),
    ("move_cap=-1", "between 0 and 100000"),
])
def test_options_on_the_command_line_are_validated_strictly(option, words):
    """Options are never coerced ("20.9" is not 20, "off" is not False): refused, the allowed values named."""
    r = run("simulate", "kdak", "-o", option, "--games", "1")
    assert r.returncode == 2 and one_sentence(r.stderr) and words in r.stderr, r.stderr


@pytest.mark.parametrize("args", [
    ("simulate", "ziggurat", "--games", "1"),
    ("simulate", "kdak", "--variant", "solitaire", "--games", "1"),
])
def test_simulate_picks_as_many_seats_as_the_game_has(args):
    """simulate ziggurat and simulate kdak --variant solitaire work bare."""
    r = run(*args)
    assert r.returncode == 0, r.stderr
    assert "agents random, seed " in r.stdout


@pytest.mark.parametrize("seats", [",", "human,,mcts", " ", "human,"])
def test_malformed_seat_lists_are_refused(seats):
    """--players , and other malformed seat lists are refused."""
    for args in (("play", "kdak", "--players", seats), ("simulate", "kdak", "--agents", seats, "--games", "1")):
        r = run(*args)
        assert r.returncode == 2 and one_sentence(r.stderr) and "one seat per player" in r.stderr, r.stderr


def test_play_load_refuses_a_record_of_another_game(tmp_path):
    """play GAME --load FILE refuses a record of another game."""
    r = run("simulate", "kdak", "--games", "1", "--seed", "5", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = str(next(tmp_path.glob("*.tower.json")))
    r = run("play", "ziggurat", "--load", path)
    assert r.returncode == 2 and one_sentence(r.stderr) and "a record of kdak, not ziggurat" in r.stderr, r.stderr
    r = run("play", "kdak", "--load", path, "--players", "human")
    assert r.returncode == 2 and one_sentence(r.stderr) and "names 1 seat," in r.stderr, r.stderr


def test_an_unwritable_out_says_which_path_and_why(tmp_path):
    """An unwritable --out is refused, naming the path and why."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = run("render", "kdak", "--out", str(blocker / "pos.png"))
    assert r.returncode == 2 and one_sentence(r.stderr), r.stderr
    assert f"{blocker}/pos.png" in r.stderr and "is not a folder" in r.stderr
    r = run("render", "kdak", "--out", str(tmp_path / "nowhere" / "pos.png"))
    assert r.returncode == 2 and "does not exist" in r.stderr
    r = run("simulate", "kdak", "--games", "1", "--out", str(blocker / "records"))
    assert r.returncode == 2 and one_sentence(r.stderr) and str(blocker / "records") in r.stderr, r.stderr


def test_render_ply_refuses_negatives_and_numbers_past_the_end(tmp_path):
    """render --ply N counts plies, refuses negatives and numbers past the end with the record's
    length'."""
    r = run("simulate", "kdak", "--games", "1", "--seed", "2", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = next(tmp_path.glob("*.tower.json"))
    plies = len(json.loads(path.read_text())["moves"])
    out = str(tmp_path / "pos.png")
    r = run("render", str(path), "--ply", "-1", "--out", out)
    assert r.returncode == 2 and one_sentence(r.stderr) and "negative" in r.stderr
    r = run("render", str(path), "--ply", str(plies + 1), "--out", out)
    assert r.returncode == 2 and one_sentence(r.stderr) and f"this record has {plies} plies" in r.stderr
    r = run("render", "kdak", "--ply", "-3", "--out", out)
    assert r.returncode == 2 and "negative" in r.stderr


def test_render_game_ply_counts_plies_chance_included():
    """'--ply N' is N plies, chance outcomes included (play_chance used to swallow several in one step)."""
    import random
    from towerworld.cli import CliError, play_random_plies
    from towerworld.engine.match import Match
    from towerworld.engine.registry import get_game
    for name in ("kdak", "ziggurat", "elevation"):
        m = Match(get_game(name), seed=1)
        play_random_plies(m, 7, random.Random(1))
        assert len(m.plies) == 7
    m = Match(get_game("kdak"), seed=1)
    with pytest.raises(CliError) as err:
        play_random_plies(m, 100_000, random.Random(1))
    assert "ended after" in str(err.value)


def test_the_readme_and_games_agree_on_player_counts():
    """The README and towerworld games agree on player counts."""
    r = run("games")
    listed = {}
    for line in r.stdout.splitlines():
        if line and not line.startswith(" "):
            name = line.split()[0]
            listed[name] = line.rsplit("(", 1)[1].split(" player")[0]
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    rows = [ln for ln in readme.splitlines() if ln.startswith("|") and "towerworld " in ln]
    assert rows
    for name, count in listed.items():
        row = next(ln for ln in rows if f"play {name}" in ln or f"simulate {name}" in ln)
        assert row.rstrip(" |").rsplit("|", 1)[1].strip().replace("\u2013", "-") == count, (name, row, count)


def test_check_goes_on_after_a_crash_inside_towerworld(tmp_path, monkeypatch, capsys):
    """A crash on one file never stops check: the other files still get their verdicts."""
    from towerworld import cli
    from towerworld.engine import record
    r = run("simulate", "kdak", "--games", "2", "--seed", "3", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    first, second = sorted(str(p) for p in tmp_path.glob("*.tower.json"))
    real = record.load_match

    def crashing(path, **kw):
        if path == first:
            raise ZeroDivisionError("a bug")
        return real(path, **kw)

    monkeypatch.setattr(cli, "load_match", crashing)  # check reads records by its own name
    assert cli.main(["check", first, second]) == 3
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{first}: could not be checked") and "ZeroDivisionError" in out[0]
    assert out[1].startswith(f"{second}: ok,") and out[2] == "1 of 2 records ok."


def test_replay_viewer_shows_every_hand_only_for_finished_games(tmp_path, capsys):
    """A replay shows one player's view with --viewer N, a spectator's with --viewer spectator; every hand
    (--viewer all) only of a finished game."""
    from towerworld.cli import main
    out = tmp_path / "games"
    assert main(["simulate", "kdak", "--games", "1", "--out", str(out)]) == 0
    record = next(out.glob("*.tower.json"))
    assert main(["replay", str(record), "--viewer", "3", "--frames", "1"]) == 2
    assert "player number from 1 to 2" in capsys.readouterr().err
    import json
    data = json.loads(record.read_text())
    data["moves"] = data["moves"][:5]
    data.pop("result", None)
    short = tmp_path / "short.tower.json"
    short.write_text(json.dumps(data))
    assert main(["replay", str(short), "--viewer", "all", "--frames", "1"]) == 2
    assert "not finished" in capsys.readouterr().err


def test_the_default_opponent_is_the_games_own_choice():
    """A person plays against each game's `default_opponent`: IS-MCTS in Throwdown (secret hands), MCTS elsewhere."""
    from towerworld.app.menu import default_setup
    from towerworld.cli import _seats
    from towerworld.engine.registry import get_game
    throwdown, kdak = get_game("throwdown"), get_game("kdak")
    assert [s.agent for s in _seats(throwdown, None, None, {})] == [None, "ismcts"]
    assert default_setup(throwdown).seats[1:] == ["ismcts"]
    assert [s.agent for s in _seats(kdak, None, None, {})] == [None, "mcts"]
    assert [s.agent for s in _seats(get_game("carcassonne"), None, None, {})] == [None, "mcts"]


def test_help_lists_every_command_and_each_command_has_its_own():
    """`towerworld --help` names every command (a '%' in a help text once made argparse raise instead), and a
    command's help shows that command's options, though only its parser is set up when it is named."""
    from towerworld.cli import COMMANDS
    r = run("--help")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert all(name in r.stdout for name in COMMANDS)
    r = run("ladder", "--help")
    assert r.returncode == 0 and "--pairs" in r.stdout and "--workers" in r.stdout


def test_a_command_named_sets_up_only_its_own_parser():
    from towerworld.cli import COMMANDS, _parser
    parser = _parser("play")
    args = parser.parse_args(["play", "kdak", "--players", "human,random", "--new"])
    assert (args.command, args.game, args.players, args.new) == ("play", "kdak", "human,random", True)
    choices = parser._subparsers._group_actions[0].choices       # type: ignore[union-attr]
    assert set(choices) == {"play"} and set(_parser()._subparsers._group_actions[0].choices) == set(COMMANDS)


def test_without_a_screen_the_window_commands_say_one_sentence(tmp_path):
    """Panda3D's own ":ShowBase(warning): Unable to open 'onscreen' window." stood before the sentence (the network
    window's modules load Panda3D's before the table's settings quiet it)."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env.update(EGL_PLATFORM="surfaceless", PYTHONPATH=ROOT, HOME=str(tmp_path))
    for args in (["play", "kdak", "--new"], ["join", "ws://127.0.0.1:9/room"]):
        r = subprocess.run([sys.executable, "-m", "towerworld", *args], capture_output=True, text=True, timeout=120,
                           env=env, cwd=ROOT)
        assert r.returncode != 0 and one_sentence(r.stderr + r.stdout), r.stderr + r.stdout
        assert "Could not open a window" in r.stderr
