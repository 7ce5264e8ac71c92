"""A DataTable that updates in place: only cells that changed are redrawn.

Panes hand it the full list of rows each time the encounter changes; when the row keys
are the same it touches only the changed cells, so a roster of a thousand units stays
quick to refresh and keeps its cursor. When the rows are new (opening, a new sort or
filter) it adds a screenful at once and the rest in batches after the screen is drawn,
so a battle of thousands of units shows its first rows without waiting for the last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import overload

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual._types import SegmentLines
from textual.widgets import DataTable
from textual.widgets._data_table import RowKey

Cell = str | Text
Row = tuple[str, Sequence[Cell]]


class Rows(Sequence[Row]):
    """Rows whose cells are made when a row is read.

    A pane with thousands of rows hands these to ``sync``: a rebuild reads the first
    screenful before the screen is drawn and the rest batch by batch after it, so the
    cells of a long roster are made as they are added, not all before the first screen.
    """

    def __init__(self, keys: Sequence[str], cells: Callable[[int], Sequence[Cell]],
                 offset: int = 0) -> None:
        self.keys = list(keys)
        self._cells = cells
        self._offset = offset

    def __len__(self) -> int:
        return len(self.keys)

    @overload
    def __getitem__(self, index: int) -> Row: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Row]: ...

    def __getitem__(self, index: int | slice) -> Row | Sequence[Row]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self.keys))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            return Rows(self.keys[start:stop], self._cells, self._offset + start)
        if index < 0:
            index += len(self.keys)
        return self.keys[index], self._cells(self._offset + index)


FIRST_ROWS = 100
"""Rows a rebuild adds before the screen is drawn when the terminal's height is unknown."""
BATCH_ROWS = 500
"""Rows added per refresh after that."""


def plain_width(value: object) -> int | None:
    """The width a cell takes, when it can be told without rendering it (else None)."""
    if isinstance(value, Text):
        return max(map(cell_len, value.plain.split("\n")))
    if isinstance(value, str) and "[" not in value and "\n" not in value:
        return cell_len(value)
    return None


def _one_line(value: object) -> Text | None:
    """A cell as one line of left-aligned Text, if it is that simply (else None)."""
    if isinstance(value, str):
        if "[" in value or "\n" in value or "\t" in value:
            return None
        return Text(value, end="")
    if isinstance(value, Text):
        plain = value.plain
        if ("\n" in plain or "\t" in plain or value.overflow is not None
                or value.justify not in (None, "default", "left")):
            return None
        return value
    return None


