"""Ziggurat Demolition Throwdown, by P.D. Magnus: the rules (move generation, the one step function; seed 002, rulings in shared/rulings.md).

Every player has four towers of nested Looney pyramids (slots a-d: red, blue, yellow, black at the start) and a hand of
Decktet cards. A turn is one of: attack (a card; the target player may defend), draw up to five, or remodel.

Lazy chance: the draw pile is never ordered. `pile` is the set of cards nobody has seen; dealing and drawing are chance
moves whose outcomes are the cards of that set (uniform), and the reshuffle simply makes the discards that set again.
The start player is a chance move too. Decisions by other seats (a defence, an attrition, the attacker's "make change")
are those seats being the current player.
"""
from __future__ import annotations

from towerworld.engine.game import Event, EventKind
from towerworld.games.throwdown.board import (ATTRITION, CHANGE, DEAL, DEFEND, DRAW, HAND, OVER, SLOTS, THEN_ATTACK,
                                              THEN_ATTRITION, THEN_END_TURN, TURN, TState, bits, top_colour,
                                              tower_pips)
from towerworld.games.throwdown.cards import (BLACK, CARDS, COLOURS, EXCUSE, GREEN, NEEDS, card_words, colour_of,
                                              pips_of, pyramid, pyramid_id, pyramid_words)

def alive(state, seat: int) -> bool:
    return any(state.towers[seat])


def alive_seats(state) -> list[int]:
    return [s for s in range(state.n) if any(state.towers[s])]


def next_alive(state, seat: int) -> int:
    for k in range(1, state.n + 1):
        s = (seat + k) % state.n
        if any(state.towers[s]):
            return s
    return seat


def standing_pips(state, seat: int) -> int:
    return sum(tower_pips(t) for t in state.towers[seat])


def has_colour(state, seat: int, colour: int) -> bool:
    return any(t and colour_of(t[-1]) == colour for t in state.towers[seat])


def green_towers(state, seat: int) -> list[int]:
    return [i for i, t in enumerate(state.towers[seat]) if t and colour_of(t[-1]) == GREEN]


def stand_ins(state, seat: int, colour: int) -> list[int] | None:
    """How `seat` meets a need for a tower of `colour`: [-1] when it has one, else its green towers (one of which takes
    a pip of damage), else None."""
    if has_colour(state, seat, colour):
        return [-1]
    greens = green_towers(state, seat)
    return greens or None


def attack_targets(state, attacker: int, card: int) -> list[tuple[int, int]]:
    """(seat, tower) of every opponent's tower still in the game whose colour one of the card's suits attacks."""
    colours = _TARGETS[card]
    out = []
    for s in range(state.n):
        if s == attacker:
            continue
        for t, tower in enumerate(state.towers[s]):
            if tower and colour_of(tower[-1]) in colours:
                out.append((s, t))
    return out


def answer_value(card: int) -> int:
    """The sum a defence must reach against this attack card: its rank, or 10 against a Pawn or Court."""
    c = CARDS[card]
    return 10 if c.kind in ("pawn", "court") else c.value


def defends(cards: tuple, attack_card: int, tower_colour: int) -> bool:
    """Whether these cards stop an attack with `attack_card` on a tower of `tower_colour` (rulings: an Ace of a matching
    suit, or ranks summing exactly to the attack's rank; against a Pawn or Court 10, or a Court; the Excuse alone as an
    Ace of any suit; Pawns and Courts never defend otherwise)."""
    if not cards:
        return False
    attack = CARDS[attack_card]
    if len(cards) == 1:
        c = CARDS[cards[0]]
        if c.kind == "excuse":
            return True
        if c.kind == "ace" and c.colours == {tower_colour}:
            return True
        if c.kind == "court" and attack.kind in ("pawn", "court"):
            return True
    if any(CARDS[c].value == 0 for c in cards):
        return False
    return sum(CARDS[c].value for c in cards) == answer_value(attack_card)


