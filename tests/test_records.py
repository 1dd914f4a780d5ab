"""Records: damaged and hostile files are refused with one RecordError sentence (never another exception), saving is
atomic, and the Match's undo/redo and seek policies hold."""
from __future__ import annotations

import json
import os
import random

import pytest

from towerworld.engine import record as rec
from towerworld.engine import registry
from towerworld.engine.driver import answer_chance
from towerworld.engine.game import CHANCE, TERMINAL
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.record import (FORMAT_VERSION, RecordError, load_match, match_from_record, match_to_record,
                                      save_match)

try:
    from toygame import GAME as TOY, NIM
except ImportError:  # tests run as a package
    from tests.toygame import GAME as TOY, NIM


@pytest.fixture(autouse=True)
def toys_registered(monkeypatch):
    for toy in (TOY, NIM):
        registry.register(toy)
    yield
    for toy in (TOY, NIM):
        registry.unregister(toy.name)


def played(game=TOY, plies=12, seed=5, players=None, variant=None) -> Match:
    """A match of `game` with `plies` random plies (chance sampled), humans unless `players` says otherwise."""
    m = Match(game, players=players, seed=seed, variant=variant)
    rng = random.Random(seed)
    while len(m.plies) < plies and not m.over:
        if m.current_player == CHANCE:
            m.apply(game.sample_chance(m.state, rng), save=False)
        else:
            moves = game.legal_moves(m.state)
            m.apply(moves[rng.randrange(len(moves))], save=False)
    return m


def good_record(**changes) -> dict:
    data = json.loads(json.dumps(match_to_record(played())))
    data.update(changes)
    return data


def refused(data) -> str:
    with pytest.raises(RecordError) as err:
        match_from_record(data)
    msg = str(err.value)
    assert msg.strip() and "\n" not in msg and len(msg) < 400, f"not one sentence: {msg!r}"
    return msg


def refused_file(tmp_path, content: bytes) -> str:
    path = tmp_path / "bad.tower.json"
    path.write_bytes(content)
    with pytest.raises(RecordError) as err:
        load_match(str(path))
    msg = str(err.value)
    assert msg.strip() and "\n" not in msg and len(msg) < 400, f"not one sentence: {msg!r}"
    return msg


# ---- a good record ------------------------------------------------------------------------------------------------------
def test_a_saved_record_loads_back_to_the_same_state(tmp_path):
    m = played(plies=40)
    path = tmp_path / "game.tower.json"
    save_match(m, str(path))
    back = load_match(str(path))
    assert back.state == m.state and [p.text for p in back.plies] == [p.text for p in m.plies]
    data = json.loads(path.read_text("utf-8"))
    assert data["format"] == rec.FORMAT and data["format_version"] == FORMAT_VERSION and data["game"] == "toy"
    assert all(isinstance(t, str) for t in data["moves"])


# ---- damaged files ------------------------------------------------------------------------------------------------------
def test_not_json_is_refused(tmp_path):
    assert "not valid JSON" in refused_file(tmp_path, b"this is not a record {")


def test_binary_garbage_is_refused(tmp_path):
    rng = random.Random(1)
    refused_file(tmp_path, bytes(rng.randrange(256) for _ in range(4000)))
    refused_file(tmp_path, b"\x00" * 100)
    refused_file(tmp_path, b"\xff\xfe{\x00}\x00")


