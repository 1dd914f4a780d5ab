"""The rules in brief, for the help overlay (the full text: docs/rules/elevation.md)."""
HELP = """Elevation - two armies fight over a 6x6 box of stacked terrain tiles that they dig and pile.
- A turn is one piece's dig and move, in either order, both required:
  dig: lift the top tile of a square next to the piece (not its own square, not under an enemy) and drop it on another
  next-door square with no piece on it; move: one step to any of the 8 neighbours, climbing at most one level,
  dropping any number.
- Capture by stepping onto an enemy that stands at least two levels below you.
- Fish may instead go two squares in a straight diagonal line (the middle square empty). Dragons may dig twice, move
  twice, or take one step climbing up to two levels without digging.
- Click your piece, then the glowing squares in order (dig from, dig to, move to); Backspace takes back a pick.
- Win by capturing every enemy piece or leaving the opponent without a complete legal turn. Draws: the same position a
  third time, an agreed draw, or the move cap."""