# Card properties the move generator reads in every search iteration, looked up once.
_TARGETS = tuple(c.colours for c in CARDS)
_KIND = tuple(c.kind for c in CARDS)


def defence_sets(hand: int, attack_card: int, tower_colour: int) -> list[tuple]:
    """Every set of cards of `hand` that defends (as `defends` decides), as sorted tuples: the single cards that
    defend alone, then the sets of two or more whose ranks sum to the answer (built up sum by sum, not by testing
    every subset: this runs at every defence of every search playout)."""
    need = answer_value(attack_card)
    against_court = _KIND[attack_card] in ("pawn", "court")
    cards = bits(hand)
    out = []
    sums: list[tuple[tuple, int]] = [((), 0)]
    for c in cards:
        kind, value = _KIND[c], CARDS[c].value
        if (kind == "excuse" or (kind == "ace" and _TARGETS[c] == {tower_colour})
                or (kind == "court" and against_court) or (value and value == need)):
            out.append((c,))
        if value:
            sums += [(chosen + (c,), total + value) for chosen, total in sums if total + value <= need]
    out += [chosen for chosen, total in sums if total == need and len(chosen) > 1]
    return out


def may_be_asked_to_defend(state, target: int) -> bool:
    """Public test: the target has cards and a black or green tower (so the game asks; the hand decides the answer)."""
    return bool(state.hands[target]) and (has_colour(state, target, BLACK) or bool(green_towers(state, target)))


def scrap_of_size(scrap: int, size: int) -> list[int]:
    """Pyramids of `size` in the scrapyard, one per colour (pyramids of one colour and size from different stashes are
    the same choice: the one from the lowest stash stands for them)."""
    out = []
    for colour in range(5):
        code = pyramid(colour, size)
        while code < scrap.bit_length():
            if scrap >> code & 1:
                out.append(code)
                break
            code += 15
    return out


def change_size(scrap: int, pips: int) -> int:
    """The size of pyramid that makes change of `pips`: exactly that if the scrapyard has one, else the largest smaller
    one there, else 0 (none)."""
    for size in range(pips, 0, -1):
        if scrap_of_size(scrap, size):
            return size
    return 0


def change_options(scrap: int, size: int) -> list[int]:
    return scrap_of_size(scrap, size)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _name(seat: int) -> str:
    return f"Player {seat + 1}"


def _tower_words(state, seat: int, tower: int) -> str:
    t = state.towers[seat][tower]
    colour = COLOURS[colour_of(t[-1])] if t else "empty"
    return f"{_name(seat)}'s {colour} tower ({SLOTS[tower]})"


class _W:
    """A mutable working copy of a state inside one `apply`; `ev` collects events (None in fast random play)."""
    __slots__ = TState._fields + ("ev",)
    n: int
    extended: bool
    hands: tuple
    pile: int
    discards: tuple
    towers: tuple
    scrap: int
    points: tuple
    losses: tuple
    turn: int
    stage: int
    attack: tuple
    change: tuple
    queue: tuple
    receiver: int
    to_deal: int
    ev: list | None

    def __init__(self, s: TState, ev):
        for name, value in zip(TState._fields, s):
            setattr(self, name, value)
        self.ev = ev

    def freeze(self) -> TState:
        return TState(*(getattr(self, name) for name in TState._fields))

    def say(self, kind, text, pieces=(), visible_to=None, reveals=False):
        if self.ev is not None:
            self.ev.append(Event(kind, tuple(pieces), text, reveals, visible_to))


# ---- rule steps --------------------------------------------------------------------------------------------------------
def _hand_id(w, seat: int, card: int) -> str:
    return f"card:hand:{seat}:{bits(w.hands[seat]).index(card)}"


