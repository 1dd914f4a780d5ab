"""The rules in brief, for the help overlay (the full text: docs/rules/carcassonne.md)."""
HELP = """Carcassonne with The Tower and the Black Tower - lay a landscape of tiles, score roads, cities, cloisters and
farms, and build towers that capture followers.
- Draw a tile and place it so every touching edge matches; then do one thing: put a follower on a feature of that tile
  (if nobody holds it), put a tower piece on any foundation or open tower, or close a tower with a follower.
- A tower piece may capture one follower in range: a normal tower reaches its height in tiles along the row and
  column; a black tower reaches all its storeys along the diagonals. White caps a tower for good.
- Prisoners are exchanged at once; on your turn you may ransom one of yours for 3 points.
- Completed roads, cities (pennants double) and cloisters score at once; farms score 3 per completed city at the end."""
