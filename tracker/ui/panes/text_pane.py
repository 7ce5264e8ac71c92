"""A pane of one body of text about the selected one (its pools, its wounds)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static


class TextPane(Vertical):
    """A pane titled ``BORDER_TITLE`` whose body is one Static, redrawn as the encounter
    changes."""

    def __init__(self, **kw: object) -> None:
        super().__init__(classes="pane", **kw)  # type: ignore[arg-type]

    def compose(self) -> ComposeResult:
        yield Static(id=f"{self.BORDER_TITLE.lower()}-body")

    @property
    def body(self) -> Static:
        return self.query_one(f"#{self.BORDER_TITLE.lower()}-body", Static)
