"""The log: what happened, in the game's words; undone entries are shown struck out."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical

from tracker.core.model import Encounter, LogEntry
from tracker.ui.logview import LogView

SHOWN = 200
"""The newest entries drawn; older ones stay in the save and in `tracker replay`."""


def line(n: int, entry: LogEntry, undone: bool) -> Text:
    text = Text()
    text.append(f"r{entry.round} ", style="dim")
    body = entry.text
    if entry.rolls:
        dice = " ".join(f"{r.value}" for r in entry.rolls[:12])
        more = "…" if len(entry.rolls) > 12 else ""
        body += f"  [{dice}{more}]"
    style = "dim strike" if undone else ("italic" if entry.secret else "")
    text.append(body, style=style)
    return text


class LogPane(Vertical):
    """Appends new entries; redraws when an undo or redo changes the past."""

    def __init__(self, **kw: object) -> None:
        super().__init__(classes="pane", **kw)  # type: ignore[arg-type]
        self.border_title = "Log"
        self._shown: tuple[int, int, Text | None] | None = None
        """Count, cursor and newest entry's line as drawn (None before the first draw)."""
        self._redraws = 0
        """Full redraws so far: older entries drawn late belong to the latest one only."""

    def compose(self) -> ComposeResult:
        yield LogView(id="log-view")

    def refresh_from(self, enc: Encounter, show_secret: bool = True) -> None:
        view = self.query_one(LogView)
        count, cursor = len(enc.log), enc.cursor
        newest = self._lines(enc, count - 1, count, show_secret=True)[0] if count else None
        if (count, cursor, newest) == self._shown:
            return  # the log has not changed (only its tail ever changes)
        drawn_count, drawn_cursor, _ = self._shown or (0, 0, None)
        self._shown = (count, cursor, newest)
        appended = count > drawn_count and cursor == count and drawn_cursor == drawn_count
        if appended and drawn_count:
            view.write_all(self._lines(enc, max(drawn_count, count - SHOWN), count, show_secret))
        else:
            # the newest entries fill the screen; older ones are read from the journal
            # and drawn above them once that screen is up
            view.clear()
            self._redraws += 1
            start = max(0, count - SHOWN)
            first = max(start, count - 2 * max(self.app.size.height, 1))
            view.write_all(self._lines(enc, first, count, show_secret))
            if first > start:
                self.call_after_refresh(self._write_older, self._redraws, enc, start, first,
                                        show_secret)
        undone = count - cursor
        self.border_subtitle = f"{cursor} entries" + (f", {undone} undone" if undone else "")

    def _write_older(self, redraw: int, enc: Encounter, start: int, stop: int,
                     show_secret: bool) -> None:
        if redraw == self._redraws:  # not redrawn since
            self.query_one(LogView).prepend(self._lines(enc, start, stop, show_secret))

    @staticmethod
    def _lines(enc: Encounter, start: int, stop: int, show_secret: bool) -> list[Text]:
        cursor = enc.cursor
        return [line(i + 1, entry, undone=i >= cursor)
                for i in range(start, stop)
                if not ((entry := enc.log[i]).secret and not show_secret)]
