"""Elevation in words: move notation (`Dc3 b2>d4 -c4`), picks on the play screen, button labels and event texts.

Notation: the acting piece (letter and square) followed by its parts in order: a dig `b2>d4` (from > onto), a step
`-c4`, a capture `xc4`. The dragon's lone step is the piece and one step (`Dc3 -c4`); `^c4` is read as the same.
"""
from __future__ import annotations

from towerworld.engine.game import BadNotation, Event, EventKind
from towerworld.games.elevation.board import (
    ACCEPT, DECLINE, DIG_DIG, DIG_MOVE, DRAW, FISH_DIG_LEAP, FISH_LEAP_DIG, KIND_LETTERS, KIND_NAMES, LONE_STEP,
    MOVE_DIG, MOVE_MOVE, OFFER, SIDE_NAMES, SQUARES, UNDERMINE, distance, square_name, square_of, turn_actions)
from towerworld.games.elevation.layout import parse_piece_id, piece_id, tile_id, tile_square

DRAW_WORDS = {OFFER: "offer draw", ACCEPT: "accept draw", DECLINE: "decline draw"}
DRAW_PICKS = {OFFER: "draw:offer", ACCEPT: "draw:accept", DECLINE: "draw:decline"}
DRAW_LABELS = {"draw:offer": "offer a draw", "draw:accept": "accept the draw", "draw:decline": "decline the draw"}


def shown(text, limit: int = 40) -> str:
    """Text typed by someone, as it may appear in a one-sentence message: stripped and cut short."""
    text = str(text).strip()
    return text if len(text) <= limit else text[:limit - 3] + "..."


def square_or_refuse(name: str) -> int:
    s = square_of(str(name).strip().lower())
    if s is None:
        raise BadNotation(f"'{shown(name)}' is not a square of the board (a1 to f6).")
    return s


def piece_name(state, piece: int) -> str:
    """"Red dragon": the side's colour and the piece's kind."""
    return f"{SIDE_NAMES[piece // 6]} {KIND_NAMES[state.kinds[piece]]}"


# ---- text notation -------------------------------------------------------------------------------------------------

def format_move(state, move) -> str:
    if move[0] == DRAW:
        return DRAW_WORDS[move[1]]
    s = move[0]
    piece = state.board[s]
    parts = [f"{KIND_LETTERS[state.kinds[piece]] if piece >= 0 else '?'}{square_name(s)}"]
    for act in turn_actions(move):
        if act[0] in ("dig", "undermine"):
            parts.append(f"{square_name(act[1])}>{square_name(act[2])}")
        else:
            b = state.board[act[1]]
            capture = b >= 0 and b // 6 != state.mover
            parts.append(("x" if capture else "-") + square_name(act[1]))
    return " ".join(parts)


def parse_move(state, text: str):
    """The move written in `text` (legality is the caller's check); BadNotation with a sentence otherwise."""
    if not isinstance(text, str):
        raise BadNotation("A move is text, like 'Sc3 b2>d4 -c4'.")
    words = text.strip().split()
    low = [w.lower() for w in words]
    if len(low) == 2 and low[1] == "draw" and low[0] in ("offer", "accept", "decline"):
        return (DRAW, {"offer": OFFER, "accept": ACCEPT, "decline": DECLINE}[low[0]])
    if not words:
        raise BadNotation("An empty text is not a move.")
    head = words[0]
    s = square_of(head[1:].lower()) if len(head) == 3 else None
    if s is None or head[0].upper() not in KIND_LETTERS:
        raise BadNotation(f"'{shown(text)}' does not start with a piece and its square, like 'Dc1'.")
    b = state.board[s]
    if b < 0:
        raise BadNotation(f"There is no piece on {square_name(s)}.")
    kind = state.kinds[b]
    if KIND_LETTERS[kind] != head[0].upper():
        raise BadNotation(f"The piece on {square_name(s)} is a {KIND_NAMES[kind]}, not '{shown(head[0])}'.")
    acts: list[tuple[str, int] | tuple[str, int, int]] = []
    for word in low[1:]:
        if (len(word) == 5 and word[2] == ">" and (source := square_of(word[:2])) is not None
                and (target := square_of(word[3:])) is not None):
            acts.append(("dig", source, target))
        elif len(word) == 3 and word[0] in "-x^" and (to := square_of(word[1:])) is not None:
            acts.append(("move", to))
        else:
            raise BadNotation(f"'{shown(word)}' is neither a dig like 'c2>d3' nor a step like '-c3' or 'xc3'.")
    return move_of_actions(s, acts, text)


