"""The last move stays marked on the table until the next one, in replay and in play: a violet ring or frame on what
it moved or named (the tile laid, the pawn and the tile it reached, the domino placed, the card that hit and the tower
it hit), a fainter one where a piece stood before, and the status line says the move in words with the player's name.
"""
from __future__ import annotations

import random

import pytest

from towerworld.ai import make_agent
from towerworld.engine.driver import play_match
from towerworld.engine.game import CHANCE
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game

try:
    from tabletools import settle
except ImportError:  # tests run as a package
    from tests.tabletools import settle

# what each game's last move must have marked at least once in a game: the piece kinds of the sentence
EXPECTED = {
    "throwdown": ("card:play:", "tower:"),         # the attacking card and the attacked tower
    "carcassonne": ("tile:", "meeple:"),           # the tile just laid, the follower
    "elevation": ("terr:",),                       # the tiles dug (and the piece that moved: see below)
    "kdak": ("pawn:", "tile:"),                    # the pawn's move and the tile it reached
    "ziggurat": ("domino:",),                      # the domino placed
}
PLIES = {"throwdown": 60, "carcassonne": 24, "elevation": 12, "kdak": 30, "ziggurat": 16}


def _finished(name: str, plies: int, seed: int = 5) -> Match:
    game = get_game(name)
    match = _named_players(Match(game, seed=seed))
    play_match(match, {i: make_agent("random", game, seed=i) for i in range(len(match.players))},
               random.Random(seed), max_plies=plies)
    return match


def _named_players(match: Match) -> Match:
    match.players = [PlayerSpec(name) for name in ("Ann", "Bob", "Cy", "Di")[:len(match.players)]]
    return match


def _named(match: Match, k: int, viewer: int, new) -> list[str]:
    """What the events of ply k that `viewer` sees name and the layout after it shows (pieces or places)."""
    return [p for e in match.plies[k].events if e.seen_by(viewer) for p in e.pieces
            if p in new.pieces or p in new.cells]


def _marked_pieces(stage) -> set[str]:
    return {k for k in stage.last_marked() if not k.startswith(("left:", "trail:"))}


def _check_marks(table, match: Match, k: int) -> set[str]:
    """The marks on the table after ply k are those of ply k: on each thing it named, where that thing stands, and
    where each moved piece stood before; returns the ids marked."""
    game, viewer = match.game, table.viewer
    old = game.layout(match.state_at(k), viewer)
    new = game.layout(match.state_at(k + 1), viewer)
    named = _named(match, k, viewer, new)
    marked = table.stage.last_marked()
    pieces = _marked_pieces(table.stage)
    if named:
        assert pieces == set(named), (match.plies[k].text, pieces, named)
    else:       # events that name nothing (a pass, a draw): what changed, a few pieces at most, or nothing
        changed = {p for p in set(old.pieces) | set(new.pieces) if old.pieces.get(p) != new.pieces.get(p)}
        assert pieces <= changed
    for pid in pieces:
        x, y, _z = marked[pid]
        if pid in table.stage.nodes:
            at = table.stage.nodes[pid].getPos(table.stage.root)
        else:
            cell = new.cells[pid]
            at = (cell.x, cell.y)
        assert abs(x - at[0]) < 0.01 and abs(y - at[1]) < 0.01
    for pid in pieces:
        a, b = old.pieces.get(pid), new.pieces.get(pid)
        if a is not None and b is not None and (abs(a.x - b.x) > 1 or abs(a.y - b.y) > 1):
            x, y, _z = marked["left:" + pid]
            assert abs(x - a.x) < 0.01 and abs(y - a.y) < 0.01, "the place the piece left is marked"
    return pieces


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_marks_each_move_until_the_next(showbase, name):
    """Step through a replay: after every move a player made, its marks are on what it changed, the marks of the
    move before are gone, a chance draw keeps the player's move marked, and the status line says it in words."""
    from towerworld.app.replay import ReplayTable
    match = _finished(name, PLIES[name])
    table = ReplayTable(match, (640, 400), frames=1)
    try:
        table.playing = False
        assert table.stage.last_marked() == {} and table.last_words == ""
        seen: set[str] = set()
        moved_pieces = False
        before: set[str] = set()
        last = None
        for ply in range(len(match.plies)):
            table.step(1)
            if table.anim is not None:
                table.anim.finish()
            p = match.plies[ply]
            if p.mover == CHANCE:
                if last is not None:      # a draw is no move: the player's move stays marked
                    assert _marked_pieces(table.stage) <= before | set(table.stage.layout.cells)
                continue
            marked = _check_marks(table, match, ply)
            words = table.game.describe_move(match.state_at(ply), p.move)
            assert table.last_words.endswith(table.with_names(words))
            assert match.players[p.mover].name in table.last_words
            assert table.last_words in table.hud.status.textNode.getText()
            seen |= {m.rsplit(":", 1)[0] + ":" if m.count(":") else m for m in marked}
            moved_pieces = moved_pieces or any(k.startswith("left:") for k in table.stage.last_marked())
            before, last = marked, ply
        for prefix in EXPECTED[name]:
            assert any(s.startswith(prefix) for s in seen), (prefix, seen)
        assert moved_pieces, "some move left a place behind, and that place was marked"
        # a jump back shows the marks of the move before that position
        table.jump(0)
        assert table.stage.last_marked() == {} and table.last_words == ""
        if last is not None:
            table.jump(last + 1)
            assert _check_marks(table, match, last) == before
    finally:
        table.close()