def _receive(w: _W, card: int, verb: str) -> None:
    """The chance outcome of a deal or draw: `card` leaves the unseen pile for the receiver's hand (a secret)."""
    seat = w.receiver
    w.pile &= ~(1 << card)
    w.hands = _set(w.hands, seat, w.hands[seat] | 1 << card)
    if w.ev is not None:
        said = f"{_name(seat)} {'is dealt' if verb == 'are dealt' else verb + 's'}"      # "Player 2 is dealt"
        w.say(EventKind.DRAW, f"{said} {card_words(card)}.", (_hand_id(w, seat, card),), (seat,), reveals=True)
        others = tuple(s for s in range(w.n) if s != seat)
        if others:
            # to the others every card in that hand is a back: the new one shows at the end of the fan (its place in
            # the sorted hand would tell them something about it)
            last = f"card:hand:{seat}:{bin(w.hands[seat]).count('1') - 1}"
            w.say(EventKind.DRAW, f"{said} a card.", (last,), others)


def _discard(w: _W, cards) -> None:
    w.discards = w.discards + tuple(cards)


def _eliminate(w: _W, seat: int) -> None:
    """A player without towers is out: their hand goes face up to the discards."""
    hand = bits(w.hands[seat])
    w.hands = _set(w.hands, seat, 0)
    _discard(w, hand)
    # the cards show face up on the discards; the event does not name them, so that whoever knocked the player out
    # sees the same words whatever the hand held
    w.say(EventKind.LEAVE, f"{_name(seat)} has lost their last tower and is out of the game"
          + ("; their cards go face up to the discards." if hand else "."), reveals=bool(hand))
    if len(alive_seats(w)) <= 1:
        w.stage = OVER
        w.say(EventKind.END, "The battle ends.")


def _damage(w: _W, seat: int, tower: int, pips: int, chooser: int, scorer: int, then: int) -> bool:
    """Deal `pips` of damage to a tower from the top (rulings' "make change"); True when the game must wait for the
    chooser to pick the change pyramid (stage CHANGE), False when the damage is done."""
    t = list(w.towers[seat][tower])
    left = pips
    knocked = []
    need = 0
    while t and left > 0:
        top = t.pop()
        w.scrap |= 1 << top
        knocked.append(top)
        size = pips_of(top)
        if size <= left:
            left -= size
        else:
            need = size - left
            left = 0
    w.towers = _set(w.towers, seat, _set(w.towers[seat], tower, tuple(t)))
    size = change_size(w.scrap, need) if need else 0
    if w.ev is not None:
        # a tower left empty (no change comes back onto it) is destroyed: its last pyramid topples after the others
        # have lifted off
        lost = not t and not size
        w.say(EventKind.REMOVE, f"{pips} pip{'s' if pips > 1 else ''} of damage to {_name(seat)}'s tower "
              f"{SLOTS[tower]}: the {_and_list([pyramid_words(p) for p in knocked])} "
              f"{'go' if len(knocked) > 1 else 'goes'} to the scrapyard.",
              tuple(pyramid_id(p) for p in (knocked[:-1] if lost else knocked)))
        if lost:
            w.say(EventKind.TOPPLE, "", (pyramid_id(knocked[-1]),))
    if size:
        options = change_options(w.scrap, size)
        if len(options) > 1:
            w.stage = CHANGE
            w.change = (chooser, seat, tower, size, then)
            return True
        _place_change(w, seat, tower, options[0], chooser)
    elif not t:
        _lose_tower(w, seat, tower, scorer)
    return False


def _place_change(w: _W, seat: int, tower: int, code: int, chooser: int) -> None:
    w.scrap &= ~(1 << code)
    w.towers = _set(w.towers, seat, _set(w.towers[seat], tower, w.towers[seat][tower] + (code,)))
    w.say(EventKind.CHANGE, f"{_name(chooser)} makes change: a {pyramid_words(code)} goes on top of "
          f"{_name(seat)}'s tower {SLOTS[tower]}.", (pyramid_id(code),))


