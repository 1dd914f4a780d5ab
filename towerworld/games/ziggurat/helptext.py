"""The rules in brief, for the help overlay (the full text: docs/rules/ziggurat.md)."""
HELP = """Ziggurat - build a three-tier ziggurat of all 28 dominoes (18 on the 6x6 map, 8 on the middle 4x4, 2 on top).
- Play a domino from your hand of three (it refills from the pile): click it, then the cell for its low half, then
  the cell for its high half.
- Each half must be strictly greater than the half directly beneath it, and on the upper tiers each half must rest on
  a domino (no overhang, no balancing).
- Except for the first domino, at least one half must sit next to (not diagonally) a placed half of the same value,
  on any tier.
- Stuck? Cheat: click a placed domino to pick it up with whatever rests on it; every domino picked up is one cheat.
- Titles: 0 cheats Legendary Architect of the Divine, 1 Master, 2 Reputable, 3 Modest, 4 Feeble, 5+ Disgraceful
  Blundering Saboteur."""
