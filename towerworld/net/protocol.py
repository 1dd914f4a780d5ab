"""The messages between a towerworld server and its clients: typed, tagged (`kind`) and bounded.

Every message is one JSON object in one websocket text frame. A client's frame is at most MAX_CLIENT_FRAME bytes (the
server closes a connection that sends a bigger one with close code 1009); a server's frame is at most
MAX_SERVER_FRAME bytes. Text fields are bounded too, so a message that passes decoding is already small.

What a client sees of the game is a `Table`: built from the match's state for one viewer (a seat or SPECTATOR) by the
game's own `layout` and `hud` for that viewer, never from the true state as such, plus the legal moves (as notation
text) when that viewer is to move. `table_for` is the one function that builds it, so a test can rebuild it from a
resampled state and prove the wire shows nothing the viewer may not know.
"""
from __future__ import annotations

from typing import Annotated, Union, get_args

import msgspec

from towerworld.engine.game import CHANCE, TERMINAL, Event, Game, State, events_for
from towerworld.engine.safe_text import shown_text

MAX_CLIENT_FRAME = 16 * 1024          # bytes in one frame from a client: far above any move or request
MAX_SERVER_FRAME = 4 * 1024 * 1024    # bytes in one frame from the server: a whole table with room to spare
PROTOCOL = 1

Short = Annotated[str, msgspec.Meta(max_length=80)]
MoveText = Annotated[str, msgspec.Meta(max_length=200)]
Code = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
Seconds = Annotated[float, msgspec.Meta(gt=0, le=86400)]
Ply = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]


class _Msg(msgspec.Struct, tag_field="kind", forbid_unknown_fields=True, omit_defaults=True):
    pass


# ---- client -> server --------------------------------------------------------------------------------------------
class Create(_Msg, tag="create"):
    """Open a room: `players` one entry per seat, "remote" (a person who joins) or an agent NAME[:LEVEL] played on
    the server. `options` are NAME -> VALUE texts, as on the command line. `clock`: seconds a person has for a move;
    `clock_mode` "wait" (shown only) or "ai" (an AI moves for them when it runs out)."""
    game: Short
    players: Annotated[list[Short], msgspec.Meta(min_length=1, max_length=16)]
    variant: Short | None = None
    options: Annotated[dict[Short, Short], msgspec.Meta(max_length=32)] = {}
    clock: Seconds | None = None
    clock_mode: Short = "wait"


class Join(_Msg, tag="join"):
    """Take a seat of `room`: with `token`, the seat that token holds (a rejoin); else seat `seat` (1-based) if it
    is free, or the first free one. `layout` False: a client that draws nothing (a headless agent) is sent its
    tables without pieces, cells and labels (the HUD, the legal moves and the events still come)."""
    room: Code
    name: Short | None = None
    seat: Annotated[int, msgspec.Meta(ge=1, le=16)] | None = None
    token: Token | None = None
    layout: bool = True


class Watch(_Msg, tag="watch"):
    room: Code
    layout: bool = True


class Play(_Msg, tag="move"):
    """A move in the game's notation. `ply`: the number of plies the client has seen (a move made for an older
    table is refused, not applied to the new one)."""
    text: MoveText
    ply: Ply | None = None


class Undo(_Msg, tag="undo"):
    """Ask to take back this seat's last move (the others at the table are asked to agree)."""


class UndoAnswer(_Msg, tag="undo_answer"):
    agree: bool


class Look(_Msg, tag="look"):
    """Ask for the table again (a client that lost track)."""


class Suggest(_Msg, tag="suggest"):
    """Ask the server which move `agent` (NAME or NAME:LEVEL, one of the game's agents that sees only a seat) would
    make for this seat now: it searches on the server, from what this seat may know, and answers `Suggested` to this
    connection alone. `ply`: the plies the client has seen, as in Play."""
    agent: Short
    ply: Ply | None = None


ClientMessage = Union[Create, Join, Watch, Play, Undo, UndoAnswer, Look, Suggest]
CLIENT_KINDS = tuple(str(kind.__struct_config__.tag) for kind in get_args(ClientMessage))   # "create", "join", ...


# ---- server -> client --------------------------------------------------------------------------------------------
class WireEvent(msgspec.Struct, array_like=True):
    kind: str
    text: str
    pieces: tuple[str, ...] = ()
    reveals: bool = False
    areas: tuple[tuple[str, str], ...] = ()


class WirePiece(msgspec.Struct, array_like=True):
    id: str
    kind: str
    x: float
    y: float
    z: float
    heading: float
    face_up: bool
    look: tuple
    tilt: float


class WireCell(msgspec.Struct, array_like=True):
    id: str
    x: float
    y: float
    z: float
    w: float
    d: float
    label: str


