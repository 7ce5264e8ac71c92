"""A scrolling view of rich Text lines that renders only the rows on screen.

The log pane writes an entry per line. Each entry is wrapped to the view's width when
it is written (or when the width changes), and turned into segments only when its rows
are drawn, so opening a long battle costs the wrapping of the entries shown, not their
rendering.
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

    @property
    def lines(self) -> list[Text]:
        """The rows as wrapped to the current width."""
        return list(self._rows)

    def write(self, text: Text) -> None:
        """Add a line at the bottom and scroll to it."""
        self._texts.append(text)
        if self._width:
            self._rows.extend(self._wrap(text))
            self._sized()

    def clear(self) -> None:
        self._texts.clear()
        self._rows.clear()
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
        self._rows = [row for text in self._texts for row in self._wrap(text)]
        self._strips.clear()
        self._sized()

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
