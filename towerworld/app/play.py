"""Live play at the table: people pick moves with clicks, the driver answers chance and the AI seats (each in its
worker process, through WorkerRunner), and the window never waits for either.

A move is built from picks. The legal moves are narrowed by the picks made so far; the next possible picks are
highlighted; a pick that leads nowhere is refused with the game's reason. Picks that are not places on the table
(pass, spend, stay) become buttons.
"""
from __future__ import annotations

import os
import time

from towerworld.ai import make_agent
from towerworld.app import saves
from towerworld.app.picks import each_pick, next_picks, path_progress, take_pick
from towerworld.app.table import Table
from towerworld.app.thinker import WorkerRunner
from towerworld.engine.agent import View
from towerworld.engine.driver import AGENT, CHANCE_DRAW, PERSON, AgentFailed, Driver, live_chance
from towerworld.engine.game import OMNISCIENT, SPECTATOR, TowerworldError
from towerworld.engine.match import Match
from towerworld.engine.record import load_match, save_match
from towerworld.engine.words import names_an_ai, played_again, taken_back
from towerworld.scene.stage import HIGHLIGHT_COSTLY, HIGHLIGHT_PICKED, HIGHLIGHT_TARGET

__all__ = ["PlayTable", "Table", "run_play"]


class PlayTable(Table):
    """Live play: people pick moves with clicks, AI seats think in worker processes, chance is drawn live.

    Who is looking: the human to move (their hand shows), else the only human seat. Between several people in a game
    with secrets, the table hides everything private and asks for a hand-off before it shows the next player's hand.
    """

    def __init__(self, match: Match, size=(1280, 800), level=None, frames=None):
        self.shown_seat: int | None = None     # whose secrets the table shows now (None: nobody's yet)
        self.handoff: int | None = None        # the seat the screen waits to be passed to
        self._init_seat(match)
        super().__init__(match, size, frames)
        self.level = level
        self.picks: list[str] = []
        self.asking = False                     # the message line holds a question the next pick answers
        self.offers: list = []                  # buttons offering to resume an unfinished game, until one is chosen
        self.hinted = None                      # the move T suggested, which Enter plays
        self.confirming = None                  # a move the game asks about first (a cheat); Enter plays it
        self.driver = Driver(match, frozenset(i for i, p in enumerate(match.players) if p.is_ai),
                             chance=match.rng if match.seed is not None else live_chance(),
                             runner=WorkerRunner(level))
        self._prepare_autosave(match)
        b = self.events
        b.accept("escape", self.escape)
        b.accept("backspace", self.back_pick)
        b.accept("enter", self.commit_exact)
        b.accept("space", self.confirm_handoff)
        b.accept("z", self.undo)
        b.accept("control-z", self.undo)
        b.accept("y", self.redo)
        b.accept("control-y", self.redo)
        b.accept("control-s", self.save)
        b.accept("control-o", self.open_saves)
        b.accept("m", self.toggle_memory)
        b.accept("t", self.show_hint)
        b.accept("p", self.toggle_physics)
        self.add_task(self._turn_task, "turns")
        self.hover: str | None = None           # the next-pick cell under the pointer, shown with the game's preview
        self.hover_options: list[str] = []      # the button picks that may follow it (a tile's rotations)
        self.hover_choice = 0                   # which of them the preview shows (R or the wheel turn it)
        b.accept("r", self._turn_preview, [1, self.camera.reset])
        b.accept("wheel_up", self._turn_preview, [1, lambda: self.camera.wheel_zoom(0.9)])
        b.accept("wheel_down", self._turn_preview, [-1, lambda: self.camera.wheel_zoom(1.1)])
        self.add_task(self._pointer_task, "pointer-preview")
        self.show_last_move()
        self.refresh()

    # ---- who is looking ------------------------------------------------------------------------------------------------
    def _person_to_move(self, state) -> bool:
        return self.game.current_player(state) in self._humans()

    def _humans(self, match: Match | None = None) -> list[int]:
        m = match or self.match
        return [i for i, p in enumerate(m.players) if not p.is_ai]

    def _init_seat(self, match: Match) -> None:
        humans = self._humans(match)
        cp = match.current_player
        if not match.game.perfect_information and len(humans) > 1:
            self.shown_seat = None      # several people, secret hands: nobody's is shown before its hand-off
            return
        self.shown_seat = cp if cp in humans else humans[0] if humans else None

    @property
    def private_hands(self) -> bool:
        """Several people share this screen in a game with secrets: hands are shown only after a hand-off."""
        return not self.game.perfect_information and len(self._humans()) > 1

    @property
    def viewer(self) -> int:
        if self.match.over:
            return OMNISCIENT
        if self.handoff is not None or self.shown_seat is None:
            return SPECTATOR
        return self.shown_seat

    def _check_handoff(self) -> None:
        """A person other than the one shown must decide: hide their secrets until they confirm they alone look."""
        cp = self.match.current_player
        if cp < 0 or cp not in self._humans() or cp == self.shown_seat or self.handoff == cp:
            return
        if not self.private_hands:
            self.shown_seat = cp
            return
        self.handoff = cp
        self.picks = []
        self.stage.show(self.game.layout(self.match.state, self.viewer))
        self.show_last_move()
        name = self.match.players[cp].name
        self.hud.show_cover(f"Pass to {name}", f"Press Space when only {name} is looking.")

    def confirm_handoff(self):
        if self.handoff is None:
            return
        if self.anim is not None:   # the move before the hand-off ends first, else its last frame would hide the hand
            self.anim.finish()
        self.shown_seat, self.handoff = self.handoff, None
        self.hud.hide_cover()
        self.stage.show(self.game.layout(self.match.state, self.viewer))
        self.show_last_move()
        self.refresh()

    # ---- turn flow ---------------------------------------------------------------------------------------------------
    @property
    def waiting_for(self) -> int | None:
        """The AI seat whose answer the table awaits (its worker is searching)."""
        return self.driver.thinking

    def _turn_task(self, task):
        """Each frame, once the table is at rest: the driver takes its next step (chance, or an AI seat's answer
        when its worker has one); a person's turn waits for their picks."""
        if self.animating or self.handoff is not None or self.offers:
            return task.cont
        if self.driver.pending().kind in (CHANCE_DRAW, AGENT):
            was = self.driver.thinking
            self._play(self.driver.advance)
            seat = self.driver.thinking
            if seat != was:
                self.hud.set_instruction(self.instruction(self.match.state))
        else:
            self._check_handoff()
        return task.cont

    def _play(self, action):
        old = self.stage.layout
        try:
            events = action()
        except AgentFailed as e:
            self.hud.say(self.with_names(f"{e} Z takes back your last move; Ctrl-S saves the game."))
            return
        except TowerworldError as e:
            self.hud.say(str(e))
            return
        if events is None:
            return
        self._answered()
        warning = self._autosave()
        self.picks = []
        self.confirming = None
        self._check_handoff()
        new = self.game.layout(self.match.state, self.viewer)
        self.refit(new)
        self.hud.say(self.told(events) + (f"\n{warning}" if warning else ""))
        if self.last_decision(len(self.match.plies)) == len(self.match.plies) - 1:
            self.stage.mark_last(None)      # a player moved: the marks of the move before go as this one plays
            self.show_last_move(mark=False)
        self.animate_to(old, new, [e for e in events if e.seen_by(self.viewer)], then=self._moved)
        self.refresh(highlight=False)

    def _moved(self) -> None:
        """A move's animation is over: its marks go on the table (a chance draw keeps the player's move marked)."""
        self.show_last_move()
        self.refresh()

    def _human_turn(self) -> bool:
        cp = self.match.current_player
        return (self.driver.pending().kind == PERSON and not self.animating and self.handoff is None
                and cp == self.shown_seat and not self.offers and not self.menu)

    # ---- saving ------------------------------------------------------------------------------------------------------
    def _prepare_autosave(self, match: Match) -> None:
        """One autosave per unfinished game; no writable place means one warning and play unsaved."""
        if match.autosave_path is None:
            match.autosave_path = saves.autosave_path(self.game.name)
        if match.autosave_path is None:
            self.hud.say("No folder for saves can be written: this game will not be saved.")

    def _autosave(self) -> str | None:
        """Save after a move; a failure is a warning to show (play goes on, the next move tries again)."""
        if self.match.autosave():
            return None
        return f"{self.match.save_error} Play goes on; the next move tries again."

    def save(self):
        path = os.path.join(saves.SAVE_DIR, f"{self.game.name}-{time.strftime('%Y%m%d-%H%M%S')}.tower.json")
        try:
            os.makedirs(saves.SAVE_DIR, exist_ok=True)
            save_match(self.match, path)
            self.hud.say(f"Saved to {path}")
        except OSError as e:
            self.hud.say(f"Could not save to {path}: {e.strerror or e}.")

    def offer_resume(self, infos, resume):
        """Unfinished games of this game are waiting: offer them before the new one is played."""
        self.offers = [(f"Resume: {info.label}", lambda info=info: resume(info.path)) for info in infos]
        self.offers.append(("New game", self.decline_resume))     # the instruction line asks to choose
        self.refresh()

    def decline_resume(self):
        self.offers = []
        self.hud.say("")
        self.refresh()

    def open_saves(self):
        """Ctrl-O: saves and autosaves of this game, newest first, as buttons; a damaged file is refused."""
        found = saves.list_saves(game=self.game.name, limit=6)
        if not found:
            self.hud.say(f"There is no saved {self.game.title} game in {saves.SAVE_DIR} yet (Ctrl-S saves).")
            return
        self.hud.say("Open which game?")
        self.hud.set_buttons([(s.label, lambda s=s: self.load(s.path)) for s in found])

    def load(self, path: str):
        try:
            loaded = load_match(path, autosave=path if os.path.basename(path).startswith("autosave-") else None)
        except TowerworldError as e:
            self.hud.say(f"Could not load {os.path.basename(path)}: {e}")
            return
        if len(loaded.players) == len(self.match.players):
            loaded.players = self.match.players
        if loaded.autosave_path is None:
            loaded.autosave_path = self.match.autosave_path
        self.match = loaded
        self.driver.load(loaded)
        self._jump(f"Loaded {os.path.basename(path)}.")

    # ---- picking -------------------------------------------------------------------------------------------------------
    def _candidates(self, picks):
        """(move, progress) for every legal move whose pick path the picks so far follow (sets in any order)."""
        state = self.match.state
        out = []
        for move in self.game.legal_moves(state):
            progress = path_progress(tuple(self.game.picks(state, move)), picks)
            if progress is not None:
                out.append((move, progress))
        return out

    def on_click(self):
        if self.handoff is not None:
            self.hud.say(f"Press Space when only {self.match.players[self.handoff].name} is looking.")
            return
        if not self._human_turn():
            if self.match.over:
                self.hud.say("The game is over: Z undoes, Q quits.")
            return
        hits = self.picker.pick_all()
        if not hits:
            self.hud.say("Nothing there to pick: click a highlighted piece or square.")
            return
        if self.hover in hits and self.hover_options:
            self.choose_previewed()
            return
        self.choose_among(hits)

    def choose_previewed(self) -> None:
        """A click on the previewed spot takes it with the option the preview shows (the tile as turned)."""
        cell, option = self.hover, self.hover_options[self.hover_choice]
        self.preview_at(None)
        self.choose(cell)
        if self.picks and self.picks[-1] == cell:
            self.choose(option)

    # ---- the pointer preview: a ghost of the move under the pointer, turned with R or the wheel -------------------
    def _pointer_task(self, task):
        watcher = self.base.mouseWatcherNode
        if watcher is None or self.camera.drag is not None:     # offscreen (no pointer), or a click or drag under way
            return task.cont
        cell = None
        if self._human_turn() and watcher.hasMouse():
            spatial = set(self.stage.cells)
            nexts = next_picks(progress for _, progress in self._candidates(self.picks))
            cell = next((h for h in self.picker.pick_all() if h in spatial and h in nexts), None)
        self.preview_at(cell)
        return task.cont

    def preview_at(self, cell: str | None) -> None:
        """Show the game's preview of picking `cell` next (with the chosen button pick after it); None clears it."""
        if cell != self.hover:
            self.hover, self.hover_choice, self.hover_options = cell, 0, []
            if cell is not None:
                after = next_picks(progress for _, progress in self._candidates(self.picks + [cell]))
                spatial = set(self.stage.nodes) | set(self.stage.cells)
                self.hover_options = [p for p in after if p not in spatial]
        if cell is None:
            self.stage.show_ghosts({})
            return
        picks = self.picks + [cell] + self.hover_options[self.hover_choice:self.hover_choice + 1]
        self.stage.show_ghosts(self.game.preview(self.match.state, self.viewer, picks))

    def _turn_preview(self, step: int, otherwise) -> None:
        """R or the wheel over a previewed pick with options (a tile's legal rotations): show the next option;
        anywhere else the key keeps its usual job."""
        if self.hover is None or len(self.hover_options) < 2:
            otherwise()
            return
        self.hover_choice = (self.hover_choice + step) % len(self.hover_options)
        self.preview_at(self.hover)

    def choose_among(self, hits: list[str]):
        """One click, maybe several things under it: the legal next picks among them. When a square and the tile on
        it are both legal (dig it, or step onto it), ask with buttons instead of guessing."""
        valid = [h for h in hits if self._candidates(self.picks + [h])]
        if len(valid) <= 1:
            self.choose(valid[0] if valid else hits[0])
            return
        state = self.match.state
        self.ask("That spot offers " + " or ".join(self.game.describe_pick(state, self.picks, v) for v in valid)
                     + ": choose below.")
        self.hud.set_buttons([(self._label(v), lambda v=v: self.choose(v)) for v in valid])

    def _label(self, pick: str) -> str:
        label = self.game.describe_pick(self.match.state, self.picks, pick)
        return label[:1].upper() + label[1:]

    def choose(self, target: str):
        if not self._human_turn():
            return
        self._answered()
        if self.confirming is not None:   # a click elsewhere instead of an answer: the question is dropped
            self.confirming = None
            self.picks = []
        taken = take_pick(self.picks, target, self._candidates)
        if taken.refused:
            self.hud.say(self.game.explain(self.match.state, self.picks + [target]))
            return
        self.picks = taken.picks
        if taken.move is not None:
            self.submit(taken.move)
            return
        if taken.exact is not None:
            self.ask("Press Enter or Confirm to " + self.game.describe_move(self.match.state, taken.exact) +
                     ", or pick on.")
        self.refresh()

    def commit_exact(self):
        """Enter: play the move waiting to be confirmed, the complete move the picks make, or the hint just shown."""
        if not self._human_turn():
            return
        if self.confirming is not None:
            move, self.confirming = self.confirming, None
            self._play(lambda: self.driver.answer(self.match.current_player, move, save=False))
            return
        if not self.picks and self.hinted is not None and self.hinted in self.game.legal_moves(self.match.state):
            move, self.hinted = self.hinted, None
            self.submit(move)
            return
        exact = [m for m, progress in self._candidates(self.picks) if progress.done]
        if exact:
            self.submit(exact[0])

    def submit(self, move) -> None:
        """Play a person's complete move, or first ask the game's question about it (Enter confirms, Esc cancels)."""
        question = self.game.confirm_text(self.match.state, move, self.viewer)
        if question is None:
            self._play(lambda: self.driver.answer(self.match.current_player, move, save=False))
            return
        self.confirming = move
        self.ask(self.with_names(question) + " Enter to confirm, Esc to cancel.")
        self.refresh()

    def cancel_confirm(self) -> None:
        self.confirming = None
        self.asking = False
        self.hud.say("Not played.")
        self.clear_picks()

    def escape(self):
        """Esc: close help, else drop the picks, else open the menu."""
        if not self.hud.help.isHidden():
            self.hud.help.hide()
        elif self.confirming is not None:
            self.cancel_confirm()
        elif self.picks:
            self.clear_picks()
        else:
            self.toggle_menu()

    def menu_entries(self):
        entries = super().menu_entries()
        return entries[:-2] + [("Save", self.save), ("Load", self.open_saves)] + entries[-2:]

    def clear_picks(self):
        self._answered()
        self.picks = []
        self.hinted = None
        self.confirming = None
        self.refresh()

    def back_pick(self):
        self._answered()
        self.picks = self.picks[:-1]
        self.confirming = None
        self.refresh()

    def undo(self):
        if self.picks:
            self.back_pick()
            return
        if self.animating:
            return
        taken = self.match.undo()
        if not taken:
            self.hud.say(self.match.why_no_undo())
            return
        self.driver.taken_back()    # a search under way is for a position that is gone
        self._jump(taken_back(taken, [p.name for p in self.match.players]))

    def redo(self):
        played = [] if self.animating else self.match.redo()
        if not played:
            self.hud.say("Nothing to redo.")
            return
        self.driver.taken_back()
        self._jump(played_again(played, [p.name for p in self.match.players]))

    def _jump(self, text):
        self.asking = False
        self.picks = []
        self.confirming = None
        self._check_handoff()
        self.stage.show(self.game.layout(self.match.state, self.viewer))
        self.show_last_move()
        self.hud.say(text)
        self.refresh()

    def hint_move(self):
        """The move to suggest: the game's own hint (from what the viewer knows), else the greedy agent's choice from
        the viewer's View (never the true state)."""
        state = self.match.state
        own = self.game.hint(state, self.viewer)
        if own is not None:
            return own
        return make_agent("greedy", self.game, seed=len(self.match.plies)).choose(
            View.of(self.game, state, self.viewer))

    def show_hint(self):
        """T: light up the suggested move's picks and name it."""
        if not self._human_turn():
            self.hud.say("A hint is for your own turn.")
            return
        move = self.hint_move()
        if move is None:
            self.hud.say("No hint here.")
            return
        state = self.match.state
        self.picks = []
        self.refresh()
        self.stage.highlight({p: HIGHLIGHT_PICKED for p in each_pick(self.game.picks(state, move))})
        self.hinted = move
        self.ask("Hint: " + self.game.describe_move(state, move) + " (click it, or Enter to play it; Esc clears).")

    def toggle_physics(self):
        self.physics = not self.physics
        self.hud.say("Physical crumbles " + ("on" if self.physics else "off") + " (P).")

    def toggle_memory(self):
        self.stage.set_memory_aid(not self.stage.show_hidden)
        self.hud.say("Memory aid " + ("on" if self.stage.show_hidden else "off") + ".")

    # ---- display -------------------------------------------------------------------------------------------------------
    def instruction(self, state) -> str:
        """What to do now: the person to move is told what to click ("Your turn: ..."); otherwise whom the table
        waits for: the AI that is thinking, the person the screen is to be passed to, the chance draw."""
        m = self.match
        cp = self.game.current_player(state)
        if m.over:
            return "The game is over: Z takes back the last move, Esc opens the menu."
        if self.handoff is not None:
            return f"Pass the screen to {m.players[self.handoff].name}: Space when only they are looking."
        if getattr(self, "driver", None) is not None and self.waiting_for is not None:
            name = m.players[self.waiting_for].name
            return f"Waiting for {name}{'' if names_an_ai(name) else ' (AI)'}\u2026"
        if getattr(self, "offers", None):
            return "Resume your unfinished game, or start a new one."
        if 0 <= cp < len(m.players) and not m.players[cp].is_ai and cp == self.shown_seat:
            prompt = self.with_names(self.game.prompt(state, cp))
            prompt = prompt[:1].lower() + prompt[1:] if prompt[1:2].islower() or not prompt[1:2] else prompt
            who = f"{m.players[cp].name}, your turn" if len(self._humans()) > 1 else "Your turn"
            return f"{who}: {prompt}"
        if 0 <= cp < len(m.players):
            kind = " (AI)" if m.players[cp].is_ai and not names_an_ai(m.players[cp].name) else ""
            return f"Waiting for {m.players[cp].name}{kind}\u2026"
        return super().instruction(state)

    def ask(self, text: str) -> None:
        """A question or offer on the message line that the next pick, move or Esc answers: it goes once answered."""
        self.hud.say(text)
        self.asking = True

    def _answered(self) -> None:
        """The question on the message line has its answer: it leaves the screen."""
        if getattr(self, "asking", False):
            self.asking = False
            self.hud.say("")

    def refresh(self, highlight: bool = True):
        m = self.match
        state = m.state
        lines = self.info_lines(state)
        if self.last_words:
            lines.append(self.last_words)
        if self.picks:
            lines.append("Picked: " + ", ".join(self.game.describe_pick(state, self.picks[:i], p)
                                                for i, p in enumerate(self.picks)))
        if m.over:
            result = self.with_names(m.result_text())
            if not any(result in line for line in lines):     # a game whose status already says it ("Game over. ...")
                lines.append(result)
        self.show_hud(state, lines)
        targets: dict = {}
        buttons = []
        if highlight and self._human_turn() and self.confirming is not None:
            targets = {p: HIGHLIGHT_PICKED for p in self.picks}
            buttons = [("Confirm", self.commit_exact), ("Cancel", self.cancel_confirm)]
        elif highlight and self._human_turn():
            for p in self.picks:
                targets[p] = HIGHLIGHT_PICKED
            spatial = set(self.stage.nodes) | set(self.stage.cells)
            seen = set()
            cands = self._candidates(self.picks)
            costly = self._costly_picks(state, cands)
            for pick in next_picks(progress for _, progress in cands):
                if pick in spatial:
                    targets.setdefault(pick, HIGHLIGHT_COSTLY if pick in costly else HIGHLIGHT_TARGET)
                elif pick not in seen:
                    seen.add(pick)
                    buttons.append((self._label(pick), lambda pick=pick: self.choose(pick)))
            if self.picks and any(progress.done for _, progress in cands) and len(cands) > 1:
                buttons.insert(0, ("Confirm", self.commit_exact))
        self.stage.highlight(targets)
        self.apply_cutaway(state)
        if self.offers:
            self.hud.set_buttons(self.offers, vertical=True)
        elif highlight:
            self.hud.set_buttons(buttons[:8])

    def _costly_picks(self, state, cands) -> set:
        """The next picks that lead only to moves the game asks about first (a cheat that costs points): they light
        up red, unlike the green of a free choice."""
        regret: dict = {}
        for move, progress in cands:
            asks = self.game.confirm_text(state, move, self.viewer) is not None
            for pick in progress.next():
                regret[pick] = regret.get(pick, True) and asks
        return {pick for pick, asks in regret.items() if asks}

    def close(self):
        self.driver.close()
        super().close()


def run_play(match: Match, size=(1280, 800), level=None, frames=None) -> int:
    return PlayTable(match, size, level, frames).run()
