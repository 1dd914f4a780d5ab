"""The project's own Carcassonne tile catalog: ONE data table, plus the rotated tables derived from it at import.

Each row: (code, reference id, copies, edges N E S W at rotation 0, features).
Edges: C city, R road, F field. Features, separated by '|':
  r LOCS        a road through the listed edges (one edge: the road ends at the tile centre)
  c LOCS [+]    a city over the listed edges; each '+' is a pennant (coat of arms)
  f HALVES [> EDGES]   a field over the listed half-edges, touching the cities that hold the listed edges
  K             a cloister          T   a tower foundation
Half-edges are named facing outward from the tile centre, clockwise from the top-left corner:
NL NR EL ER SL SR WL WR; 'I' is an inner field that reaches no edge. Codes: the base tiles use their usual letters
(A-X); the 18 tiles of The Tower are TA-TQ. The start tile is one copy of D.
Checked against ../shared/reference/carcassonne-tiles.json by tests/test_carcassonne_tiles.py.
"""
from __future__ import annotations

from collections import Counter

TILES = (
    # code  reference   n  edges   features
    ('A',  'BA/LR',     2, 'FFRF', 'K | r S | f NL NR EL ER SL SR WL WR'),
    ('B',  'BA/L',      4, 'FFFF', 'K | f NL NR EL ER SL SR WL WR'),
    ('C',  'BA/Cccc+',  1, 'CCCC', 'c N W S E +'),
    ('D',  'BA/RCr',    4, 'CRFR', 'r W E | c N | f EL WR > N | f ER SL SR WL'),
    ('E',  'BA/C',      5, 'CFFF', 'c N | f WL WR SL SR EL ER > N'),
    ('F',  'BA/CFc+',   2, 'FCFC', 'c W E + | f NL NR > W | f SL SR > W'),
    ('G',  'BA/CFc.1',  1, 'FCFC', 'c W E | f NL NR > W | f SL SR > W'),
    ('H',  'BA/CFC.2',  3, 'CFCF', 'c N | c S | f WL WR EL ER > N S'),
    ('I',  'BA/CC.2',   2, 'CFFC', 'c N | c W | f EL ER SL SR > N W'),
    ('J',  'BA/CRr',    3, 'CRRF', 'r E S | c N | f EL WL WR SR > N | f ER SL'),
    ('K',  'BA/RrC',    3, 'CFRR', 'r S W | c N | f WR EL ER SL > N | f WL SR'),
    ('L',  'BA/CRRR',   3, 'CRRR', 'r E | r S | r W | c N | f WR EL > N | f WL SR | f ER SL'),
    ('M',  'BA/Cc+',    2, 'CFFC', 'c N W + | f SL SR EL ER > N'),
    ('N',  'BA/Cc.1',   3, 'CFFC', 'c N W | f SL SR EL ER > N'),
    ('O',  'BA/CcRr+',  2, 'CRRC', 'r E S | c N W + | f EL SR > N | f ER SL'),
    ('P',  'BA/CcRr',   3, 'CRRC', 'r E S | c N W | f EL SR > N | f ER SL'),
    ('Q',  'BA/Ccc+',   1, 'CCFC', 'c N E W + | f SL SR > N'),
    ('R',  'BA/Ccc',    3, 'CCFC', 'c N E W | f SL SR > N'),
    ('S',  'BA/CccR+',  2, 'CCRC', 'r S | c N W E + | f SL > N | f SR > N'),
    ('T',  'BA/CccR',   1, 'CCRC', 'r S | c N W E | f SL > N | f SR > N'),
    ('U',  'BA/RFr',    8, 'FRFR', 'r W E | f WR NL NR EL | f ER SL SR WL'),
    ('V',  'BA/Rr',     9, 'FFRR', 'r W S | f WR NL NR EL ER SL | f SR WL'),
    ('W',  'BA/RRR',    4, 'FRRR', 'r E | r S | r W | f WR NL NR EL | f ER SL | f SR WL'),
    ('X',  'BA/RRRR',   1, 'RRRR', 'r N | r E | r S | r W | f WR NL | f NR EL | f ER SL | f SR WL'),
    ('TA', 'TO/C',      2, 'CFFF', 'T | c N | f WL WR SL SR EL ER > N'),
    ('TB', 'TO/F',      1, 'FFFF', 'T | f NL NR EL ER SL SR WL WR'),
    ('TC', 'TO/L',      1, 'FFFF', 'T | K | f NL NR EL ER SL SR WL WR'),
    ('TD', 'TO/RR',     1, 'FFRR', 'T | r W | r S | f WR NL NR EL ER SL | f WL SR'),
    ('TE', 'TO/RRR',    1, 'RRFR', 'T | r W | r N | r E | f WR NL | f NR EL | f ER SL SR WL'),
    ('TF', 'TO/RrRr.2', 1, 'RRRR', 'T | r N W | r S E | f NL WR | f SL ER | f NR EL SR WL'),
    ('TG', 'TO/RRRR.1', 1, 'RRRR', 'T | r N | r E | r S | r W | f WR NL | f NR EL | f ER SL | f SR WL'),
    ('TH', 'TO/CRcr',   1, 'RCRC', 'T | r N S | c W E | f NL > W | f NR > W | f SL > W | f SR > W'),
    ('TI', 'TO/CFR',    1, 'CFRF', 'T | c N | r S | f WL WR SR > N | f EL ER SL > N'),
    ('TJ', 'TO/RrC',    1, 'CFRR', 'T | r S W | c N | f WR EL ER SL > N | f WL SR'),
    ('TK', 'TO/RCr',    1, 'CRFR', 'T | c N | r W E | f WR > N | f EL > N | f WL SL SR ER'),
    ('TL', 'TO/Cc',     1, 'CFFC', 'T | c N W | f SL SR EL ER > N'),
    ('TM', 'TO/CcR!',   1, 'CRFC', 'T | r E | c N W | f EL > N | f ER > N | f SL SR > N'),
    ('TN', 'TO/CC.2',   1, 'CFFC', 'T | c N | c W | f EL ER SL SR > N W'),
    ('TO', 'TO/CRCr.2', 1, 'CRCR', 'T | r W E | c N | c S | f WR EL > N | f ER WL > S'),
    ('TP', 'TO/CccR',   1, 'CCRC', 'T | r S | c N W E | f SL > N | f SR > N'),
    ('TQ', 'TO/CccC+',  1, 'CCCC', 'T | c N W E + | c S | f I > W S'),
)

