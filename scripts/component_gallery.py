"""Pictures of the component families, without a game: `python scripts/component_gallery.py OUT_DIR`.

Writes pyramids.png (nested towers in every colour, lone pyramids, pyramids lying on their sides), cards.png (Decktet
faces of every kind of rank, a fanned hand, a face-down pile), card.png (one face and the back, close up) and
pieces.png (piecepack, dominoes, terrain) at 1280 x 800.
"""
from __future__ import annotations

import os
import sys

from towerworld.engine.layout import Layout, Pose, look
from towerworld.engine.pieces import PYRAMID_NEST_LIFT
from towerworld.scene.camera import Orbit
from towerworld.scene.offscreen import render_layout

COLOURS = ["red", "yellow", "green", "blue", "black", "white"]
CARDS = [("Mountain", "4", "moons,suns"), ("Huntress", "Crown", "moons"), ("Chance Meeting", "7", "moons,leaves"),
         ("Watchman", "Pawn", "moons,wyrms,knots"), ("Ace of Waves", "A", "waves"), ("Island", "Court", "suns,waves,wyrms"),
         ("Excuse", "Excuse", ""), ("Battle", "4", "wyrms,knots")]


def pyramids() -> Layout:
    layout = Layout()
    for i, colour in enumerate(COLOURS):
        x = (i - 2.5) * 45
        layout.place(f"large:{colour}", Pose("pyramid_3", x, 0, 0, look=look(colour=colour)))
        layout.place(f"medium:{colour}", Pose("pyramid_2", x, 0, PYRAMID_NEST_LIFT[3],
                                              look=look(colour=COLOURS[(i + 1) % 6])))
        layout.place(f"small:{colour}", Pose("pyramid_1", x, 0, PYRAMID_NEST_LIFT[3] + PYRAMID_NEST_LIFT[2],
                                             look=look(colour=COLOURS[(i + 2) % 6])))
        layout.place(f"lone:{colour}", Pose(f"pyramid_{i % 3 + 1}", x, 60, 0, look=look(colour=colour)))
        layout.place(f"lying:{colour}", Pose(f"pyramid_{i % 3 + 1}", x, -60, 0, tilt=90, heading=30 * i,
                                             look=look(colour=colour)))
    return layout


def cards() -> Layout:
    layout = Layout()
    for i, (name, rank, suits) in enumerate(CARDS):
        layout.place(f"table:{i}", Pose("card", (i % 4 - 1.5) * 72, (i // 4) * -100 + 50, 0,
                                        look=look(name=name, rank=rank, suits=suits)))
    for i, (name, rank, suits) in enumerate(CARDS[:5]):
        layout.place(f"hand:{i}", Pose("card", (i - 2) * 30, -170, 0, heading=(i - 2) * -8, tilt=35,
                                       look=look(name=name, rank=rank, suits=suits)))
    for i in range(3):
        layout.place(f"pile:{i}", Pose("card", 220, 0, i * 0.3, heading=i * 4, face_up=False, look=look(back="decktet")))
    return layout


def card_close_up() -> Layout:
    layout = Layout()
    layout.place("face", Pose("card", -36, 0, 0, look=look(name="Light Keeper", rank="Pawn", suits="suns,waves,knots")))
    layout.place("back", Pose("card", 36, 0, 0, face_up=False, look=look(back="decktet")))
    return layout


def pieces() -> Layout:
    layout = Layout()
    for i, (suit, rank) in enumerate((("suns", 1), ("moons", 0), ("crowns", 5), ("arms", 3))):
        layout.place(f"tile:{i}", Pose("pp_tile", i * 56 - 84, 60, 0, look=look(suit=suit, rank=rank)))
    layout.place("coin", Pose("pp_coin", -84, 0, 0, look=look(rank=4)))
    layout.place("die", Pose("pp_die", -50, 0, 0, look=look(face=2)))
    layout.place("pawn", Pose("pp_pawn", -20, 0, 0, look=look(suit="arms")))
    for i, (a, b) in enumerate(((6, 5), (3, 3), (0, 1))):
        layout.place(f"domino:{i}", Pose("domino", 40 + 0 * i, -40 + 30 * i, 0, look=look(a=a, b=b)))
    for layer in range(4):
        layout.place(f"terrain:{layer}", Pose("terrain", 120, 0, layer * 8, look=look(layer=layer)))
    layout.place("dragon", Pose("elev_piece", 120, 0, 32, look=look(piece="dragon", side=1)))
    return layout


def main(out_dir: str) -> None:
    os.makedirs(out_dir, exist_ok=True)
    shots = [("pyramids", pyramids(), None), ("cards", cards(), None),
             ("card", card_close_up(), Orbit(0, 0, 0, heading=0, pitch=85, distance=260)), ("pieces", pieces(), None)]
    for name, layout, orbit in shots:
        print("wrote", render_layout(layout, os.path.join(out_dir, f"{name}.png"), 1280, 800, orbit=orbit))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "gallery")
