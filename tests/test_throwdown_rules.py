"""Ziggurat Demolition Throwdown rules, one test per rule, each quoting the seed (shared/seeds/002_...txt) or the
rulings (shared/rulings.md) it checks."""
from __future__ import annotations

import random

import pytest

from towerworld.engine.game import CHANCE, TERMINAL, BadNotation, IllegalMove
from towerworld.games.throwdown import GAME
from towerworld.games.throwdown.cards import (BASIC, BY_SHORT, CARDS, COLOURS, EXCUSE, SHORT, colour_of, pips_of,
                                              pyramid)
from towerworld.games.throwdown.rules import (ATTRITION, CHANGE, DEFEND, DRAW, OVER, TURN, TState, bits,
                                              standing_pips)


def card(name: str) -> int:
    return BY_SHORT[name]


def pyr(spec: str, stash: int = 0) -> int:
    """'blue2' -> the 2-pip blue pyramid of `stash`."""
    return pyramid(COLOURS.index(spec[:-1]), int(spec[-1]), stash)


FULL = ("red3", "red2", "red1"), ("blue3", "blue2", "blue1"), ("yellow3", "yellow2", "yellow1"), \
    ("black3", "black2", "black1")


def position(hands, towers=None, turn=0, n=2, extended=False, scrap=None, discards=(), pile=None, points=None,
             losses=None) -> TState:
    """A state at the start of `turn`'s turn with the given hands (lists of card names) and towers (per seat, four
    tuples of specs); the pile holds every other card unless given."""
    base = GAME.new_state({"extended": extended}, n)
    masks = tuple(sum(1 << card(c) for c in hands.get(s, ())) for s in range(n))
    if towers is None:
        towers = {}
    taken: set = set()

    def physical(spec: str, seat: int) -> int:
        # one Rainbow Stash per player: take the pyramid from the seat's own stash, else from the next free one
        for k in range(n):
            code = pyr(spec, (seat + k) % n)
            if code not in taken:
                taken.add(code)
                return code
        raise AssertionError(f"more {spec} pyramids than {n} stashes hold")

    built = tuple(tuple(tuple(physical(spec, s) for spec in t) for t in towers.get(s, FULL)) for s in range(n))
    deck = (1 << (len(CARDS) if extended else BASIC)) - 1
    used = 0
    for m in masks:
        used |= m
    disc = tuple(card(c) for c in discards)
    for c in disc:
        used |= 1 << c
    if pile is not None:
        pile_mask = sum(1 << card(c) for c in pile)
    else:
        pile_mask = deck & ~used
    if scrap is None:
        scrap_mask = base.scrap & ~sum(1 << code for code in taken)
    else:
        scrap_mask = sum(1 << pyr(spec, stash) for spec, stash in scrap)
    return base._replace(hands=masks, pile=pile_mask, discards=disc, towers=built, scrap=scrap_mask, turn=turn,
                         stage=TURN, receiver=-1, points=points or (0,) * n, losses=losses or (0,) * n)


def play(state, *texts):
    return GAME.apply_texts(state, *texts)


def moves_text(state) -> set[str]:
    return {GAME.format_move(state, m) for m in GAME.legal_moves(state)}


# ---- setup ---------------------------------------------------------------------------------------------------------
def test_setup_four_towers_and_green_scrapyard():
    """'Each player starts with four towers: one red, one blue, one yellow, and one black. Each tower consists of a
    one-pip pyramid on top of a two-pip pyramid on top of a three-pip pyramid' and 'Place the green pyramids flat in
    the middle of the table. This area is called the scrapyard.' (one Rainbow Stash per player)"""
    for n in (2, 5):
        s = GAME.new_state(None, n)
        for seat in range(n):
            towers = s.towers[seat]
            assert [COLOURS[colour_of(t[-1])] for t in towers] == ["red", "blue", "yellow", "black"]
            assert all([pips_of(p) for p in t] == [3, 2, 1] for t in towers)
            assert all(len({colour_of(p) for p in t}) == 1 for t in towers)
        assert sorted((COLOURS[colour_of(p)], pips_of(p)) for p in bits(s.scrap)) == sorted(
            [("green", k) for k in (1, 2, 3)] * n)


