"""What is revealed stays revealed: a chance outcome once shown is kept by what it revealed (a K'Dak tile, else the
decision), survives undo, save, load and resume, and a different decision shows nothing the undone line showed."""
from __future__ import annotations

import random

from towerworld.engine.game import CHANCE
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.record import load_match
from towerworld.engine.registry import get_game


class Aiming(random.Random):
    """A chance source that draws `want` (the outcome whose text is `want`) whenever the outcomes offered include
    it: it shows whether an outcome was forced (kept) or drawn, and whether a kept identity can be drawn elsewhere."""

    def __init__(self, match: Match, want: str):
        super().__init__(0)
        texts = [match.game.format_move(match.state, m) for m, _ in match.game.chance_outcomes(match.state)]
        self.at = (texts.index(want) + 0.5) / len(texts) if want in texts else 0.5

    def random(self):
        return self.at


def resume(path, tmp_path, n: int) -> Match:
    """The autosave at `path` resumed as the table does (loaded, then saving on), into a copy of its own."""
    import shutil
    copy = tmp_path / f"resumed-{n}.tower.json"
    shutil.copy(path, copy)
    return load_match(str(copy), autosave=str(copy))


def vs_ai(name: str, path) -> Match:
    return Match(get_game(name), players=[PlayerSpec("me"), PlayerSpec("bot", "ai", "random")], autosave=str(path))


def chance(m: Match, rng=None) -> str:
    m.apply(m.next_chance(rng or random.SystemRandom()))
    return m.plies[-1].text


def other_outcome(m: Match, than: str) -> str:
    texts = [m.game.format_move(m.state, o) for o, _ in m.game.chance_outcomes(m.state)]
    return next(t for t in texts if t != than)


def test_kdak_a_tile_seen_stays_that_tile_after_undo_save_and_load(tmp_path):
    """Rulings: "Entering a face-down tile turns it face up". Undoing `reveal d0=X` and stepping onto b0 must not
    turn b0 up as X; d0, turned up later by anyone, is X; the same step reveals X again."""
    path = tmp_path / "kdak.tower.json"
    m = vs_ai("kdak", path)
    m.apply_text("enter d0")
    seen = chance(m)
    ident = seen.split("=")[1]
    m.apply_text("enter a0")                     # the AI's entry
    ai_seen = chance(m)
    assert m.undo() and not m.plies
    again = resume(path, tmp_path, 1)     # reload (Ctrl-O, or quit and resume)
    again.apply_text("enter b0")
    shown = chance(again, Aiming(again, f"reveal b0={ident}"))
    assert shown != f"reveal b0={ident}", "the identity seen on d0 was turned up on b0"
    again.apply_text("enter d0")                 # the AI steps where the person first went
    assert chance(again, Aiming(again, other_outcome(again, seen))) == seen
    same = resume(path, tmp_path, 2)
    same.apply_text("enter d0")
    assert chance(same, Aiming(same, other_outcome(same, seen))) == seen
    same.apply_text("enter a0")
    assert chance(same, Aiming(same, other_outcome(same, ai_seen))) == ai_seen


def _undo_line(m: Match, rng: random.Random, first: int):
    """From a person's decision with two moves or more: play moves[first], then random AI moves and live chance up
    to the person's next decision; returns (the move texts after it, their movers), the line to take back."""
    moves = m.game.legal_moves(m.state)
    m.apply(moves[first])
    while not m.over and (m.current_player != 0):
        if m.current_player == CHANCE:
            chance(m)
        else:
            ms = m.game.legal_moves(m.state)
            m.apply(ms[rng.randrange(len(ms))])
    return [p.text for p in m.plies]


def _decision_game(name: str, tmp_path, seed: int):
    """A person+AI match of `name` advanced by random play to a decision of the person with two moves or more
    after which chance comes before the person decides again."""
    rng = random.Random(seed)
    path = tmp_path / f"{name}.tower.json"
    m = vs_ai(name, path)
    for _ in range(400):
        if m.current_player == CHANCE:
            chance(m, rng)
            continue
        if m.current_player == 0 and len(m.game.legal_moves(m.state)) >= 2:
            start = len(m.plies)
            line = _undo_line(m, rng, 0)
            if any(p.mover == CHANCE for p in m.plies[start:]):
                return m, path, start, line
            m.truncate(start)
            m.autosave()
        ms = m.game.legal_moves(m.state)
        m.apply(ms[rng.randrange(len(ms))])
    raise AssertionError("no decision found")


def _same_and_different(name: str, tmp_path, seed: int):
    m, path, start, line = _decision_game(name, tmp_path, seed)
    undone = m.plies[start:]
    assert m.undo() and len(m.plies) == start
    # the same move: every chance outcome of the undone line again, even from a source that would draw others
    same = resume(path, tmp_path, 2)
    for p in undone:
        if p.mover == CHANCE:
            assert chance(same, Aiming(same, other_outcome(same, p.text))) == p.text
        else:
            same.apply_text(p.text)
    # a different move: the next chance is drawn, not the undone line's
    other = resume(path, tmp_path, 3)
    other.apply(other.game.legal_moves(other.state)[1])
    while other.current_player != CHANCE:
        other.apply(other.game.legal_moves(other.state)[0])
    first = next(p.text for p in undone if p.mover == CHANCE)
    want = other_outcome(other, first)
    assert chance(other, Aiming(other, want)) == want


def test_carcassonne_draws_survive_undo_save_and_load(tmp_path):
    _same_and_different("carcassonne", tmp_path, 3)


def test_throwdown_draws_survive_undo_save_and_load(tmp_path):
    _same_and_different("throwdown", tmp_path, 4)


def test_kept_lines_are_in_the_record_and_checked_on_load(tmp_path):
    import json

    import pytest

    from towerworld.engine.record import RecordError, match_from_record
    m, path, start, line = _decision_game("carcassonne", tmp_path, 5)
    assert m.undo()
    data = json.loads(path.read_text("utf-8"))
    assert data["revealed"] and data["revealed"][0]["at"] == start
    data["revealed"][0]["moves"][-1] = "draw ZZ"
    with pytest.raises(RecordError, match="'revealed' line 1"):
        match_from_record(data)


def test_ziggurat_undo_never_crosses_a_draw():
    """Ziggurat is a solitaire: a draw refills the hand, and a move followed by a draw is never taken back."""
    m = Match(get_game("ziggurat"))
    while m.current_player == CHANCE:
        chance(m)
    m.apply(m.game.legal_moves(m.state)[0], save=False)
    chance(m)
    assert not m.can_undo() and not m.undone_lines
