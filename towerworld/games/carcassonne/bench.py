"""Carcassonne speed goals: rows for scripts/bench.py (nothing here asserts).

Goals: a whole random 2-player game with The Tower and the Black Tower in under 10 ms median; on equal work with the
fastest public Python Carcassonne engine (33fred33/CarcassonneAI: a random 2-player base game with farms, every ply
listing the legal moves and applying one) at least 10 times as fast (carcassonne_vs_peer; the peer's figure is in
docs/measurements/carcassonne-peer.md, or measured beside ours with `scripts/bench.py --carcassonne-peer PATH`); the
search's CPU cost per simulation at most 1.5 times as much at the last tiles as at the first
(carcassonne_search_cost_growth).
The search rate itself (fixed budget, along whole games) and the draw calls are scripts/bench.py's rows for every game;
the board while a move animates and the cost of combining come from the scene's bench (towerworld/scene/bench.py: a
game's rows never import the scene).
"""
from __future__ import annotations

import cProfile
import importlib
import importlib.util
import os
import pstats
import random
import statistics
import sys
import time
import types

from towerworld.engine.game import CHANCE, TERMINAL
from towerworld.engine.measure import checked_plies_per_second
from towerworld.games.carcassonne import GAME
from towerworld.games.carcassonne.rules import legal_moves
from towerworld.games.carcassonne.strategy import SearchAgent


def random_games(options: dict | None = None, players: int = 2, seconds: float = 1.0) -> tuple[float, float, float]:
    """(games per second, median ms per game, mean plies per game) of uniformly random play from the start."""
    start_state = GAME.new_state(options, players)
    rng = random.Random(17)
    times: list[float] = []
    plies = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds or len(times) < 5:
        t = time.perf_counter()
        end = GAME.random_playout(start_state, rng)
        times.append(time.perf_counter() - t)
        plies += len(end.tiles)
    return len(times) / sum(times), statistics.median(times) * 1000, plies / len(times)


BASE = {"tower": False, "black_tower": False}
# The peer's figure on this machine: a random 2-player base game with farms, every ply listing the legal moves and
# applying one, median of games taken in turns with ours in one process (docs/measurements/carcassonne-peer.md says
# how).
PEER_MS = 22.5
PEER_GOAL = ">= 10"


def equal_work_game(rng: random.Random, options: dict | None = BASE) -> int:
    """One random 2-player game through the normal path, as the peer plays its own: every ply the legal moves listed
    (legal_moves) and one applied (apply_unchecked; `apply` would list them a second time to check the move), tiles
    drawn with their bag frequencies (sample_chance). Returns the plies."""
    s = GAME.new_state(options, 2)
    plies = 0
    while (cp := GAME.current_player(s)) != TERMINAL:
        if cp == CHANCE:
            s, _ = GAME.apply_unchecked(s, GAME.sample_chance(s, rng))
        else:
            moves = GAME.legal_moves(s)
            s, _ = GAME.apply_unchecked(s, moves[int(rng.random() * len(moves))])
        plies += 1
    return plies


def peer_game(peer, rng: random.Random) -> None:
    """One random 2-player base game with farms of the peer (its CarcassonneState module), its own way: every ply
    its availableMoves() listed and one played with move()."""
    state = peer.CarcassonneState(_PeerSeat(), _PeerSeat())
    while not state.isGameOver:
        moves = state.availableMoves()
        state.move(moves[int(rng.random() * len(moves))].move)


class _PeerSeat:
    """What the peer's state keeps of a player (it only holds them)."""
    name = "random"


def load_peer(path: str):
    """The peer's game module from a checkout of 33fred33/CarcassonneAI at `path`. Its tiles import OpenCV for
    pictures only (never for play): a stand-in module answers that import where OpenCV is not installed."""
    if "cv2" not in sys.modules and importlib.util.find_spec("cv2") is None:
        sys.modules["cv2"] = types.ModuleType("cv2")
    sys.path.insert(0, path)
    return importlib.import_module("Carcassonne_Game.Carcassonne")


def _median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