def _lose_tower(w: _W, seat: int, tower: int, scorer: int) -> None:
    """The n-th tower a player loses gives the player who destroyed it n points (none for your own)."""
    w.losses = _set(w.losses, seat, w.losses[seat] + 1)
    n = w.losses[seat]
    if scorer >= 0 and scorer != seat:
        w.points = _set(w.points, scorer, w.points[scorer] + n)
        w.say(EventKind.DESTROY, f"{_name(scorer)} destroys {_name(seat)}'s tower {SLOTS[tower]}, their tower "
              f"number {n} lost: {n} point{'s' if n > 1 else ''}.", (f"tower:{seat}:{tower}",))
    else:
        w.say(EventKind.DESTROY, f"{_name(seat)}'s tower {SLOTS[tower]} is gone (no points).", (f"tower:{seat}:{tower}",))
    if not any(w.towers[seat]):
        _eliminate(w, seat)


def _end_turn(w: _W) -> None:
    w.attack = ()
    w.change = ()
    if w.stage == OVER:
        return
    w.stage = TURN
    w.turn = next_alive(w, w.turn)


def _play_ids(w: _W) -> tuple:
    """The table ids of the attack's cards while they wait by the target tower (see layout)."""
    return tuple(f"card:play:{k}" for k in range(len(_attack_cards(w))))


def _discard_ids(w: _W, count: int) -> tuple:
    """The table ids the next `count` cards to be discarded will have: the stage flies each card named before them to
    the one in the same place among them."""
    return tuple(f"card:discard:{len(w.discards) + k}" for k in range(count))


def _attack_cards(w: _W) -> list[int]:
    a = w.attack
    return [a[1]] + ([EXCUSE] if a[2] else [])


def _after_attacker_stand_in(w: _W) -> None:
    attacker, card, excuse, target, tower, _ = w.attack
    if w.stage == OVER or not alive(w, attacker):
        flight = _play_ids(w) + _discard_ids(w, len(_attack_cards(w)))
        _discard(w, _attack_cards(w))
        w.say(EventKind.DISCARD, "The attacker is out of the game: the attack fizzles.", flight)
        _end_turn(w)
        return
    if excuse or not may_be_asked_to_defend(w, target):
        _resolve_damage(w)
        return
    w.stage = DEFEND


def _resolve_damage(w: _W) -> None:
    attacker, card, excuse, target, tower, _ = w.attack
    _discard(w, _attack_cards(w))
    w.attack = ()               # its cards lie on the discards now
    if not _damage(w, target, tower, CARDS[card].pips, attacker, attacker, THEN_END_TURN):
        _end_turn(w)


def _continue(w: _W, then: int) -> None:
    if then == THEN_ATTACK:
        _after_attacker_stand_in(w)
    elif then == THEN_END_TURN:
        _end_turn(w)
    else:
        _next_attrition(w)


def _next_draw(w: _W) -> None:
    """Draw until five: one chance move per card; an exhausted pile starts attrition first."""
    seat = w.receiver
    if w.stage == OVER:
        return
    if not alive(w, seat) or bin(w.hands[seat]).count("1") >= HAND:
        _end_turn(w)
        return
    if w.pile:
        w.stage = DRAW
        return
    if not w.discards:          # cannot happen with 36+ cards and hands of five; never loop
        _end_turn(w)
        return
    order = [(seat + k) % w.n for k in range(w.n)]
    w.queue = tuple(s for s in order if alive(w, s))
    w.say(EventKind.SHUFFLE, "The draw pile is exhausted: every player damages one of their own towers by 1 pip.")
    _next_attrition(w)


def _next_attrition(w: _W) -> None:
    while w.queue and w.stage != OVER:
        seat = w.queue[0]
        standing = [t for t, tower in enumerate(w.towers[seat]) if tower]
        if len(standing) > 1:
            w.stage = ATTRITION
            return
        w.queue = w.queue[1:]
        if _damage(w, seat, standing[0], 1, seat, -1, THEN_ATTRITION):
            return
    w.queue = ()
    w.change = ()
    if w.stage == OVER:
        return
    w.pile = sum(1 << c for c in w.discards)
    w.discards = ()
    w.say(EventKind.SHUFFLE, "The discard pile is shuffled into a new draw pile.")
    _next_draw(w)


