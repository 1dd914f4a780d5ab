"""Elevation (seed 004): dig, climb and capture on a 6x6 box of stacked terrain tiles."""
from __future__ import annotations

from towerworld.engine.game import (OMNISCIENT, TERMINAL, BadNotation, Event, Game, Option, Variant)
from towerworld.engine.layout import Cell, Layout, Pose, look
from towerworld.engine.pieces import size

from towerworld.games.elevation.rules import (
    ACCEPT, ADJ, CLIMB, DD, DECLINE, DIAG2, DM, DRAGON, DRAW, DRAWN, FDM, FISH, FMD, MD, MM, OFFER, ONGOING,
    PIECES, PSIDE, PTYPE, SAMURAI, SQUARES, TERRAIN_PRESETS, TYPE_LETTERS, TYPE_NAMES, UNDERMINE, WIN0, FILES,
    Rules, State, all_turns, has_turn, piece_turns, position_key, sq_name, sq_of, turn_actions)

TILE_H = size("terrain").h
TILE_W = size("terrain").w
BOX_FLOOR = size("elev_box").h
PIECE_W = size("elev_piece").w

REASONS = {
    "captured": "captured every enemy piece",
    "stuck": "left the opponent without a legal turn",
    "repetition": "the same position arose for the third time",
    "agreement": "the players agreed to a draw",
    "cap": "the move cap was reached",
}


def piece_id(i: int) -> str:
    return f"{TYPE_NAMES[PTYPE[i]]}:{PSIDE[i]}:{FILES[i % 6]}"


PIECE_IDS = tuple(piece_id(i) for i in range(PIECES))
PIECE_INDEX = {pid: i for i, pid in enumerate(PIECE_IDS)}


def tile_id(n: int) -> str:
    return f"terr:{n:03d}"


def sq_xy(s: int) -> tuple[float, float]:
    r, c = divmod(s, 6)
    return (c - 2.5) * TILE_W, (r - 2.5) * TILE_W


