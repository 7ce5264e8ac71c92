"""The dice step: an action's dice asked for stage by stage, in the order they are rolled
at the table, typed in or rolled by the tracker at the GM's word, with the odds moving
as they land. It dismisses the dice by role, each with its source."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static
from textual.worker import get_current_worker

from tracker.core.dice import Answers, DiceError, Request, Source
from tracker.core.dice_entry import entry_hint, read_entry, show_faces
from tracker.rules.base import Action
from tracker.rules.stage_odds import stage_line
from tracker.session.commands import CommandError
from tracker.session.session import Session
from tracker.ui.dice_input import DiceEntry
from tracker.ui.screens.dice_odds import odds_lines, summary_of
from tracker.ui.typeahead import hold, ready

if TYPE_CHECKING:  # the odds load when the step first asks for them
    from tracker.rules.stage_odds import Memo

Stage = tuple[Request, list[tuple[int, Source]]]


class DiceScreen(ModalScreen[Answers | None]):
    """Stage by stage: the prompt, the dice so far, the odds, the entry."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape", "cancel", "Back to the form", id="dice-cancel")]

    def __init__(self, session: Session, action: Action[Any], params: Any, seed: int,
                 title: str = "") -> None:
        super().__init__()
        self.session = session
        self.action = action
        self.params = params
        self.seed = seed
        self.title_text = title or f"{action.name}: the dice"
        self.done: list[Stage] = []
        self.req: Request | None = None
        self._odds_asked = 0
        self._odds_shown = 0
        self._summary: str | None = None
        """The form's summary line (mean kills, the saves), made once in the odds worker."""
        self._walked: Memo = {}
        """The resolver's answers for the dice fallen so far, kept between the walks of
        the moving odds (one action, one set of parameters)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dice-step"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static("", id="dice-done")
            yield Label("", id="dice-prompt", classes="dice-prompt")
            yield Static("", id="dice-stage-odds", classes="dialog-hint")
            yield Static("…", id="dice-odds")
            yield DiceEntry(self, id="dice-entry")
            yield Static("", id="dice-in")
            yield Label("", id="dice-error", classes="dialog-error")
            yield Label("Enter next · r roll this stage · R roll the rest · "
                        "⌫ back · Esc form", classes="dialog-hint")

    def on_mount(self) -> None:
        self.set_focus(self.query_one(DiceEntry))
        self._advance()
        ready(self)

    def on_key(self, event: events.Key) -> None:
        """Keys typed ahead of the entry's focus (passed on by the form, or reaching the
        step itself) go on, in order, to the entry."""
        entry = self.query_one(DiceEntry)
        if event.is_printable or entry.binding_for(event) is not None:
            event.stop()
            entry.post_message(events.Key(event.key, event.character))

    # --- what the GM sees -----------------------------------------------------------

    def prompt(self, req: Request) -> str:
        """``4 hits: roll 4 d6 to save (4+)``."""
        stage = next((s for s in self.action.stages if s.role == req.role), None)
        target = f" ({req.target})" if req.target else ""
        head = f"{req.why}: " if req.why else ""
        roll = f"{head}roll {req.count} d{req.sides}"
        if stage is not None and stage.label:
            return f"{roll} {stage.label}{target}"
        if stage is not None and stage.help:
            return f"{roll}{target}: {stage.help}"
        return f"{roll} for {req.role}{target}"

    def typed(self) -> list[int]:
        """The faces of the entry as it stands (none while it does not read)."""
        if self.req is None:
            return []
        try:
            return read_entry(self.query_one(DiceEntry).value, self.req.sides,
                              self.req.zero_is_ten)
        except DiceError:
            return []

    def refusal(self, text: str) -> str | None:
        """Why the entry may not become ``text``, or None."""
        req = self.req
        if req is None:
            return "no dice to enter"
        try:
            faces = read_entry(text, req.sides, req.zero_is_ten)
        except DiceError as exc:
            return str(exc)
        if len(faces) > req.count:
            dice = "die" if req.count == 1 else "dice"
            return f"this stage takes {req.count} {dice} (d{req.sides} {req.role})"
        return None

    def show_error(self, message: str) -> None:
        for label in self.query("#dice-error").results(Label):
            label.update(message)

    def _show(self) -> None:
        done = [f"{r.role:<8} {show_faces([(v, s == 'rolled') for v, s in vals])}"
                + _count(r, [v for v, _ in vals])
                + (" · no die can change it" if r.certain else "")
                for r, vals in self.done[-4:]]
        if len(self.done) > 4:
            done.insert(0, f"… {len(self.done) - 4} stages before")
        self.query_one("#dice-done", Static).update("\n".join(done))
        req = self.req
        self.query_one("#dice-prompt", Label).update(self.prompt(req) if req else "")
        if req is not None:
            self.query_one(DiceEntry).placeholder = entry_hint(req.sides, req.zero_is_ten)
        self._show_typed()

    def _show_typed(self) -> None:
        req = self.req
        if req is None:
            return
        faces = self.typed()
        self.query_one("#dice-stage-odds", Static).update(stage_line(req, faces))
        shown = show_faces([(v, False) for v in faces]) or "-"
        self.query_one("#dice-in", Static).update(
            f"in: {shown}  ({len(faces)} of {req.count}){_count(req, faces)}")

    def on_input_changed(self) -> None:
        self._show_typed()
        self._ask_odds()

    # --- moving through the stages ---------------------------------------------------

    def answers(self, with_typed: bool = False) -> Answers:
        out: Answers = {}
        for req, vals in self.done:
            out.setdefault(req.role, []).extend(vals)
        if with_typed and self.req is not None:
            out.setdefault(self.req.role, []).extend((v, "entered") for v in self.typed())
        return out

    def _advance(self) -> bool:
        """Ask for the next stage; dismiss with the dice once they settle the action."""
        try:
            nxt = self.session.next_stage(self.action, self.params, self.answers())
        except CommandError as exc:
            self.show_error(str(exc))
            return False
        if nxt is None:
            self.req = None
            hold(self)  # keys typed after the last die wait for the screen under this one
            self.dismiss(self.answers())
            return False
        self.req = nxt[0]
        entry = self.query_one(DiceEntry)
        entry.value = entry.refused = ""
        if self.req.certain:  # the GM is not asked for dice that cannot matter
            self.roll(rest=False)
            return self.req is not None
        self._show()
        self._ask_odds()
        return True

    def next_stage(self) -> None:
        req = self.req
        if req is None:
            return
        faces = self.typed()
        if len(faces) < req.count:
            left = req.count - len(faces)
            self.show_error(f"{req.count} d{req.sides} to enter, {len(faces)} in "
                            f"(r rolls the other {left})")
            return
        self.done.append((req, [(v, "entered") for v in faces]))
        self.show_error("")
        self._advance()

    def roll(self, rest: bool) -> None:
        """Let the tracker roll the dice of this stage not typed (``rest``: and every
        stage after it); each is marked as rolled."""
        while self.req is not None:
            req = self.req
            faces = self.typed()
            rng = random.Random(self.seed * 7919 + len(self.done))
            rolled = [rng.randint(1, req.sides) for _ in range(req.count - len(faces))]
            self.done.append((req, [(v, "entered") for v in faces]
                              + [(v, "rolled") for v in rolled]))
            self.show_error("")
            if not self._advance() or not rest:
                return

    def back(self) -> None:
        """Back to the stage before, its dice in the entry again (those typed)."""
        if not self.done:
            self.show_error("the first stage: Esc goes back to the form")
            return
        if all(req.certain for req, _ in self.done):
            self.show_error("no dice before these to change: Esc goes back to the form")
            return
        while self.done[-1][0].certain:  # back past the stages no die could change
            self.done.pop()
        req, vals = self.done.pop()
        self.req = req
        entry = self.query_one(DiceEntry)
        entry.value = " ".join(str(v) for v, s in vals if s == "entered")
        entry.cursor_position = len(entry.value)
        self._show()
        self._ask_odds()

    def action_cancel(self) -> None:
        self.dismiss(None)

    # --- odds as the dice land -------------------------------------------------------

    def _ask_odds(self) -> None:
        self._odds_asked += 1
        answers = {r: [v for v, _ in vals] for r, vals in self.answers(True).items()}
        self._compute_odds(answers, self._odds_asked)

    @property
    def odds_settled(self) -> bool:
        return self._odds_shown == self._odds_asked

    @work(thread=True, exclusive=True, group="dice-odds", exit_on_error=False)
    def _compute_odds(self, answers: dict[str, list[int]], asked: int) -> None:
        if self._summary is None:
            self._summary = summary_of(self.action, self.params)
        # the summary (d6battle's mean kills) is of the form, before any die: said so
        # once dice have landed and the odds under it are given them
        landed = "before any die: " if any(answers.values()) else ""
        head = f"{landed}{self._summary}\n" if self._summary else ""

        worker = get_current_worker()

        def stale() -> bool:  # newer dice landed, or the step closed (its workers cancelled)
            return asked != self._odds_asked or worker.is_cancelled

        def show(text: str) -> None:
            self.app.call_from_thread(self._show_odds, (head + text).strip(), asked)

        text = odds_lines(self.action, self.params, answers, stale, self._walked, show)
        if text is not None:
            show(text)

    def _show_odds(self, text: str, asked: int) -> None:
        if asked != self._odds_asked or not self.is_mounted:
            return
        self._odds_shown = asked
        odds = self.query_one("#dice-odds", Static)
        odds.update(text)
        odds.display = bool(text)


def _count(req: Request, faces: list[int]) -> str:
    """`` · 4 at 4+`` where the stage has a target number."""
    if not req.target:
        return ""
    return f" · {sum(1 for v in faces if req.succeeds(v))} at {req.target}"


__all__ = ["DiceEntry", "DiceScreen"]