def _take_from_hand(w: _W, seat: int, cards) -> tuple:
    """Cards leave a hand; the hand ids they had (for the events' pieces)."""
    # the last places of the fan, not the cards' own: to the other players a hand is a row of backs, and the place of
    # the played card in the sorted hand would tell them something about the cards that stay
    count = bin(w.hands[seat]).count("1")
    ids = tuple(f"card:hand:{seat}:{count - len(cards) + k}" for k in range(len(cards))) if w.ev is not None else ()
    w.hands = _set(w.hands, seat, w.hands[seat] & ~sum(1 << c for c in cards))
    return ids


def _do_card(w: _W, move: tuple) -> None:
    if w.stage == DEAL:
        _receive(w, move[1], "are dealt")
        w.to_deal -= 1
        w.receiver = (w.receiver + 1) % w.n
        if not w.to_deal:
            w.stage = TURN
            w.receiver = -1
    else:
        _receive(w, move[1], "draw")
        _next_draw(w)


def _do_start(w: _W, move: tuple) -> None:
    w.turn = w.receiver = move[1]
    w.stage = DEAL
    w.to_deal = HAND * w.n
    w.say(EventKind.REVEAL, f"{_name(move[1])} starts.")


def _do_attack(w: _W, move: tuple) -> None:
    _, card, excuse, target, tower, green = move
    p = w.turn
    w.attack = (p, card, excuse, target, tower, green)
    from_hand = _take_from_hand(w, p, [card] + ([EXCUSE] if excuse else []))
    said = len(w.ev) if w.ev is not None else 0
    if w.ev is not None:
        pips = CARDS[card].pips
        w.say(EventKind.ATTACK, f"{_name(p)} attacks {_tower_words(w, target, tower)} with {card_words(card)}: "
              f"{pips} pip{'s' if pips > 1 else ''}" + (", made unblockable by the Excuse." if excuse else "."),
              from_hand, reveals=True)
    if green >= 0:
        w.say(EventKind.SPEND, f"{_name(p)}'s green tower {SLOTS[green]} stands in and takes 1 pip.")
        if not _damage(w, p, green, 1, p, -1, THEN_ATTACK):
            _after_attacker_stand_in(w)
    else:
        _after_attacker_stand_in(w)
    if w.ev is not None:
        # the cards fly from the hand to where they lie now: above the target tower while the attack waits, else
        # (the attack resolved at once) on the discards
        cards = [card] + ([EXCUSE] if excuse else [])
        lands = (_play_ids(w) if w.attack else
                 tuple(f"card:discard:{w.discards.index(c)}" for c in cards if c in w.discards))
        # and the tower hit, by its place on the table (the table marks it with the card as the last move)
        e = w.ev[said]
        w.ev[said] = Event(e.kind, e.pieces + lands + (f"tower:{target}:{tower}",), e.text, e.reveals, e.visible_to)


def _do_defend(w: _W, move: tuple) -> None:
    _, cards, green = move
    target = w.attack[3]
    from_hand = _play_ids(w) + _take_from_hand(w, target, cards)
    from_hand += _discard_ids(w, len(from_hand))
    _discard(w, _attack_cards(w))
    _discard(w, cards)
    w.attack = ()
    w.say(EventKind.DEFEND, f"{_name(target)} defends with {', '.join(card_words(c) for c in cards)}: "
          "the attack is nullified.", from_hand, reveals=True)
    if green >= 0:
        w.say(EventKind.SPEND, f"{_name(target)}'s green tower {SLOTS[green]} stands in and takes 1 pip.")
        if _damage(w, target, green, 1, target, -1, THEN_END_TURN):
            return
    _end_turn(w)


def _do_no_defence(w: _W, move: tuple) -> None:
    w.say(EventKind.DECLINE, f"{_name(w.attack[3])} does not defend.",
          _play_ids(w) + _discard_ids(w, len(_attack_cards(w))))
    _resolve_damage(w)


def _do_change(w: _W, move: tuple) -> None:
    chooser, seat, tower, _, then = w.change
    w.change = ()
    w.stage = TURN   # provisional; the continuation sets the real stage
    _place_change(w, seat, tower, move[1], chooser)
    _continue(w, then)