def test_start_player_and_deal_are_chance():
    """'Shuffle the Decktet and deal five cards to each player. The rest of the deck forms the draw pile.' The start
    player is random (rulings); every dealt card is a uniform chance outcome among the cards nobody has seen."""
    s = GAME.new_state(None, 3)
    assert GAME.current_player(s) == CHANCE
    outcomes = GAME.chance_outcomes(s)
    assert [m for m, _ in outcomes] == [("start", 0), ("start", 1), ("start", 2)]
    s, _ = GAME.apply(s, ("start", 1))
    first = GAME.chance_outcomes(s)
    assert len(first) == 36 and all(abs(p - 1 / 36) < 1e-12 for _, p in first)
    rng = random.Random(1)
    while GAME.current_player(s) == CHANCE:
        s, _ = GAME.apply(s, GAME.sample_chance(s, rng))
    assert [len(bits(h)) for h in s.hands] == [5, 5, 5]
    assert len(bits(s.pile)) == 36 - 15
    assert GAME.current_player(s) == 1


def test_extended_deck_adds_nine_cards():
    """'If you like, you can add some or all of the extended deck cards. Just shuffle them in.' (all of them: the
    Excuse, four Pawns, four Courts)"""
    assert len(bits(GAME.new_state({"extended": True}, 2).pile)) == 45
    assert len(bits(GAME.new_state(None, 2).pile)) == 36


# ---- attacking -------------------------------------------------------------------------------------------------------
def test_rank_needs_tower_colour():
    """'Playing an Ace, 2, 3, 4, or 5 makes a 1-pip attack; you must have a red tower in order to play one of those
    cards as an attack.' (6-9 need blue, Crowns yellow)"""
    no_red = {0: [("blue3",), ("blue2",), ("yellow3",), ("black3",)], 1: FULL}
    s = position({0: ["mountain", "lunatic", "huntress"]}, no_red)
    kinds = {GAME.format_move(s, m).split()[1] for m in GAME.legal_moves(s) if m[0] == "attack"}
    assert "mountain" not in kinds and "lunatic" in kinds and "huntress" in kinds
    with pytest.raises(IllegalMove, match="red tower"):
        GAME.apply(s, GAME.parse_move(s, "attack mountain 2a"))


def test_suits_choose_target_colours():
    """'Example: 3 [the Journey: Moons, Waves] can be played to make a onepip attack against a black tower or a blue
    tower.' and 'Suns and leaves can both be used to attack red towers.'"""
    s = position({0: ["journey", "market"]})
    targets = {m[3:5] for m in GAME.legal_moves(s) if m[0] == "attack" and m[1] == card("journey")}
    assert targets == {(1, 1), (1, 3)}          # player 2's blue (b) and black (d) towers
    s2 = position({0: ["desert"]})              # Suns, Wyrms: red, green
    assert {m[3:5] for m in GAME.legal_moves(s2) if m[0] == "attack"} == {(1, 0)}
    with pytest.raises(IllegalMove, match="attack"):
        GAME.apply(s, GAME.parse_move(s, "attack journey 2a"))


def test_no_eligible_target_no_attack():
    """'If your opponents have no towers that are eligible targets, then you can't make the attack.'"""
    towers = {1: [("red3",), ("red2",), ("red1",), ("yellow2",)]}
    s = position({0: ["journey", "ace-moons", "ace-suns"]}, towers)
    attacks = [m for m in GAME.legal_moves(s) if m[0] == "attack"]
    assert {m[1] for m in attacks} == {card("ace-suns")}


def test_green_tower_stands_in_and_takes_a_pip():
    """'Green towers can be used as wildcards to make any kind of attack, but the tower takes 1 pip of damage for being
    used it in this way.'"""
    towers = {0: [("red3", "red2", "red1"), ("green2",), ("black3",), ("black2",)]}
    s = position({0: ["huntress"], 1: ["author"]}, towers, scrap=[("green1", 1), ("red1", 1)])
    s = play(s, "attack huntress 2d green b")    # a Crown needs yellow: the green tower b stands in
    # the 2-pip green goes to the scrapyard; a 1-pip pyramid is put back (two colours: the attacker chooses)
    assert s.stage == CHANGE and GAME.current_player(s) == 0
    assert moves_text(s) == {"change green", "change red"}
    s = play(s, "change green")
    assert [pips_of(p) for p in s.towers[0][1]] == [1]
    assert s.stage == DEFEND and GAME.current_player(s) == 1


