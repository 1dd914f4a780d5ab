"""Every picture takes a viewer: `render` and `replay --png/--video` show an unfinished game only as one player or a
spectator may see it (`--viewer`, default spectator), never every hand; a finished game may be shown whole. A numbered
Ziggurat deal keeps its order out of the record: the record holds each draw as it happened."""
from __future__ import annotations

import json
import random

import pytest

from towerworld.cli import main
from towerworld.engine.driver import answer_chance
from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.record import load_match, save_match
from towerworld.engine.registry import get_game


@pytest.fixture(scope="module")
def throwdown_unfinished(tmp_path_factory):
    """A Throwdown game between two people, a few turns in, saved unfinished."""
    game = get_game("throwdown")
    m = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=11)
    rng = random.Random(11)
    for _ in range(6):
        answer_chance(m)
        moves = game.legal_moves(m.state)
        m.apply(moves[rng.randrange(len(moves))], save=False)
    answer_chance(m)
    assert not m.over
    path = tmp_path_factory.mktemp("td") / "unfinished.tower.json"
    save_match(m, str(path))
    return str(path)


def _hands_up(layout) -> list[str]:
    return sorted(pid for pid, pose in layout.pieces.items() if pid.startswith("card:hand:") and pose.face_up)


@pytest.fixture
def drawn(monkeypatch):
    """The layouts `render` and the viewers `replay` would draw, without drawing."""
    import towerworld.app.replay as replay
    import towerworld.scene.offscreen as offscreen
    seen: dict = {}
    monkeypatch.setattr(offscreen, "render_layout", lambda layout, out, *a, **k: seen.setdefault("layout", layout))

    def film(match, **kw):
        seen["viewer"] = kw["viewer"]
        return []

    def window(match, **kw):
        seen["viewer"] = kw["viewer"]
        return 0
    monkeypatch.setattr(replay, "render_replay", film)
    monkeypatch.setattr(replay, "run_replay", window)
    return seen


def test_render_shows_an_unfinished_game_as_a_spectator_sees_it(throwdown_unfinished, tmp_path, drawn):
    m = load_match(throwdown_unfinished)
    assert _hands_up(m.game.layout(m.state, OMNISCIENT)), "the test needs hands that are hidden"
    assert main(["render", throwdown_unfinished, "--out", str(tmp_path / "a.png")]) == 0
    assert drawn["layout"] == m.game.layout(m.state, SPECTATOR)
    assert not _hands_up(drawn["layout"]), "render showed hands face up"


def test_render_as_one_player_shows_only_that_hand(throwdown_unfinished, tmp_path, drawn):
    m = load_match(throwdown_unfinished)
    assert main(["render", throwdown_unfinished, "--out", str(tmp_path / "b.png"), "--viewer", "2"]) == 0
    up = _hands_up(drawn["layout"])
    assert up and all(pid.startswith("card:hand:1:") for pid in up)
    assert drawn["layout"] == m.game.layout(m.state, 1)


def test_every_hand_only_for_a_finished_game(throwdown_unfinished, tmp_path, drawn, capsys):
    assert main(["render", throwdown_unfinished, "--out", str(tmp_path / "c.png"), "--viewer", "all"]) == 2
    assert "not finished" in capsys.readouterr().err
    assert main(["render", throwdown_unfinished, "--out", str(tmp_path / "c.png"), "--viewer", "3"]) == 2
    assert "from 1 to 2" in capsys.readouterr().err


@pytest.mark.parametrize("flag, out", [("--png", "x.png"), ("--video", "x.mp4"), (None, None)])
def test_replay_draws_an_unfinished_game_for_a_viewer(throwdown_unfinished, tmp_path, drawn, flag, out):
    extra = [flag, str(tmp_path / out)] if flag else ["--frames", "1"]
    assert main(["replay", throwdown_unfinished, *extra]) == 0
    assert drawn.pop("viewer") == SPECTATOR
    assert main(["replay", throwdown_unfinished, *extra, "--viewer", "1"]) == 0
    assert drawn.pop("viewer") == 0


def test_the_replay_window_says_a_secret_draw_only_in_the_events_its_viewer_may_read(throwdown_unfinished):
    from towerworld.app.replay import shown_move
    m = load_match(throwdown_unfinished)
    secret = [p for p in m.plies if p.mover == CHANCE and any(e.visible_to is not None for e in p.events)]
    assert secret, "the test needs a card drawn into a hand"
    for ply in secret:
        assert shown_move(ply, SPECTATOR) == "" and shown_move(ply, OMNISCIENT) == ply.text
    decision = next(p for p in m.plies if p.mover >= 0)
    assert shown_move(decision, SPECTATOR) == decision.text


def test_a_numbered_ziggurat_record_holds_each_draw_not_the_deal(tmp_path):
    """Variant numbered: 'nobody sees' the pile order, so no move of the record names the deal: the record holds
    the draws as they happened, and loading it gives the same game (the deal the draws pinned down)."""
    game = get_game("ziggurat")
    m = Match(game, variant="numbered")                    # live chance
    rng = random.Random(5)
    while len(m.plies) < 20 and not m.over:
        if m.current_player == CHANCE:
            answer_chance(m)
        else:
            moves = game.legal_moves(m.state)
            m.apply(moves[rng.randrange(len(moves))], save=False)
    path = tmp_path / "numbered.tower.json"
    save_match(m, str(path))
    moves = json.loads(path.read_text("utf-8"))["moves"]
    chance = [p.text for p in m.plies if p.mover == CHANCE]
    assert chance and all(t.startswith("draw ") for t in chance), chance
    assert not any(t.startswith("deal") for t in moves)
    assert m.state.deal > 0, "the draws had not pinned the deal down"
    back = load_match(str(path))
    assert back.state == m.state
