"""The project's own Carcassonne tile catalog (towerworld/games/carcassonne/tiles.py) against the reference facts."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from towerworld.games.carcassonne import tiles as TL

# The shared reference facts when the checkout sits beside shared/, else the copy kept with the tests.
SHARED = Path(__file__).resolve().parents[2] / "shared" / "reference" / "carcassonne-tiles.json"
REF = SHARED if SHARED.exists() else Path(__file__).resolve().parent / "data" / "carcassonne-tiles.json"


@pytest.fixture(scope="module")
def ref():
    return json.loads(REF.read_text())


def _rows():
    return {row[1]: row for row in TL.TILES}


def test_counts_match_the_reference(ref):
    """Rulings: "Base game: 72 tiles" and The Tower's 18 foundation tiles; every type's copies as in the reference."""
    rows = _rows()
    assert sum(r[2] for r in TL.TILES if not r[0].startswith("T") or len(r[0]) == 1) == 72
    assert sum(r[2] for r in TL.TILES if len(r[0]) == 2) == 18
    for part in ("base", "tower"):
        for t in ref[part]:
            assert rows[t["id"]][2] == t["count"], t["id"]
    assert len(rows) == len(ref["base"]) + len(ref["tower"]) == len(TL.TILES)


def test_pennants_cloisters_foundations_and_edges_match(ref):
    rows = _rows()
    pennants = cloisters = foundations = 0
    for part in ("base", "tower"):
        for t in ref[part]:
            code, _id, n, edges, text = rows[t["id"]]
            feats, cloister, tower = TL.parse_features(text)
            assert edges == t["edges_NESW"], t["id"]
            assert sum(f[2] for f in feats) == t["pennants"], t["id"]
            assert cloister == t["cloister"], t["id"]
            assert tower == t["tower_foundation"], t["id"]
            pennants += n * t["pennants"]
            cloisters += n * t["cloister"]
            foundations += n * t["tower_foundation"]
    assert foundations == 18
    assert sum(r[2] * sum(f[2] for f in TL.parse_features(r[4])[0]) for r in TL.TILES) == pennants
    assert sum(r[2] for r in TL.TILES if TL.parse_features(r[4])[1]) == cloisters


def _norm_ref(t):
    out = []
    for f in t["features"]:
        kind = f["type"]
        if kind in ("monastery", "tower"):
            out.append((kind, (), 0, ()))
            continue
        locs = tuple(sorted(f.get("locs", [])))
        touch = tuple(sorted(f.get("adjoining_cities", "").split()))
        out.append((kind, locs, int(f.get("pennants", 0) or 0), touch))
    return sorted(out)


def _norm_mine(text):
    out = []
    for part in (p.strip() for p in text.split("|")):
        if part in ("K", "T"):
            out.append(({"K": "monastery", "T": "tower"}[part], (), 0, ()))
            continue
        head, *rest = part.split(">")
        words = head.split()
        kind = {"r": "road", "c": "city", "f": "field"}[words[0]]
        out.append((kind, tuple(sorted(w for w in words[1:] if w != "+")), words.count("+"),
                    tuple(sorted(rest[0].split())) if rest else ()))
    return sorted(out)


def test_every_feature_matches_the_reference(ref):
    """Roads, cities (with pennants), fields with the cities they touch, cloisters, foundations: feature by feature."""
    rows = _rows()
    for part in ("base", "tower"):
        for t in ref[part]:
            assert _norm_mine(rows[t["id"]][4]) == _norm_ref(t), t["id"]


def test_start_tile_is_a_city_edge_with_a_straight_road():
    """Rulings: "start tile (city on one edge, straight road) face up"."""
    code, _ref, n, edges, text = TL.TILES[TL.INDEX[TL.START]]
    assert edges == "CRFR" and "r W E" in text and n == 4


def test_rotations_are_consistent():
    """Every rotated table: each edge and half-edge belongs to exactly the features its edge letter says."""
    for t, row in enumerate(TL.TILES):
        for r in range(4):
            R = TL.ROTS[t][r]
            for d in range(4):
                e = R.edges[d]
                slot = R.slot[d]
                halves = (R.slot[4 + 2 * d], R.slot[4 + 2 * d + 1])
                if e == TL.EDGE_CODE["C"]:
                    assert R.kinds[slot] == TL.CITY and halves == (-1, -1)
                elif e == TL.EDGE_CODE["R"]:
                    assert R.kinds[slot] == TL.ROAD and all(R.kinds[h] == TL.FIELD for h in halves)
                else:
                    assert slot == -1 and all(R.kinds[h] == TL.FIELD for h in halves)
            # rotating by 90 degrees turns the north edge into the east edge
            assert R.edges[(0 + r) % 4] == TL.EDGE_CODE[row[3][0]]
            # the four fits: the tile fits exactly its own edges in rotation r
            assert r in TL.FITS[t][R.key]
