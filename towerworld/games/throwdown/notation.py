"""Throwdown move notation, picks and refusals (see docs/rules/throwdown.md).

Cards by short name ("mountain", "ace-moons", "chance-meeting", "excuse"); a tower by its owner's number and slot
letter ("2b"); an own tower by its slot letter alone. Moves:
  attack mountain 2b          attack mountain+excuse 2b        attack sea 2d green c   (own green tower c stands in)
  defend journey+sailor       defend ace-moons green a         no defence
  draw                        remodel author+desert+origin     remodel author+desert+origin swap c=blue
  change blue                 attrition c                      pass
Chance: "start 2" (player 2 starts), "card mountain" (the dealt or drawn card).
"""
from __future__ import annotations

from towerworld.engine.game import CHANCE, TERMINAL, BadNotation
from towerworld.engine.words import counted
from towerworld.games.throwdown.cards import (BLACK, BY_SHORT, CARDS, COLOURS, EXCUSE, NEEDS, SHORT, SUIT_NAMES,
                                              card_words, colour_of, pips_of, pyramid, pyramid_id)
from towerworld.games.throwdown.board import ATTRITION, CHANGE, DEFEND, SLOTS, START, TURN, bits, top_colour
from towerworld.games.throwdown.rules import attack_targets, defends, green_towers, has_colour, scrap_of_size, stand_ins

NO_DEFENCE = "no defence"
CONFIRM = "confirm"
NO_SWAP = "no swap"
DRAW_BUTTON = "draw"
PASS = "pass"


# ---- text ----------------------------------------------------------------------------------------------------------------
def _cards_text(cards) -> str:
    return "+".join(SHORT[c] for c in cards)


def format_move(state, move) -> str:
    kind = move[0]
    if kind == "start":
        return f"start {move[1] + 1}"
    if kind == "card":
        return f"card {SHORT[move[1]]}"
    if kind == "attack":
        _, card, excuse, target, tower, green = move
        text = f"attack {SHORT[card]}{'+excuse' if excuse else ''} {target + 1}{SLOTS[tower]}"
        return text + (f" green {SLOTS[green]}" if green >= 0 else "")
    if kind == "defend":
        _, cards, green = move
        return f"defend {_cards_text(cards)}" + (f" green {SLOTS[green]}" if green >= 0 else "")
    if kind == "nodefence":
        return NO_DEFENCE
    if kind == "remodel":
        _, cards, tower, code = move
        text = f"remodel {_cards_text(cards)}"
        return text + (f" swap {SLOTS[tower]}={COLOURS[colour_of(code)]}" if tower >= 0 else "")
    if kind == "change":
        return f"change {COLOURS[colour_of(move[1])]}"
    if kind == "attrition":
        return f"attrition {SLOTS[move[1]]}"
    return kind


