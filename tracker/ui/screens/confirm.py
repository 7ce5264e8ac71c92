"""A yes/no question, answered the same way everywhere: ``y`` yes, ``n`` no, and Enter
the safe answer, which is no (keep the combatant, keep the duty owed, leave the save to
the tracker that holds it); Esc is no too. The hint under the question says what each
answer does."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label


class ConfirmScreen(ModalScreen[bool]):
    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("y", "dismiss(True)", "Yes", id="confirm-yes"),
        Binding("n,enter,escape", "dismiss(False)", "No", id="confirm-no"),
    ]

    def __init__(self, question: str, yes: str = "yes", no: str = "no") -> None:
        super().__init__()
        self.question = question
        self.hint = f"y: {yes}    n / Enter / Esc: {no}"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            yield Label(self.hint, classes="dialog-hint")


class CarefulConfirm(ConfirmScreen):
    """Whether to leave a duty of the rules undone (or skip whole phases): Enter keeps it."""

    def __init__(self, question: str) -> None:
        super().__init__(question, yes="go on without it", no="keep it")
