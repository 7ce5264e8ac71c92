"""What a table shows: its rows' cells by key, in order, and its columns fitted to them.

No Textual here: ``tracker.ui.table`` draws a grid, line by line, with the segments
made here. Each column is as wide as its
widest cell (its title included), counted again as rows change; when the columns do not
fit the room, they give way by priority (``tracker.rules.columns.fit_columns``) and a
column shown in part is marked to be cut. A column given a short form of its cells (the
side's tag for its name) shows that form, whole, rather than giving way or being cut.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import overload

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from tracker.rules.columns import Column, fit_columns

Cell = str | Text
Row = tuple[str, Sequence[Cell]]
PADDING = 1
"""Blank cells each side of a cell."""
BLANK = 99
"""The priority of a column blank in every row: the first to give way on a narrow screen
(the hit points of a view that shows none, hits before any land)."""


class Rows(Sequence[Row]):
    """Rows whose cells are made when a row is read: a grid told which rows changed
    reads only those."""

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


def keys_of(rows: Sequence[Row]) -> list[str]:
    """The rows' keys, in order (those of ``Rows`` without making their cells)."""
    return list(rows.keys) if isinstance(rows, Rows) else [key for key, _ in rows]


def plain(cell: Cell) -> str:
    return cell.plain if isinstance(cell, Text) else cell


def width_of(cell: Cell) -> int:
    """The cells a value takes on one line (an ASCII string: its length, at once)."""
    text = plain(cell)
    return len(text) if text.isascii() else cell_len(text)