def _cards_words(cards) -> str:
    names = [card_words(c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _own_tower(state, seat: int, tower: int) -> str:
    standing = state.towers[seat][tower]
    colour = f"{COLOURS[top_colour(standing)]} " if standing else ""
    return f"the {colour}tower {SLOTS[tower]}"      # the mover's own: an attack names whose


def describe_move(state, move) -> str:
    """The move in a player's words, naming towers by the letters printed at them ("attack Player 2's red tower b
    with the Mountain (4)")."""
    kind = move[0]
    me = state.turn
    if kind == "start":
        return f"Player {move[1] + 1} starts"
    if kind == "card":
        return f"deal {card_words(move[1])}"
    if kind == "attack":
        _, card, excuse, target, tower, green = move
        standing = state.towers[target][tower]
        colour = f"{COLOURS[top_colour(standing)]} " if standing else ""
        text = (f"attack Player {target + 1}'s {colour}tower {SLOTS[tower]} with {card_words(card)}"
                + (" and the Excuse (unblockable)" if excuse else ""))
        return text + (f", {_own_tower(state, me, green)} standing in" if green >= 0 else "")
    if kind == "defend":
        _, cards, green = move
        seat = state.attack[3] if state.attack else me
        return f"defend with {_cards_words(cards)}" + (
            f", {_own_tower(state, seat, green)} standing in" if green >= 0 else "")
    if kind == "nodefence":
        return "do not defend"
    if kind == "remodel":
        _, cards, tower, code = move
        text = f"remodel, discarding {_cards_words(cards)}"
        return text + (f", and give {_own_tower(state, me, tower)} a {COLOURS[colour_of(code)]} top"
                       if tower >= 0 else "")
    if kind == "change":
        return f"take a {COLOURS[colour_of(move[1])]} pyramid as change"
    if kind == "attrition":
        return f"damage {_own_tower(state, me, move[1])} by 1 pip"
    if kind == "draw":
        return "draw up to five cards"
    return {"pass": "pass"}.get(kind, str(kind))


def _card(word: str) -> int:
    if word not in BY_SHORT:
        raise BadNotation(f"'{word[:30]}' is not a card: write its name in lower case with '-' for spaces, like "
                          "'mountain', 'ace-moons' or 'chance-meeting'.")
    return BY_SHORT[word]


def _cards(text: str) -> tuple:
    cards = [_card(w) for w in text.split("+")]
    if len(set(cards)) != len(cards):
        raise BadNotation("A card is named twice.")
    return tuple(sorted(cards))


def _slot(text: str) -> int:
    if len(text) == 1 and text in SLOTS:
        return SLOTS.index(text)
    raise BadNotation(f"'{text[:30]}' is not a tower slot: use a, b, c or d.")


def _tower(state, text: str) -> tuple[int, int]:
    if len(text) == 2 and text[0].isdigit() and text[1] in SLOTS and 1 <= int(text[0]) <= state.n:
        return int(text[0]) - 1, SLOTS.index(text[1])
    raise BadNotation(f"'{text[:30]}' is not a tower: write the player's number and the slot, like 2b.")


def _colour(text: str) -> int:
    if text in COLOURS:
        return COLOURS.index(text)
    raise BadNotation(f"'{text[:30]}' is not a colour: {', '.join(COLOURS)}.")


def _scrap_pyramid(state, colour: int, size: int) -> int:
    """The scrapyard pyramid a colour names (any stash's; the lowest stands for them all)."""
    for code in scrap_of_size(state.scrap, size):
        if colour_of(code) == colour:
            return code
    return pyramid(colour, size)


def _green(words: list, at: int) -> int:
    if len(words) == at:
        return -1
    if len(words) == at + 2 and words[at] == "green":
        return _slot(words[at + 1])
    raise BadNotation("After the cards only 'green' and one of your tower slots may follow.")


def parse_move(state, text: str):
    raw = str(text)
    words = " ".join(raw.strip().lower().split()).split(" ")
    head = words[0]
    if not head:
        raise BadNotation("An empty text is not a move.")
    if raw.strip().lower() == NO_DEFENCE:
        return ("nodefence",)
    if head in ("draw", "pass") and len(words) == 1:
        return (head,)
    if head == "start" and len(words) == 2 and words[1].isdigit() and 1 <= int(words[1]) <= state.n:
        return ("start", int(words[1]) - 1)
    if head == "card" and len(words) == 2:
        return ("card", _card(words[1]))
    if head == "attack" and len(words) >= 3:
        names = words[1].split("+")
        excuse = 0
        if len(names) == 2 and "excuse" in names:
            names.remove("excuse")
            excuse = 1
        if len(names) != 1:
            raise BadNotation("An attack is one card, plus the Excuse to make it unblockable: 'attack sea+excuse 2d'.")
        target, tower = _tower(state, words[2])
        return ("attack", _card(names[0]), excuse, target, tower, _green(words, 3))
    if head == "defend" and len(words) >= 2:
        return ("defend", _cards(words[1]), _green(words, 2))
    if head == "remodel" and len(words) in (2, 4):
        cards = _cards(words[1])
        if len(words) == 2:
            return ("remodel", cards, -1, -1)
        if words[2] != "swap" or "=" not in words[3]:
            raise BadNotation("Write a remodel's swap as 'swap c=blue' (your tower c gets the blue pyramid).")
        slot, colour = words[3].split("=", 1)
        tower = _slot(slot)
        top = state.towers[state.turn][tower] if state.stage == TURN else ()
        size = pips_of(top[-1]) if top else 1
        return ("remodel", cards, tower, _scrap_pyramid(state, _colour(colour), size))
    if head == "change" and len(words) == 2:
        size = state.change[3] if state.stage == CHANGE else 1
        return ("change", _scrap_pyramid(state, _colour(words[1]), size))
    if head == "attrition" and len(words) == 2:
        return ("attrition", _slot(words[1]))
    raise BadNotation(f"'{raw[:40]}' is not a Throwdown move (try 'attack mountain 2b', 'defend ace-moons', "
                      "'no defence', 'draw', 'remodel a+b+c', 'change blue' or 'attrition c').")


# ---- picks ---------------------------------------------------------------------------------------------------------------
def hand_id(state, seat: int, card: int) -> str:
    return f"card:hand:{seat}:{bits(state.hands[seat]).index(card)}"


def tower_cell(seat: int, tower: int) -> str:
    return f"tower:{seat}:{tower}"


def picks(state, move) -> tuple:
    """The clicks of a move. A set of cards played together is one frozenset step (any order), then 'confirm' for a
    defence; a remodel's three cards are followed by 'no swap' or a top pyramid and its replacement."""
    kind = move[0]
    p = state.turn
    if kind == "attack":
        _, card, excuse, target, tower, green = move
        out: list = [hand_id(state, p, card)]
        if excuse:
            out.append(hand_id(state, p, EXCUSE))
        out.append(tower_cell(target, tower))
        if green >= 0 and len(green_towers(state, p)) > 1:
            out.append(tower_cell(p, green))
        return tuple(out)
    if kind == "defend":
        _, cards, green = move
        target = state.attack[3]
        out = [frozenset(hand_id(state, target, c) for c in cards), CONFIRM]
        if green >= 0 and len(green_towers(state, target)) > 1:
            out.append(tower_cell(target, green))
        return tuple(out)
    if kind == "nodefence":
        return (NO_DEFENCE,)
    if kind == "remodel":
        _, cards, tower, code = move
        chosen = frozenset(hand_id(state, p, c) for c in cards)
        if tower < 0:
            return (chosen, NO_SWAP)
        return (chosen, pyramid_id(state.towers[p][tower][-1]), pyramid_id(code))
    if kind == "change":
        return (pyramid_id(move[1]),)
    if kind == "attrition":
        return (tower_cell(state.queue[0], move[1]),)
    if kind in ("start", "card"):
        return (format_move(state, move),)
    return (kind,)


def describe_pick(state, chosen, pick) -> str:
    if isinstance(pick, frozenset):
        return counted(len(pick), "card")
    if pick.startswith("tower:"):
        _, seat, tower = pick.split(":")
        standing = state.towers[int(seat)][int(tower)]
        colour = f"{COLOURS[top_colour(standing)]} " if standing else "empty "
        return f"Player {int(seat) + 1}'s {colour}tower {SLOTS[int(tower)]}"
    if pick.startswith("pyr:"):
        _, colour, size = pick.split(":")[:3]      # pyr:colour:size:stash
        return f"{colour} {size}-pip pyramid"
    if pick.startswith("card:hand:"):
        _, _, seat, index = pick.split(":")
        hand = bits(state.hands[int(seat)])
        if int(index) < len(hand):
            return card_words(hand[int(index)])
    return pick


# ---- refusals ------------------------------------------------------------------------------------------------------------
def _colours_words(colours) -> str:
    names = sorted(COLOURS[c] for c in colours)
    return " or ".join(names)


def _suits_words(card: int) -> str:
    return ", ".join(SUIT_NAMES[s] for s in CARDS[card].suits)


def _card_attack_problem(state, p: int, card: int) -> str:
    """Why `card` cannot start an attack by `p` ('' when it can)."""
    c = CARDS[card]
    if card == EXCUSE:
        return "The Excuse never attacks alone: pick an attack card, then the Excuse to make it unblockable."
    need = NEEDS[c.pips]
    if stand_ins(state, p, need) is None:
        return (f"To attack with {card_words(card)} (a {c.pips}-pip attack) you need a {COLOURS[need]} tower, or a "
                "green one to stand in.")
    if not attack_targets(state, p, card):
        return (f"The suits of {card_words(card)} ({_suits_words(card)}) attack {_colours_words(c.colours)} towers, "
                "and no opponent still in the game has one.")
    return ""


def _target_problem(state, p: int, card: int, seat: int, tower: int) -> str:
    if seat == p:
        return "You attack your opponents' towers, not your own."
    if not state.towers[seat][tower]:
        return "That tower is gone."
    colour = top_colour(state.towers[seat][tower])
    if colour not in CARDS[card].colours:
        return (f"The suits of {card_words(card)} ({_suits_words(card)}) attack {_colours_words(CARDS[card].colours)} "
                f"towers; the top pyramid makes that tower {COLOURS[colour]}.")
    return ""


def _defence_problem(state, cards: tuple) -> str:
    attacker, card, _, target, tower, _ = state.attack
    if stand_ins(state, target, BLACK) is None:
        return "Defending needs a black tower (or a green one to stand in)."
    colour = top_colour(state.towers[target][tower])
    if defends(cards, card, colour):
        return ""
    kinds = [CARDS[c].kind for c in cards]
    if "excuse" in kinds and len(cards) > 1:
        return "The Excuse defends alone, as an Ace of any suit."
    if ("pawn" in kinds or "court" in kinds) and len(cards) > 1:
        return "Pawns and Courts never join a defence (a Court alone answers a Pawn or Court)."
    if kinds == ["pawn"] or kinds == ["court"]:
        return "A Pawn never defends, and a Court defends only against a Pawn or Court."
    if kinds == ["ace"] and CARDS[card].value != 1:
        return (f"An Ace defends only if its suit attacks the target tower's colour ({COLOURS[colour]}), or if its 1 "
                f"is the attack's rank.")
    need = 10 if CARDS[card].kind in ("pawn", "court") else CARDS[card].value
    total = sum(CARDS[c].value for c in cards)
    return f"A defence's ranks must add up exactly to {need} (Ace 1, Crown 10); these add up to {total}."


def why_illegal(game, state, move) -> str:
    cp = game.current_player(state)
    if cp == TERMINAL:
        return "The game is over."
    if cp == CHANCE:
        if state.stage == START:
            return "Chance decides who starts."
        return "Only the shuffled pile decides which card comes next."
    if not isinstance(move, tuple) or not move or not isinstance(move[0], str):
        return "That is not a Throwdown move."
    kind = move[0]
    st = state.stage
    if st == DEFEND and kind not in ("defend", "nodefence"):
        return f"Player {cp + 1} must first decide whether to defend against the attack."
    if st == CHANGE and kind != "change":
        return f"Player {cp + 1} must first make change: pick a {state.change[3]}-pip pyramid from the scrapyard."
    if st == ATTRITION and kind != "attrition":
        return f"Player {cp + 1} must first take a pip of attrition on one of their own towers."
    if st == TURN and kind in ("defend", "nodefence", "change", "attrition", "start", "card"):
        return "On your turn you attack, draw or remodel."
    try:
        if kind == "attack":
            _, card, excuse, target, tower, green = move
            p = state.turn
            if not state.hands[p] >> card & 1:
                return f"{card_words(card).capitalize()} is not in your hand."
            if excuse and not state.hands[p] >> EXCUSE & 1:
                return "The Excuse is not in your hand."
            problem = _card_attack_problem(state, p, card) or _target_problem(state, p, card, target, tower)
            if problem:
                return problem
            options = stand_ins(state, p, NEEDS[CARDS[card].pips]) or []
            if green not in options:
                need = COLOURS[NEEDS[CARDS[card].pips]]
                if options == [-1]:
                    return f"You have a {need} tower, so no green tower may stand in."
                return f"You have no {need} tower: one of your green towers must stand in."
        if kind == "defend":
            _, cards, green = move
            target = state.attack[3]
            if any(not state.hands[target] >> c & 1 for c in cards):
                return "You can defend only with cards in your hand."
            problem = _defence_problem(state, tuple(cards))
            if problem:
                return problem
            if green not in (stand_ins(state, target, BLACK) or []):
                return ("You have a black tower, so no green tower may stand in." if has_colour(state, target, BLACK)
                        else "You have no black tower: one of your green towers must stand in.")
        if kind == "draw":
            return "You may draw only with fewer than five cards in hand."
        if kind == "remodel":
            _, cards, tower, code = move
            p = state.turn
            if len(cards) != 3 or any(not state.hands[p] >> c & 1 for c in cards):
                return "Remodelling discards exactly three cards of your hand."
            if tower >= 0:
                top = state.towers[p][tower]
                if not top:
                    return "That tower is gone: only a standing tower's top pyramid may be swapped."
                if pips_of(code) != pips_of(top[-1]) or not state.scrap >> code & 1:
                    return ("The swap takes a pyramid of the same size as the top one from the scrapyard.")
                if colour_of(code) == colour_of(top[-1]):
                    return (f"The swap must change the tower's colour: take a pyramid of another colour than "
                            f"{COLOURS[colour_of(code)]}.")
        if kind == "change":
            return (f"Make change with a {state.change[3]}-pip pyramid from the scrapyard (the exact difference if "
                    "there is one, else the largest smaller one).")
        if kind == "attrition":
            return "Take the pip of attrition on one of your own towers still standing."
        if kind == "pass":
            return "You may pass only when you can neither attack, draw nor remodel."
    except Exception:   # a move of the wrong shape (from a damaged record, a fuzzer) names no rule
        return "That is not a Throwdown move."
    return "That is not a legal move here."


def explain(game, state, chosen) -> str:
    """Why the picks so far lead to no legal move, naming the rule. Picks come one click at a time (cards of a set step
    in any order); a frozenset among them stands for those cards."""
    flat: list = []
    for pick in chosen:
        flat += sorted(pick) if isinstance(pick, frozenset) else [pick]
    cp = game.current_player(state)
    if cp < 0:
        return why_illegal(game, state, ("?",))
    if any(_progress(picks(state, m), flat) for m in game.legal_moves(state)):
        return "That can still become a legal move."
    if not flat:
        return "That is not a legal move here."
    cards, rest = _leading_cards(state, cp, flat)
    st = state.stage
    if st == TURN:
        return _explain_turn(state, cp, flat, cards, rest)
    if st == DEFEND:
        if not cards:
            if flat[0].startswith("card:"):
                return "You can defend only with cards in your hand."
            return "Pick the cards of your defence and confirm, or choose 'no defence'."
        return _defence_problem(state, tuple(sorted(cards))) or "Pick one of your green towers to stand in."
    if st == CHANGE:
        return why_illegal(game, state, ("change", -1))
    if st == ATTRITION:
        return why_illegal(game, state, ("attrition", -1))
    return "That is not a legal move here."


def _explain_turn(state, p: int, flat: list, cards: list, rest: list) -> str:
    if flat[0] == DRAW_BUTTON:
        return "You may draw only with fewer than five cards in hand."
    if not cards:
        if flat[0].startswith("card:"):
            return "That card is not in your hand."
        return "On your turn, attack with a card of your hand, draw, or remodel (three cards of your hand)."
    attack_cards = [c for c in cards if c != EXCUSE]
    looks_like_attack = len(cards) == 1 or (len(cards) == 2 and EXCUSE in cards and cards[0] != EXCUSE)
    if looks_like_attack and (not rest or rest[0].startswith("tower:")):
        if len(cards) == 1 and cards[0] == EXCUSE:
            return _card_attack_problem(state, p, EXCUSE)
        card = attack_cards[0]
        problem = _card_attack_problem(state, p, card)
        if problem or not rest:
            return problem or "That can still become a legal move."
        _, seat, tower = rest[0].split(":")
        return (_target_problem(state, p, card, int(seat), int(tower))
                or "Pick one of your green towers to stand in for the tower colour you lack.")
    # several cards: a remodel
    if bin(state.hands[p]).count("1") < 3:
        return "Remodelling needs three cards in your hand."
    if len(cards) != 3:
        return "Remodelling discards exactly three cards; an attack is one card (plus the Excuse)."
    return ("The swap takes the top pyramid of one of your towers, then a pyramid of the same size from the "
            "scrapyard.")


def _leading_cards(state, seat: int, flat: list) -> tuple[list, list]:
    """The cards of `seat`'s hand picked first, and the picks after them."""
    cards: list[int] = []
    for k, pick in enumerate(flat):
        card = _card_of_pick(state, seat, pick)
        if card is None or card in cards:
            return cards, flat[k:]
        cards.append(card)
    return cards, []


def _progress(path: tuple, flat: list) -> bool:
    """Whether the one-at-a-time picks `flat` follow `path` so far (a set step's picks in any order)."""
    i = 0
    for step in path:
        if i == len(flat):
            return True
        if isinstance(step, frozenset):
            taken: set = set()
            while i < len(flat) and flat[i] in step and flat[i] not in taken:
                taken.add(flat[i])
                i += 1
            if len(taken) < len(step):
                return i == len(flat)
        else:
            if flat[i] != step:
                return False
            i += 1
    return i == len(flat)


def _card_of_pick(state, seat: int, pid) -> int | None:
    if not isinstance(pid, str) or not pid.startswith(f"card:hand:{seat}:"):
        return None
    try:
        index = int(pid.rsplit(":", 1)[1])
    except ValueError:
        return None
    hand = bits(state.hands[seat])
    return hand[index] if 0 <= index < len(hand) else None


__all__ = ["format_move", "describe_move", "parse_move", "picks", "explain", "why_illegal", "describe_pick", "hand_id", "tower_cell"]