def test_green_stand_in_only_without_the_colour():
    """Rulings: 'only if they have none may a green tower of theirs (their choice) stand in'."""
    towers = {0: [("red3",), ("green2",), ("green1",), ("black3",)]}
    s = position({0: ["lunatic", "mountain"]}, towers)
    attacks = [m for m in GAME.legal_moves(s) if m[0] == "attack"]
    assert {m[5] for m in attacks if m[1] == card("mountain")} == {-1}
    assert {m[5] for m in attacks if m[1] == card("lunatic")} == {1, 2}


def test_green_stand_in_that_knocks_the_attacker_out_fizzles():
    """Rulings: 'If the attacker's green stand-in pip knocks the attacker out, the attack fizzles (card discarded,
    no damage).' The tower counts as lost, without points."""
    towers = {0: [("green1",), (), (), ()], 1: FULL, 2: FULL}
    s = position({0: ["huntress"]}, towers, n=3)
    s = play(s, "attack huntress 2d green a")
    assert not any(s.towers[0]) and s.losses[0] == 1 and s.points == (0, 0, 0)
    assert standing_pips(s, 1) == 24 and card("huntress") in s.discards
    assert s.stage == TURN and s.turn == 1


# ---- defending -------------------------------------------------------------------------------------------------------
def test_target_decides_defence():
    """'When a player makes an attack, the target player may play cards to defend.' The game asks the target's seat."""
    s = position({0: ["lunatic"], 1: ["author", "painter", "ace-moons"]})
    s = play(s, "attack lunatic 2d")
    assert s.stage == DEFEND and GAME.current_player(s) == 1
    texts = moves_text(s)
    assert "no defence" in texts and "defend ace-moons" in texts     # moons attack black: the Ace matches
    assert "defend ace-moons+author+painter" in texts                # 1 + 2 + 3 = 6


def test_defence_needs_black_or_green_tower():
    """'In order to play a defense, the target player must have a black or green tower.'"""
    towers = {1: [("red3",), ("blue3",), ("yellow3",), ("yellow1",)]}
    s = position({0: ["lunatic"], 1: ["lunatic", "ace-waves"]}, towers)
    s = play(s, "attack lunatic 2b")
    assert s.stage == TURN and s.turn == 1          # nobody is asked: the damage is done at once
    assert [pips_of(p) for p in s.towers[1][1]] == [1]


def test_ace_defends_with_matching_suit():
    """'1 - The defender plays an Ace with a suit that matches the color of the target tower.'"""
    s = play(position({0: ["castle"], 1: ["ace-knots", "ace-suns"]}), "attack castle 2a")   # Suns attack red
    texts = moves_text(s)
    assert "defend ace-suns" in texts and "defend ace-knots" not in texts
    with pytest.raises(IllegalMove, match="Ace defends only"):
        GAME.apply(s, GAME.parse_move(s, "defend ace-knots"))


def test_ranks_summing_to_the_attack_defend():
    """'Example: Evan attacks with a 7. Maris could defend by playing a 7, a 3 and a 4, or any combination of cards
    with ranks adding up to exactly 7.' 'Aces are 1; Crowns are 10.'"""
    s = play(position({0: ["castle"], 1: ["cave", "journey", "sailor", "ace-moons", "forest"]}), "attack castle 2a")
    texts = moves_text(s)
    assert {"defend cave", "defend journey+sailor"} <= texts
    assert "defend ace-moons+journey+sailor" not in texts            # 8, not 7
    s2 = play(position({0: ["huntress"], 1: ["huntress", "calamity"]}, turn=0), "attack huntress 2d")
    assert "defend calamity" in moves_text(s2)                       # a Crown answers a Crown: 10 = 10


