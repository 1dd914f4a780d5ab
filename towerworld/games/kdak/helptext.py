"""The rules in brief, for the help overlay (the full text: docs/rules/kdak.md)."""
HELP = """K'Dak's Tower of Confusion - climb a six-storey tower of face-down tiles, hit the switch on level 5, then escape
while it crumbles, scoring gold on the way down.
- First move: enter any tile of the null level (level 0). Entering a face-down tile turns it face up.
- Then each turn: one step sideways on your level (never diagonally), or straight down, or straight up - up only when
  at least two tiles on your level are face up. Click a glowing tile; the storeys above you are lifted away.
- Climbing scores nothing. The first pawn on level 5 opens the door and every face-up tile turns face down: remember
  where the 5s were (M shows what has been seen).
- From then on, after moving, roll the die and pick a tile of the rolled level to disintegrate; pawns on it fall,
  tiles above settle. Entering a face-down tile now scores its rank (A = 1). Leaving the tower is for good.
- The game ends when every tile left is face up or both pawns are out; the higher score wins.
Variants: talisman (null tiles give extra turns), solitaire and cooperative (titles at 37, 42, 48 and 53 points)."""
