"""A scrolling view of rich Text lines that renders only the rows on screen.

The log pane writes an entry per line. Each entry is wrapped to the view's width when
it is written (or when the width changes), and turned into segments only when its rows
are drawn, so opening a long battle costs the wrapping of the entries shown, not their
rendering. On a new width the newest entries are wrapped first, enough to fill the view,
and the older ones once that screen is drawn.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


class LogView(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    LogView {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        overflow-x: hidden;
        &:focus {
            background-tint: $foreground 5%;
        }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._texts: list[Text] = []
        self._rows: list[Text] = []
        self._width = 0
        self._strips: LRUCache[int, Strip] = LRUCache(1024)
        self._style: Style | None = None
        """The view's own style, worked out once per style change (it walks the DOM)."""
        self._unwrapped = 0
        """The oldest texts, ``_texts[:_unwrapped]``, not yet wrapped into ``_rows``."""

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
                self._rows.extend(self._wrap(text))
            self._sized()

    def prepend(self, texts: list[Text]) -> None:
        """Add older lines above the others, keeping the rows in view still."""
        self._texts[:0] = texts
        self._unwrapped += len(texts)
        if self._width:
            self._wrap_older()

    def clear(self) -> None:
        self._texts.clear()
        self._rows.clear()
        self._unwrapped = 0
        self._strips.clear()
        self.virtual_size = Size(self._width, 0)
        self.refresh()

    def _wrap(self, text: Text) -> list[Text]:
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
        self._unwrapped = index
        self._strips.clear()
        self._sized()
        if index:
            self.call_after_refresh(self._wrap_older)

    def _wrap_older(self) -> None:
        """Wrap the entries above the first screenful, keeping the rows in view still."""
        index, self._unwrapped = self._unwrapped, 0
        if not index:
            return
        older = [row for text in self._texts[:index] for row in self._wrap(text)]
        at_end = self.is_vertical_scroll_end
        self._rows[:0] = older
        self._strips.clear()
        if at_end:
            self._sized()
            return
        self.virtual_size = Size(self._width, len(self._rows))
        self.scroll_to(y=self.scroll_offset.y + len(older), animate=False, immediate=True)
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
        strip = self._strips.get(index)
        if strip is None:
            row = self._rows[index].copy()
            row.stylize_before(style)
            segments = [s for s in row.render(self.app.console) if s.text != "\n"]
            strip = Strip(segments or [Segment("", style)])
            self._strips[index] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, style).apply_offsets(scroll_x, index)
