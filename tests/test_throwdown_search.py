"""What Throwdown gives a search: a cheap playout policy, playouts cut after a few turns, a defence generator as fast as
the rule it implements, and IS-MCTS on top of them seeing only its seat's view."""
from __future__ import annotations

import random

from towerworld.ai.ismcts import ISMCTSAgent
from towerworld.engine.agent import View
from towerworld.engine.game import CHANCE, TERMINAL
from towerworld.games.throwdown import GAME
from towerworld.games.throwdown.cards import CARDS
from towerworld.games.throwdown.rules import DEFEND, TURN, defence_sets, defends
from towerworld.games.throwdown.strategy import heuristic, policy_move, rollout

try:
    from test_throwdown_rules import card, play, position
except ImportError:  # tests run as a package
    from tests.test_throwdown_rules import card, play, position

EXPLOIT = lambda: 0.5      # noqa: E731  a playout's "random" draw that never explores and adds the same noise to all


def _decisions(seed: int, n: int, count: int):
    """Decision states of random `n`-player games (every stage a player decides in)."""
    rng = random.Random(seed)
    state = GAME.new_state(None, n)
    found = 0
    while found < count:
        cp = GAME.current_player(state)
        if cp == TERMINAL:
            state = GAME.new_state(None, n)
            continue
        if cp == CHANCE:
            move = GAME.sample_chance(state, rng)
        else:
            yield state
            found += 1
            moves = GAME.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        state, _ = GAME.apply_unchecked(state, move)


def test_the_playout_policy_makes_legal_moves_only():
    for n in (2, 3, 5):
        rng = random.Random(n)
        for state in _decisions(n, n, 150):
            assert policy_move(state, rng.random) in GAME.legal_moves(state)
            assert GAME.playout_move(state, rng) in GAME.legal_moves(state)


def test_the_playout_policy_strikes_hardest():
    # The Huntress (a Crown of Moons, 3 pips) destroys the 3-pip black tower for points; the Mountain only chips it.
    s = position({0: ["huntress", "mountain"], 1: []},
                 towers={1: (("red3", "red2", "red1"), ("blue3", "blue2", "blue1"), ("yellow3", "yellow2", "yellow1"),
                             ("black3",))})
    assert s.stage == TURN
    move = policy_move(s, EXPLOIT)
    assert move[:2] == ("attack", card("huntress")) and move[3:5] == (1, 3)


def test_the_playout_policy_defends_with_the_fewest_cards():
    # "The defender plays one or more cards with total ranks exactly equal to the rank of the attack card": against
    # the Castle (7) the Chance Meeting (7) alone does it, where the Mountain (4) and the Journey (3) take two cards.
    s = play(position({0: ["castle"], 1: ["chance-meeting", "mountain", "journey"]}), "attack castle 2a")
    assert s.stage == DEFEND
    move = policy_move(s, EXPLOIT)
    assert move[0] == "defend" and move[1] == (card("chance-meeting"),)


def test_defence_sets_follow_the_rule_for_every_hand():
    # The generator builds sums up instead of testing every subset: it must answer exactly what `defends` (the rule,
    # with its rulings) says of each subset of the hand.
    rng = random.Random(7)
    for _ in range(3000):
        hand_cards = rng.sample(range(len(CARDS)), rng.randrange(1, 8))
        hand = sum(1 << c for c in hand_cards)
        attack, colour = rng.randrange(len(CARDS) - 1), rng.randrange(5)
        expected = set()
        sub = hand
        while sub:
            chosen = tuple(c for c in range(len(CARDS)) if sub >> c & 1)
            if defends(chosen, attack, colour):
                expected.add(chosen)
            sub = (sub - 1) & hand
        found = defence_sets(hand, attack, colour)
        assert len(found) == len(set(found)) and set(found) == expected


def test_a_cut_playout_stops_after_its_plies():
    rng = random.Random(3)
    for state in _decisions(11, 2, 30):
        assert rollout(state, rng, 0) == state
        one = rollout(state, rng, 1)
        assert any(GAME.apply_unchecked(state, m)[0] == one for m in GAME.legal_moves(state))


def test_cut_playouts_are_judged_in_range_and_favour_the_player_ahead():
    agent = ISMCTSAgent(1, "10it")
    rng = random.Random(5)
    for state in _decisions(5, 3, 40):
        values = agent._value(GAME, state)
        assert len(values) == 3 and all(-1 < v < 1 or v in (-1.0, 1.0) for v in values)
    # Three points ahead (a tower destroyed) and nothing else different: the judge gives the leader the better value.
    even = position({0: ["mountain"], 1: ["author"]})
    ahead = even._replace(points=(3, 0))
    assert heuristic(GAME, ahead, 0) > heuristic(GAME, even, 0) > heuristic(GAME, ahead._replace(points=(0, 3)), 0)
    judged = ISMCTSAgent(1, "10it", rollout_plies=0)
    judged._judge(GAME, even)
    lead = judged._judge(GAME, ahead)
    assert lead[0] > 0 > lead[1]
    assert rng


def test_the_root_searches_its_best_first_moves_only_while_the_search_is_young():
    # A full hand gives some hundred moves, mostly remodels; twenty iterations stay on the heuristic's first few.
    state = next(s for s in _decisions(2, 2, 400) if s.stage == TURN and len(GAME.legal_moves(s)) > 60)
    agent = ISMCTSAgent(4, "20it")
    root = agent.search(View.of(GAME, state, state.turn))
    assert 3 <= len(root.children) <= 3 + 20 ** 0.5 + 1
    assert set(root.children) == set(agent._root_order[:len(root.children)])
    wide = ISMCTSAgent(4, "20it", widen=None)
    assert len(wide.search(View.of(GAME, state, state.turn)).children) == 20


def test_ismcts_chooses_from_the_seat_view_alone_in_throwdown():
    # Deal player 2 a different hand (same sizes, everything public the same): player 1's choice does not change.
    for seed in range(4):
        state = next(s for s in _decisions(20 + seed, 2, 200) if s.stage == TURN and s.turn == 0)
        other = GAME.resample(state, 0, random.Random(seed))
        assert other.hands[1] != state.hands[1] and other.hands[0] == state.hands[0]
        choices = [ISMCTSAgent(seed, "40it").choose(View.of(GAME, s, 0)) for s in (state, other)]
        assert choices[0] == choices[1]