def test_defence_discards_both_and_nullifies():
    """'Either kind of defense nullifies the attack. Both the attack card and defense cards are discarded.'"""
    s = play(position({0: ["castle"], 1: ["journey", "sailor"]}), "attack castle 2a", "defend journey+sailor")
    assert set(s.discards) == {card("castle"), card("journey"), card("sailor")}
    assert standing_pips(s, 1) == 24 and s.hands[1] == 0 and s.turn == 1 and s.stage == TURN


def test_defender_green_stand_in_takes_its_pip_after():
    """Rulings: 'A defender's green stand-in takes its pip after the defence has stopped the attack.'"""
    towers = {1: [("red3", "red2", "red1"), ("blue3",), ("yellow3",), ("green1",)]}
    s = play(position({0: ["castle"], 1: ["cave"]}, towers), "attack castle 2a", "defend cave green d")
    assert standing_pips(s, 1) == 6 + 3 + 3 and s.losses[1] == 1 and s.points[0] == 0


# ---- damage ----------------------------------------------------------------------------------------------------------
def test_make_change_example():
    """'Evan's blue tower is undamaged ... Maris makes a successful 2-pip attack against the tower. Evan moves the 1-pip
    and 2-pip pyramids to the scrap pile, Maris picks a 1-pip green pyramid from the scrap pile, and the green pyramid
    is placed on the top of the tower. It is now a green tower.' (rulings: she could put back the blue 1-pip too)"""
    s = play(position({0: ["lunatic"], 1: []}), "attack lunatic 2b")    # no cards: nobody is asked to defend
    assert s.stage == CHANGE and GAME.current_player(s) == 0
    assert moves_text(s) == {"change green", "change blue"}
    s = play(s, "change green")
    assert [(COLOURS[colour_of(p)], pips_of(p)) for p in s.towers[1][1]] == [("blue", 3), ("green", 1)]
    assert s.stage == TURN and s.turn == 1


def test_change_largest_smaller_when_exact_missing():
    """Rulings: 'if the scrapyard has none of that size, the largest smaller one, if any.'"""
    towers = {1: [("red3",), ("blue3",), ("yellow3",), ("black3",)]}
    s = play(position({0: ["ace-suns"], 1: []}, towers, scrap=[("yellow1", 0)]), "attack ace-suns 2a")
    # 1 pip on a lone 3: the 3 goes, change of 2 is due, only a 1-pip lies in the scrapyard (one choice: no question)
    assert [(COLOURS[colour_of(p)], pips_of(p)) for p in s.towers[1][0]] == [("yellow", 1)]
    assert s.stage == TURN


def test_extra_damage_has_no_effect_and_points():
    """'If a tower takes more damage than it includes pips worth of pyramids, the pyramids are placed in the scrapyard
    but the extra damage has no effect.' and 'When a player loses a tower for the first time, the attacking player
    gets 1 point; the second time, 2 points'."""
    towers = {1: [("red1",), ("blue1",), ("yellow3",), ("black3",)]}
    s = play(position({0: ["sea", "bard"], 1: []}, towers), "attack bard 2a")
    assert s.towers[1][0] == () and s.points[0] == 1 and s.losses[1] == 1
    s = s._replace(turn=0)
    s = play(s, "attack sea 2b")
    assert s.towers[1][1] == () and s.points[0] == 1 + 2 and s.losses[1] == 2


def test_own_destroyed_tower_counts_but_scores_nothing():
    """'If the player destroys their own tower, then no points are awarded for that tower.' (it still counts as a
    loss: the next tower lost is the second)"""
    towers = {0: [("red3",), ("green1",), ("black3",), ("black2",)], 1: FULL}
    s = play(position({0: ["lunatic"], 1: []}, towers), "attack lunatic 2b green b")
    assert s.towers[0][1] == () and s.losses[0] == 1 and s.points == (0, 0)


def test_last_tower_lost_eliminates_and_turns_skip():
    """'When a player loses their last tower, they are out of the game.' Turns go round those still in; their cards
    go to the discards (rulings)."""
    towers = {1: [("red1",), (), (), ()]}
    s = position({0: ["bard"], 1: ["end"], 2: ["sea"]}, towers, n=3)
    s = play(s, "attack bard 2a")
    assert not any(s.towers[1]) and card("end") in s.discards and s.hands[1] == 0
    assert s.turn == 2 and s.points[0] == 1
    assert s.stage == TURN


