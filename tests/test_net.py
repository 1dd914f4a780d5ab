"""Network play on localhost: whole games through the server with headless clients, and the wire proven to carry
nothing a seat may not know (the hidden-information harness applied to every client's log); seats claimed by token,
rejoining, the seat's clock, undo asked of and agreed by the others."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR, events_for
from towerworld.engine.record import load_match
from towerworld.net import client as C
from towerworld.net import protocol as P
from towerworld.net.server import Server

RESAMPLES = 3


def run(coro, timeout: float = 120):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def started(data, **kw) -> tuple[Server, str]:
    """A server on a free localhost port. Its saves skip fsync (a test's folder needs no power-cut safety; a killed
    server is tested with fsync on, in test_net_restart.py)."""
    kw.setdefault("sync", False)
    server = Server(str(data) if data is not None else None, **kw)
    await server.start("127.0.0.1", 0)
    return server, f"ws://127.0.0.1:{server.port}"


class Raw:
    """A bare connection speaking the protocol by hand (what a hostile or careful test client sends)."""

    def __init__(self, ws):
        self.ws = ws

    @classmethod
    async def open(cls, url):
        return cls(await C.open_connection(url + "/"))

    async def send(self, message):
        await self.ws.send(P.encode(message), text=True)

    async def recv(self, kind=None, timeout=10.0):
        """The next message (of class `kind`, skipping others)."""
        while True:
            msg = P.decode_server(await asyncio.wait_for(self.ws.recv(), timeout))
            if kind is None or isinstance(msg, kind):
                return msg

    async def close(self):
        await self.ws.close()


# ---- the leak check: every message a client received, against resamples of what its viewer knows ------------------
def plain(value):
    return json.loads(P.encode(value))


def check_log(lines: list[dict], record_path: str, rng: random.Random, resamples: int = RESAMPLES) -> int:
    """Raise AssertionError when anything a client received differs across resamples of what its viewer may know:
    each table against the table built for that viewer from resampled states at the same ply; the events of the
    viewer's own moves and of chance against the same move applied to resampled states; the move's text only to its
    mover. Returns the number of tables and plies checked."""
    match = load_match(record_path)
    game = match.game
    states = [match.state_at(i) for i in range(len(match.plies) + 1)]
    checked = 0
    for msg in lines:
        if msg["kind"] not in ("view", "played"):
            continue
        viewer, table = msg["viewer"], msg["table"]
        ply = table["ply"]
        state = states[ply]
        drawn = any(table.get(part) for part in ("pieces", "cells", "labels"))   # a client may ask for no layout
        assert plain(P.table_for(game, state, viewer, ply, drawn)) == table, f"ply {ply}: not the table of its state"
        for _ in range(resamples):
            other = game.resample(state, viewer, rng)
            assert plain(P.table_for(game, other, viewer, ply, drawn)) == table, \
                f"viewer {viewer}, ply {ply}: the table differs in a resample"
        if msg["kind"] == "played":
            # the move, then the chance draws told with it: ply table.ply - 1 - len(then) onwards
            steps = [(msg["mover"], msg["events"])] + [(m, ev) for m, ev in msg.get("then", [])]
            first = ply - len(steps)
            assert "text" not in msg or msg["text"] == match.plies[first].text
            for k, (mover, events) in enumerate(steps):
                done = match.plies[first + k]
                assert mover == done.mover, f"ply {first + k}: not the mover of the record"
                assert k == 0 or mover == CHANCE, f"ply {first + k}: only chance draws follow a move in its message"
                if k == 0:
                    assert ("text" in msg) == (done.mover == viewer), \
                        f"ply {first}: the move's text went to another seat"
                if done.mover in (viewer, CHANCE):
                    before = states[first + k]
                    assert events == plain(P.wire_events(list(done.events), viewer))
                    for _ in range(resamples):
                        other = game.resample(before, viewer, rng)
                        cp = game.current_player(other)
                        legal = {m for m, _ in game.chance_outcomes(other)} if cp == CHANCE else set(
                            game.legal_moves(other))
                        if done.move in legal:
                            shown = P.wire_events(events_for(game.apply_unchecked(other, done.move)[1], viewer),
                                                  viewer)
                            assert plain(shown) == events, \
                                f"viewer {viewer}, ply {first + k}: the events differ in a resample"
            checked += len(steps) - 1
        checked += 1
    return checked


def read_log(path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


async def whole_game(tmp_path, game: str, players=("remote", "remote"), watchers: int = 1, layouts=None):
    server, url = await started(tmp_path / "rooms")
    try:
        code = await C.create_room(url, game, list(players))
        invite = f"{url}/{code}"
        seats = [C.play(invite, rng=random.Random(i), log=str(tmp_path / f"seat{i}.log"), seat=i + 1,
                        layout=layouts[i] if layouts else True)
                 for i, kind in enumerate(players) if kind == "remote"]
        watch = [C.play(invite, watch=True, agent=None, log=str(tmp_path / f"watch{i}.log")) for i in range(watchers)]
        done = await asyncio.gather(*seats, *watch)
    finally:
        await server.stop()
    return code, done


@pytest.mark.parametrize("game", ["throwdown", "carcassonne"])
def test_whole_games_through_the_server_leak_nothing(tmp_path, game):
    code, done = run(whole_game(tmp_path, game))
    record = str(tmp_path / "rooms" / f"{code}.tower.json")
    match = load_match(record)
    assert match.over
    assert {d.seat for d in done} == {0, 1, SPECTATOR}
    assert all(d.result == match.result_text() for d in done)
    assert [d.refusals for d in done] == [[], [], []]          # every legal move sent was taken
    assert sum(d.moves for d in done) == sum(1 for p in match.plies if p.mover != CHANCE)
    rng = random.Random(7)
    for name in ("seat0.log", "seat1.log", "watch0.log"):
        lines = read_log(tmp_path / name)
        assert lines[0]["kind"] == "joined"
        assert check_log(lines, record, rng) >= len(match.plies) // 2


def test_a_client_that_draws_nothing_is_sent_no_layout_and_the_others_theirs(tmp_path):
    """A headless seat asks for tables without the layout: it still gets the HUD, its legal moves and its events;
    the other seat, drawing, gets its layout; both logs pass the leak check."""
    code, done = run(whole_game(tmp_path, "throwdown", watchers=0, layouts=(False, True)))
    record = str(tmp_path / "rooms" / f"{code}.tower.json")
    match = load_match(record)
    assert match.over and all(d.result == match.result_text() for d in done)
    bare, drawn = read_log(tmp_path / "seat0.log"), read_log(tmp_path / "seat1.log")
    tables = [m["table"] for m in bare if m["kind"] in ("view", "played")]
    assert tables and all(not t.get("pieces") and not t.get("cells") and not t.get("labels") for t in tables)
    assert all(t["hud"] for t in tables)
    assert any(t["legal"] for t in tables if t["to_move"] == 0)
    assert any(m["events"] for m in bare if m["kind"] == "played" and m["mover"] == 0)
    assert all(m["table"]["pieces"] for m in drawn if m["kind"] in ("view", "played"))
    for lines in (bare, drawn):
        assert check_log(lines, record, random.Random(2), resamples=2)


def test_the_leak_check_catches_a_table_shown_whole(tmp_path):
    """A server that sent one seat the whole truth at one ply (the other hand face up) is caught."""
    code, _ = run(whole_game(tmp_path, "throwdown", watchers=0))
    record = str(tmp_path / "rooms" / f"{code}.tower.json")
    match = load_match(record)
    lines = read_log(tmp_path / "seat0.log")
    assert check_log(lines, record, random.Random(1), resamples=1)
    i = next(i for i, m in enumerate(lines) if m["kind"] == "played" and m["table"]["ply"] > 4)
    ply = lines[i]["table"]["ply"]
    whole = plain(P.table_for(match.game, match.state_at(ply), OMNISCIENT, ply))
    whole["legal"] = lines[i]["table"]["legal"]
    leaky = lines[:i] + [dict(lines[i], table=whole)] + lines[i + 1:]
    with pytest.raises(AssertionError, match="ply"):
        check_log(leaky, record, random.Random(1), resamples=3)


def test_the_leak_check_catches_events_meant_for_another_seat(tmp_path):
    code, _ = run(whole_game(tmp_path, "throwdown", watchers=0))
    record = str(tmp_path / "rooms" / f"{code}.tower.json")
    match = load_match(record)
    lines = read_log(tmp_path / "seat1.log")
    # the first chance draw that shows seat 0 something seat 1 may not see, sent to seat 1 unfiltered (a draw told
    # with the move before it, or one told on its own)
    def draws(m):
        then = m.get("then", [])
        first = m["table"]["ply"] - 1 - len(then)
        own = [(None, first)] if m["mover"] == CHANCE else []
        return own + [(k, first + 1 + k) for k in range(len(then))]
    for i, m in enumerate(lines):
        if m["kind"] != "played":
            continue
        hit = next(((k, match.plies[at]) for k, at in draws(m)
                    if events_for(match.plies[at].events, 0) != events_for(match.plies[at].events, 1)), None)
        if hit is not None:
            break
    else:
        pytest.fail("no secret draw in this game")
    k, ply = hit
    unfiltered = plain([P.WireEvent(str(e.kind), e.text, tuple(e.pieces), e.reveals, tuple(e.areas))
                        for e in ply.events])
    if k is None:
        changed = dict(lines[i], events=unfiltered)
    else:
        then = [list(step) for step in lines[i]["then"]]
        then[k][1] = unfiltered
        changed = dict(lines[i], then=then)
    leaky = lines[:i] + [changed] + lines[i + 1:]
    with pytest.raises(AssertionError):
        check_log(leaky, record, random.Random(1))


# ---- seats claimed by token -----------------------------------------------------------------------------------------
def test_seats_are_claimed_by_token_and_moves_only_from_their_holder(tmp_path):
    async def scenario():
        server, url = await started(None)
        try:
            code = await C.create_room(url, "throwdown", ["remote", "remote"])
            a, b, c, w = [await Raw.open(url) for _ in range(4)]
            await a.send(P.Join(code, name="Ann", seat=1))
            ja = await a.recv(P.Joined)
            assert ja.seat == 0 and len(ja.token) >= 32          # 192 random bits, url-safe
            # the invite alone cannot take a seat someone holds
            await b.send(P.Join(code, seat=1))
            refused = await b.recv(P.Refused)
            assert refused.text == "Seat 1 is taken; its player may rejoin with their token." and refused.of == "join"
            await b.send(P.Join(code, token="x" * 40))
            assert (await b.recv(P.Refused)).text == "That token holds no seat in this room."
            await b.send(P.Join(code, name="Bob"))
            jb = await b.recv(P.Joined)
            assert jb.seat == 1 and jb.token != ja.token
            await c.send(P.Join(code))
            assert (await c.recv(P.Refused)).text == "Every seat of this room is taken; watch it instead."
            view = await a.recv(P.View)
            while [s.name for s in view.room.seats] != ["Ann", "Bob"]:
                view = await a.recv(P.View)
            assert [s.held for s in view.room.seats] == [True, True]
            # a move from the wrong connection is refused: out of turn, or from a watcher
            to_move = view.table.to_move
            assert to_move in (0, 1)
            mover, other = (a, b) if to_move == 0 else (b, a)
            await other.send(P.Play("anything"))
            assert (await other.recv(P.Refused)).text == f"It is not your turn: Player {to_move + 1} is to move."
            await w.send(P.Watch(code))
            wv = await w.recv(P.View)
            assert wv.viewer == SPECTATOR and wv.table.legal == []
            await w.send(P.Play("x"))
            assert (await w.recv(P.Refused)).text == "You are watching: only a seated player makes moves."
            # the seat's holder moves
            await mover.send(P.Play("no such move", view.table.ply))
            refused = await mover.recv(P.Refused)
            assert refused.of == "move" and refused.text.endswith(".")
            legal = server.rooms[code].table(to_move).legal         # what the mover was sent
            await mover.send(P.Play(legal[0], view.table.ply))
            played = await mover.recv(P.Played)
            assert played.mover == to_move and played.text == legal[0]
            # the holder of the other seat sees the move without its text
            seen = await other.recv(P.Played)
            assert seen.mover == to_move and seen.text == ""
            for x in (a, b, c, w):
                await x.close()
        finally:
            await server.stop()
    run(scenario())


def test_a_dropped_seat_rejoins_with_its_token_and_finds_the_table_as_it_was(tmp_path):
    async def scenario():
        server, url = await started(tmp_path / "rooms")
        try:
            code = await C.create_room(url, "carcassonne", ["remote", "remote"])
            invite = f"{url}/{code}"
            first = asyncio.ensure_future(C.play(invite, rng=random.Random(1), stop_after=5))
            second = asyncio.ensure_future(C.play(invite, rng=random.Random(2)))
            left = await first                     # seat 0 leaves after its fifth move
            assert left.moves == 5 and left.token
            room = server.rooms[code]
            assert left.seat not in room.conns
            rejoin = await Raw.open(url)
            await rejoin.send(P.Join(code, token=left.token))
            joined = await rejoin.recv(P.Joined)
            assert joined.seat == left.seat
            view = await rejoin.recv(P.View)
            assert plain(view.table) == plain(room.table(left.seat))         # rebuilt from the server's match
            assert view.room.seats[left.seat].connected
            await rejoin.close()
            finish = await C.play(invite, token=left.token, rng=random.Random(3))
            rest = await second
            assert finish.seat == left.seat and finish.result and finish.result == rest.result
        finally:
            await server.stop()
    run(scenario())


def test_the_seat_clock_is_shown_and_an_ai_moves_when_it_runs_out(tmp_path):
    async def scenario():
        server, url = await started(tmp_path / "rooms")
        try:
            code = await C.create_room(url, "carcassonne", ["remote", "remote"], clock=0.3, clock_mode="ai")
            a, b = await Raw.open(url), await Raw.open(url)
            await a.send(P.Join(code))
            await a.recv(P.Joined)
            await b.send(P.Join(code))
            await b.recv(P.Joined)
            view = await b.recv(P.View)
            while not all(s.connected for s in view.room.seats):
                view = await b.recv(P.View)
            clock = view.room.clock
            assert clock is not None and clock.seat == view.table.to_move and clock.limit == 0.3
            assert clock.mode == "ai"
            waiting = view.table.to_move
            # nobody moves: the clock runs out and an AI moves for the seat to move; both are told
            notice = await b.recv(P.Notice)
            assert notice.text == f"Player {waiting + 1}'s time ran out: an AI moved for them."
            played = await b.recv(P.Played)
            assert played.mover == waiting
        finally:
            await server.stop()
    run(scenario())


def test_undo_is_asked_of_the_other_player_and_done_only_when_agreed(tmp_path):
    async def scenario():
        server, url = await started(tmp_path / "rooms")
        try:
            code = await C.create_room(url, "elevation", ["remote", "remote"])
            a, b = await Raw.open(url), await Raw.open(url)
            await a.send(P.Join(code, seat=1))
            await a.recv(P.Joined)
            await b.send(P.Join(code, seat=2))
            await b.recv(P.Joined)
            view = await a.recv(P.View)
            while view.table.to_move != 0 or not all(s.held for s in view.room.seats):
                view = await a.recv(P.View)
            before = plain(view.table)
            await a.send(P.Play(view.table.legal[0], view.table.ply))
            played = await a.recv(P.Played)
            assert played.mover == 0 and played.table.ply == 1
            await b.send(P.Undo())
            assert (await b.recv(P.Refused)).of == "undo"            # seat 2 has no move to take back
            await a.send(P.Undo())
            asked = await b.recv(P.UndoAsked)
            assert asked.seat == 0 and asked.text.endswith("Do you agree?")
            await a.send(P.UndoAnswer(True))
            assert (await a.recv(P.Refused)).text == "Only the other players at the table answer this undo."
            await b.send(P.UndoAnswer(False))
            assert (await a.recv(P.UndoDone)).agreed is False
            assert server.rooms[code].match.plies and len(server.rooms[code].match.plies) == 1
            await a.send(P.Undo())
            await b.recv(P.UndoAsked)
            await b.send(P.UndoAnswer(True))
            done = await a.recv(P.UndoDone)
            assert done.agreed and done.text == "Player 1 took back their last move."
            view = await a.recv(P.View)
            assert plain(view.table) == before
            assert load_match(str(tmp_path / "rooms" / f"{code}.tower.json")).plies == []
        finally:
            await server.stop()
    run(scenario())


def test_a_table_asked_for_while_a_move_is_saved_is_sent_after_the_move_and_never_told_it_again(tmp_path):
    """A watcher who arrives while a move is being saved must not see the move in its first table and then be told
    it again as a move (a window would play it twice)."""
    async def scenario():
        server, url = await started(tmp_path / "rooms")
        saving, release = asyncio.Event(), asyncio.Event()
        real = server._save

        async def slow_save(room):
            if room.match.plies:
                saving.set()
                await release.wait()
            await real(room)
        server._save = slow_save
        try:
            code = await C.create_room(url, "elevation", ["remote", "remote"])
            a, b = await Raw.open(url), await Raw.open(url)
            await a.send(P.Join(code, seat=1))
            await b.send(P.Join(code, seat=2))
            view = await a.recv(P.View)
            while not all(s.held for s in view.room.seats):
                view = await a.recv(P.View)
            await a.send(P.Play(view.table.legal[0], view.table.ply))
            await asyncio.wait_for(saving.wait(), 10)
            w = await Raw.open(url)
            await w.send(P.Watch(code))
            await asyncio.sleep(0.1)            # the watch is at the server while the move is still being saved
            release.set()
            seen = []
            try:
                while True:
                    seen.append(await w.recv((P.View, P.Played), timeout=0.5))
            except asyncio.TimeoutError:
                pass
            tables = [m.table.ply for m in seen if isinstance(m, P.View)]
            assert tables and tables[0] == 1
            assert [m.table.ply for m in seen if isinstance(m, P.Played) and m.table.ply <= tables[0]] == []
        finally:
            release.set()
            await server.stop()
    run(scenario())


@pytest.mark.parametrize("game", ["kdak", "elevation", "ziggurat"])
def test_every_other_game_finishes_through_the_server_and_leaks_nothing(tmp_path, game):
    from towerworld.engine.registry import get_game
    rules = get_game(game)
    _, seats = rules.resolve_options(None, None, None)
    resamples = 0 if rules.perfect_information else 2      # a perfect-information resample is the state itself
    code, done = run(whole_game(tmp_path, game, players=["remote"] * seats, watchers=1))
    record = str(tmp_path / "rooms" / f"{code}.tower.json")
    match = load_match(record)
    assert match.over and all(d.result == match.result_text() for d in done)
    for name in [f"seat{i}.log" for i in range(seats)] + ["watch0.log"]:
        assert check_log(read_log(tmp_path / name), record, random.Random(3), resamples=resamples)


def test_an_ai_seat_plays_on_the_server_and_its_moves_reach_the_person_as_events(tmp_path):
    code, done = run(whole_game(tmp_path, "throwdown", players=("remote", "throwdown-greedy"), watchers=0))
    record = str(tmp_path / "rooms" / f"{code}.tower.json")
    match = load_match(record)
    assert match.over and done[0].result == match.result_text()
    assert match.players[1].kind == "ai" and match.players[1].agent == "throwdown-greedy"
    lines = read_log(tmp_path / "seat0.log")
    ai_moves = [m for m in lines if m["kind"] == "played" and m["mover"] == 1]
    since = next(m["table"]["ply"] for m in lines if m["kind"] in ("view", "played"))   # the AI may open before
    assert [m["table"]["ply"] - len(m.get("then", [])) for m in ai_moves] == [
        i + 1 for i, p in enumerate(match.plies) if p.mover == 1 and i >= since]
    assert ai_moves
    assert all("text" not in m for m in ai_moves)
    assert check_log(lines, record, random.Random(5))


# ---- a headless client playing as a searching agent: the server searches from the seat's knowledge -----------------
def test_a_headless_client_plays_as_a_searching_agent_asked_of_the_server(tmp_path):
    """`join --agent NAME[:LEVEL]` joins headless as an agent: a client holds no state, so each turn it asks the
    server (`suggest`), which searches from what that seat may know and answers that connection alone; the client
    plays the move as its own, and a whole Throwdown game (hidden hands) finishes, its log leaking nothing."""
    async def go():
        server, url = await started(tmp_path / "rooms")
        try:
            code = await C.create_room(url, "throwdown", ["remote", "remote"])
            invite = f"{url}/{code}"
            done = await asyncio.gather(
                C.play(invite, agent="throwdown-greedy", log=str(tmp_path / "seat0.log")),
                C.play(invite, agent="random", rng=random.Random(2), log=str(tmp_path / "seat1.log")))
        finally:
            await server.stop()
        return code, done
    code, done = run(go(), timeout=300)
    record = str(tmp_path / "rooms" / f"{code}.tower.json")
    match = load_match(record)
    assert match.over and done[0].result == match.result_text()
    lines = read_log(tmp_path / "seat0.log")
    suggested = [m for m in lines if m["kind"] == "suggested"]
    mine = [p for p in match.plies if p.mover == done[0].seat]
    assert len(suggested) == len(mine) == done[0].moves > 0
    assert [m["text"] for m in suggested] == [p.text for p in mine]     # it played what the server searched
    assert not any(m["kind"] == "suggested" for m in read_log(tmp_path / "seat1.log"))
    assert check_log(lines, record, random.Random(5))


def test_a_suggestion_is_refused_in_one_sentence_when_it_may_not_be_given(tmp_path):
    """Only a seated player, on their turn, may ask, and only of an agent that sees a seat: Ziggurat's solver sees
    the pile's order, so asking it would tell a seat what it may not know."""
    async def go():
        server, url = await started(None)
        said = {}
        try:
            code = await C.create_room(url, "throwdown", ["remote", "remote"])
            a, b, w = await Raw.open(url), await Raw.open(url), await Raw.open(url)
            await w.send(P.Watch(code))
            await w.recv(P.View)
            await w.send(P.Suggest("random"))
            said["watcher"] = (await w.recv(P.Refused)).text
            await a.send(P.Join(code))
            me = (await a.recv(P.Joined)).seat
            await b.send(P.Join(code))
            await b.recv(P.Joined)
            view = await a.recv(P.View)
            while view.table.to_move != me and view.table.to_move != 1 - me:
                view = await a.recv((P.View, P.Played))
            first, other = (a, b) if view.table.to_move == me else (b, a)
            await other.send(P.Suggest("random"))
            said["not your turn"] = (await other.recv(P.Refused)).text
            await first.send(P.Suggest("nobody"))
            said["unknown"] = (await first.recv(P.Refused)).of
            await first.send(P.Suggest("mcts:mighty"))
            said["level"] = (await first.recv(P.Refused)).text
            await first.send(P.Suggest("random"))
            said["given"] = (await first.recv(P.Suggested)).ply
            zig = await C.create_room(url, "ziggurat", ["remote"])
            z = await Raw.open(url)
            await z.send(P.Join(zig))
            await z.recv(P.Joined)
            await z.send(P.Suggest("solver"))
            said["oracle"] = (await z.recv(P.Refused)).text
            for c in (a, b, w, z):
                await c.close()
        finally:
            await server.stop()
        return said
    said = run(go())
    assert said["watcher"] == "You are watching: only a seated player may ask for a move."
    assert said["not your turn"] == "It is not your turn."
    assert said["unknown"] == "agent"
    assert said["level"].startswith("The search has no level 'mighty': use ")
    assert said["given"] >= 0
    assert said["oracle"].startswith("'solver' is not an agent that plays a seat here: use one of ")
    assert "solver" not in said["oracle"].split("use one of ")[1]