class Elevation(Game):
    name = "elevation"
    title = "Elevation"
    min_players = 2
    max_players = 2
    options = (
        Option("terrain", "flat", "starting terrain (108 tiles): flat = three deep everywhere",
               choices=tuple(TERRAIN_PRESETS)),
        Option("two_pieces", False, "each turn, two different pieces act one after the other"),
        Option("undermining", False, "any piece may instead dig a tile from beneath an enemy and not move"),
        Option("samurai_undermining", False, "a samurai's dig (in a basic move) may come from beneath an enemy"),
        Option("ocean", False, "a piece on the bottom of the box may step onto any adjacent square"),
        Option("move_cap", 200, "the game is drawn after this many turns", low=20, high=2000),
        Option("draw_offers", True, "players may offer a draw instead of moving; the opponent accepts or declines"),
    )
    variants = (
        Variant("two-pieces", "Each player moves two pieces a turn.", {"two_pieces": True}),
        Variant("undermining", "Undermining: dig from beneath an enemy and forgo the move.", {"undermining": True}),
        Variant("samurai", "Samurai undermining: samurai may dig beneath enemies and still move.",
                {"samurai_undermining": True}),
        Variant("ocean", "The ocean rule: from the bottom of the box, step anywhere adjacent.", {"ocean": True}),
        Variant("hills", "Start on a central plateau (108 tiles).", {"terrain": "hills"}),
        Variant("valley", "Start with a valley between the armies (108 tiles).", {"terrain": "valley"}),
    )
    # a turn is at most 3 plies (offer, decline, the turn) and in the two-pieces game 4; the cap is at most 2000 turns
    max_plies = 2000 * 4 + 4
    # per piece at most 56 dig pairs: dragon 448 + 448 + 56*56 + 64 + 8 + 56, fish 448 + 448 + 224 + 224 + 56,
    # samurai 448 + 448 + 56; two of each, plus a draw offer
    max_moves = 2 * (4160 + 1400 + 952) + 1

    # ---- setup ------------------------------------------------------------------------------------------------------
    def new_state(self, options=None, players=None) -> State:
        opts, _ = self.resolve_options(options, None, players)
        rules = Rules(terrain=opts["terrain"], two_pieces=opts["two_pieces"], undermining=opts["undermining"],
                      samurai_undermining=opts["samurai_undermining"], ocean=opts["ocean"],
                      move_cap=opts["move_cap"], draw_offers=opts["draw_offers"])
        heights = TERRAIN_PRESETS[rules.terrain]
        stacks, n = [], 0
        for h in heights:
            stacks.append(tuple(range(n, n + h)))
            n += h
        board = [-1] * SQUARES
        pos = [-1] * PIECES
        for i in range(PIECES):
            s = i % 6 if PSIDE[i] == 0 else 30 + i % 6
            board[s] = i
            pos[i] = s
        board = tuple(board)
        key = position_key(heights, board, 0, -1)
        return State(tuple(stacks), heights, board, tuple(pos), 0, 0, False, -1, 0, (key,), ONGOING, "", rules)

    def position(self, pieces: dict, heights=None, mover: int = 0, options: dict | None = None) -> State:
        """A custom position (puzzles, tests): `pieces` maps square names to piece ids ("dragon:0:b"); `heights` is
        a dict of square name -> height (others 3) or a 36-tuple. Tiles are numbered bottom to top, a1 first."""
        base = self.new_state(options)
        if heights is None:
            hs = list(base.heights)
        elif isinstance(heights, dict):
            hs = [3] * SQUARES
            for name, h in heights.items():
                hs[sq_of(name)] = h
        else:
            hs = list(heights)
        stacks, n = [], 0
        for h in hs:
            stacks.append(tuple(range(n, n + h)))
            n += h
        board = [-1] * SQUARES
        pos = [-1] * PIECES
        for name, pid in pieces.items():
            i = PIECE_INDEX[pid]
            board[sq_of(name)] = i
            pos[i] = sq_of(name)
        board = tuple(board)
        heights_t = tuple(hs)
        key = position_key(heights_t, board, mover, -1)
        return State(tuple(stacks), heights_t, board, tuple(pos), mover, 0, False, -1, 0, (key,), ONGOING, "",
                     base.rules)

    def num_players(self, state) -> int:
        return 2

    def current_player(self, state: State) -> int:
        if state.outcome != ONGOING:
            return TERMINAL
        return state.mover ^ state.phase

    def legal_moves(self, state: State) -> list:
        return all_turns(state)

    # ---- applying ---------------------------------------------------------------------------------------------------
    def apply_unchecked(self, st: State, move) -> tuple[State, list]:
        if move[0] == DRAW:
            return self._apply_draw(st, move[1])
        rules = st.rules
        stacks = list(st.stacks)
        heights = list(st.heights)
        board = list(st.board)
        pos = list(st.pos)
        s = move[0]
        piece = board[s]
        me = st.mover
        cur = s
        events = []
        captured = False
        for act in turn_actions(move):
            if act[0] in ("dig", "undermine"):
                f, t = act[1], act[2]
                src = stacks[f]
                tile = src[-1]
                stacks[f] = src[:-1]
                stacks[t] = stacks[t] + (tile,)
                heights[f] -= 1
                heights[t] += 1
                sunk = [PIECE_IDS[board[f]]] if board[f] >= 0 else []
                events.append(Event("dig", (tile_id(tile), *sunk), f"dig {sq_name(f)}>{sq_name(t)}"))
            else:
                to = act[1]
                victim = board[to]
                board[cur] = -1
                if victim >= 0:
                    pos[victim] = -1
                    captured = True
                    events.append(Event("capture", (PIECE_IDS[victim], PIECE_IDS[piece]),
                                        f"{TYPE_NAMES[PTYPE[piece]]} takes {TYPE_NAMES[PTYPE[victim]]} on "
                                        f"{sq_name(to)}"))
                board[to] = piece
                pos[piece] = to
                events.append(Event("move", (PIECE_IDS[piece],), f"{sq_name(cur)}-{sq_name(to)}"))
                cur = to
        heights_t = tuple(heights)
        board_t = tuple(board)
        pos_t = tuple(pos)
        mover, used, turns = me, -1, st.turns
        outcome, reason = ONGOING, ""
        enemy_left = any(p >= 0 for p in pos_t[(1 - me) * 6:(1 - me) * 6 + 6])
        if rules.two_pieces and st.used < 0 and enemy_left and has_turn(heights_t, board_t, me, rules, piece):
            used = piece                       # the same player acts again with another piece
        else:
            mover = 1 - me
            turns += 1
        key = position_key(heights_t, board_t, mover, used)
        history = (key,) if captured else st.history + (key,)
        if not enemy_left:
            outcome, reason = WIN0 + me, "captured"
        elif used < 0 and not has_turn(heights_t, board_t, mover, rules):
            outcome, reason = WIN0 + me, "stuck"
        elif history.count(key) >= 3:
            outcome, reason = DRAWN, "repetition"
        elif turns >= rules.move_cap:
            outcome, reason = DRAWN, "cap"
        if outcome != ONGOING:
            events.append(Event("end", (), self._result_text(outcome, reason)))
        new = State(tuple(stacks), heights_t, board_t, pos_t, mover, 0, False if mover != me else st.offered,
                    used, turns, history, outcome, reason, rules)
        return new, events

    def _apply_draw(self, st: State, what: int):
        r = st.rules
        if what == OFFER:
            new = State(st.stacks, st.heights, st.board, st.pos, st.mover, 1, True, st.used, st.turns, st.history,
                        ONGOING, "", r)
            return new, [Event("offer", (), f"Player {st.mover + 1} offers a draw")]
        if what == ACCEPT:
            new = State(st.stacks, st.heights, st.board, st.pos, st.mover, 0, True, st.used, st.turns, st.history,
                        DRAWN, "agreement", r)
            return new, [Event("end", (), "Draw agreed")]
        new = State(st.stacks, st.heights, st.board, st.pos, st.mover, 0, True, st.used, st.turns, st.history,
                    ONGOING, "", r)
        return new, [Event("decline", (), f"Player {2 - st.mover} declines the draw")]

    # ---- results ----------------------------------------------------------------------------------------------------
    def returns(self, state: State) -> list:
        if state.outcome in (0, 1):
            return [1.0, -1.0] if state.outcome == 0 else [-1.0, 1.0]
        return [0.0, 0.0]

    def scores(self, state: State) -> list:
        """Enemy pieces captured by each player."""
        return [sum(1 for p in state.pos[6:] if p < 0), sum(1 for p in state.pos[:6] if p < 0)]

    @staticmethod
    def _result_text(outcome: int, reason: str) -> str:
        if outcome == DRAWN:
            return f"Draw: {REASONS.get(reason, reason)}."
        return f"Player {outcome + 1} wins: {REASONS.get(reason, reason)}."

    def result(self, state: State) -> str:
        if state.outcome == ONGOING:
            return "in progress"
        return self._result_text(state.outcome, state.reason)

    def hud(self, state: State, viewer: int) -> dict:
        cp = self.current_player(state)
        if cp == TERMINAL:
            turn = "Game over: " + self.result(state)
        elif state.phase == 1:
            turn = f"Player {cp + 1}: accept or decline the draw offer"
        else:
            turn = f"Player {cp + 1} to move"
            if state.used >= 0:
                turn += " (second piece)"
        left = [sum(1 for p in state.pos[k * 6:k * 6 + 6] if p >= 0) for k in (0, 1)]
        rep = state.history.count(state.history[-1])
        lines = {
            "turn": turn,
            "pieces": f"P1: {left[0]} pieces   P2: {left[1]} pieces",
            "scores": "  ".join(f"P{i + 1}: {s} captured" for i, s in enumerate(self.scores(state))),
            "cap": f"turn {state.turns + 1} of {state.rules.move_cap}",
        }
        if rep >= 2 and state.outcome == ONGOING:
            lines["repetition"] = f"this position has occurred {rep} times"
        return lines

    def heuristic(self, state: State, player: int) -> float:
        """Material, capture threats, striking distance (near and two steps above an enemy) and height."""
        from towerworld.games.elevation.agent import evaluate
        return evaluate(state, player)

    def agents(self) -> dict:
        """Elevation's own search: 'mcts' (heuristic-guided MCTS, replaces the generic one) and 'elev-greedy'."""
        from towerworld.games.elevation.agent import agent_factories
        return agent_factories()

    def state_key(self, state: State):
        return (state.heights, state.board, state.mover, state.phase, state.used)

    # ---- layout -----------------------------------------------------------------------------------------------------
    def layout(self, state: State, viewer: int) -> Layout:
        lay = Layout()
        lay.place("elev_box", Pose("elev_box", 0.0, 0.0, 0.0, look=look(colour="wood")))
        for s in range(SQUARES):
            x, y = sq_xy(s)
            for level, n in enumerate(state.stacks[s]):
                lay.place(tile_id(n), Pose("terrain", x, y, BOX_FLOOR + level * TILE_H,
                                           heading=(n * 90) % 360, look=look(layer=level, tone=n % 3)))
            top = BOX_FLOOR + state.heights[s] * TILE_H
            lay.cells[f"sq:{sq_name(s)}"] = Cell(x, y, top, TILE_W, TILE_W, sq_name(s))
        for i in range(PIECES):
            side = PSIDE[i]
            p = state.pos[i]
            lk = look(piece=TYPE_NAMES[PTYPE[i]], side=side)
            heading = 0.0 if side == 0 else 180.0
            if p >= 0:
                x, y = sq_xy(p)
                z = BOX_FLOOR + state.heights[p] * TILE_H
            else:
                # beside the board, in front of the captor (player 1 sits at -y, player 2 at +y)
                captor = 1 - side
                x = (i % 6 - 2.5) * (PIECE_W + 8)
                y = -(3 * TILE_W + 40) if captor == 0 else 3 * TILE_W + 40
                z = 0.0
            lay.place(PIECE_IDS[i], Pose("elev_piece", x, y, z, heading=heading, look=lk))
        for c in range(6):
            x, _ = sq_xy(c)
            lay.labels[f"file:{FILES[c]}"] = (x, -3 * TILE_W - 12, 0.0, FILES[c])
            _, y = sq_xy(c * 6)
            lay.labels[f"rank:{c + 1}"] = (-3 * TILE_W - 12, y, 0.0, str(c + 1))
        return lay

    # ---- notation ---------------------------------------------------------------------------------------------------
    def format_move(self, state: State, move) -> str:
        if move[0] == DRAW:
            return {OFFER: "offer draw", ACCEPT: "accept draw", DECLINE: "decline draw"}[move[1]]
        s = move[0]
        piece = state.board[s]
        enemy = 1 - state.mover
        parts = [f"{TYPE_LETTERS[PTYPE[piece]] if piece >= 0 else '?'}{sq_name(s)}"]
        for act in turn_actions(move):
            if act[0] in ("dig", "undermine"):
                parts.append(f"{sq_name(act[1])}>{sq_name(act[2])}")
            elif act[0] == "climb":
                parts.append(f"^{sq_name(act[1])}")
            else:
                b = state.board[act[1]]
                cap = b >= 0 and PSIDE[b] == enemy
                parts.append(("x" if cap else "-") + sq_name(act[1]))
        return " ".join(parts)

    def parse_move(self, state: State, text: str):
        move = self._parse(state, text)
        if move[0] == DRAW:
            if move not in all_turns(state):
                raise BadNotation(f"'{text.strip()}' is not possible now.")
            return move
        if move not in self._piece_moves(state, move[0]):
            raise BadNotation(f"'{text.strip()}' is not legal here: {self.why_illegal(state, move)}")
        return move

    def _parse(self, state: State, text: str):
        words = text.strip().split()
        low = [w.lower() for w in words]
        if len(low) == 2 and low[1] == "draw" and low[0] in ("offer", "accept", "decline"):
            return (DRAW, {"offer": OFFER, "accept": ACCEPT, "decline": DECLINE}[low[0]])
        if not words:
            raise BadNotation("An empty text is not a move.")
        head = words[0]
        s = sq_of(head[1:].lower()) if len(head) == 3 else None
        if s is None or head[0].upper() not in TYPE_LETTERS:
            raise BadNotation(f"'{text.strip()}' does not start with a piece and its square, like 'Dc1'.")
        b = state.board[s]
        if b < 0:
            raise BadNotation(f"There is no piece on {sq_name(s)}.")
        if TYPE_LETTERS[PTYPE[b]] != head[0].upper():
            raise BadNotation(f"The piece on {sq_name(s)} is a {TYPE_NAMES[PTYPE[b]]}, not '{head[0]}'.")
        acts = []
        for w in words[1:]:
            w = w.lower()
            if len(w) == 5 and w[2] == ">" and sq_of(w[:2]) is not None and sq_of(w[3:]) is not None:
                acts.append(("dig", sq_of(w[:2]), sq_of(w[3:])))
            elif len(w) == 3 and w[0] in "-x^" and sq_of(w[1:]) is not None:
                acts.append(("climb" if w[0] == "^" else "move", sq_of(w[1:])))
            else:
                raise BadNotation(f"'{w}' is neither a dig like 'c2>d3' nor a move like '-c3', 'xc3' or '^c3'.")
        return self._actions_to_move(s, acts, text)

    @staticmethod
    def _actions_to_move(s: int, acts: list, text: str = ""):
        pattern = tuple(a[0] for a in acts)
        far = lambda sq: max(abs(sq // 6 - s // 6), abs(sq % 6 - s % 6)) == 2  # noqa: E731
        if pattern == ("dig", "move"):
            return (s, FDM if far(acts[1][1]) else DM, acts[0][1], acts[0][2], acts[1][1])
        if pattern == ("move", "dig"):
            return (s, FMD if far(acts[0][1]) else MD, acts[0][1], acts[1][1], acts[1][2])
        if pattern == ("dig", "dig"):
            return (s, DD, acts[0][1], acts[0][2], acts[1][1], acts[1][2])
        if pattern == ("move", "move"):
            return (s, MM, acts[0][1], acts[1][1])
        if pattern in (("climb",), ("move",)):
            return (s, CLIMB, acts[0][1])
        if pattern == ("dig",):
            return (s, UNDERMINE, acts[0][1], acts[0][2])
        raise BadNotation(f"'{text.strip()}' is not a turn: a turn is a dig and a move in either order, or one of "
                          f"the fish's and dragon's alternatives.")

    def _piece_moves(self, state: State, s: int) -> list:
        if state.outcome != ONGOING or state.phase != 0 or not 0 <= s < SQUARES:
            return []
        b = state.board[s]
        if b < 0 or PSIDE[b] != state.mover or b == state.used:
            return []
        out: list = []
        O = [PSIDE[x] if x >= 0 else -1 for x in state.board]
        piece_turns(state.heights, O, s, state.mover, PTYPE[b], state.rules, out)
        return out

    # ---- picks and explanations -------------------------------------------------------------------------------------
    def picks(self, state: State, move) -> tuple:
        if move[0] == DRAW:
            return ({OFFER: "draw:offer", ACCEPT: "draw:accept", DECLINE: "draw:decline"}[move[1]],)
        s = move[0]
        me_id = PIECE_IDS[state.board[s]]
        out = [me_id]
        stacks = list(state.stacks)
        for act in turn_actions(move):
            if act[0] in ("dig", "undermine"):
                f, t = act[1], act[2]
                tile = stacks[f][-1]
                out += [tile_id(tile), f"sq:{sq_name(t)}"]
                stacks[f] = stacks[f][:-1]
                stacks[t] = stacks[t] + (tile,)
                if act[0] == "undermine":
                    out.append(me_id)
            else:
                to = act[1]
                b = state.board[to]
                out.append(PIECE_IDS[b] if b >= 0 and PSIDE[b] != state.mover else f"sq:{sq_name(to)}")
                if act[0] == "climb":
                    out.append(me_id)
        return tuple(out)

    def why_illegal(self, state: State, move) -> str:
        if state.outcome != ONGOING:
            return "The game is over."
        try:
            if move[0] == DRAW:
                if state.phase == 1:
                    return "Answer the draw offer: accept or decline."
                if move[1] != OFFER:
                    return "There is no draw offer to answer."
                if not state.rules.draw_offers:
                    return "Draw offers are switched off in this game."
                return "You may offer a draw only once a turn, before moving."
            s = move[0]
            acts = turn_actions(move)
        except Exception:
            return "That is not a move of Elevation."
        try:
            return self._check(state, s, acts, complete=True) or "That is not a legal move here."
        except (IndexError, TypeError, KeyError):
            return "That is not a move of Elevation."

    def describe_pick(self, state: State, picks, pick: str) -> str:
        """Where a square and its top tile are both legal next picks: digging that tile, or stepping (or dropping the
        dug tile) onto the square."""
        if pick.startswith("sq:"):
            if any(p.startswith("terr:") for p in picks):
                return f"put the tile on {pick[3:]}"
            return f"move to {pick[3:]}"
        if pick.startswith("terr:"):
            pose = self.layout(state, OMNISCIENT).pieces.get(pick)
            square = next((cid[3:] for cid, c in self.layout(state, OMNISCIENT).cells.items()
                           if pose is not None and abs(c.x - pose.x) < 1 and abs(c.y - pose.y) < 1), "")
            return f"dig the top tile of {square}" if square else "dig this tile"
        return super().describe_pick(state, picks, pick)

    def explain(self, state: State, picks) -> str:
        if state.outcome != ONGOING:
            return "The game is over."
        if state.phase == 1:
            return "Answer the draw offer first: accept or decline."
        if not picks:
            return "Pick one of your pieces."
        first = picks[0]
        if first not in PIECE_INDEX:
            return "Start a turn by picking one of your pieces."
        i = PIECE_INDEX[first]
        s = state.pos[i]
        if s < 0:
            return "That piece has been captured."
        if PSIDE[i] != state.mover:
            return "That is not your piece."
        if i == state.used:
            return "That piece has already acted this turn; pick another."
        acts, stacks = [], list(state.stacks)
        tile_sq = {}
        for sq in range(SQUARES):
            for level, n in enumerate(stacks[sq]):
                tile_sq[tile_id(n)] = (sq, level)
        rest = list(picks[1:])
        complete = False
        k = 0
        while k < len(rest):
            p = rest[k]
            if p in tile_sq:
                f, level = tile_sq[p]
                if level != len(stacks[f]) - 1:
                    return "Only the top tile of a stack can be dug."
                if k + 1 >= len(rest):
                    acts.append(("dig", f, None))
                    break
                t = sq_of(rest[k + 1][3:]) if rest[k + 1].startswith("sq:") else None
                if t is None:
                    if rest[k + 1] in PIECE_INDEX:
                        return "You may not place terrain onto a square occupied by a piece."
                    return "Put the dug tile on an empty square next to your piece."
                acts.append(("dig", f, t))
                tile = stacks[f][-1]
                stacks[f] = stacks[f][:-1]
                stacks[t] = stacks[t] + (tile,)
                for lv, n in enumerate(stacks[t]):
                    tile_sq[tile_id(n)] = (t, lv)
                k += 2
            elif p == first:
                complete = True
                if acts and acts[-1][0] == "dig" and len(acts) == 1:
                    acts[-1] = ("undermine",) + acts[-1][1:]
                elif acts and acts[-1][0] == "move" and len(acts) == 1:
                    acts[-1] = ("climb", acts[-1][1])
                break
            elif p.startswith("sq:") and sq_of(p[3:]) is not None:
                acts.append(("move", sq_of(p[3:])))
                k += 1
            elif p in PIECE_INDEX:
                j = PIECE_INDEX[p]
                if PSIDE[j] == state.mover:
                    return "Only one piece acts in a turn; you may not move onto your own piece."
                if state.pos[j] < 0:
                    return "That piece has been captured."
                acts.append(("move", state.pos[j]))
                k += 1
            else:
                return "That is not a square, a terrain tile or a piece of this game."
        return (self._check(state, s, acts, complete=complete)
                or "No complete legal turn continues from these picks.")

    def _check(self, state: State, s: int, acts: list, complete: bool) -> str | None:
        """The first rule that the actions break, or None. `complete`: the actions claim to be a whole turn."""
        rules = state.rules
        b = state.board[s]
        if b < 0:
            return f"There is no piece on {sq_name(s)}."
        me = state.mover
        if PSIDE[b] != me:
            return "That is not your piece."
        if b == state.used:
            return "That piece has already acted this turn; pick another."
        enemy = 1 - me
        ptype = PTYPE[b]
        H = list(state.heights)
        B = list(state.board)
        cur = s
        kinds = [a[0] for a in acts]
        pattern = tuple("dig" if k == "undermine" else "move" if k == "climb" else k for k in kinds)
        allowed = {("dig", "move"), ("move", "dig")}
        if ptype == DRAGON:
            allowed |= {("dig", "dig"), ("move", "move"), ("move",)}
        if rules.undermining:
            allowed.add(("dig",))
        if len(acts) > 2:
            return "A turn has at most two parts."
        if not any(a[:len(pattern)] == pattern for a in allowed):
            if ptype == SAMURAI:
                return "A samurai can only make a basic move: dig then move, or move then dig."
            if ptype == FISH:
                return "A fish makes a basic move, or digs and moves two squares diagonally (in either order)."
            return "A dragon digs and moves, digs twice, moves twice, or climbs two steps without digging."
        for n, act in enumerate(acts):
            if act[0] in ("dig", "undermine"):
                f, t = act[1], act[2]
                if f == cur:
                    return "You may not dig from under the piece you are playing."
                if f not in ADJ[cur]:
                    return "You may only dig from a square next to your piece."
                if H[f] <= 0:
                    return "There is no terrain left to dig on that square."
                under_enemy = B[f] >= 0 and PSIDE[B[f]] == enemy
                und_ok = (rules.undermining and pattern == ("dig",)) or (
                    rules.samurai_undermining and ptype == SAMURAI)
                if under_enemy and not und_ok:
                    return "You may not remove terrain from a square that holds an enemy piece."
                if act[0] == "undermine" and not under_enemy:
                    return "Undermining digs from beneath an enemy piece; otherwise a turn needs a move too."
                if t is None:
                    continue
                if t == f:
                    return "The dug tile must go to a different square."
                if t not in ADJ[cur]:
                    return "You may only place terrain on a square next to your piece."
                if B[t] >= 0:
                    return "You may not place terrain onto a square occupied by a piece."
                if n == 1 and pattern == ("dig", "dig") and acts[0][1] == t and acts[0][2] == f:
                    return "The second dig may not simply put the first tile back."
                H[f] -= 1
                H[t] += 1
            else:
                to = act[1]
                diag2 = ptype == FISH and any(e == to for e, _ in DIAG2[cur]) and n == pattern.index("move")
                if to not in ADJ[cur] and not diag2:
                    if ptype == FISH:
                        return "A fish moves one square, or exactly two squares in a straight diagonal line."
                    return "A piece moves one square, orthogonally or diagonally."
                steps = [to]
                if diag2:
                    mid = dict(DIAG2[cur])[to]
                    if B[mid] >= 0:
                        return "The fish's diagonal move must pass over an empty square."
                    steps = [mid, to]
                for st_to in steps:
                    o = B[st_to]
                    climb = H[st_to] - H[cur]
                    if o >= 0 and PSIDE[o] == me:
                        return "You may not move onto your own piece."
                    if o >= 0:
                        if st_to != to:
                            return "A fish may capture only on the last square of its diagonal move."
                        if H[cur] - H[st_to] < 2:
                            return "You may capture only from at least two steps above the enemy piece."
                    elif climb > 1 and not (rules.ocean and H[cur] == 0):
                        big = ptype == DRAGON and pattern == ("move",) and climb == 2
                        if not big:
                            if ptype == DRAGON and climb == 2:
                                return "A dragon may climb two steps only as its whole turn, without digging."
                            return "You may not climb more than one step."
                    if act[0] == "climb" and climb != 2:
                        return "The dragon's big step climbs exactly two steps; otherwise a move needs a dig."
                    B[cur] = -1
                    B[st_to] = b
                    cur = st_to
                if (pattern == ("move", "move") and n == 1 and cur == s
                        and not (state.board[acts[0][1]] >= 0 and PSIDE[state.board[acts[0][1]]] == enemy)):
                    return "The dragon's two moves may not just return it to where it started."
        if complete:
            if pattern == ("move",) and not (ptype == DRAGON and kinds == ["climb"]):
                return "A basic move needs a dig as well as a move."
            if pattern == ("dig",) and not rules.undermining:
                return "A basic move needs a move as well as a dig."
            if not pattern:
                return "A turn needs a dig and a move."
        return None