def test_battle_ends_with_one_player_left_and_scores():
    """'The battle ends when one player or no players remain. A player with pyramids remaining scores 1 point for each
    pip of pyramid they have left. The player with the most points is the winner. This includes players who were
    knocked out of the game. Survival is no guarantee of victory!'"""
    towers = {0: [("red1",), (), (), ()], 1: [("red1",), (), (), ()]}
    s = play(position({0: ["ace-suns"], 1: []}, towers, points=(0, 9), losses=(3, 3)), "attack ace-suns 2a")
    assert s.stage == OVER and GAME.current_player(s) == TERMINAL
    assert GAME.scores(s) == [4 + 1, 9]
    assert GAME.returns(s) == [-1.0, 1.0]
    assert GAME.result(s) == "Player 2 wins with 9 points."


def test_tie_is_a_loss_for_everyone():
    """'If there is a tie, then an uninvolved wizard from down the hall claims the battle as a victory over all of
    you.' A victory over all of you: every player loses, the tied ones too, in the returns a search reads."""
    towers = {0: [("red1",), (), (), ()], 1: [("red1",), (), (), ()]}
    s = play(position({0: ["ace-suns"], 1: []}, towers, points=(0, 5), losses=(3, 3)), "attack ace-suns 2a")
    assert GAME.scores(s) == [5, 5] and GAME.returns(s) == [-1.0, -1.0]
    assert "wizard" in GAME.result(s)
    # three players, two tied for the most: the third loses as they do, and nobody's return beats a loss
    towers = {0: [("red1",), (), (), ()], 1: [("red1",), (), (), ()], 2: [(), (), (), ()]}
    s = play(position({0: ["ace-suns"], 1: [], 2: []}, towers, n=3, points=(0, 5, 2), losses=(3, 3, 4)),
             "attack ace-suns 2a")
    assert GAME.scores(s) == [5, 5, 2] and GAME.returns(s) == [-1.0, -1.0, -1.0]


# ---- drawing, attrition, remodelling ---------------------------------------------------------------------------------
def test_draw_until_five_only_on_your_turn():
    """'Draw until you have five cards in your hand. The only time you may draw cards is when you spend your turn to
    do so.'"""
    s = position({0: ["author", "desert", "origin", "journey", "painter"]})
    assert "draw" not in moves_text(s)
    s = position({0: ["author", "desert"]})
    s = play(s, "draw")
    drawn = 0
    while GAME.current_player(s) == CHANCE:
        assert s.stage == DRAW
        s, events = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
        drawn += 1
        assert [e.visible_to for e in events] == [(0,), (1,)]
        assert SHORT[bits(s.hands[0])[0]] not in events[1].text
    assert drawn == 3 and len(bits(s.hands[0])) == 5 and s.turn == 1


def test_exhausted_pile_attrition_then_reshuffle():
    """'When the draw pile is exhausted, each player must select one of their own remaining towers and deal one pip of
    damage to it; see DOING DAMAGE, below. Then the discard pile is turned over and shuffled to form a new draw pile.'
    (rulings: from the drawer in turn order)"""
    s = position({0: ["author"], 1: ["desert"]}, pile=[], discards=["origin", "journey", "painter"], turn=1)
    s = play(s, "draw")
    assert s.stage == ATTRITION and GAME.current_player(s) == 1
    s = play(s, "attrition a")                  # player 2 knocks the red 1 off tower a
    assert GAME.current_player(s) == 0
    s = play(s, "attrition d")
    assert standing_pips(s, 0) == standing_pips(s, 1) == 23
    assert s.stage == DRAW and s.discards == () and len(bits(s.pile)) == 3


