"""A yes/no question; ``y`` or Enter agrees, ``n`` or Esc declines. A question whose
yes leaves the rules undone (:class:`CarefulConfirm`) takes only ``y`` for yes: Enter,
the key a GM presses to go on, declines there."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label


class ConfirmScreen(ModalScreen[bool]):
    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("y,enter", "dismiss(True)", "Yes", id="confirm-yes"),
        Binding("n,escape", "dismiss(False)", "No", id="confirm-no"),
    ]
    HINT = "y / Enter: yes    n / Esc: no"

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            yield Label(self.HINT, classes="dialog-hint")


class CarefulConfirm(ConfirmScreen, inherit_bindings=False):
    """Yes only by ``y``: for leaving a duty of the rules undone."""

    BINDINGS = [
        Binding("y", "dismiss(True)", "Yes", id="confirm-yes"),
        Binding("n,escape,enter", "dismiss(False)", "No", id="confirm-no"),
    ]
    HINT = "y: yes    n / Enter / Esc: no"