START = 'D'          # the start tile: one copy of D, placed face up at (0, 0) unrotated

# ---- derived tables (computed once at import) ------------------------------------------------------------------
ROAD, CITY, FIELD, CLOISTER = 0, 1, 2, 3
KIND_NAMES = ('road', 'city', 'field', 'cloister')
EDGE_CODE = {'C': 1, 'R': 2, 'F': 3}
DIRS = 'NESW'
HALVES = ('NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR')

CODES = tuple(row[0] for row in TILES)
INDEX = {code: i for i, code in enumerate(CODES)}
COUNT = tuple(row[2] for row in TILES)
IS_TOWER_TILE = tuple('T' in row[4].split(' | ') for row in TILES)


def parse_features(text: str):
    """Feature list of one row at rotation 0: [(kind, locs, pennants, touching-city edges)]; plus cloister/tower flags.

    locs are edge indices 0-3 (N E S W) for roads and cities, half-edge indices 0-7 for fields (-1 for 'I')."""
    feats: list[tuple[int, tuple[int, ...], int, tuple[int, ...]]] = []
    cloister = tower = False
    for part in (p.strip() for p in text.split('|')):
        if part == 'K':
            cloister = True
            feats.append((CLOISTER, (), 0, ()))
            continue
        if part == 'T':
            tower = True
            continue
        head, *rest = part.split('>')
        words = head.split()
        kind = {'r': ROAD, 'c': CITY, 'f': FIELD}[words[0]]
        pennants = words.count('+')
        names = [w for w in words[1:] if w != '+']
        if kind == FIELD:
            locs = tuple(-1 if n == 'I' else HALVES.index(n) for n in names)
        else:
            locs = tuple(DIRS.index(n) for n in names)
        touching = tuple(DIRS.index(n) for n in rest[0].split()) if rest else ()
        feats.append((kind, locs, pennants, touching))
    return feats, cloister, tower


_COUNT_WORDS = ("", "one", "two", "three", "four")


def tile_words(t: int) -> str:
    """What a player sees on tile type `t`, in words ("a cloister and a road"), for the status and the log (worded
    once per tile type: every draw and placement tells it)."""
    return TILE_WORDS[t]


def _tile_words(t: int) -> str:
    feats, cloister, tower = parse_features(TILES[t][4])
    parts = ["a cloister"] if cloister else []
    cities = Counter((len(locs), bool(pennants)) for kind, locs, pennants, _ in feats if kind == CITY)
    for (sides, pennant), n in sorted(cities.items(), reverse=True):
        what = f"{'a city' if n == 1 else _COUNT_WORDS[n] + ' cities'} on {_COUNT_WORDS[sides]} side"
        parts.append(what + ("s" if sides > 1 else "") + (" each" if n > 1 else "") + (" with a pennant" if pennant
                                                                                      else ""))
    roads = sum(1 for f in feats if f[0] == ROAD)
    if roads:
        parts.append("a road" if roads == 1 else f"{_COUNT_WORDS[roads]} roads")
    if tower:
        parts.append("a tower foundation")
    if not parts:
        return "only fields"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