class SyncTable(DataTable[Cell]):
    """A row-cursor table fed with ``sync(rows)``."""

    def __init__(self, columns: Sequence[tuple[str, str]], **kw: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **kw)  # type: ignore[arg-type]
        self._spec = list(columns)
        self._keys: list[str] = []
        self._cells: dict[str, tuple[Cell, ...]] = {}
        self._pending: Sequence[Row] = []
        """Rows of the last rebuild not added yet."""

    def on_mount(self) -> None:
        for label, key in self._spec:
            self.add_column(label, key=key)

    @property
    def column_keys(self) -> list[str]:
        return [key for _, key in self._spec]

    def set_columns(self, columns: Sequence[tuple[str, str]], force: bool = False) -> None:
        """Show these columns instead; the next ``sync`` adds the rows again (also with
        the same columns when ``force``: cells cut to another width need new widths)."""
        if list(columns) == self._spec and not force:
            return
        self._spec = list(columns)
        self._pending = []
        self._keys = []
        self._cells = {}
        self.clear(columns=True)
        for label, key in self._spec:
            self.add_column(label, key=key)

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        """Column widths from the cells' plain text instead of rendering every new row.

        DataTable formats each cell of each new row to measure it, which for a roster of
        a thousand units is most of the time to the first screen. Cells here are short
        strings or Text, whose width is their cell length; anything else (markup, a
        labelled or multi-line row) is measured the usual way.
        """
        slow: list[RowKey] = []
        columns = self.ordered_columns
        for row_key in new_rows:
            row = self.rows.get(row_key)
            cells = self._data.get(row_key)
            if row is None or cells is None:
                continue
            if row.label is not None or row.auto_height:
                slow.append(row_key)
                continue
            widths = [plain_width(cells.get(column.key)) for column in columns]
            if None in widths:
                slow.append(row_key)
                continue
            for column, width in zip(columns, widths, strict=True):
                column.content_width = max(column.content_width, width or 0)
        super()._update_dimensions(slow)

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> SegmentLines:
        """A one-line body cell of plain text, drawn straight to its segments.

        DataTable draws every cell through Rich's console (the cell in a Padding in a
        Styled, laid out as lines), which for a roster filling the screen is most of
        the time of its first frame. The cells here are short strings and Text: they
        are cut or padded to the column's width and styled as DataTable styles them
        (its base style, the cursor's or hover's component style, then the post style),
        with the same cache. Anything else (the header, markup, several lines, a tall
        row) is drawn by DataTable.
        """
        quick = self._quick_cell(row_index, column_index, base_style, width, cursor, hover)
        if quick is None:
            return super()._render_cell(row_index, column_index, base_style, width,
                                        cursor, hover)
        return quick

    def _quick_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                    cursor: bool, hover: bool) -> SegmentLines | None:
        pad = self.cell_padding
        if (row_index < 0 or column_index < 0 or width <= 2 * pad or self.fixed_rows
                or self.fixed_columns):
            return None
        row_key = self._row_locations.get_key(row_index)
        column_key = self._column_locations.get_key(column_index)
        row = self.rows.get(row_key) if row_key is not None else None
        if row_key is None or column_key is None or row is None:
            return None
        cache_key = (row_key, column_key, base_style, cursor, hover,
                     self._show_hover_cursor, self._update_count, self._pseudo_class_state)
        cached = self._cell_render_cache.get(cache_key)
        if cached is not None:
            return cached
        if row.height != 1 or row.auto_height:
            return None
        text = _one_line(self._data[row_key].get(column_key))
        if text is None:
            return None
        component, post = self._get_styles_to_render_cell(
            False, False, False, hover, cursor, self.show_cursor, self._show_hover_cursor,
            self.cursor_foreground_priority == "css",
            self.cursor_background_priority == "css",
        )
        console = self.app.console
        segments = list(text.render(console, end=""))
        if text.style and not text.spans:  # Text.render leaves a span-less text unstyled
            segments = list(Segment.apply_style(segments, console.get_style(text.style)))
        body = Segment.adjust_line_length(segments, width - 2 * pad, pad=True)
        margin = [Segment(" " * pad)] if pad else []
        pre = base_style + Style.from_meta({"row": row_index, "column": column_index})
        line = list(Segment.apply_style([*margin, *body, *margin], pre + component, post))
        lines = [Segment.adjust_line_length(line, width, pad=True)]
        self._cell_render_cache[cache_key] = lines
        return lines

    @property
    def first_rows(self) -> int:
        """Rows a rebuild adds before the screen is drawn: as many as the terminal has
        lines, which is more than the table can show; the rest follow in batches."""
        return self.app.size.height or FIRST_ROWS

    @property
    def selected_key(self) -> str | None:
        if not self._keys or self.cursor_row < 0 or self.cursor_row >= len(self._keys):
            return None
        return self._keys[self.cursor_row]

    @property
    def total(self) -> int:
        """Rows in the table, counting those still being added."""
        return len(self._keys)

    def has_key(self, key: str) -> bool:
        return key in self._keys

    def select_key(self, key: str) -> None:
        if key in self._keys:
            row = self._keys.index(key)
            if row >= self.row_count:
                self._flush()
            self.move_cursor(row=row)

    def sync(self, rows: Sequence[Row], only: Iterable[str] | None = None) -> None:
        """Show ``rows``. With the same keys as shown, only changed cells are redrawn;
        ``only``, when given, names the only rows whose cells may have changed, so the
        others are not made again (a roster of thousands stays quick to refresh)."""
        self._flush()  # the comparison below is with the whole table
        keys = rows.keys if isinstance(rows, Rows) else [k for k, _ in rows]
        if keys == self._keys:
            if only is not None:
                where = {key: i for i, key in enumerate(keys)}
                rows = [rows[where[key]] for key in only if key in where]
            for key, cells in rows:
                old = self._cells.get(key)
                new = tuple(cells)
                if old == new:
                    continue
                for (_, col), value, before in zip(self._spec, new, old or (), strict=False):
                    if value != before:
                        self.update_cell(key, col, value)
                self._cells[key] = new
            return
        keep = self.selected_key
        self.clear()
        self._keys = keys
        self._cells = {}
        first = self.first_rows
        self._add(rows[:first])
        self._pending = rows[first:]
        if self._pending:
            self.call_after_refresh(self._add_batch)
        if keep is not None:
            self.select_key(keep)

    def _add(self, rows: Sequence[Row]) -> None:
        for key, cells in rows:
            self._cells[key] = tuple(cells)
            self.add_row(*cells, key=key)

    def _add_batch(self) -> None:
        batch, self._pending = self._pending[:BATCH_ROWS], self._pending[BATCH_ROWS:]
        self._add(batch)
        if self._pending:
            self.call_after_refresh(self._add_batch)

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        self._add(batch)