def peer_rows(peer_path: str | None = None, rounds: int = 7, games: int = 5) -> list[tuple]:
    """Ours on equal work (carcassonne_equal_work_game_ms) and the factor over the peer (carcassonne_vs_peer): with
    `peer_path`, both measured here, a peer game and one of ours taking turns, `rounds` rounds of `games` games a
    side, the factor the median of the rounds' factors; without it, against the peer's figure recorded in
    docs/measurements/carcassonne-peer.md (PEER_MS), shown but not judged against the goal."""
    rng = random.Random(11)
    peer = load_peer(peer_path) if peer_path else None
    ours_ms: list[float] = []
    peer_ms: list[float] = []
    plies: list[int] = []

    def ours_round() -> float:
        times = []
        for _ in range(games):
            t = time.process_time()
            plies.append(equal_work_game(rng))
            times.append(time.process_time() - t)
        return _median_ms(times)

    def peer_round() -> float:
        times = []
        for _ in range(games):
            t = time.process_time()
            peer_game(peer, rng)
            times.append(time.process_time() - t)
        return _median_ms(times)

    ours_round()
    if peer is not None:
        peer_round()
    for r in range(rounds):
        sides = [ours_round] + ([peer_round] if peer is not None else [])
        for side in (sides if r % 2 == 0 else sides[::-1]):
            (ours_ms if side is ours_round else peer_ms).append(side())
    ours = statistics.median(ours_ms)
    if peer is not None:
        factors = [p / o for p, o in zip(peer_ms, ours_ms)]
        where = f"the peer measured beside it: {statistics.median(peer_ms):.1f} ms a game"
    else:
        factors = [PEER_MS / o for o in ours_ms]
        where = (f"the peer's {PEER_MS:g} ms a game recorded in docs/measurements/carcassonne-peer.md on another "
                 "machine: not judged against the goal; --carcassonne-peer DIR measures both here")
    factor = statistics.median(factors)
    note = ""
    if factor < 10 and peer is not None:
        note = (f"{10 / factor:.2f}x short of >=10: {ours:.2f} ms a game of {statistics.mean(plies):.0f} plies "
                f"({ours / statistics.mean(plies) * 1000:.0f} us a ply: listing the moves and applying one); "
                f"{where}; where the time goes (profiled): {equal_work_shares()}")
    return [("carcassonne_equal_work_game_ms", round(ours, 3), "", "ms (cpu; legal_moves + apply a ply)", "",
             f"{min(ours_ms):.2f}-{max(ours_ms):.2f} over {rounds}"),
            # a ratio is judged only where both sides were measured in the same minutes: the recorded figure comes
            # from another machine, and a faster one would pass the goal on its speed alone
            ("carcassonne_vs_peer", round(factor, 2), PEER_GOAL if peer is not None else "", f"x ({where})", note,
             f"{min(factors):.2f}-{max(factors):.2f} over {rounds}")]


def equal_work_shares(games: int = 20) -> str:
    """Where a game on the equal-work path spends its time: each part's share of the profiled time of `games`
    games (cProfile; a part is the time inside the functions that do it)."""
    rng = random.Random(5)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(games):
        equal_work_game(rng)
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]  # the table print_stats reads
    inside = {(os.path.basename(path), name): row[3] for (path, _line, name), row in stats.items()}
    total = max(row[3] for row in stats.values())       # the outermost call: the games themselves

    def cum(file: str, name: str) -> float:
        return inside.get((file, name), 0.0)

    step = cum("rules.py", "step")
    parts = [("listing the placements", cum("rules.py", "placements")),
             ("placing a tile (unions, copying the node columns, the frontier)", cum("rules.py", "put_tile")),
             ("the events' words and lit areas", cum("game.py", "apply_unchecked") - step),
             ("building each new state and the turn's steps", step - cum("rules.py", "put_tile")
              - cum("rules.py", "score_completed")),
             ("scoring completed features", cum("rules.py", "score_completed")),
             ("listing follower moves", cum("rules.py", "action_moves")),
             ("drawing the tile", cum("game.py", "sample_chance"))]
    named = sum(v for _label, v in parts)
    parts.append(("the game loop", total - named))
    return ", ".join(f"{label} {v / total:.0%}" for label, v in parts)


def _decisions_of_a_game(seed: int) -> list:
    """The decision states of one random 2-player game with The Tower, in order (chance resolved)."""
    rng = random.Random(seed)
    s = GAME.new_state(None, 2)
    out = []
    while (cp := GAME.current_player(s)) != TERMINAL:
        if cp == CHANCE:
            s, _ = GAME.apply_unchecked(s, GAME.sample_chance(s, rng))
            continue
        moves = GAME.legal_moves(s)
        if len(moves) > 1:
            out.append(s)
        s, _ = GAME.apply_unchecked(s, moves[rng.randrange(len(moves))])
    return out