TILE_WORDS = tuple(_tile_words(t) for t in range(len(TILES)))
# the piece id of each copy of each tile type: TILE_IDS[t][k] == "tile:CODE:k"
TILE_IDS = tuple(tuple(f"tile:{row[0]}:{k}" for k in range(row[2])) for row in TILES)

SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def feature_words(name: str) -> str:
    """A tile feature as a player says it: "city N S" -> "the city (north, south)", "field EL ER" -> "the field
    (east)", "cloister" -> "the cloister"."""
    kind, *parts = name.split()
    sides = []
    for part in parts:
        side = SIDE_WORDS.get(part[:1])
        if side and side not in sides:
            sides.append(side)
    return f"the {kind}" + (f" ({', '.join(sides)})" if sides else "")


class Rot:
    """One tile type in one rotation (r quarter turns clockwise): everything the engine needs, as plain tuples."""
    __slots__ = ('t', 'r', 'edges', 'key', 'kinds', 'locs', 'pennants', 'fcities', 'nopen', 'slot', 'joins',
                 'cloister', 'tower', 'names', 'roadcity')

    def __init__(self, t: int, r: int):
        code, _ref, _n, edges, text = TILES[t]
        feats, cloister, tower = parse_features(text)
        self.t, self.r = t, r
        self.edges = tuple(EDGE_CODE[edges[(d - r) % 4]] for d in range(4))
        self.cloister, self.tower = cloister, tower
        self.kinds = tuple(f[0] for f in feats)
        locs_built: list[tuple[int, ...]] = []
        names_built: list[str] = []
        # slot table: 0-3 the feature (road/city) on edge d, 4-11 the field on half-edge h
        slot = [-1] * 12
        for j, (kind, locs, _p, _touch) in enumerate(feats):
            if kind == FIELD:
                rl = tuple(-1 if h < 0 else (h + 2 * r) % 8 for h in locs)
                for h in rl:
                    if h >= 0:
                        slot[4 + h] = j
                names_built.append('field ' + ' '.join('I' if h < 0 else HALVES[h] for h in sorted(rl)))
            elif kind == CLOISTER:
                rl = ()
                names_built.append('cloister')
            else:
                rl = tuple((d + r) % 4 for d in locs)
                for d in rl:
                    slot[d] = j
                names_built.append(KIND_NAMES[kind] + ' ' + ' '.join(DIRS[d] for d in sorted(rl)))
            locs_built.append(rl)
        self.locs = tuple(locs_built)
        self.names = tuple(names_built)
        self.pennants = tuple(f[2] for f in feats)
        self.nopen = tuple(len(l) if k in (ROAD, CITY) else 0 for k, l in zip(self.kinds, self.locs))
        self.roadcity = tuple(j for j, k in enumerate(self.kinds) if k in (ROAD, CITY))
        # the local city features each field touches
        fc = []
        for kind, _l, _p, touch in feats:
            if kind != FIELD:
                fc.append(())
                continue
            cities = []
            for d in touch:
                rd = (d + r) % 4
                j = slot[rd]
                assert j >= 0 and self.kinds[j] == CITY, (code, touch)
                if j not in cities:
                    cities.append(j)
            fc.append(tuple(cities))
        self.fcities = tuple(fc)
        # joins[d]: what meets the neighbour on side d: (my local feature, neighbour's slot, counts as an open edge)
        joins = []
        for d in range(4):
            od = (d + 2) % 4
            js = []
            if slot[d] >= 0:
                js.append((slot[d], od, 1))
            for s in (0, 1):
                h = 2 * d + s
                j = slot[4 + h]
                if j >= 0:
                    partner = 2 * od + (1 - s)
                    js.append((j, 4 + partner, 0))
            joins.append(tuple(js))
        self.joins = tuple(joins)
        self.slot = tuple(slot)
        # the constraint this tile puts on an empty neighbour: that neighbour's side (d+2)%4 must show edges[d]
        self.key = 0
        for d in range(4):
            self.key |= self.edges[d] << (2 * d)


ROTS = tuple(tuple(Rot(t, r) for r in range(4)) for t in range(len(TILES)))


def _fits():
    """FITS[t][key] = rotations of tile t whose edges match a frontier constraint key (2 bits per side, 0 = open)."""
    table = []
    for t in range(len(TILES)):
        row = []
        for key in range(256):
            rs = []
            for r in range(4):
                e = ROTS[t][r].edges
                if all(((key >> (2 * d)) & 3) in (0, e[d]) for d in range(4)):
                    rs.append(r)
            row.append(tuple(rs))
        table.append(tuple(row))
    return tuple(table)


FITS = _fits()
NFITS = tuple(tuple(len(rs) for rs in row) for row in FITS)