def test_remodel_discards_three_and_swaps():
    """'Remodelling: Discard any three cards from your hand. You may exchange the pyramid on top of one of your towers
    for a pyramid of the same size from the scrapyard. This takes your entire turn.'"""
    s = position({0: ["author", "desert", "origin", "journey"]})
    texts = moves_text(s)
    assert "remodel author+desert+origin" in texts
    assert "remodel author+desert+origin swap a=green" in texts
    s = play(s, "remodel author+desert+origin swap a=green")
    assert COLOURS[colour_of(s.towers[0][0][-1])] == "green" and s.scrap >> pyr("red1", 0) & 1
    assert bits(s.hands[0]) == [card("journey")] and s.turn == 1
    with pytest.raises(IllegalMove, match="three cards"):
        GAME.apply(position({0: ["author", "desert"]}), ("remodel", (card("author"), card("desert")), -1, -1))


def test_the_remodel_swap_must_change_the_colour():
    """Rulings: 'Remodel discards exactly three cards (the Excuse may be one); the optional swap must change the
    colour.' A green tower whose top could be swapped for the other stash's green 1-pip is offered other colours
    only, and the same colour is refused in a sentence."""
    towers = {0: [("red3", "green1"), ("blue3", "blue2", "blue1"), (), ()]}
    s = position({0: ["author", "desert", "origin"]}, towers, scrap=[("green1", 1), ("red1", 1), ("blue1", 1)])
    texts = moves_text(s)
    assert "remodel author+desert+origin swap a=red" in texts and "remodel author+desert+origin swap a=blue" in texts
    assert not any(t.endswith("swap a=green") for t in texts), "a green top swapped for a green pyramid"
    assert not any(t.endswith("swap b=blue") for t in texts), "a blue top swapped for a blue pyramid"
    for text, tower in (("remodel author+desert+origin swap a=green", 0),
                        ("remodel author+desert+origin swap b=blue", 1)):
        move = GAME.parse_move(s, text)
        with pytest.raises(IllegalMove, match="must change the tower's colour"):
            GAME.apply(s, move)
    for move in GAME.legal_moves(s):
        if move[0] == "remodel" and move[2] >= 0:
            assert colour_of(move[3]) != colour_of(s.towers[0][move[2]][-1])


def test_some_or_all_of_the_extended_deck():
    """'If you like, you can add some or all of the extended deck cards. Just shuffle them in.' Option
    extended_cards picks them one by one; empty, all nine."""
    def deck(**options):
        return {SHORT[c] for c in range(len(CARDS)) if GAME.new_state(options, 2).pile >> c & 1}
    assert len(deck()) == BASIC and len(deck(extended=True)) == len(CARDS)
    some = deck(extended=True, extended_cards="excuse+watchman+consul")
    assert some - deck() == {"excuse", "watchman", "consul"}
    from towerworld.engine.game import BadOption
    with pytest.raises(BadOption, match="not a card of the extended deck"):
        GAME.new_state({"extended": True, "extended_cards": "excuse+bard"}, 2)
    with pytest.raises(BadOption, match="turn on 'The extended deck'"):
        GAME.new_state({"extended_cards": "excuse"}, 2)
    # a game with only some of them plays to the end, and no card left out ever shows up
    rng = random.Random(3)
    s = GAME.new_state({"extended": True, "extended_cards": "excuse+rite"}, 3)
    seen = set()
    while GAME.current_player(s) != TERMINAL:
        moves = [m for m, _ in GAME.chance_outcomes(s)] if GAME.current_player(s) == CHANCE else GAME.legal_moves(s)
        s, _ = GAME.apply(s, moves[rng.randrange(len(moves))])
        for h in s.hands:
            seen |= {SHORT[c] for c in bits(h)}
    assert seen - deck() <= {"excuse", "rite"}


def test_the_help_says_what_the_rules_say():
    """The in-game help: the seed's 'It is possible to defend against a Pawn or Court by playing an Ace (of the
    appropriate suit), cards with ranks adding up to 10, or a Court. Pawns and Courts may not be played as defenses.',
    'The Excuse may be played as a defense against any attack, although you must still have a black tower', 'Then the
    discard pile is turned over and shuffled to form a new draw pile.', and the rulings' swap that must change the
    colour and the tie that everybody loses."""
    text = " ".join(GAME.help_text().split())
    for words in ("Against a Pawn or Court: an Ace of a matching suit, cards adding up to 10, or a Court",
                  "Pawns and Courts never defend", "still only with a black or green tower",
                  "the discards are shuffled into a new draw pile", "another colour", "everybody loses"):
        assert words in text, words
    import pathlib
    docs = " ".join((pathlib.Path(__file__).resolve().parent.parent / "docs/rules/throwdown.md").read_text(
        "utf-8").split())
    for words in ("the optional swap must change the colour", "Against a Pawn or Court: an Ace of a matching suit",
                  "still needs the black tower", "new draw pile, shuffled", "everybody loses", "extended_cards"):
        assert words in docs, words
    assert "necessarily of another colour" not in docs


