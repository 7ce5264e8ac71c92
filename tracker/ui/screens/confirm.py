"""A yes/no question; ``y`` or Enter agrees, ``n`` or Esc declines."""

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

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            yield Label("y / Enter: yes    n / Esc: no", classes="dialog-hint")
