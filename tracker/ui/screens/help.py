"""Help (``?``): every key of the app and its panes, and the whole command language."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

KeyRow = tuple[str, str, str]


class HelpScreen(ModalScreen[None]):
    """A scrollable list of keys (by where they work) and commands."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss(None)", "Close", id="help-close"),
    ]

    def __init__(self, keys: list[KeyRow], commands: list[str]) -> None:
        super().__init__()
        self.keys = keys
        self.commands = commands

    def renew(self, fresh: HelpScreen) -> bool:
        """Kept between openings (see ``tracker.ui.kept``): the same text, from the top."""
        if (fresh.keys, fresh.commands) != (self.keys, self.commands):
            return False
        if self.is_mounted:
            self.query_one("#help-body", VerticalScroll).scroll_home(animate=False)
        return True

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog big"):
            yield Label("Help — Esc closes", classes="dialog-title")
            yield VerticalScroll(id="help-body")

    def on_mount(self) -> None:
        # the frame is drawn with the key; the text, whose table takes longer to lay out
        # than the rest of the dialog, right after it
        self.call_after_refresh(self._fill)

    def _fill(self) -> None:
        table = Table(box=None, expand=True, show_header=True, header_style="bold")
        table.add_column("Key", no_wrap=True)
        table.add_column("Does")
        table.add_column("Where", style="dim")
        for key, what, where in self.keys:
            table.add_row(key, what, where)
        self.query_one("#help-body", VerticalScroll).mount_all([
            Static(table),
            Label(""),
            Label("Command line (press : then type, Enter runs, Esc leaves):",
                  classes="dialog-title"),
            Static(Text("\n".join(self.commands))),
            Label(""),
            Static(
                "Dice: add --dice ROLE=V1,V2 to any action to use physical dice; roles "
                "not given are rolled by the tracker. Every roll is logged with its role "
                "and whether it was rolled or entered.",
                classes="dialog-hint",
            ),
        ])