class WireLabel(msgspec.Struct, array_like=True):
    id: str
    x: float
    y: float
    z: float
    text: str


class WirePanel(msgspec.Struct, array_like=True):
    """One player's panel as the viewer may read it (engine.game.Panel)."""
    seat: int
    name: str
    score: str
    holdings: tuple[str, ...]
    to_move: bool
    colour: str = ""


class Table(msgspec.Struct):
    """The game as one viewer sees it after `ply` plies."""
    ply: int
    to_move: int                  # a seat, CHANCE or TERMINAL
    pieces: list[WirePiece]
    cells: list[WireCell]
    labels: list[WireLabel]
    hud: dict[str, str]
    legal: list[str] = []         # the viewer's legal moves, only when the viewer is to move
    result: str = ""              # the outcome, once the game is over
    panels: list[WirePanel] = []  # one a player (for a client that draws)
    words: list[str] = []         # the legal moves in a player's words, in the order of `legal` (for one that draws)
    prompt: str = ""              # what the viewer to move is asked now ("pick a tower to attack"; for one that draws)
    # the clicks that make each legal move on the table, in the order of `legal` (for one that draws): a step is a
    # piece or cell id of this viewer's table or a button's word, or a list of such picks made in any order
    paths: list[list[Union[str, list[str]]]] = []
    asks: dict[str, str] = {}     # legal move -> the question the table asks before playing it (a cheat's cost)
    pick_words: dict[str, str] = {}   # a pick that is a button, not a piece or place -> the button's words
    # "place option" (a first click on a place, then the button that says how: a tile's way) -> where that move would
    # put pieces, shown as ghosts while the pointer rests on the place (the game's preview)
    previews: dict[str, list[WirePiece]] = {}
    # the layout's close-up, [piece id, caption] (the tile to place, enlarged), and the part of the table the view
    # frames closely, [xmin, ymin, zmin, xmax, ymax, zmax]; empty: none (for a client that draws)
    closeup: list[str] = []
    focus: list[float] = []


class Seat(msgspec.Struct):
    name: str
    kind: str                     # "remote" (a person) or "ai" (played on the server)
    agent: str = ""
    held: bool = False            # a person has claimed it (its token was given out)
    connected: bool = False


class Clock(msgspec.Struct):
    """The clock of the person to move: `elapsed` seconds since their turn began; `limit` and `mode` as the room was
    opened ("wait": only shown; "ai": an AI moves for them at the limit)."""
    seat: int
    elapsed: float
    limit: float | None
    mode: str


class Room(msgspec.Struct):
    code: str
    game: str
    title: str
    variant: str = ""
    seats: list[Seat] = []
    clock: Clock | None = None
    undo_asked_by: int | None = None


class Created(_Msg, tag="created"):
    room: str
    seats: int


class Joined(_Msg, tag="joined"):
    """The seat this connection now holds (0-based `seat`, SPECTATOR for a watcher) and its secret token (empty for
    a watcher): keep it to rejoin."""
    room: str
    seat: int
    token: str = ""


class View(_Msg, tag="view"):
    room: Room
    viewer: int
    table: Table


class Step(msgspec.Struct, array_like=True):
    """One ply told with the move before it: who made it (CHANCE for a draw) and its events as the viewer may see
    them."""
    mover: int
    events: list[WireEvent]


class Played(_Msg, tag="played"):
    """A move was made: `mover` (a seat, or CHANCE), `events` as this viewer may see them, `text` the move's notation
    (sent only to the mover); `then` the chance draws that followed it at once (a roll, a tile drawn), in order; then
    the table after them all. The move was ply `table.ply - 1 - len(then)`."""
    mover: int
    events: list[WireEvent]
    room: Room
    viewer: int
    table: Table
    text: str = ""
    then: list[Step] = []


class Refused(_Msg, tag="refused"):
    """One sentence: why a request was not done. `of` names the request's kind."""
    text: str
    of: str = ""


class UndoAsked(_Msg, tag="undo_asked"):
    seat: int
    text: str


class UndoDone(_Msg, tag="undo_done"):
    agreed: bool
    text: str


class Notice(_Msg, tag="notice"):
    text: str


class Suggested(_Msg, tag="suggested"):
    """The move an agent chose for the asking seat at `ply`, in the game's notation (the seat may play it or not)."""
    ply: int
    text: str
    agent: str


ServerMessage = Union[Created, Joined, View, Played, Refused, UndoAsked, UndoDone, Notice, Suggested]

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


class BadMessage(ValueError):
    """A frame that is not a message this protocol knows; the text is one sentence for the sender."""


def encode(message) -> bytes:
    return _encoder.encode(message)