# ---- the extended deck -----------------------------------------------------------------------------------------------
def test_excuse_defends_as_any_ace_with_black_tower():
    """'The Excuse may be played as a defense against any attack, although you must still have a black tower; it plays
    like an Ace of any suit.'"""
    s = play(position({0: ["huntress"], 1: ["excuse"]}, extended=True), "attack huntress 2d")
    assert "defend excuse" in moves_text(s)


def test_excuse_makes_attack_unblockable():
    """'It can instead be played at the same time an attack is made, before your target decides whether or not to
    defend, and it makes the attack unblockable; that is, no defense can be made against such an attack.'"""
    s = play(position({0: ["castle", "excuse"], 1: ["cave"]}, extended=True), "attack castle+excuse 2a")
    assert s.stage == CHANGE and GAME.current_player(s) == 0       # no question to player 2: straight to damage
    s = play(s, "change red")
    assert s.stage == TURN and s.turn == 1
    assert standing_pips(s, 1) == 22 and {card("castle"), EXCUSE} <= set(s.discards)
    t = position({0: ["excuse"]}, extended=True)
    assert not [m for m in GAME.legal_moves(t) if m[0] == "attack"]      # never attacks alone


def test_pawns_and_courts_attack_and_defence():
    """'A Pawn may be played for a one-pip attack. A Court may be played for a two-pip attack. It is possible to
    defend against a Pawn or Court by playing an Ace (of the appropriate suit), cards with ranks adding up to 10, or a
    Court. Pawns and Courts may not be played as defenses.'"""
    s = play(position({0: ["watchman"], 1: ["rite", "harvest", "sea", "lunatic", "ace-wyrms"]}, extended=True),
             "attack watchman 2d")                         # Moons attack black
    texts = moves_text(s)
    assert {"defend rite", "defend sea"} <= texts
    assert not any("harvest" in t for t in texts) and "defend ace-wyrms" not in texts
    s = play(s, "no defence")
    assert standing_pips(s, 1) == 23
    c = play(position({0: ["consul"], 1: []}, extended=True), "attack consul 2c")   # Knots attack yellow
    assert c.stage == CHANGE or standing_pips(c, 1) == 22


# ---- notation and refusals ---------------------------------------------------------------------------------------------
def test_notation_round_trip_and_errors():
    s = position({0: ["castle", "excuse", "author", "journey"]}, extended=True)
    for move in GAME.legal_moves(s):
        assert GAME.parse_move(s, GAME.format_move(s, move)) == move
    for bad, words in (("attack castle 9z", "tower"), ("attack nonsense 2a", "not a card"), ("fly", "Throwdown")):
        with pytest.raises(BadNotation, match=words):
            GAME.parse_move(s, bad)


def test_refusals_name_the_rule():
    s = position({0: ["castle", "excuse", "author", "journey", "painter"]}, extended=True)
    assert "fewer than five" in GAME.explain(s, ("draw",))
    two = position({0: ["castle", "excuse"]}, extended=True)       # too few cards to remodel: the Excuse alone
    assert "never attacks alone" in GAME.explain(two, (f"card:hand:0:{bits(two.hands[0]).index(EXCUSE)}",))
    hid = f"card:hand:0:{bits(s.hands[0]).index(card('castle'))}"
    assert "attack" in GAME.explain(s, (hid, "tower:1:1"))            # Suns, Knots: red or yellow, not blue
    assert "not your own" in GAME.explain(s, (hid, "tower:0:0"))
    assert "exactly three" in GAME.explain(s, (frozenset({hid}), "no swap"))