def move_of_actions(s: int, acts: list, text: str = ""):
    """The move made of these actions by the piece on `s`; BadNotation when they make no kind of turn."""
    pattern = tuple(a[0] for a in acts)
    leap = lambda q: distance(q, s) == 2  # noqa: E731  (the fish's two-square diagonal)
    if pattern == ("dig", "move"):
        return (s, FISH_DIG_LEAP if leap(acts[1][1]) else DIG_MOVE, acts[0][1], acts[0][2], acts[1][1])
    if pattern == ("move", "dig"):
        return (s, FISH_LEAP_DIG if leap(acts[0][1]) else MOVE_DIG, acts[0][1], acts[1][1], acts[1][2])
    if pattern == ("dig", "dig"):
        return (s, DIG_DIG, acts[0][1], acts[0][2], acts[1][1], acts[1][2])
    if pattern == ("move", "move"):
        return (s, MOVE_MOVE, acts[0][1], acts[1][1])
    if pattern == ("move",):
        return (s, LONE_STEP, acts[0][1])
    if pattern == ("dig",):
        return (s, UNDERMINE, acts[0][1], acts[0][2])
    raise BadNotation(f"'{shown(text)}' is not a turn: a turn is a dig and a move in either order, or one of the "
                      f"fish's and dragon's alternatives.")


# ---- events --------------------------------------------------------------------------------------------------------

def turn_events(state, move) -> list:
    """What happened, action by action, in words a player uses ("Red dragon digs a tile from c2 onto d2")."""
    s = move[0]
    piece = state.board[s]
    me = piece_id(piece, state.kinds)
    who = piece_name(state, piece)
    stacks = list(state.stacks)
    board = list(state.board)
    here = s
    events = []
    for act in turn_actions(move):
        if act[0] in ("dig", "undermine"):
            f, t = act[1], act[2]
            tile = stacks[f][-1]
            stacks[f] = stacks[f][:-1]
            stacks[t] = stacks[t] + (tile,)
            under = board[f]
            sunk = (piece_id(under, state.kinds),) if under >= 0 else ()
            text = f"{who} digs a tile from {square_name(f)} onto {square_name(t)}"
            if act[0] == "undermine":
                text = f"{who} undermines the {piece_name(state, under)} on {square_name(f)}: its tile goes onto " \
                       f"{square_name(t)}"
            elif under >= 0:
                text += f"; the {piece_name(state, under)} there sinks one level"
            events.append(Event(EventKind.DIG, (tile_id(tile), *sunk), text + "."))
        else:
            to = act[1]
            victim = board[to]
            verb = "leaps" if distance(here, to) == 2 else "steps"
            if victim >= 0:
                events.append(Event(EventKind.CAPTURE, (piece_id(victim, state.kinds), me),
                                    f"{who} on {square_name(here)} takes the {piece_name(state, victim)} on "
                                    f"{square_name(to)}."))
            events.append(Event(EventKind.MOVE, (me,), f"{who} {verb} from {square_name(here)} to "
                                                      f"{square_name(to)}."))
            board[here] = -1
            board[to] = piece
            here = to
    return events


def draw_events(state, what: int) -> list:
    mover = SIDE_NAMES[state.mover]
    other = SIDE_NAMES[1 - state.mover]
    if what == OFFER:
        return [Event(EventKind.OFFER, (), f"{mover} offers a draw.")]
    if what == ACCEPT:
        return [Event(EventKind.END, (), f"{other} accepts the draw.")]
    return [Event(EventKind.DECLINE, (), f"{other} declines the draw; {mover} plays on.")]


def describe_turn(state, move) -> str:
    """The whole turn in one sentence, as the HUD shows an opponent's move."""
    if move[0] == DRAW:
        return draw_events(state, move[1])[0].text
    return " ".join(e.text for e in turn_events(state, move))


# ---- picks on the play screen ----------------------------------------------------------------------------------------

