"""`check` trusts nothing: the stored result's `finished` is compared, every seat is validated (count, kind, a known
agent for an AI and none for a person, a name of 1 to 60 characters, refused and never cut), a refused or unreadable
file exits 2 with one sentence naming it (an empty name as ''), the temp file of an interrupted save is never read
as a record and goes at the next start, and the resume list reads no file it does not need."""
from __future__ import annotations

import json
import os
import time

import pytest

from towerworld.app import saves
from towerworld.cli import main
from towerworld.engine.driver import answer_chance, play_match
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.record import (MAX_NAME, RecordError, load_match, match_from_record, match_to_record,
                                      save_match)
from towerworld.engine.registry import get_game
from towerworld.ai import make_agent


def _kdak(finished: bool) -> dict:
    game = get_game("kdak")
    m = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bot", "ai", "greedy")], seed=4)
    import random
    play_match(m, {0: make_agent("random", game, 1), 1: make_agent("greedy", game, 2)}, random.Random(4),
               max_plies=None if finished else 12)
    assert m.over == finished
    return json.loads(json.dumps(match_to_record(m)))


@pytest.fixture(scope="module")
def finished():
    return _kdak(True)


def refused(data, *words) -> str:
    with pytest.raises(RecordError) as err:
        match_from_record(data)
    text = str(err.value)
    assert "\n" not in text and len(text) < 400
    for word in words:
        assert word in text, text
    return text


def test_a_finished_game_saved_as_unfinished_is_refused(finished):
    data = dict(finished, result=dict(finished["result"], finished=False))
    refused(data, "unfinished", "finish")
    unfinished = _kdak(False)
    refused(dict(unfinished, result=dict(unfinished["result"], finished=True)), "finished")
    refused(dict(finished, result=dict(finished["result"], finished="yes")), "'result.finished'")
    match_from_record(finished)                                   # the truth passes


@pytest.mark.parametrize("players, words", [
    ([], ["lists no players"]),
    ([{"name": "Ann", "kind": "human"}], ["not valid"]),                            # K'Dak is for 2
    ([{"name": "Ann", "kind": "human"}] * 3, ["not valid"]),
    ([{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "ai", "agent": "wizard"}], ["'wizard'", "greedy"]),
    ([{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "ai"}], ["'agent'"]),
    ([{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "ai", "agent": ""}], ["'agent'"]),
    ([{"name": "Ann", "kind": "human", "agent": "mcts"}, {"name": "Bob", "kind": "human"}], ["person"]),
    ([{"name": "", "kind": "human"}, {"name": "Bob", "kind": "human"}], ["empty name"]),
    ([{"name": "   ", "kind": "human"}, {"name": "Bob", "kind": "human"}], ["empty name"]),
    ([{"name": "A" * 100_000, "kind": "human"}, {"name": "Bob", "kind": "human"}], ["100000 characters",
                                                                                    f"at most {MAX_NAME}"]),
    ([{"name": "Ann", "kind": "robot"}, {"name": "Bob", "kind": "human"}], ["human or ai"]),
    ([{"name": "Ann", "kind": "human", "seat": 3}, {"name": "Bob", "kind": "human"}], ["'seat'"]),
])
def test_every_seat_is_checked(finished, players, words):
    refused(dict(finished, players=players), *words)


def test_check_plays_no_agent_at_a_level_it_does_not_have(tmp_path, finished, capsys):
    players = [finished["players"][0], {"name": "Bot", "kind": "ai", "agent": "mcts:bogus"}]
    path = tmp_path / "level.tower.json"
    path.write_text(json.dumps(dict(finished, players=players)))
    assert main(["check", str(path)]) == 2
    assert "'bogus'" in capsys.readouterr().out


def test_a_name_of_the_longest_length_is_kept_whole(finished):
    name = "N" * MAX_NAME
    m = match_from_record(dict(finished, players=[dict(finished["players"][0], name=name), finished["players"][1]]))
    assert m.players[0].name == name


