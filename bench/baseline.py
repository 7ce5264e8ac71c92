"""The floor: a bare Textual app with a Header, a DataTable and a Footer."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Footer, Header

COLUMNS = ("Side", "Unit", "Type", "Str", "Att", "Arm", "Hits", "Left", "Cas", "State")


class BaselineApp(App[None]):
    """A DataTable of ``rows`` rows of ten short cells, focused, with a row cursor."""

    def __init__(self, rows: int = 10) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        for i in range(self.rows):
            table.add_row(
                "High Elves", f"Spearmen {i}", "infantry", "3/3", "3/1", "5+", "", "", "", "",
                key=str(i),
            )
        table.focus()