def _do_attrition(w: _W, move: tuple) -> None:
    seat = w.queue[0]
    w.queue = w.queue[1:]
    w.say(EventKind.REMOVE, f"{_name(seat)} takes the pip of attrition on tower {SLOTS[move[1]]}.")
    w.stage = TURN
    if not _damage(w, seat, move[1], 1, seat, -1, THEN_ATTRITION):
        _next_attrition(w)


def _do_draw(w: _W, move: tuple) -> None:
    w.receiver = w.turn
    w.say(EventKind.DRAW, f"{_name(w.turn)} draws up to five cards.")
    _next_draw(w)


def _do_remodel(w: _W, move: tuple) -> None:
    _, cards, tower, code = move
    p = w.turn
    pieces = _take_from_hand(w, p, cards)
    pieces += _discard_ids(w, len(cards))
    _discard(w, cards)
    text = f"{_name(p)} remodels, discarding {', '.join(card_words(c) for c in cards)}"
    if tower >= 0:
        old = w.towers[p][tower][-1]
        w.scrap = (w.scrap | 1 << old) & ~(1 << code)
        w.towers = _set(w.towers, p, _set(w.towers[p], tower, w.towers[p][tower][:-1] + (code,)))
        text += f", and swaps the {pyramid_words(old)} on tower {SLOTS[tower]} for the {pyramid_words(code)}"
        pieces += (pyramid_id(code),)
    w.say(EventKind.REMODEL, text + ".", pieces, reveals=True)
    _end_turn(w)


def _do_pass(w: _W, move: tuple) -> None:
    w.say(EventKind.PASS, f"{_name(w.turn)} can do nothing and passes.")
    _end_turn(w)


_STEPS = {"card": _do_card, "start": _do_start, "attack": _do_attack, "defend": _do_defend,
          "nodefence": _do_no_defence, "change": _do_change, "attrition": _do_attrition, "draw": _do_draw,
          "remodel": _do_remodel, "pass": _do_pass}


def _step(w: _W, move: tuple) -> None:
    """Apply one move (trusted legal) to the working copy."""
    _STEPS[move[0]](w, move)


# ---- move generation ---------------------------------------------------------------------------------------------------
def attack_moves(state: TState, p: int) -> list[tuple]:
    hand = state.hands[p]
    excuse_options = (0, 1) if hand >> EXCUSE & 1 else (0,)
    out = []
    for card in bits(hand):
        if card == EXCUSE:
            continue
        greens = stand_ins(state, p, NEEDS[CARDS[card].pips])
        if greens is None:
            continue
        for target, tower in attack_targets(state, p, card):
            for excuse in excuse_options:
                for g in greens:
                    out.append(("attack", card, excuse, target, tower, g))
    return out


def remodel_moves(state: TState, p: int) -> list[tuple]:
    cards = bits(state.hands[p])
    if len(cards) < 3:
        return []
    swaps = [(-1, -1)]
    for t, tower in enumerate(state.towers[p]):
        if tower:
            # rulings: "the optional swap must change the colour"
            size, colour = pips_of(tower[-1]), colour_of(tower[-1])
            swaps += [(t, code) for code in change_options(state.scrap, size) if colour_of(code) != colour]
    out = []
    k = len(cards)
    for i in range(k):
        for j in range(i + 1, k):
            for m in range(j + 1, k):
                trio = (cards[i], cards[j], cards[m])
                out += [("remodel", trio, t, code) for t, code in swaps]
    return out


def defence_moves(state: TState) -> list[tuple]:
    _, card, _, target, tower, _ = state.attack
    greens = stand_ins(state, target, BLACK)
    moves: list[tuple] = [("nodefence",)]
    if greens is None:
        return moves
    colour = top_colour(state.towers[target][tower])
    for cards in defence_sets(state.hands[target], card, colour):
        moves += [("defend", cards, g) for g in greens]
    return sorted(moves)




def _and_list(words: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)
