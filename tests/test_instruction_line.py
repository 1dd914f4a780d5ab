"""One line says what to do now, and a prompt leaves the screen once it is answered.

The instruction line tells the person to move what to click ("Your turn: ..." with the game's own words), and
otherwise whom the table waits for ("Waiting for Bob (AI)..."); a question or offer on the message line (a hint, a
"press Enter to ..." or a cheat's question) is gone after the pick or move that answers it (the issue: "old prompts
stay after you chose")."""
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game

try:
    from tabletools import settle
except ImportError:  # tests run as a package
    from tests.tabletools import settle


def _table(tmp_path, name, players):
    from towerworld.app.play import PlayTable
    return PlayTable(Match(get_game(name), players=players, seed=5, autosave=str(tmp_path / "i.tower.json")))


def test_the_instruction_says_whose_turn_and_what_to_click(showbase, tmp_path):
    t = _table(tmp_path, "kdak", [PlayerSpec("Ann"), PlayerSpec("Bob", "ai", "random")])
    try:
        settle(t)
        state = t.match.state
        assert t.match.current_player == 0
        text = t.hud.instruction.getText()
        assert text == "Your turn: " + t.game.prompt(state, 0), text
        assert "Player" not in text
        move = t.game.legal_moves(state)[0]
        for pick in t.game.picks(state, move):
            t.choose(pick)
        settle(t)
        if t.waiting_for is not None:
            assert t.hud.instruction.getText() == "Waiting for Bob (AI)\u2026"
        else:      # the AI answered at once; the table then waits for Ann again, or for chance
            assert t.hud.instruction.getText() != text or t.match.current_player == 0
        # the panels: one per player, Bob's marked as the AI's, the one of the player to move edged in gold
        titles = [v.title for v in t.hud.panel_views]
        assert titles == ["Ann", "Bob (AI)"]
        cp = t.game.current_player(t.match.state)
        assert [v.to_move for v in t.hud.panel_views] == [cp == 0, cp == 1]
    finally:
        t.close()


def test_a_hint_leaves_the_screen_once_answered(showbase, tmp_path):
    t = _table(tmp_path, "kdak", [PlayerSpec("Ann"), PlayerSpec("Bob")])
    try:
        settle(t)
        t.show_hint()
        assert t.hud.message.getText().startswith("Hint: ")
        t.clear_picks()                          # Esc: the hint is dropped, and its words go with it
        assert t.hud.message.getText() == ""
        t.show_hint()
        plies = len(t.match.plies)
        t.commit_exact()                         # Enter plays the hinted move
        settle(t)
        assert len(t.match.plies) > plies
        assert not t.hud.message.getText().startswith("Hint: "), t.hud.message.getText()
    finally:
        t.close()


def test_a_question_leaves_the_screen_with_the_next_pick(showbase, tmp_path):
    """Ziggurat asks before a cheat; a click on a domino in the hand instead answers it: the question goes."""
    from towerworld.games.ziggurat.board import CHEAT, PLACE
    game = get_game("ziggurat")
    t = _table(tmp_path, "ziggurat", [PlayerSpec("Ann")])
    try:
        settle(t)
        for _ in range(6):                       # lay dominoes until one on the table may be picked up
            state = t.match.state
            if any(m[0] == CHEAT for m in game.legal_moves(state)):
                break
            place = next(m for m in game.legal_moves(state) if m[0] == PLACE)
            for pick in game.picks(state, place):
                t.choose(pick)
            settle(t)
        state = t.match.state
        cheat = next(m for m in game.legal_moves(state) if m[0] == CHEAT)
        t.choose(game.picks(state, cheat)[0])
        assert t.hud.message.getText().endswith("Enter to confirm, Esc to cancel.")
        place = next(m for m in game.legal_moves(state) if m[0] == PLACE)
        t.choose(game.picks(state, place)[0])
        assert "Enter to confirm" not in t.hud.message.getText()
        assert t.hud.instruction.getText().startswith("Your turn: ")
    finally:
        t.close()