def decode_client(data: bytes | str):
    """A client's message, or BadMessage with one sentence."""
    try:
        return _client_decoder.decode(data)
    except msgspec.ValidationError as e:
        text = str(e)
        if "at `$.kind`" in text or "Object missing required field `kind`" == text:
            raise BadMessage(f"Unknown message kind; a message's 'kind' is one of {', '.join(CLIENT_KINDS)}.") \
                from None
        raise BadMessage(f"That message is not valid: {_short(text)}.") from None
    except msgspec.DecodeError:
        raise BadMessage("That message is not JSON.") from None


def decode_server(data: bytes | str):
    return _server_decoder.decode(data)


def _short(text: str, limit: int = 160) -> str:
    return shown_text(text.rstrip("."), limit)


# ---- what a viewer sees ------------------------------------------------------------------------------------------
def table_for(game: Game, state: State, viewer: int, ply: int, layout: bool = True) -> Table:
    """The table `viewer` sees at `state`: the game's layout and HUD for that viewer, and its legal moves as notation
    when it is to move. Nothing else of the state goes into it. `layout` False leaves out the pieces, cells, labels,
    panels, the moves' words and their clicks (for a client that draws nothing)."""
    to_move = game.current_player(state)
    pieces, cells, labels, panels, words = [], [], [], [], []
    paths: list[list[Union[str, list[str]]]] = []
    asks: dict[str, str] = {}
    pick_words: dict[str, str] = {}
    previews: dict[str, list[WirePiece]] = {}
    closeup: list[str] = []
    focus: list[float] = []
    prompt = ""
    moves = game.legal_moves(state) if to_move == viewer else []
    if layout:
        panels = [WirePanel(p.seat, p.name, p.score, tuple(p.holdings), p.to_move, p.colour or "")
                  for p in game.panels(state, viewer)]
        words = [game.describe_move(state, m) for m in moves]
        prompt = game.prompt(state, viewer) if moves else ""
        paths = [wire_path(game.picks(state, m)) for m in moves]
        for m in moves:
            question = game.confirm_text(state, m, viewer)
            if question is not None:
                asks[game.format_move(state, m)] = question
        drawn = game.layout(state, viewer)
        spatial = drawn.pieces.keys() | drawn.cells.keys()
        for path in paths:
            before: list[str] = []          # the picks before this step, as the words of a pick may depend on them
            for step in path:
                for pick in (step if isinstance(step, list) else (step,)):
                    if pick not in spatial and pick not in pick_words:
                        pick_words[pick] = game.describe_pick(state, before, pick)
                before += step if isinstance(step, list) else [step]
            if len(path) >= 2 and isinstance(path[0], str) and isinstance(path[1], str) and path[0] in spatial \
                    and path[1] not in spatial and f"{path[0]} {path[1]}" not in previews:
                ghosts = game.preview(state, viewer, [path[0], path[1]])
                previews[f"{path[0]} {path[1]}"] = [WirePiece(pid, g.kind, g.x, g.y, g.z, g.heading, g.face_up, g.look,
                                                              g.tilt) for pid, g in sorted(ghosts.items())]
        pieces = [WirePiece(pid, p.kind, p.x, p.y, p.z, p.heading, p.face_up, p.look, p.tilt)
                  for pid, p in sorted(drawn.pieces.items())]
        cells = [WireCell(cid, c.x, c.y, c.z, c.w, c.d, c.label) for cid, c in sorted(drawn.cells.items())]
        labels = [WireLabel(lid, *value) for lid, value in sorted(drawn.labels.items())]
        closeup = list(drawn.closeup) if drawn.closeup is not None else []
        focus = list(drawn.focus) if drawn.focus is not None else []
    legal = [game.format_move(state, m) for m in moves]
    result = game.result(state) if to_move == TERMINAL else ""
    return Table(ply, to_move, pieces, cells, labels, dict(game.hud(state, viewer)), legal, result, panels, words, prompt,
                 paths, asks, pick_words, previews, closeup, focus)


def wire_path(picks) -> list[Union[str, list[str]]]:
    """A move's pick path as sent: its steps in order, a set of picks made in any order as a sorted list."""
    return [sorted(step) if isinstance(step, (set, frozenset)) else step for step in picks]


def path_of(wire: list[Union[str, list[str]]]) -> tuple:
    """A pick path as sent, back as the path app.picks follows (a list: a set of picks made in any order)."""
    return tuple(frozenset(step) if isinstance(step, list) else step for step in wire)


def wire_events(events: list[Event], viewer: int) -> list[WireEvent]:
    """The events `viewer` may see, as sent."""
    return [WireEvent(str(e.kind), e.text, tuple(e.pieces), e.reveals, tuple(e.areas))
            for e in events_for(events, viewer)]


def seat_word(seat: int) -> str:
    return "chance" if seat == CHANCE else f"Player {seat + 1}"