@pytest.mark.parametrize("game", ["kdak", "elevation", "ziggurat", "throwdown", "carcassonne"])
def test_a_drawn_table_tells_the_clicks_of_each_legal_move_in_its_own_pieces_and_places(game):
    """A client that draws is sent, for each legal move, the clicks that make it at the local table: every pick is a
    piece or place of the table that viewer is sent, or a button's word that names no piece or place at all (never
    a piece only another seat may see); followed click by click, each path is its own move's and no other's."""
    from towerworld.app.picks import path_progress
    from towerworld.engine.registry import get_game
    rules = get_game(game)
    rng = random.Random(4)
    state = rules.new_state()
    checked = 0
    for ply in range(24):
        cp = rules.current_player(state)
        if cp < 0:
            if cp != CHANCE:
                break
            outcomes = rules.chance_outcomes(state)
            state, _ = rules.apply(state, rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        table = P.table_for(rules, state, cp, ply)
        assert len(table.paths) == len(table.legal) > 0
        whole = rules.layout(state, OMNISCIENT)
        everything = set(whole.pieces) | set(whole.cells)
        seen = {p.id for p in table.pieces} | {c.id for c in table.cells}
        made: dict[tuple, list[str]] = {}       # the clicks in full -> the moves whose paths they complete
        for text, wire in zip(table.legal, table.paths):
            path = P.path_of(wire)
            for step in path:
                for pick in (step if isinstance(step, frozenset) else (step,)):
                    assert pick in seen or pick not in everything, f"{text}: the path names {pick}, unseen"
            picks = [p for step in path for p in (sorted(step) if isinstance(step, frozenset) else (step,))]
            progress = path_progress(path, picks)
            assert progress is not None and progress.done, f"{text}: its own clicks do not make it"
            made.setdefault(tuple(picks), []).append(text)
        assert all(len(moves) == 1 for moves in made.values()), "one set of clicks makes two moves"
        assert set(table.asks) <= set(table.legal)
        checked += 1
        state, _ = rules.apply(state, rng.choice(rules.legal_moves(state)))
    assert checked >= 5
    # a table for a client that draws nothing has no paths
    assert P.table_for(rules, rules.new_state(), rules.current_player(rules.new_state()), 0, layout=False).paths == []