class Grid:
    """Rows of cells under columns; ``shown``, ``room`` and ``limited`` say which columns
    are drawn, how wide, and which are cut."""

    def __init__(self, columns: Sequence[Column]) -> None:
        self.all_columns = list(columns)
        self.keys: list[str] = []
        self.where: dict[str, int] = {}
        """Each key's row."""
        self.cells: dict[str, tuple[Cell, ...]] = {}
        self._sizes: dict[str, tuple[int, ...]] = {}
        """Each row's cell widths."""
        self._widest: list[int] = [0] * len(self.all_columns)
        """Each column's widest cell."""
        self.shown: list[int] = list(range(len(self.all_columns)))
        """Indexes of the columns shown, in order."""
        self.room: list[int] = [cell_len(c.title) + 2 * PADDING for c in self.all_columns]
        """Each shown column's width on screen, its padding included."""
        self.limited: set[int] = set()
        """Shown columns narrower than their widest cell."""
        self.short: dict[int, dict[str, Cell]] = {}
        """Columns with a short form of their cells, by the cell's whole text."""
        self.shortened: set[int] = set()
        """Shown columns drawn in their short form."""

    @property
    def width(self) -> int:
        return sum(self.room)

    @property
    def columns(self) -> list[Column]:
        """The columns shown, in order."""
        return [self.all_columns[i] for i in self.shown]

    @property
    def widths(self) -> dict[str, int]:
        """Each shown column's width on screen, its padding included."""
        return {self.all_columns[i].key: w for i, w in zip(self.shown, self.room, strict=True)}

    @property
    def cut(self) -> set[str]:
        """The shown columns narrower than their widest cell (cut with an ellipsis)."""
        return {self.all_columns[i].key for i in self.limited}

    def replace(self, keys: list[str], rows: Iterable[Row]) -> None:
        """Hold these rows, in this order, instead of the ones held."""
        self.keys = keys
        self.where = {key: i for i, key in enumerate(keys)}
        self.cells = {key: tuple(cells) for key, cells in rows}
        self._sizes = {key: tuple(map(width_of, cells)) for key, cells in self.cells.items()}
        self._widest = self._measure()

    def update(self, rows: Iterable[Row]) -> list[str]:
        """Take the cells of rows already held; returns the keys whose cells changed."""
        changed = []
        narrower = False
        widest = self._widest
        for key, cells in rows:
            new = tuple(cells)
            if self.cells.get(key) == new:
                continue
            changed.append(key)
            self.cells[key] = new
            old, sizes = self._sizes.get(key, ()), tuple(map(width_of, new))
            self._sizes[key] = sizes
            for i, size in enumerate(sizes[:len(widest)]):
                if size > widest[i]:
                    widest[i] = size
                elif i < len(old) and old[i] == widest[i] > size:
                    narrower = True  # the widest cell may be gone: count again
        if narrower:
            self._widest = self._measure()
        return changed

    def _measure(self) -> list[int]:
        widest = [max(sizes, default=0) for sizes in zip(*self._sizes.values(), strict=False)]
        return (widest + [0] * len(self.all_columns))[:len(self.all_columns)]

    def shorten(self, key: str, forms: dict[str, Cell]) -> bool:
        """Give column ``key`` a short form of each of its cells, drawn where the whole
        would not fit; True if the forms changed (fit the columns again)."""
        at = next(i for i, c in enumerate(self.all_columns) if c.key == key)
        if _looks(self.short.get(at, {})) == _looks(forms) and at in self.short:
            return False
        self.short[at] = dict(forms)
        return True

    def widest(self) -> dict[str, int]:
        """Each column's widest cell, its title included."""
        return {column.key: max(cell_len(column.title), width)
                for column, width in zip(self.all_columns, self._widest, strict=True)}

    def fit(self, room: int | None) -> bool:
        """Choose the columns and their widths for ``room`` cells (None: not known yet,
        every column whole); True if they changed."""
        widest = self.widest()
        columns: list[Column] = self.all_columns
        if self._sizes:  # a column blank in every row gives way first, whatever it holds
            columns = [replace(c, priority=BLANK) if not w else c
                       for c, w in zip(columns, self._widest, strict=True)]
        shown, limits = columns, dict[str, int]()
        shortened: set[int] = set()
        if room is not None:
            shown, limits = fit_columns(columns, widest, max(room, 0), padding=2 * PADDING)
            for at, forms in self.short.items():
                column = columns[at]
                if not forms or (column in shown and column.key not in limits):
                    continue
                # the short form, whole, never gives way
                columns = [replace(c, priority=0) if c is column else c for c in columns]
                widest[column.key] = max(cell_len(column.title),
                                         *(width_of(f) for f in forms.values()))
                shown, limits = fit_columns(columns, widest, max(room, 0),
                                            padding=2 * PADDING)
                shortened.add(at)
        where = {c.key: i for i, c in enumerate(self.all_columns)}
        order = [where[c.key] for c in shown]
        inner = [min(widest[c.key], limits.get(c.key, widest[c.key])) for c in shown]
        limited = {i for i, c, w in zip(order, shown, inner, strict=True)
                   if w < widest[c.key]}
        room_of = [w + 2 * PADDING for w in inner]
        if (order, room_of, limited, shortened) == (self.shown, self.room, self.limited,
                                                    self.shortened):
            return False
        self.shown, self.room, self.limited = order, room_of, limited
        self.shortened = shortened
        return True

    def segments(self, console: Console, row: int, cells: Sequence[Cell], pre: Style,
                 post: Style) -> list[Segment]:
        """A row's cells in the columns shown (``row`` -1: the titles), each under ``pre``
        and its place in the grid (for the mouse), then ``post``."""
        out: list[Segment] = []
        for column, i in enumerate(self.shown):
            meta = Style.from_meta({"row": row, "column": column})
            value = cells[i] if i < len(cells) else ""
            if i in self.shortened:
                value = self.short[i].get(plain(value), value)
            text = value if isinstance(value, Text) else Text(value)
            out += cell_segments(console, text, self.room[column], pre + meta, post,
                                 i in self.limited)
        return out


def _looks(forms: dict[str, Cell]) -> dict[str, tuple[str, str]]:
    """Each form's text and colour (two Texts alike in their words are equal to rich)."""
    return {k: (plain(v), str(v.style) if isinstance(v, Text) else "")
            for k, v in forms.items()}


def cell_segments(console: Console, text: Text, width: int, pre: Style, post: Style,
                  cut: bool) -> list[Segment]:
    """One cell on one line, ``width`` wide with its padding, as Textual's DataTable
    draws it: ``text`` in its own style under ``pre``, then ``post`` over it (the
    cursor's colours win over the text's); cut with an ellipsis when ``cut``."""
    inner = max(width - 2 * PADDING, 0)
    if cut and text.cell_len > inner:
        text = text.copy()
        text.truncate(inner, overflow="ellipsis")
    segments = list(text.render(console, end=""))
    if text.style and not text.spans:  # Text.render leaves a span-less text unstyled
        segments = list(Segment.apply_style(segments, console.get_style(text.style)))
    body = Segment.adjust_line_length(segments, inner, pad=True)
    margin = [Segment(" " * PADDING)]
    return list(Segment.apply_style([*margin, *body, *margin], pre, post))