def picks(state, move) -> tuple:
    """The clicks that make up `move`: the piece, then per dig the top tile and the square it goes onto, per step the
    square (or the enemy piece when capturing). A lone step and undermining end by picking the piece again, so that
    no turn's picks are the start of another's."""
    if move[0] == DRAW:
        return (DRAW_PICKS[move[1]],)
    s = move[0]
    me = piece_id(state.board[s], state.kinds)
    out = [me]
    stacks = list(state.stacks)
    for act in turn_actions(move):
        if act[0] in ("dig", "undermine"):
            f, t = act[1], act[2]
            tile = stacks[f][-1]
            out += [tile_id(tile), f"sq:{square_name(t)}"]
            stacks[f] = stacks[f][:-1]
            stacks[t] = stacks[t] + (tile,)
            if act[0] == "undermine":
                out.append(me)
        else:
            to = act[1]
            b = state.board[to]
            out.append(piece_id(b, state.kinds) if b >= 0 and b // 6 != state.mover else f"sq:{square_name(to)}")
            if act[0] == "step":
                out.append(me)
    return tuple(out)


def describe_pick(state, picked, pick: str) -> str:
    """A button's words for `pick` after the picks so far: "step onto d4", "dig the top tile of d4", "put the tile on
    d4", "take the Blue fish on d4", "end the turn here"."""
    if pick in DRAW_LABELS:
        return DRAW_LABELS[pick]
    if pick.startswith("sq:"):
        if picked and picked[-1].startswith("terr:"):
            return f"put the tile on {pick[3:]}"
        return f"step onto {pick[3:]}"
    if pick.startswith("terr:"):
        s = tile_square(state, pick)
        return f"dig the top tile of {square_name(s)}" if s is not None else "dig this tile"
    try:
        piece, _ = parse_piece_id(pick)
    except BadNotation:
        return pick
    s = state.pos[piece]
    if picked and picked[0] == pick:
        return "end the turn here"
    if piece // 6 != state.mover and s >= 0:
        return f"take the {piece_name(state, piece)} on {square_name(s)}"
    return f"play the {piece_name(state, piece)} on {square_name(s)}" if s >= 0 else piece_name(state, piece)


def actions_from_picks(state, picked):
    """(square, actions, complete) for the picks so far, or the sentence that says why they make no turn."""
    if not picked:
        return "Pick one of your pieces."
    first = picked[0]
    try:
        piece, _ = parse_piece_id(first)
    except BadNotation:
        return "Start a turn by picking one of your pieces."
    s = state.pos[piece]
    if s < 0:
        return "That piece has been captured."
    if piece // 6 != state.mover:
        return "That is not your piece."
    if piece == state.used:
        return "That piece has already acted this turn; pick another."
    stacks = list(state.stacks)
    acts: list[tuple] = []      # ("dig", from, to or None), ("move", square), ("step", square), ("undermine", ...)
    rest = list(picked[1:])
    k = 0
    while k < len(rest):
        p = rest[k]
        if p.startswith("terr:"):
            where = _tile_place(stacks, p)
            if where is None:
                return "That is not a terrain tile of this game."
            f, level = where
            if level != len(stacks[f]) - 1:
                return "Only the top tile of a stack can be dug."
            if k + 1 >= len(rest):
                acts.append(("dig", f, None))
                return s, acts, False
            nxt = rest[k + 1]
            t = square_of(nxt[3:]) if nxt.startswith("sq:") else None
            if t is None:
                if nxt.startswith(("samurai:", "dragon:", "fish:")):
                    return "You may not place terrain onto a square occupied by a piece."
                return "Put the dug tile on an empty square next to your piece."
            acts.append(("dig", f, t))
            stacks[f], stacks[t] = stacks[f][:-1], stacks[t] + stacks[f][-1:]
            k += 2
        elif p == first:
            if len(acts) == 1 and acts[0][0] == "dig":
                acts[0] = ("undermine",) + acts[0][1:]
            elif len(acts) == 1 and acts[0][0] == "move":
                acts[0] = ("step", acts[0][1])
            return s, acts, True
        elif p.startswith("sq:") and square_of(p[3:]) is not None:
            acts.append(("move", square_of(p[3:])))
            k += 1
        else:
            try:
                other, _ = parse_piece_id(p)
            except BadNotation:
                return "That is not a square, a terrain tile or a piece of this game."
            if other // 6 == state.mover:
                return "Only one piece acts in a turn; you may not move onto your own piece."
            if state.pos[other] < 0:
                return "That piece has been captured."
            acts.append(("move", state.pos[other]))
            k += 1
    return s, acts, False


def _tile_place(stacks, tile: str):
    """(square, level) of the tile called `tile` in these stacks, or None."""
    try:
        n = int(tile[5:])
    except ValueError:
        return None
    for s in range(SQUARES):
        if n in stacks[s]:
            return s, stacks[s].index(n)
    return None
