"""The roster's table measures columns from plain text: the widths must be DataTable's."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tracker.ui.table import SyncTable, plain_width

COLUMNS = [("Unit", "unit"), ("Side", "side"), ("State", "state")]
ROWS = [
    ("a", ["Spearmen 1", "High Elves", Text("routed", style="bold red")]),
    ("b", ["Knights of the Blazing Sun", "Empire", ""]),
    ("c", ["[b]Marked[/b] up", "武士団", Text("two\nlines")]),
    ("d", ["x", "Orcs", Text("confused · driven back 3")]),
]


class Both(App[None]):
    def compose(self) -> ComposeResult:
        yield SyncTable(COLUMNS, id="sync")
        yield DataTable(id="plain")

    def on_mount(self) -> None:
        plain = self.query_one("#plain", DataTable)
        for label, key in COLUMNS:
            plain.add_column(label, key=key)
        for key, cells in ROWS:
            plain.add_row(*cells, key=key)
        self.query_one(SyncTable).sync(ROWS)


async def test_column_widths_match_a_plain_datatable():
    app = Both()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        sync = app.query_one(SyncTable)
        plain = app.query_one("#plain", DataTable)
        got = [c.content_width for c in sync.ordered_columns]
        want = [c.content_width for c in plain.ordered_columns]
        assert got == want
        assert got[0] == len("Knights of the Blazing Sun")
        assert sync.virtual_size == plain.virtual_size


CELLS = [
    "Spearmen",
    "",
    "武士団 of the East",
    "[b]Marked[/b] up",
    "a very long unit name that the column cuts",
    Text("routed", style="bold red"),
    Text("dim name", style="dim"),
    Text.assemble(("3", "bold"), "/5 ", ("hurt", "red")),
    Text("right", justify="right"),
    Text("an ellipsis past the column", overflow="ellipsis"),
    Text("two\nlines"),
    3,
]


async def test_cells_are_drawn_exactly_as_datatable_draws_them():
    """The quick path for one-line cells gives DataTable's segments, cursor and hover
    included, cutting and padding at every width; other cells go through DataTable."""
    from rich.style import Style

    rows = [(f"r{i}", [cell, "x", ""]) for i, cell in enumerate(CELLS)]
    app = Big()
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(SyncTable)
        table.sync(rows)
        await pilot.pause()
        base = Style.parse("#c0c0c0 on #202020")
        for row in range(len(rows)):
            for width in (0, 1, 2, 5, 9, 30):
                for cursor, hover in ((False, False), (True, False), (False, True)):
                    table._cell_render_cache.clear()
                    quick = table._render_cell(row, 0, base, width, cursor, hover)
                    table._cell_render_cache.clear()
                    usual = DataTable._render_cell(table, row, 0, base, width, cursor, hover)
                    assert quick == usual, (CELLS[row], width, cursor, hover)


def test_plain_width_leaves_markup_and_other_values_to_datatable():
    assert plain_width("Spearmen") == 8
    assert plain_width("武士") == 4
    assert plain_width(Text("a\nlonger")) == 6
    assert plain_width("[b]x[/b]") is None
    assert plain_width(3) is None


class Big(App[None]):
    def compose(self) -> ComposeResult:
        yield SyncTable(COLUMNS)


def big_rows(n: int, state: str = "") -> list:
    return [(f"u{i}", [f"Unit {i}", "Orcs", state]) for i in range(n)]


async def test_a_long_table_shows_its_first_rows_then_fills_in_order():
    app = Big()
    async with app.run_test(size=(80, 30)) as pilot:
        table = app.query_one(SyncTable)
        table.sync(big_rows(1250))
        # a screenful (the terminal's height) before the screen is drawn
        assert table.first_rows == 30
        assert table.row_count == 30 and table.total == 1250
        for _ in range(10):
            await pilot.pause()
        assert table.row_count == 1250
        assert [table.get_row_at(i)[0] for i in (0, 99, 100, 1249)] == [
            "Unit 0", "Unit 99", "Unit 100", "Unit 1249"]


async def test_changes_and_selection_while_rows_are_still_being_added():
    app = Big()
    async with app.run_test(size=(80, 30)):
        table = app.query_one(SyncTable)
        table.sync(big_rows(800))
        table.select_key("u700")  # not added yet: the rest is added first
        assert table.row_count == 800 and table.selected_key == "u700"
        table.sync(big_rows(900))  # a rebuild while nothing is pending, then more
        table.sync(big_rows(900, state="routed"))  # same keys: cells change in place
        assert table.row_count == 900
        assert table.get_row_at(850)[2] == "routed"


async def test_rows_made_on_reading_are_made_as_they_are_added():
    from tracker.ui.table import Rows

    made: list[int] = []

    def cells(i: int) -> list[str]:
        made.append(i)
        return [f"Unit {i}", "Orcs", ""]

    app = Big()
    async with app.run_test(size=(80, 30)) as pilot:
        table = app.query_one(SyncTable)
        table.sync(Rows([f"u{i}" for i in range(1250)], cells))
        assert made == list(range(table.first_rows)) and table.total == 1250
        for _ in range(10):
            await pilot.pause()
        assert made == list(range(1250)) and table.row_count == 1250
        assert table.get_row_at(1249)[0] == "Unit 1249"


def test_rows_slice_and_index_like_a_list():
    from tracker.ui.table import Rows

    rows = Rows(["a", "b", "c", "d"], lambda i: [str(i)])
    assert list(rows) == [("a", ["0"]), ("b", ["1"]), ("c", ["2"]), ("d", ["3"])]
    tail = rows[1:]
    assert list(tail[1:]) == [("c", ["2"]), ("d", ["3"])] and tail[-1] == ("d", ["3"])
    assert rows[::2] == [("a", ["0"]), ("c", ["2"])]