def test_check_exits_2_and_names_the_file(tmp_path, finished, capsys):
    good = tmp_path / "good.tower.json"
    good.write_text(json.dumps(finished))
    bad = tmp_path / "bad.tower.json"
    bad.write_text(json.dumps(dict(finished, players=[])))
    assert main(["check", str(good)]) == 0
    capsys.readouterr()
    assert main(["check", str(good), str(bad)]) == 2
    assert f"{bad}: The record's 'players'" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "missing.tower.json")]) == 2
    assert main(["check", ""]) == 2
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("'': Cannot read '':"), line


def _autosave(folder, game_name="kdak", plies=4) -> str:
    game = get_game(game_name)
    m = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")])
    for _ in range(plies):
        answer_chance(m)
        m.apply(game.legal_moves(m.state)[0], save=False)
    path = saves.autosave_path(game_name, str(folder))
    save_match(m, path)
    return path


def test_temp_files_of_an_interrupted_save_are_never_records(tmp_path, finished, capsys):
    real = _autosave(tmp_path)
    # a save killed half-way, in the name this towerworld writes and the name earlier ones wrote
    for name in (".tmp-killed.tower.part", ".tmp-older.tower.json"):
        (tmp_path / name).write_text(json.dumps(finished))
    assert main(["check", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert ".tmp-" not in out and os.path.basename(real) in out
    assert main(["check", str(tmp_path / ".tmp-older.tower.json")]) == 2
    assert "interrupted" in capsys.readouterr().out
    with pytest.raises(RecordError, match="interrupted"):
        load_match(str(tmp_path / ".tmp-killed.tower.part"))
    assert [s.path for s in saves.list_saves(str(tmp_path))] == [real]


def test_temp_files_go_when_the_window_starts(tmp_path, monkeypatch, finished, capsys):
    import towerworld.app.main as app_main
    stale = [tmp_path / ".tmp-killed.tower.part", tmp_path / ".tmp-older.tower.json"]
    for path in stale:
        path.write_text("{")
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    fresh = tmp_path / ".tmp-writing.tower.part"          # a save in progress in another window stays
    fresh.write_text("{")
    monkeypatch.setattr(saves, "SAVE_DIR", str(tmp_path))
    monkeypatch.setattr(app_main, "run_app", lambda **kw: 0)
    monkeypatch.setattr("towerworld.cli._window_size", lambda text: (640, 480))
    assert main(["play"]) == 0
    assert not any(p.exists() for p in stale) and fresh.exists()


def test_the_resume_list_reads_only_what_it_needs(tmp_path, monkeypatch):
    """Big planted files cost a size check, not a read; the list stops at the saves it shows."""
    wanted = [_autosave(tmp_path) for _ in range(4)]
    for k in range(10):
        planted = tmp_path / f"autosave-kdak-29990101-00000{k}.tower.json"
        planted.write_bytes(b'{"format": "towerworld-record", "moves": [' + b'"x",' * (1_200_000 // 4) + b'"x"]}')
    other = _autosave(tmp_path, "throwdown")
    read = []
    from towerworld.engine import record
    real = record.read_record_file

    def counting(path):
        read.append(os.path.basename(path))
        return real(path)
    monkeypatch.setattr(saves, "read_record_file", counting)      # the name the saves list reads records by
    for k, path in enumerate(wanted):
        os.utime(path, (time.time() - 100 + k, time.time() - 100 + k))
    shown = saves.unfinished("kdak", str(tmp_path), limit=3)
    assert [s.path for s in shown] == wanted[::-1][:3]
    assert sorted(read) == sorted(os.path.basename(p) for p in wanted[1:]), read
    assert os.path.basename(other) not in read
    read.clear()
    assert len(saves.list_saves(str(tmp_path))) == 5 and not any("29990101" in r for r in read)
    read.clear()
    assert [s.path for s in saves.list_saves(str(tmp_path), game="kdak", limit=2)] == wanted[::-1][:2]
    assert len(read) <= 3, read          # the throwdown save may be newer than them: read, and left out
