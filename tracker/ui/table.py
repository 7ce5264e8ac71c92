"""A table with a row cursor, drawn line by line: the roster and the combatants.

Panes hand it every row each time the encounter changes (``sync``); with the same row
keys it takes only the rows named as changed, so a roster of a thousand units stays
quick to refresh and keeps its cursor. Its columns are fitted to their content on every
change and every resize (see ``tracker.ui.grid``); a column shown in part has its cells
cut with an ellipsis. Only the rows on screen are drawn, each once until it changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tracker.rules.columns import Column
from tracker.ui.grid import Cell, Grid, Row, keys_of


class SyncTable(ScrollView, can_focus=True):
    """Rows under a header, a cursor on one row; fed with ``sync(rows)``.

    ↑ ↓ move the cursor a row, PgUp PgDn a screen, Home End to the first and last row;
    ← → scroll a table wider than its pane. A click puts the cursor on a row.
    """

    ALLOW_SELECT = False

    DEFAULT_CSS = """
    SyncTable {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;
        &:focus {
            background-tint: $foreground 5%;
            & > .synctable--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .synctable--header {
                background-tint: $foreground 5%;
            }
        }
        & > .synctable--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .synctable--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .synctable--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"synctable--header", "synctable--cursor"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home,ctrl+home", "move_cursor(0)", "First", show=False),
        Binding("end,ctrl+end", "move_cursor(-1)", "Last", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
    ]

    class RowHighlighted(Message):
        """The cursor is on another row (``key`` None: the table is empty)."""

        def __init__(self, table: SyncTable, key: str | None) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> SyncTable:
            return self.table

    def __init__(self, columns: Sequence[Column], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._grid = Grid(columns)
        self._cursor = 0
        self._highlighted: str | None = None
        """The key last announced with RowHighlighted."""
        self._strips: LRUCache[str, Strip] = LRUCache(1024)
        self._header: Strip | None = None
        self._base: Style | None = None

    # --- what it shows ----------------------------------------------------------------

    @property
    def grid(self) -> Grid:
        """What the table shows: rows, cells, the columns shown and their widths."""
        return self._grid

    @property
    def row_count(self) -> int:
        return len(self._grid.keys)

    @property
    def cursor_row(self) -> int:
        return self._cursor

    @property
    def selected_key(self) -> str | None:
        keys = self._grid.keys
        return keys[self._cursor] if keys else None

    def has_key(self, key: str) -> bool:
        return key in self._grid.where

    def get_row(self, key: str) -> list[Cell]:
        """The cells of a row in the columns shown, whole (as given, before any cut)."""
        cells = self._grid.cells[key]
        return [cells[i] for i in self._grid.shown]

    # --- feeding it -------------------------------------------------------------------

    def sync(self, rows: Sequence[Row], only: Iterable[str] | None = None) -> None:
        """Show ``rows``. With the same keys as shown, ``only``, when given, names the
        only rows whose cells may have changed: the others are not read again."""
        grid = self._grid
        keys = keys_of(rows)
        if keys == grid.keys:
            if only is not None:
                rows = [rows[grid.where[key]] for key in only if key in grid.where]
            changed = grid.update(rows)
            for key in changed:
                self._strips.discard(key)
            if changed and not self._fit():
                self.refresh()
            return
        keep = self.selected_key
        grid.replace(keys, rows)
        self._strips.clear()
        self._fit()
        self._sized()
        at = grid.where.get(keep) if keep is not None else None
        self._place(at if at is not None else min(self._cursor, max(len(keys) - 1, 0)))

    def restyle(self, rows: Sequence[Row]) -> None:
        """Show ``rows`` whose cells may differ from those shown in their colours alone
        (a new theme): every row is taken again and drawn anew."""
        keys = keys_of(rows)
        self._grid.replace(keys, rows)
        self.refit()

    def select_key(self, key: str) -> None:
        """Put the cursor on the row of ``key``, if there is one."""
        at = self._grid.where.get(key)
        if at is not None:
            self._place(at)

    def move_cursor(self, row: int) -> None:
        """Put the cursor on row ``row`` (below zero: from the end) and show it."""
        if self._grid.keys:
            self._place(row % len(self._grid.keys) if row < 0 else row)

    action_move_cursor = move_cursor

    # --- fitting the columns ----------------------------------------------------------

    def refit(self) -> None:
        """Fit the columns again (a column's short forms changed)."""
        self._strips.clear()
        self._header = None
        if not self._fit():
            self.refresh()

    def _fit(self) -> bool:
        """Fit the columns to the content and the width now; True if they changed (the
        whole table is then drawn again)."""
        width = self.size.width
        room = width - self.styles.scrollbar_size_vertical if width else None
        if not self._grid.fit(room):
            return False
        self._strips.clear()
        self._header = None
        self._sized()
        return True

    def _sized(self) -> None:
        self.virtual_size = Size(self._grid.width, len(self._grid.keys) + 1)
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._strips.clear()
        self._header = None
        self._fit()
        self._show_cursor()

    # --- the cursor -------------------------------------------------------------------

    def _place(self, row: int) -> None:
        row = max(0, min(row, len(self._grid.keys) - 1))
        if row != self._cursor:
            for old in (self._cursor, row):
                if 0 <= old < len(self._grid.keys):
                    self._strips.discard(self._grid.keys[old])
            self._cursor = row
            self.refresh()
        self._show_cursor()
        key = self.selected_key
        if key != self._highlighted:
            self._highlighted = key
            self.post_message(self.RowHighlighted(self, key))

    def _show_cursor(self) -> None:
        """Scroll so the cursor's row is under the header, on screen."""
        body = max(self.scrollable_content_region.height - 1, 1)
        top = self.scroll_offset.y
        if self._cursor < top:
            self.scroll_to(y=self._cursor, animate=False, immediate=True)
        elif self._cursor >= top + body:
            self.scroll_to(y=self._cursor - body + 1, animate=False, immediate=True)

    def action_cursor(self, step: int) -> None:
        if self._grid.keys:
            self._place(self._cursor + step)

    def action_page(self, step: int) -> None:
        if self._grid.keys:
            self._place(self._cursor + step * max(self.scrollable_content_region.height - 1, 1))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and offset.y >= 1:
            row = self.scroll_offset.y + offset.y - 1
            if row < len(self._grid.keys):
                self._place(row)

    # --- drawing ----------------------------------------------------------------------

    def notify_style_update(self) -> None:
        """Styles changed (focus, theme): every line is drawn again."""
        super().notify_style_update()
        self._strips.clear()
        self._header = None
        self._base = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self._base
        if base is None:
            base = self._base = self.rich_style
        if y == 0:
            strip = self._header
            if strip is None:
                strip = self._header = self._header_strip()
        else:
            row = scroll_y + y - 1
            if row >= len(self._grid.keys):
                return Strip.blank(width, base)
            key = self._grid.keys[row]
            strip = self._strips.get(key)
            if strip is None:
                strip = self._row_strip(row, key, base)
                self._strips[key] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def _header_strip(self) -> Strip:
        header = self.get_component_rich_style("synctable--header")
        titles = [c.title for c in self._grid.all_columns]
        segments = self._grid.segments(self.app.console, -1, titles, header, Style())
        return self._line(segments, header, -1)

    def _row_strip(self, row: int, key: str, base: Style) -> Strip:
        """A row; the cursor's row in the cursor's style, its colours over the cells'."""
        component = Style()
        if row == self._cursor:
            component = self.get_component_rich_style("synctable--cursor")
        post = Style.from_color(component.color, component.bgcolor)
        segments = self._grid.segments(self.app.console, row, self._grid.cells[key],
                                       base + component, post)
        return self._line(segments, base + component, row)

    def _line(self, segments: list[Segment], fill: Style, row: int) -> Strip:
        """A row's cells and, past the last column, its style to the pane's edge."""
        rest = max(0, self.size.width - self._grid.width)
        meta = Style.from_meta({"row": row, "column": 0, "out_of_bounds": True})
        segments.append(Segment(" " * rest, fill + meta))
        return Strip(segments, self._grid.width + rest)

