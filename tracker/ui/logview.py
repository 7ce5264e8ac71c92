"""A scrolling view of rich Text lines that renders only the rows on screen.

The log pane writes an entry per line. Each entry is wrapped to the view's width when
it is written (or when the width changes), or, in a view made with ``wrap=False``, kept
to one row cut with an ellipsis, and turned into segments only when its rows
are drawn, so opening a long battle costs the wrapping of the entries shown, not their
rendering. On a new width the newest entries are wrapped first, enough to fill the view,
and the older ones once that screen is drawn.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


class LogView(ScrollView, can_focus=True):
    """With focus, a cursor marks one line (a whole entry, however many rows it wraps to):
    ↑ ↓ move it an entry, PgUp PgDn a screen, Home End to the first and last."""

    DEFAULT_CSS = """
    LogView {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        overflow-x: hidden;
        &:focus {
            background-tint: $foreground 5%;
        }
        & > .logview--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"logview--cursor"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Earlier", show=False),
        Binding("down", "cursor(1)", "Later", show=False),
        Binding("pageup", "page_cursor(-1)", "Page up", show=False),
        Binding("pagedown", "page_cursor(1)", "Page down", show=False),
        Binding("home", "cursor_to(0)", "First", show=False),
        Binding("end", "cursor_to(-1)", "Last", show=False),
    ]

    def __init__(self, *, wrap: bool = True, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.wrap = wrap
        """Whether a line longer than the view wraps (else it is cut to one row)."""
        self._texts: list[Text] = []
        self._rows: list[Text] = []
        self._width = 0
        self._strips: LRUCache[int, Strip] = LRUCache(1024)
        self._style: Style | None = None
        """The view's own style, worked out once per style change (it walks the DOM)."""
        self._unwrapped = 0
        """The oldest texts, ``_texts[:_unwrapped]``, not yet wrapped into ``_rows``."""
        self._spans: list[int] = []
        """Rows each text wraps to (0 for those not wrapped yet)."""
        self._cursor: int | None = None
        """The line the cursor is on (an index of the texts); None: on the newest."""
        self._cursor_rows = range(0)

    @property
    def lines(self) -> list[Text]:
        """The rows as wrapped to the current width."""
        self._wrap_older()
        return list(self._rows)

    def write_all(self, texts: list[Text]) -> None:
        """Add lines at the bottom and scroll to the last."""
        if not texts:
            return
        self._texts.extend(texts)
        if self._width:
            for text in texts:
                wrapped = self._wrap(text)
                self._rows.extend(wrapped)
                self._spans.append(len(wrapped))
            self._sized()
        else:
            self._spans.extend([0] * len(texts))

    def prepend(self, texts: list[Text]) -> None:
        """Add older lines above the others, keeping the rows in view still."""
        self._texts[:0] = texts
        self._spans[:0] = [0] * len(texts)
        self._unwrapped += len(texts)
        if self._cursor is not None:
            self._cursor += len(texts)
        if self._width:
            self._wrap_older()
        if self._cursor is not None:
            self._place_cursor(scroll=False)

    def clear(self) -> None:
        self._texts.clear()
        self._rows.clear()
        self._spans.clear()
        self._cursor = None
        self._cursor_rows = range(0)
        self._unwrapped = 0
        self._strips.clear()
        self.virtual_size = Size(self._width, 0)
        self.refresh()

    def _wrap(self, text: Text) -> list[Text]:
        if not self.wrap:
            row = text.copy()
            row.truncate(self._width, overflow="ellipsis")
            return [row]
        return list(text.wrap(self.app.console, self._width, overflow="fold")) or [Text()]

    def _sized(self) -> None:
        """Fit the scroll area to the rows and show the newest."""
        self.virtual_size = Size(self._width, len(self._rows))
        self.scroll_end(animate=False, immediate=False, x_axis=False)
        self.refresh()

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._width:
            return
        self._width = width
        # the newest rows fill the view (twice its height, for a first scroll back)
        wanted = 2 * max(self.size.height, 1)
        rows: list[list[Text]] = []
        count = 0
        index = len(self._texts)
        while index > 0 and count < wanted:
            index -= 1
            wrapped = self._wrap(self._texts[index])
            rows.append(wrapped)
            count += len(wrapped)
        self._rows = [row for wrapped in reversed(rows) for row in wrapped]
        self._spans = [0] * index + [len(wrapped) for wrapped in reversed(rows)]
        self._unwrapped = index
        self._strips.clear()
        self._sized()
        if self._cursor is not None:
            self._place_cursor()
        if index:
            self.call_after_refresh(self._wrap_older)

    def _wrap_older(self) -> None:
        """Wrap the entries above the first screenful, keeping the rows in view still."""
        index, self._unwrapped = self._unwrapped, 0
        if not index:
            return
        wrapped = [self._wrap(text) for text in self._texts[:index]]
        self._spans[:index] = [len(rows) for rows in wrapped]
        older = [row for rows in wrapped for row in rows]
        if self._cursor_rows:
            self._cursor_rows = range(self._cursor_rows.start + len(older),
                                      self._cursor_rows.stop + len(older))
        at_end = self.is_vertical_scroll_end
        self._rows[:0] = older
        self._strips.clear()
        if at_end:
            self._sized()
            return
        self.virtual_size = Size(self._width, len(self._rows))
        self.scroll_to(y=self.scroll_offset.y + len(older), animate=False, immediate=True)
        self.refresh()

    # --- the cursor -----------------------------------------------------------------------

    @property
    def cursor(self) -> int | None:
        """The line under the cursor (an index of the lines written), when there is one."""
        if not self._texts:
            return None
        return len(self._texts) - 1 if self._cursor is None else self._cursor

    def move_cursor(self, index: int) -> None:
        """Put the cursor on line ``index`` (below zero: from the end) and show it."""
        if not self._texts:
            return
        if index < 0:
            index += len(self._texts)
        self._cursor = max(0, min(index, len(self._texts) - 1))
        self._place_cursor()

    def _place_cursor(self, scroll: bool = True) -> None:
        index = self._cursor
        if index is None or not self._width:
            return
        if index < self._unwrapped:
            self._wrap_older()
        start = sum(self._spans[self._unwrapped : index])
        self._cursor_rows = range(start, start + self._spans[index])
        self._strips.clear()
        if scroll:
            top, height = self.scroll_offset.y, max(self.scrollable_content_region.height, 1)
            if start < top:
                self.scroll_to(y=start, animate=False, immediate=True)
            elif self._cursor_rows.stop > top + height:
                self.scroll_to(y=max(start, self._cursor_rows.stop - height), animate=False,
                               immediate=True)
        self.refresh()

    def action_cursor(self, step: int) -> None:
        at = self.cursor
        if at is not None:
            self.move_cursor(at + step)

    def action_page_cursor(self, step: int) -> None:
        at = self.cursor
        if at is None:
            return
        rows = max(self.scrollable_content_region.height - 1, 1)
        while rows > 0 and 0 <= at + step < len(self._texts):
            at += step
            rows -= max(self._spans[at], 1)
        self.move_cursor(at)

    def action_cursor_to(self, index: int) -> None:
        self.move_cursor(index)

    def on_focus(self) -> None:
        self.move_cursor(self.cursor if self.cursor is not None else -1)

    def on_blur(self) -> None:
        self._strips.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._style = None

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        style = self._style
        if style is None:
            style = self._style = self.rich_style
        if index >= len(self._rows):
            return Strip.blank(width, style)
        if index in self._cursor_rows and self.has_focus:
            style = self.get_component_rich_style("logview--cursor")
        strip = self._strips.get(index)
        if strip is None:
            row = self._rows[index].copy()
            row.stylize_before(style)
            segments = [s for s in row.render(self.app.console) if s.text != "\n"]
            strip = Strip(segments or [Segment("", style)])
            self._strips[index] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, style).apply_offsets(scroll_x, index)