def search_growth_rows(simulations: int = 1000, rounds: int = 3, games: int = 2) -> list[tuple]:
    """The search's CPU cost per simulation at a game's last tiles against its first (the default search, a fixed
    budget of `simulations`): the first three decisions and the last three of `games` random games, the two sets
    taking turns `rounds` times; the growth is the median of the rounds' ratios."""
    early, late = [], []
    for g in range(games):
        decisions = _decisions_of_a_game(21 + g)
        early += decisions[:3]
        late += decisions[-3:]

    def per_simulation(states) -> float:
        spent = sims = 0.0
        for st in states:
            agent = SearchAgent(seed=3, level=f"{simulations}it")
            t = time.process_time()
            agent.search(st)
            spent += time.process_time() - t
            sims += agent.last_simulations
        return spent / sims * 1e6

    per_simulation(early[:1])
    first: list[float] = []
    last: list[float] = []
    for r in range(rounds):
        for states, into in (((early, first), (late, last)) if r % 2 == 0 else ((late, last), (early, first))):
            into.append(per_simulation(states))
    ratios = [b / a for a, b in zip(first, last)]
    growth = statistics.median(ratios)
    note = ""
    if growth > 1.5:
        # the leaf's projected score is read from the state (kept move by move); what still grows is the width of
        # the tree (the moves at a decision, chosen among by UCT) and the node columns a placement copies
        width = (statistics.mean(len(legal_moves(st)) for st in early),
                 statistics.mean(len(legal_moves(st)) for st in late))
        nodes = (statistics.mean(len(st.parent) for st in early), statistics.mean(len(st.parent) for st in late))
        note = (f"{growth / 1.5:.2f}x short of <=1.5: {statistics.median(first):.0f} us a simulation at the first "
                f"tiles, {statistics.median(last):.0f} us at the last: the projected score is read, not walked; "
                f"what grows is the choice among a decision's moves ({width[0]:.0f} at the first tiles, "
                f"{width[1]:.0f} at the last) and the board's feature nodes each placement copies "
                f"({nodes[0]:.0f}, {nodes[1]:.0f})")
    return [("carcassonne_search_us_per_sim_first_tiles", round(statistics.median(first), 1), "", "us (cpu)"),
            ("carcassonne_search_us_per_sim_last_tiles", round(statistics.median(last), 1), "", "us (cpu)"),
            ("carcassonne_search_cost_growth", round(growth, 2), "<= 1.5", "x (last tiles / first)", note,
             f"{min(ratios):.2f}-{max(ratios):.2f} over {rounds}")]


def bench_rows(seconds: float = 1.0, peer_path: str | None = None) -> list[tuple]:
    """(name, value, goal, unit[, note, spread]) rows; scripts/bench.py adds the generic ones (random games, the
    search rate on a fixed budget along whole games, stage, draw calls)."""
    rows: list[tuple] = []
    gps, ms, _ = random_games(None, 2, seconds)
    rows.append(("carcassonne_tower_random_game_ms", round(ms, 3), "< 10", "ms"))
    gps, ms, _ = random_games(BASE, 2, seconds / 2)
    rows.append(("carcassonne_base_random_game_ms", round(ms, 3), "< 19", "ms (the shortcut: no move lists)"))
    rows.append(("carcassonne_checked_plies_per_s", round(checked_plies_per_second(GAME, seconds / 2)), ">= 20000",
                 "/s"))
    rows += peer_rows(peer_path or os.environ.get("TOWERWORLD_CARCASSONNE_PEER") or None)
    rows += search_growth_rows()
    return rows


def mid_game(options: dict | None, plies: int = 30, seed: int = 1):
    """A 2-player state `plies` random plies in, at a decision."""
    rng = random.Random(seed)
    s = GAME.new_state(options, 2)
    for _ in range(plies):
        if GAME.current_player(s) == CHANCE:
            s, _ = GAME.apply_unchecked(s, GAME.sample_chance(s, rng))
        else:
            moves = GAME.legal_moves(s)
            s, _ = GAME.apply_unchecked(s, moves[rng.randrange(len(moves))])
    while GAME.current_player(s) == CHANCE:
        s, _ = GAME.apply_unchecked(s, GAME.sample_chance(s, rng))
    return s




if __name__ == "__main__":
    for row in bench_rows():
        print(" | ".join(str(v) for v in row))