@pytest.mark.parametrize("name", ["elevation", "kdak", "ziggurat"])
def test_play_marks_a_persons_move_then_the_next(showbase, name):
    """At the play table: a person moves, the move is marked; the next move, the mark moves to it."""
    from towerworld.app.play import PlayTable
    game = get_game(name)
    match = _named_players(Match(game, seed=3))
    table = PlayTable(match, (640, 400), frames=1)
    try:
        marks = []
        for _ in range(2):
            settle(table)
            state = table.match.state
            move = random.Random(len(table.match.plies)).choice(game.legal_moves(state))
            table.submit(move)
            if table.confirming is not None:
                table.commit_exact()
            settle(table)
            k = table.last_decision(len(table.match.plies))
            assert table.match.plies[k].move == move
            marks.append(_check_marks(table, table.match, k))
            assert table.last_words.endswith(game.describe_move(table.match.state_at(k), move))
        assert marks[0] and marks[1]
    finally:
        table.close()


@pytest.mark.parametrize("name", ["carcassonne", "kdak", "throwdown"])
def test_a_replay_video_marks_each_move_in_the_pause_after_it_as_the_window_does(showbase, name):
    """A replay rendered offscreen (the video's frames, the still at --at) marks the last move as the replay window
    does: in the pause after a player's move its marks are on what it changed, while the next player's move plays
    they are gone, and a chance draw keeps the player's move marked."""
    from towerworld.app.replay import ReplayFilm
    match = _finished(name, PLIES[name])
    film = ReplayFilm(showbase.render, match)
    try:
        segments = film.segments
        film.seek(segments[0].duration / 2)
        assert film.stage.last_marked() == {}, "nothing is marked before the first move"
        last = None
        marked: set[str] = set()
        for i, seg in enumerate(segments[:-1]):
            if seg.ply < 0:
                continue
            mover = match.plies[seg.ply].mover
            film.seek(seg.start + seg.duration / 2)
            if mover == CHANCE:
                if last is not None:
                    assert _marked_pieces(film.stage) == before, "a draw keeps the move before marked"
                continue
            assert film.stage.last_marked() == {}, "a move under way: the marks of the move before are gone"
            after = segments[i + 1]
            film.seek(after.start + after.duration / 2)
            before = _check_marks(film, match, seg.ply)     # the move just played is marked (a pass marks nothing)
            marked |= before
            last = seg.ply
        assert last is not None and marked
        film.seek(film.duration)        # the still at the end: the last move marked
        _check_marks(film, match, last)
    finally:
        film.destroy()


def test_a_rendered_still_shows_the_last_move_in_its_colour(showbase, tmp_path):
    """`towerworld render GAME --ply N` draws the last move's marks as the table does: the picture of a position
    after a move holds the marks' violet, which the same position drawn without marks does not."""
    from towerworld.scene import marks
    from towerworld.scene.offscreen import render_layout
    from towerworld.scene.stage import last_move_before

    match = _finished("carcassonne", 9)
    viewer = 0
    layout = match.game.layout(match.state, viewer)
    last = last_move_before(match, len(match.plies), viewer)
    assert last is not None and last.pieces
    marked = render_layout(layout, str(tmp_path / "marked.png"), 640, 400, last=last)
    plain = render_layout(layout, str(tmp_path / "plain.png"), 640, 400)
    r, g, b = (round(255 * c) for c in marks.LAST_MOVE[:3])

    def violet(path: str) -> int:
        width, height, rgb = _read_png(path)
        return sum(1 for i in range(0, len(rgb), 3)
                   if abs(rgb[i] - r) < 60 and rgb[i + 1] < g + 50 and rgb[i + 2] > b - 80
                   and rgb[i + 2] - rgb[i + 1] > 90)
    assert violet(marked) > 100, violet(marked)
    assert violet(plain) < violet(marked) / 20


def _read_png(path: str) -> tuple[int, int, bytes]:
    """An 8-bit RGB PNG as offscreen.write_png writes it (unfiltered rows): width, height, the RGB bytes."""
    import struct
    import zlib
    data = open(path, "rb").read()
    width, height = struct.unpack(">II", data[16:24])
    pos, idat = 8, b""
    while pos < len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        if data[pos + 4:pos + 8] == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 3 + 1
    return width, height, b"".join(raw[i * stride + 1:(i + 1) * stride] for i in range(height))
