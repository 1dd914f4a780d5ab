"""The piecepack: tiles, coins, dice and pawns in four suits.

pp_tile (look suit, rank): an ivory tile with a thin suit-coloured border, the rank large and the suit symbol below
it; the back is dark with a 2x2 grid. pp_coin (look value or rank; on the back suit, score or talisman): a wooden
disc, or one in a player's colour (look colour). pp_die (look face): the rolled face on top in red, the other five
around it. pp_pawn (look suit, or colour / player): a peg with a round head.
"""
from __future__ import annotations

from panda3d.core import NodePath

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.scene.components import caption, model
from towerworld.scene.components.shapes import IVORY, box, cylinder, player_colour, sphere, text

SUIT_COLOURS = {"suns": (0.82, 0.1, 0.08, 1), "moons": (0.08, 0.08, 0.1, 1), "crowns": (0.1, 0.5, 0.15, 1),
                "arms": (0.1, 0.25, 0.75, 1)}
SUIT_SYMBOLS = {"suns": "\u2600", "moons": "\u263e", "crowns": "\u2654", "arms": "\u2694"}
TALISMAN = "\u2625"
TILE_BACK = (0.3, 0.22, 0.16, 1)
COIN_WOOD = (0.8, 0.7, 0.45, 1)
COIN_INK = (0.1, 0.08, 0.05, 1)
DIE_FACES = ["null", "ace", "2", "3", "4", "5"]
RANK_GLYPHS = {"null": "0", "ace": "A", 0: "0", 1: "A"}


def rank_glyph(rank) -> str:
    """Piecepack ranks as printed: null shows 0 (it scores nothing), ace shows A."""
    return RANK_GLYPHS.get(rank, str(rank))


@caption("pp_tile", "pp_coin", "pp_die", "pp_pawn")
def piecepack_caption(pose: Pose) -> str:
    words = []
    for key, value in pose.look:
        if key in ("rank", "value", "face"):
            words.append(rank_glyph(value))
        elif key == "suit":
            words.append(SUIT_SYMBOLS.get(value, str(value)))
    return " ".join(words)


def _face_symbol(suit: str | None, rank, w: float, z: float) -> NodePath:
    root = NodePath("face")
    colour = SUIT_COLOURS.get(suit or "", (0.2, 0.2, 0.2, 1))
    if rank is not None:
        text(rank_glyph(rank), w * 0.46, colour, (0, w * 0.1, z)).reparentTo(root)
    if suit:
        text(SUIT_SYMBOLS.get(suit, "?"), w * 0.3, colour, (0, -w * 0.27, z)).reparentTo(root)
    return root


@model("pp_tile")
def build_pp_tile(pose: Pose) -> NodePath:
    s = size("pp_tile")
    root = NodePath("pp_tile")
    box(s.w, s.d, s.h, IVORY, bevel=0.8).reparentTo(root)
    suit, rank = pose.get("suit"), pose.get("rank")
    if suit is not None:
        # a thin suit-coloured border reads the suit from far away
        frame = box(s.w - 3, s.d - 3, 0.2, SUIT_COLOURS.get(suit, (0.5, 0.5, 0.5, 1)), z0=s.h)
        frame.reparentTo(root)
        box(s.w - 7, s.d - 7, 0.25, IVORY, z0=s.h).reparentTo(root)
        _face_symbol(suit, rank, s.w, s.h + 0.3).reparentTo(root)
    # the back: dark with a 2x2 grid
    box(s.w - 2, s.d - 2, 0.2, TILE_BACK, z0=-0.2).reparentTo(root)
    box(s.w - 4, 1.4, 0.25, IVORY, z0=-0.45).reparentTo(root)
    box(1.4, s.d - 4, 0.25, IVORY, z0=-0.45).reparentTo(root)
    return root


@model("pp_coin")
def build_pp_coin(pose: Pose) -> NodePath:
    s = size("pp_coin")
    root = NodePath("pp_coin")
    colour = pose.get("colour")
    body = player_colour(colour) if colour is not None else COIN_WOOD
    cylinder(s.w / 2, s.h, body).reparentTo(root)
    value = pose.get("value", pose.get("rank"))
    if value is not None:
        text(rank_glyph(value), s.w * 0.6, COIN_INK, (0, 0, s.h + 0.05)).reparentTo(root)
    # the back: a suit, else what the coin stands for (a score marker's points, a talisman)
    suit = pose.get("suit")
    back = (0, 0, -0.05)
    if suit:
        text(SUIT_SYMBOLS.get(suit, "?"), s.w * 0.55, SUIT_COLOURS.get(suit, COIN_INK), back,
             facing="down").reparentTo(root)
    elif pose.get("score") is not None:
        text(str(pose.get("score")), s.w * 0.5, COIN_INK, back, facing="down").reparentTo(root)
    elif pose.get("talisman"):
        text(TALISMAN, s.w * 0.6, (0.55, 0.1, 0.45, 1), back, facing="down").reparentTo(root)
    return root


@model("pp_die")
def build_pp_die(pose: Pose) -> NodePath:
    """The die shows its rolled face on top; the other five faces are drawn around it."""
    s = size("pp_die")
    root = NodePath("pp_die")
    box(s.w, s.d, s.h, IVORY, bevel=1.2).reparentTo(root)
    face = pose.get("face")
    face = DIE_FACES[face] if isinstance(face, int) else face
    others = [f for f in DIE_FACES if f != face]
    ink = (0.1, 0.1, 0.1, 1)
    glyph = s.w * 0.6
    if face is not None:
        text(rank_glyph(face), s.w * 0.7, (0.75, 0.05, 0.05, 1), (0, 0, s.h + 0.05)).reparentTo(root)
    text(rank_glyph(others[-1]), s.w * 0.7, ink, (0, 0, -0.05), facing="down").reparentTo(root)
    for heading, f in zip((0, 90, 180, 270), others[:4]):
        side = NodePath("side")          # turned about the die's centre, so each label lands on its own face
        text(rank_glyph(f), glyph, ink, (0, -s.d / 2 - 0.05, s.h / 2), facing="front").reparentTo(side)
        side.setH(heading)
        side.reparentTo(root)
    return root


@model("pp_pawn")
def build_pp_pawn(pose: Pose) -> NodePath:
    s = size("pp_pawn")
    root = NodePath("pp_pawn")
    suit = pose.get("suit")
    colour = SUIT_COLOURS[suit] if suit in SUIT_COLOURS else player_colour(pose.get("colour", pose.get("player", 0)))
    cylinder(s.w / 2, 4, colour).reparentTo(root)
    cylinder(s.w / 2 * 0.72, s.h - 10, colour, z0=4, r_top=s.w / 2 * 0.35).reparentTo(root)
    sphere(s.w * 0.3, colour, (0, 0, s.h - s.w * 0.3)).reparentTo(root)
    return root