def test_empty_and_truncated_files_are_refused(tmp_path):
    refused_file(tmp_path, b"")
    text = json.dumps(match_to_record(played(plies=30)), indent=1).encode()
    for cut in (1, len(text) // 3, len(text) // 2, len(text) - 2):
        refused_file(tmp_path, text[:cut])


def test_huge_nesting_is_refused(tmp_path):
    refused_file(tmp_path, b"[" * 200_000 + b"]" * 200_000)
    refused_file(tmp_path, b'{"a":' * 100_000 + b"1" + b"}" * 100_000)


def test_deep_values_inside_a_record_are_refused():
    deep = []
    for _ in range(900):
        deep = [deep]
    refused(good_record(options={"copies": deep}))
    refused(good_record(moves=[deep]))
    refused(good_record(players=[{"name": deep, "kind": "human"}, {"name": "b", "kind": "human"}]))


def test_a_huge_file_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(rec, "MAX_BYTES", 200)
    text = json.dumps(match_to_record(played(plies=40)), indent=1).encode()
    assert len(text) > 200
    assert "more than a record can be" in refused_file(tmp_path, text)


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(RecordError):
        load_match(str(tmp_path / "nowhere.tower.json"))
    with pytest.raises(RecordError):
        load_match(str(tmp_path))          # a folder, not a file


# ---- wrong contents -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("data", [[], "record", 3, None, True])
def test_a_record_must_be_an_object(data):
    refused(data)


def test_wrong_format_is_refused():
    assert "format" in refused(good_record(format="chess-pgn"))
    data = good_record()
    del data["format"]
    assert "'format'" in refused(data)


def test_newer_format_version_is_refused():
    msg = refused(good_record(format_version=FORMAT_VERSION + 1))
    assert "Update towerworld" in msg
    refused(good_record(format_version=0))
    refused(good_record(format_version=-5))


def test_unknown_game_is_refused():
    assert "no game called 'chess'" in refused(good_record(game="chess"))
    refused(good_record(game="x" * 100_000))


def test_bad_option_is_refused():
    assert "copies" in refused(good_record(options={"copies": 99}))
    assert "no option 'colour'" in refused(good_record(options={"colour": "red"}))
    refused(good_record(options={"copies": "many"}))
    refused(good_record(options={"copies": True}))
    refused(good_record(variant="no-such-variant"))
    refused(good_record(variant="v" * 100_000))
    refused(good_record(options={"o" * 100_000: 1}))
    refused(good_record(options={"copies": "9" * 100_000}))


@pytest.mark.parametrize("field,value", [
    ("format_version", "1"), ("format_version", 1.0), ("format_version", True), ("game", 7), ("options", []),
    ("seeded", "42"), ("seeded", 4.2), ("seeded", None), ("players", {}), ("result", "Player 1 wins."),
    ("result", {"text": 3}), ("result", {"text": "in progress", "scores": "1-2"}), ("created", 5),
    ("moves", "p1 p2"), ("moves", None),
    ("variant", 3), ("variant", None),
])
def test_wrong_types_are_refused(field, value):
    assert field in refused(good_record(**{field: value}))


@pytest.mark.parametrize("players", [
    [1, 2],
    [{"name": "a"}, {"name": "b", "kind": "human"}],
    [{"name": "a", "kind": "robot"}, {"name": "b", "kind": "human"}],
    [{"name": 5, "kind": "human"}, {"name": "b", "kind": "human"}],
    [{"name": "a", "kind": "ai", "agent": 3}, {"name": "b", "kind": "human"}],
    [{"name": f"p{i}", "kind": "human"} for i in range(50)],        # more players than the game allows
    [{"name": "alone", "kind": "human"}],                           # fewer
])
def test_bad_players_are_refused(players):
    refused(good_record(players=players))


def test_missing_fields_are_refused():
    for name in ("format", "format_version", "game", "players", "moves"):
        data = good_record()
        del data[name]
        assert f"'{name}'" in refused(data)


def test_an_illegal_move_is_refused_naming_its_ply():
    data = good_record()
    moves = data["moves"]
    # ply 1 is a draw (chance); ply 2 is player 1's decision: playing a value they do not hold is illegal
    held = moves[0][1]
    bad = "p" + next(v for v in "1234" if v != held)
    data["moves"] = moves[:1] + [bad] + moves[2:]
    msg = refused(data)
    assert msg.startswith("Ply 2") and bad in msg


def test_bad_notation_is_refused_naming_its_ply():
    data = good_record()
    data["moves"] = data["moves"][:3] + ["castle kingside"] + data["moves"][3:]
    assert refused(data).startswith("Ply 4")
    data = good_record()
    data["moves"] = data["moves"][:2] + [7]
    assert refused(data).startswith("Ply 3")
    data["moves"] = data["moves"][:2] + ["x" * 10_000]
    assert refused(data).startswith("Ply 3")


def test_moves_after_the_end_are_refused():
    m = played(NIM, plies=100)
    assert m.over
    data = json.loads(json.dumps(match_to_record(m)))
    data["moves"].append("t1")
    assert refused(data).startswith(f"Ply {len(data['moves'])}")


HOSTILE_TEXTS = ["", " ", "0", "-1", "99999999999999999999", "a" * 199, "\x00", "\u202e", "🂡", "None", "()",
                 "[1, 2]", "{}", "pass pass", "1-2-3-4-5-6", "a1", "a1-a1", "z99", "..", "%s%s%n", "\\", "'", '"']


@pytest.mark.parametrize("name", sorted(registry.all_games()) + ["toy", "toynim"])
def test_hostile_move_texts_never_crash_a_game(name):
    """Whatever text a record holds, loading either replays it or refuses it with a RecordError, never a traceback."""
    game = registry.all_games()[name] if name in registry.all_games() else {"toy": TOY, "toynim": NIM}[name]
    m = played(game, plies=6, seed=3)
    base = json.loads(json.dumps(match_to_record(m)))
    for text in HOSTILE_TEXTS:
        data = dict(base, moves=base["moves"] + [text])
        try:
            match_from_record(data)
        except RecordError as e:
            assert str(e).startswith(f"Ply {len(data['moves'])}"), str(e)


# ---- saving -------------------------------------------------------------------------------------------------------------
def test_save_is_atomic_when_the_write_fails(tmp_path, monkeypatch):
    path = tmp_path / "game.tower.json"
    m = played(plies=6)
    save_match(m, str(path))
    before = path.read_bytes()
    m2 = played(plies=20)

    def fail(_fd):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(os, "fsync", fail)
        with pytest.raises(OSError):
            save_match(m2, str(path))
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["game.tower.json"], "a temp file was left behind"
    save_match(m2, str(path))
    assert load_match(str(path)).state == m2.state
    assert sorted(os.listdir(tmp_path)) == ["game.tower.json"]


def test_save_is_atomic_when_the_replace_fails(tmp_path, monkeypatch):
    path = tmp_path / "game.tower.json"
    save_match(played(plies=4), str(path))
    before = path.read_bytes()

    def fail(_a, _b):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        save_match(played(plies=10), str(path))
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["game.tower.json"]


def test_autosave_writes_after_every_move(tmp_path):
    path = tmp_path / "auto.tower.json"
    m = Match(NIM, players=[PlayerSpec("me"), PlayerSpec("bot", "ai", "random")], seed=1, autosave=str(path))
    m.apply(("take", 2))
    assert json.loads(path.read_text("utf-8"))["moves"] == ["t2"]
    m.apply(("take", 1))
    assert json.loads(path.read_text("utf-8"))["moves"] == ["t2", "t1"]
    m.undo()
    assert json.loads(path.read_text("utf-8"))["moves"] == []


def test_no_autosave_is_written_before_a_seat_has_moved(tmp_path):
    """A game only chance has moved in (the first tile drawn) leaves no file among the unfinished games; the first
    seat's move writes one, and from then on the file follows the game, back to its start after an undo."""
    path = tmp_path / "auto.tower.json"
    game = registry.get_game("carcassonne")
    m = Match(game, players=[PlayerSpec("me"), PlayerSpec("you")], seed=3, autosave=str(path))
    m.apply(m.next_chance(random.Random(3)))
    assert m.plies[-1].mover == CHANCE and not path.exists()
    first = m.game.legal_moves(m.state)[0]
    m.apply(first)
    assert json.loads(path.read_text("utf-8"))["moves"] == [p.text for p in m.plies]
    assert m.undo() and json.loads(path.read_text("utf-8"))["moves"] == [m.plies[0].text]


# ---- undo / redo ----------------------------------------------------------------------------------------------------------
def test_undo_against_an_ai_is_free():
    """Against an AI undo goes back to before the person's latest decision, AI replies included; redo restores."""
    m = Match(NIM, players=[PlayerSpec("me"), PlayerSpec("bot", "ai", "random")], seed=1)
    states = [m.state]
    for k in (1, 2, 1, 1):
        m.apply(("take", k), save=False)
        states.append(m.state)
    assert m.undo() and len(m.plies) == 2 and m.state == states[2]
    assert m.undo() and len(m.plies) == 0 and m.state == states[0]
    assert not m.can_undo() and not m.undo()
    assert m.redo() and m.state == states[2]
    assert m.redo() and m.state == states[4]
    assert not m.can_redo()


def test_undo_against_an_ai_crosses_chance_and_reveals():
    m = Match(TOY, players=[PlayerSpec("me"), PlayerSpec("bot", "ai", "random")], seed=2)
    answer_chance(m)
    start = m.state
    m.apply(TOY.legal_moves(m.state)[0], save=False)          # the person's decision
    answer_chance(m)                                  # a draw for the AI (reveals)
    m.apply(TOY.legal_moves(m.state)[-1], save=False)          # the AI's move
    assert m.can_undo() and m.undo()
    assert m.state == start and len(m.plies) == 1              # the first draw came before any decision of ours


class TwoTakes(type(NIM)):
    """Toy Nim where a turn is two takes by the same player (to test undo within one person's turn)."""
    name = "twotakes"

    def new_state(self, options=None, players=None):
        return (12, 0, 0)                   # coins, player to move, takes made this turn

    def current_player(self, state):
        return TERMINAL if state[0] == 0 else state[1]

    def legal_moves(self, state):
        return [("take", k) for k in (1, 2) if k <= state[0]]

    def apply_unchecked(self, state, move):
        coins, p, made = state[0] - move[1], state[1], state[2] + 1
        return ((coins, 1 - p, 0) if made == 2 else (coins, p, made)), []

    def returns(self, state):
        return [1.0, -1.0] if state[1] == 1 else [-1.0, 1.0]


def test_undo_between_people_takes_back_only_your_own_move_before_anyone_acts():
    """Between people, Z on Ann's turn may only take back Ann's own last move while Bob has not yet
    acted, never Bob's."""
    m = Match(TwoTakes(), seed=1)
    m.apply(("take", 1), save=False)      # Ann, first take of her turn
    assert m.current_player == 0 and m.can_undo() and m.undo()   # Ann takes it back: still her turn
    assert not m.plies
    m.apply(("take", 1), save=False)
    m.apply(("take", 2), save=False)      # Ann ends her turn: Bob to move
    assert m.current_player == 1
    assert not m.can_undo() and not m.undo(), "Bob took back Ann's move"
    assert "your own last move" in m.why_no_undo()
    m.apply(("take", 1), save=False)      # Bob's first take
    assert m.can_undo() and m.undo() and len(m.plies) == 2
    assert not m.can_undo(), "Bob went on to take back Ann's move"
    assert m.redo() and len(m.plies) == 3
    m.apply(("take", 1), save=False)      # Bob's second take: Ann to move
    assert not m.can_undo()


def test_undo_against_an_ai_never_rerolls_chance():
    """Against an AI, undo takes back to your previous decision and keeps every chance outcome already
    revealed (undoing a move never re-draws a die)."""
    m = Match(TOY, players=[PlayerSpec("me"), PlayerSpec("bot", "ai", "random")])   # live chance: OS entropy
    answer_chance(m)
    move = m.game.legal_moves(m.state)[0]
    m.apply(move, save=False)
    answer_chance(m)
    seen = [p.move for p in m.plies if p.mover == CHANCE]
    for _ in range(20):
        assert m.undo()
        answer_chance(m)
        m.apply(move, save=False)
        answer_chance(m)
        assert [p.move for p in m.plies if p.mover == CHANCE] == seen


def test_undo_between_people_refuses_revealing_moves():
    m = Match(TOY, seed=4)
    answer_chance(m)             # a draw: chance reveals
    assert not m.can_undo() and "revealed" in m.why_no_undo()
    move = next(mv for mv in TOY.legal_moves(m.state) if mv[0] == "play")   # a play turns a card up: it reveals too
    m.apply(move, save=False)
    assert not m.can_undo()


def test_nothing_to_undo_at_the_start():
    m = Match(NIM, seed=1)
    assert not m.can_undo() and not m.undo() and not m.can_redo() and not m.redo()
    assert m.why_no_undo() == "Nothing to undo yet."


# ---- seeking ------------------------------------------------------------------------------------------------------------
def test_seek_equals_replay(monkeypatch):
    monkeypatch.setattr(Match, "SNAPSHOT_EVERY", 4)
    m = played(TOY, plies=200, seed=9, variant="solo")
    assert m.over
    replay = [m.initial]
    for p in m.plies:
        replay.append(TOY.apply(replay[-1], p.move)[0])
    assert [m.state_at(k) for k in range(len(m.plies) + 1)] == replay
    with pytest.raises(IndexError):
        m.state_at(len(m.plies) + 1)
    with pytest.raises(IndexError):
        m.state_at(-1)


def test_seek_after_undo_and_new_moves(monkeypatch):
    monkeypatch.setattr(Match, "SNAPSHOT_EVERY", 2)
    m = Match(NIM, players=[PlayerSpec("me"), PlayerSpec("bot", "ai", "random")], seed=1,
              options={"stones": 15})
    for k in (1, 1, 1, 1, 1, 1):
        m.apply(("take", k), save=False)
    m.undo()
    m.undo()
    for k in (3, 3):
        m.apply(("take", k), save=False)
    replay = [m.initial]
    for p in m.plies:
        replay.append(NIM.apply(replay[-1], p.move)[0])
    assert [m.state_at(k) for k in range(len(m.plies) + 1)] == replay
    assert NIM.current_player(m.state) != TERMINAL


# ---- format v2 -------------------------------------------------------------------------------------------------
def test_a_v2_record_holds_the_result_and_the_seed_only_for_seeded_runs():
    """design.md: 'result (text, scores, titles), seeded (only for seeded runs)'; no 'seed' field any more."""
    m = played(NIM, plies=100)
    data = match_to_record(m)
    assert data["format_version"] == FORMAT_VERSION and "seed" not in data and data["seeded"] == 5
    assert data["result"] == {"text": NIM.result(m.state), "scores": NIM.scores(m.state), "finished": True,
                              "played": len(m.plies)}        # (Nim has no chance: every ply is a player's move)
    m.seed = None                                     # a live game: chance came from OS entropy, nothing to record
    assert "seeded" not in match_to_record(m)


def test_a_v1_record_still_loads_and_its_seed_is_ignored():
    m = played(plies=30)
    data = json.loads(json.dumps(match_to_record(m)))
    v1 = {k: v for k, v in data.items() if k != "seeded"}
    v1.update(format_version=1, seed=123456, result=m.result_text())
    back = match_from_record(v1)
    assert back.state == m.state and len(back.plies) == len(m.plies)
    del v1["seed"]
    assert "'seed'" in refused(v1)


def test_a_wrong_stored_winner_or_score_is_refused():
    """check replays the record and compares the stored result, scores and titles with the engine's."""
    m = played(NIM, plies=100)
    data = json.loads(json.dumps(match_to_record(m)))
    winner = NIM.result(m.state)
    data["result"]["text"] = "Player 2 wins." if "1" in winner else "Player 1 wins."
    assert "result says" in refused(data)
    data = json.loads(json.dumps(match_to_record(m)))
    data["result"]["scores"] = [s + 1 for s in data["result"]["scores"]]
    assert "scores say" in refused(data)
    data = json.loads(json.dumps(match_to_record(m)))
    data["moves"] = data["moves"][:-1]               # the stored result of a finished game, but the game is not over
    assert "result says" in refused(data)
    assert match_from_record(data, verify_result=False).over is False


def test_titles_in_a_solitaire_result_are_compared(tmp_path):
    """K'Dak's solitaire names a title in its result sentence; a record claiming a better title is refused."""
    from towerworld.engine.registry import get_game
    kdak = get_game("kdak")
    m = played(kdak, plies=10_000, seed=2, variant="solitaire")
    assert m.over
    data = json.loads(json.dumps(match_to_record(m)))
    data["result"]["text"] = "Kaka escaped with 60 points: Pharaoh!"
    assert "result says" in refused(data)


@pytest.mark.parametrize("raw,words", [
    (b'{"format": "towerworld-record", "format_version": ' + b"9" * 5000 + b"}", "5000 digits"),
    (b'{"format": "towerworld-record", "format_version": Infinity}', "Infinity"),
    (b'{"format": "towerworld-record", "format_version": -Infinity}', "Infinity"),
    (b'{"format": "towerworld-record", "format_version": NaN}', "NaN"),
    (b'{"format": "towerworld-record", "format_version": 1e999}', "1e999"),
    (b'{"a": [[[[[[[[[[[]]]]]]]]]]]}', "nested"),
])
def test_numbers_and_nesting_are_parsed_with_limits(tmp_path, raw, words):
    """JSON is parsed with limits on integers, floats and nesting."""
    assert words in refused_file(tmp_path, raw)


def test_only_regular_files_are_read(tmp_path):
    """Only regular files are read: check /dev/zero or a FIFO is refused, never read until memory runs out or hung."""
    import threading

    fifo = tmp_path / "pipe.tower.json"
    os.mkfifo(fifo)                                   # nobody writes: reading it would hang forever
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        verdict = []

        def load(path=path, verdict=verdict):
            try:
                load_match(path)
            except Exception as e:  # noqa: BLE001 - the kind of exception is what is checked below
                verdict.append(e)

        reader = threading.Thread(target=load, daemon=True)   # a hang or a runaway read fails the test, not the run
        reader.start()
        reader.join(timeout=20)
        assert verdict, f"loading {path} did not return"
        assert isinstance(verdict[0], RecordError), repr(verdict[0])
        assert "not a regular file" in str(verdict[0]) or "folder" in str(verdict[0])
    link = tmp_path / "zero.tower.json"
    os.symlink("/dev/zero", link)
    with pytest.raises(RecordError):
        load_match(str(link))


def test_the_size_limit_is_five_megabytes_and_checked_before_reading(tmp_path, monkeypatch):
    assert rec.MAX_BYTES <= 5 * 1024 * 1024
    path = tmp_path / "big.tower.json"
    with open(path, "wb") as f:
        f.truncate(rec.MAX_BYTES + 1)                 # sparse: costs no disk, and must cost no reading either
    monkeypatch.setattr(os, "read", lambda *a: pytest.fail("the file was read"))
    with pytest.raises(RecordError) as err:
        load_match(str(path))
    assert "more than a record can be" in str(err.value)


def test_text_from_a_record_is_shown_escaped_and_cut():
    """Text from a file is shown escaped (no terminal control or bidi characters) and cut."""
    data = good_record()
    data["moves"] = data["moves"][:2] + ["\x1b[2J\x1b]0;owned\x07\u202egnp.exe" + "x" * 150]
    msg = refused(data)
    assert not any(c in msg for c in "\x1b\x07\u202e") and "\\x1b" in msg and "\\u202e" in msg
    msg = refused(good_record(game="\x1b[31m\u2066evil" * 1000))
    assert "\x1b" not in msg and "\u2066" not in msg and len(msg) < 200
    msg = refused(good_record(variant="\u202e" + "v" * 10_000))
    assert "\u202e" not in msg and len(msg) < 300


def test_too_many_moves_are_refused_before_replaying():
    data = good_record()
    data["moves"] = data["moves"] + ["pass"] * (TOY.max_plies + 1)
    assert "more than a game of Toy Stack can last" in refused(data)


@pytest.mark.parametrize("move", [["take", 1], {"take": 1}, ("take", [1]), None, 1.5, float("nan"), "t1", ("take", 9),
                                  ("take", 10 ** 5000)])
def test_match_apply_refuses_malformed_moves_with_illegal_move(move):
    """Match.apply answers a malformed move object with IllegalMove, one sentence, never a raw exception."""
    from towerworld.engine.game import IllegalMove
    m = Match(NIM, seed=1)
    with pytest.raises(IllegalMove) as err:
        m.apply(move, save=False)
    assert "\n" not in str(err.value) and len(str(err.value)) < 200
    assert m.plies == [] and m.state == m.initial


# ---- the OpenSpiel adapter serializes a state as its record, never a pickle ------------------------------------------
def test_spiel_states_serialize_as_records_not_pickles():
    """No pickle anywhere: the adapter serializes a state as its record (options + moves)."""
    import pickle

    pytest.importorskip("pyspiel")
    from towerworld.ai import spiel
    sgame = spiel.spiel_game(TOY, options={"copies": 3})
    state = sgame.new_initial_state()
    rng = random.Random(4)
    for _ in range(15):
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(actions))
    text = state.serialize()
    data = json.loads(text)
    assert data["game"] == "toy" and data["options"] == {"copies": 3} and len(data["moves"]) == 15
    back = sgame.deserialize_state(text)
    assert back.tw_state == state.tw_state and back.history() == state.history()
    with pytest.raises(TypeError):
        pickle.dumps(state)
    for bad in ('{"moves": 5}', "gASVlAEAAAAAAAB9lIwCX26U", json.dumps(dict(data, options={})),
                json.dumps(dict(data, moves=data["moves"][:3] + ["p9"])), json.dumps(dict(data, moves=[[]]))):
        with pytest.raises(RecordError):
            sgame.deserialize_state(bad)
    source = open(spiel.__file__, encoding="utf-8").read()
    assert "import pickle" not in source and "pickle.load" not in source


def test_live_chance_is_secret_and_never_stored():
    """Live games draw chance from a source that is never written anywhere (OS entropy). A record holds the
    chance outcomes that happened, nothing that predicts the next one. Seeded runs say they were seeded."""
    live = Match(TOY)
    assert live.seed is None and isinstance(live.rng, random.SystemRandom)
    answer_chance(live)
    record = match_to_record(live)
    assert "seed" not in record and "seeded" not in record
    seeded = Match(TOY, seed=7)
    assert match_to_record(seeded)["seeded"] == 7
