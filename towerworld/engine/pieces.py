"""The piece catalog: every physical component with its true size in millimetres (see shared rulings).

One table. Layouts stack pieces with these sizes; the stage builds models from them. `w` is along x, `d` along y,
`h` the height (thickness) along z, `mass` in grams (what Bullet gives the body; 0 for fixtures that never move),
`family` the component family that draws it (the scene imports a family only when one of its kinds is drawn).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Size:
    w: float
    d: float
    h: float
    mass: float = 5.0
    family: str = ""      # the component family that draws it: a module of towerworld/scene/components


PIECES: dict[str, Size] = {
    # piecepack
    "pp_tile": Size(50.8, 50.8, 6.35, mass=12.0, family="piecepack"),
    "pp_coin": Size(19.05, 19.05, 3.18, mass=2.0, family="piecepack"),
    "pp_die": Size(12.7, 12.7, 12.7, mass=2.5, family="piecepack"),
    "pp_pawn": Size(15.9, 15.9, 28.6, mass=4.0, family="piecepack"),
    # double-six dominoes: one square half is an inch
    "domino": Size(50.8, 25.4, 8.0, mass=10.0, family="dominoes"),
    "domino_map": Size(152.4, 152.4, 2.0, mass=0.0, family="dominoes"),
    # Looney pyramids (base, base, height)
    "pyramid_1": Size(14.29, 14.29, 25.40, mass=3.0, family="pyramids"),
    "pyramid_2": Size(19.84, 19.84, 34.93, mass=5.0, family="pyramids"),
    "pyramid_3": Size(25.40, 25.40, 44.45, mass=8.0, family="pyramids"),
    # Decktet, poker size
    "card": Size(63.5, 88.9, 0.3, mass=1.8, family="decktet"),
    # Carcassonne
    "ccs_tile": Size(45.0, 45.0, 2.0, mass=5.0, family="carcassonne"),
    "meeple": Size(16.0, 9.9, 16.0, mass=1.5, family="carcassonne"),
    "tower_piece": Size(18.0, 17.0, 12.0, mass=2.0, family="carcassonne"),
    # Elevation
    "terrain": Size(40.0, 40.0, 8.0, mass=8.0, family="terrain"),
    "elev_box": Size(240.0, 240.0, 4.0, mass=0.0, family="terrain"),
    "elev_piece": Size(24.0, 24.0, 30.0, mass=6.0, family="terrain"),
    # table-top helpers
    "level_stair": Size(22.0, 120.0, 31.75, mass=0.0, family="tabletop"),   # K'Dak: six steps beside the tower, one per storey, for the level coins
    "track": Size(300.0, 30.0, 1.0, mass=0.0, family="tabletop"),
    "marker": Size(10.0, 10.0, 4.0, mass=1.0, family="tabletop"),
}

# How far a smaller Looney pyramid's base sits above the base of the one it nests on (rulings: medium on large ~9.7,
# small on large ~19.5 for a full tower).
PYRAMID_NEST_LIFT = {3: 9.7, 2: 9.8, 1: 0.0}


def size(kind: str) -> Size:
    try:
        return PIECES[kind]
    except KeyError:
        raise KeyError(f"unknown piece kind '{kind}' (add it to towerworld/engine/pieces.py)") from None
