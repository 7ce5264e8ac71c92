"""A text to read whole, that stays until the GM closes it: how players connect (``w``),
the whole of the status line's message (``m``), a log entry with its dice (Enter in the
log)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static


class ReadingScreen(ModalScreen[None]):
    """A title, a text that scrolls inside the dialog when it is taller than the screen,
    and the keys that close it."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("escape,enter,q", "dismiss(None)", "Close", id="reading-close"),
    ]
    HINT = "Enter / Esc: close"

    def __init__(self, title: str, body: str | Text, hint: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.hint = hint or self.HINT

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog reading"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(classes="reading-body"):
                yield Static(self.body, markup=False, id="reading-text")
            yield Label(self.hint, classes="dialog-hint", markup=False)
