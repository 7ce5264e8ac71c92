"""The table of the roster and the combatants: drawn as Textual's DataTable draws the same
rows, columns fitted to their content on every change and resize, a row cursor."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tracker.rules.columns import Column
from tracker.ui.grid import Rows
from tracker.ui.table import SyncTable


def column(title: str, key: str, priority: int = 0) -> Column:
    return Column(title, key, lambda u: "", priority)


COLUMNS = [column("Unit", "unit"), column("Side", "side", 2), column("State", "state")]
ROWS = [
    ("a", ["Spearmen 1", "High Elves", Text("routed", style="bold red")]),
    ("b", [Text("Knights of the Blazing Sun", style="dim"), "Empire", ""]),
    ("c", ["武士団", "Orcs", Text.assemble(("3", "bold"), "/5 ", ("hurt", "red"))]),
    ("d", ["x", "Orcs", Text("confused · driven back 3")]),
]


class One(App[None]):
    """One table, alone on the screen."""

    def __init__(self, table: SyncTable | DataTable[object]) -> None:
        super().__init__()
        self.table = table
        self.highlighted: list[str | None] = []

    def compose(self) -> ComposeResult:
        yield self.table

    def on_sync_table_row_highlighted(self, event: SyncTable.RowHighlighted) -> None:
        self.highlighted.append(event.key)


async def screen_of(table: SyncTable | DataTable[object], cursor: int, focus: bool) -> str:
    app = One(table)
    async with app.run_test(size=(80, 8)) as pilot:
        if isinstance(table, DataTable):
            for c in COLUMNS:
                table.add_column(c.title, key=c.key)
            for key, cells in ROWS:
                table.add_row(*cells, key=key)
            table.move_cursor(row=cursor)
        else:
            table.sync(ROWS)
            table.move_cursor(cursor)
        if focus:
            table.focus()
        else:  # focused, then not: the cursor in its blurred style
            table.focus()
            await pilot.pause()
            table.blur()
        await pilot.pause()
        return app.export_screenshot(simplify=True)


async def test_rows_are_drawn_as_a_datatable_draws_them():
    """Header, cells in their own styles, the cursor's row, a wide character: the same
    screen, to the byte, as Textual's own DataTable with a row cursor."""
    for cursor, focus in ((0, True), (1, True), (2, True), (1, False)):
        ours = await screen_of(SyncTable(COLUMNS), cursor, focus)
        theirs = await screen_of(DataTable(cursor_type="row"), cursor, focus)
        assert ours == theirs, (cursor, focus)


async def test_columns_fit_their_content_on_every_change():
    table = SyncTable(COLUMNS)
    async with One(table).run_test(size=(80, 10)) as pilot:
        table.sync(ROWS)
        await pilot.pause()
        assert table.grid.widths == {"unit": 28, "side": 12, "state": 26}
        table.sync([(k, [cells[0], "Orcs", ""]) for k, cells in ROWS])  # same keys
        await pilot.pause()
        assert table.grid.widths == {"unit": 28, "side": 6, "state": 7}  # "State" + 2
        table.sync([("a", ["Ann", "Orcs", ""])])  # other keys: the rows anew
        await pilot.pause()
        assert table.grid.widths == {"unit": 6, "side": 6, "state": 7}


async def test_columns_give_way_by_priority_and_come_back_on_a_resize():
    """The side (priority 2) is cut to its first letters, then comes back whole when
    the terminal grows: never narrowed below its content once there is room."""
    table = SyncTable(COLUMNS)
    app = One(table)
    async with app.run_test(size=(62, 10)) as pilot:  # 60 cells beside the scrollbar
        table.sync(ROWS)
        await pilot.pause()
        assert table.grid.widths == {"unit": 28, "side": 6, "state": 26}
        assert table.get_row("a")[1] == "High Elves"  # whole, drawn cut
        assert "Hig…" in app.export_screenshot()
        await pilot.resize_terminal(120, 20)
        await pilot.pause()
        assert table.grid.widths == {"unit": 28, "side": 12, "state": 26}
        await pilot.resize_terminal(62, 10)
        await pilot.pause()
        assert table.grid.widths == {"unit": 28, "side": 6, "state": 26}
        assert [c.key for c in table.grid.columns] == ["unit", "side", "state"]
        await pilot.resize_terminal(50, 10)
        await pilot.pause()
        assert [c.key for c in table.grid.columns] == ["unit", "state"]


async def test_the_cursor_moves_by_keys_and_follows_its_row_through_a_new_order():
    table = SyncTable(COLUMNS)
    app = One(table)
    async with app.run_test(size=(60, 4)) as pilot:  # three lines for rows: scrolls
        table.sync(ROWS)
        table.focus()
        await pilot.pause()
        assert table.selected_key == "a"
        await pilot.press("down", "down", "down")
        assert table.selected_key == "d" and table.scroll_offset.y == 1
        await pilot.press("home")
        assert table.selected_key == "a" and table.scroll_offset.y == 0
        await pilot.press("end", "up")
        assert table.selected_key == "c"
        table.sync(list(reversed(ROWS)))  # a new sort: the cursor stays on its row
        assert table.selected_key == "c" and table.cursor_row == 1
        await pilot.pause()
        assert app.highlighted == ["a", "b", "c", "d", "a", "d", "c"]


async def test_a_click_puts_the_cursor_on_a_row():
    table = SyncTable(COLUMNS)
    async with One(table).run_test(size=(60, 8)) as pilot:
        table.sync(ROWS)
        await pilot.pause()
        await pilot.click(SyncTable, offset=(2, 3))  # the header, then rows a, b, c
        assert table.selected_key == "c"
        await pilot.click(SyncTable, offset=(2, 0))
        assert table.selected_key == "c"


async def test_only_the_rows_named_as_changed_are_made_again():
    made: list[int] = []

    def cells(i: int) -> list[str]:
        made.append(i)
        return [f"Unit {i}", "Orcs", ""]

    keys = [f"u{i}" for i in range(1250)]
    table = SyncTable(COLUMNS)
    async with One(table).run_test(size=(80, 30)) as pilot:
        table.sync(Rows(keys, cells))
        await pilot.pause()
        assert made == list(range(1250)) and table.row_count == 1250
        made.clear()
        table.sync(Rows(keys, cells), only=["u700"])
        assert made == [700]
        table.move_cursor(-1)
        await pilot.pause()
        assert table.selected_key == "u1249"
        assert table.get_row("u1249") == ["Unit 1249", "Orcs", ""]


def test_rows_slice_and_index_like_a_list():
    rows = Rows(["a", "b", "c", "d"], lambda i: [str(i)])
    assert list(rows) == [("a", ["0"]), ("b", ["1"]), ("c", ["2"]), ("d", ["3"])]
    tail = rows[1:]
    assert list(tail[1:]) == [("c", ["2"]), ("d", ["3"])] and tail[-1] == ("d", ["3"])
    assert rows[::2] == [("a", ["0"]), ("c", ["2"])]
