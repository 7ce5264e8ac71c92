"""The log: what happened, in the game's words; undone entries are shown struck out.

One row an entry at any width (who, what, and what came of it); the whole entry, with
every die, on Enter. With the log focused, a cursor marks an entry: ``[`` and ``]`` jump
to the start of the round (then of the one before) and of the next round; ``b`` goes
back (or forward) to the point right after the marked entry in one step, as ``rewind
entry K`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message

from tracker import startup
from tracker.core.model import Encounter, LogEntry
from tracker.ui.logview import LogView

if TYPE_CHECKING:
    from tracker.ui.screens import reading
else:  # a dialog: loaded when first opened (see tracker.startup)
    reading = startup.lazy("tracker.ui.screens.reading")

SHOWN = 200
"""The newest entries drawn; older ones stay in the save and in `tracker replay`."""


def _style(entry: LogEntry, undone: bool) -> str:
    return "dim strike" if undone else ("italic" if entry.secret else "")


def line(n: int, entry: LogEntry, undone: bool) -> Text:
    """The whole entry: its round, its text and every die, ``5*`` for one the tracker
    rolled (dimmed: the GM entered the others)."""
    text = Text()
    text.append(f"r{entry.round} ", style="dim")
    style = _style(entry, undone)
    text.append(entry.text, style=style)
    if entry.rolls:
        text.append("  [", style=style)
        for k, r in enumerate(entry.rolls):
            rolled = r.source == "rolled"
            text.append(f"{' ' if k else ''}{r.value}{'*' if rolled else ''}",
                        style=f"{style} dim".strip() if rolled else style)
        text.append("]", style=style)
    return text


def summary(entry: LogEntry) -> str:
    """An entry in a few words: who did what to whom, and what came of it ("Archers I
    shoots Empire Knights: 1 stand removed"); an entry that is not an action, one of no
    actor and no target (an end of phase), or one whose outcome has no label, its own
    text."""
    done = entry.resolved
    text = entry.text.split("\n", 1)[0]
    if done is None or not done.happened or entry.parts:
        return text
    if not entry.actor and not done.target:  # the whole phase's (an end of phase): its words
        return text
    head = text.split(": ", 1)[0]
    actor = entry.actor
    if actor and head.startswith(actor) and head != actor and len(head) < len(text):
        return f"{head}: {done.happened}"
    who = " ".join(bit for bit in (actor, done.action, done.target) if bit)
    return f"{who}: {done.happened}"


def headline(entry: LogEntry, undone: bool) -> Text:
    """An entry as its one row in the pane: its round (``r1*``: a die of it the tracker
    rolled) and its summary."""
    text = Text()
    text.append(f"r{entry.round}{'*' if any_rolled(entry) else ' '}", style="dim")
    text.append(summary(entry), style=_style(entry, undone))
    return text


def dice_by_role(entry: LogEntry) -> Text:
    """Every die of an entry under its role: ``hit 5 3 1 · save 4 4* 3*``."""
    text = Text()
    roles: dict[str, list[tuple[int, bool]]] = {}
    for r in entry.rolls:
        roles.setdefault(r.role, []).append((r.value, r.source == "rolled"))
    for k, (role, dice) in enumerate(roles.items()):
        text.append(f"{' · ' if k else ''}{role}")
        for value, rolled in dice:
            text.append(f" {value}{'*' if rolled else ''}", style="dim" if rolled else "")
    return text


def details(n: int, entry: LogEntry, undone: bool) -> Text:
    """The whole of entry ``n`` (1 is the first): its text, then its dice by role."""
    text = Text(entry.text, style="strike" if undone else "")
    if entry.rolls:
        text.append("\n\ndice: ")
        text.append_text(dice_by_role(entry))
        if any_rolled(entry):
            text.append("\n(n*: rolled by the tracker; the others entered)", style="dim")
    return text


def any_rolled(entry: LogEntry) -> bool:
    return any(r.source == "rolled" for r in entry.rolls)


class LogPane(Vertical):
    """Appends new entries; redraws when an undo or redo changes the past."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "round(-1)", "Round back", id="log-round-back"),
        Binding("right_square_bracket", "round(1)", "Round on", id="log-round-on"),
        Binding("enter", "details", "The whole entry, with its dice", id="log-details"),
        Binding("b", "rewind", "Back (or forward) to here", id="log-rewind"),
    ]

    class Rewind(Message):
        """The GM asked to go back (or forward) to the point right after ``entry`` (1 is
        the first entry of the log)."""

        def __init__(self, entry: int) -> None:
            super().__init__()
            self.entry = entry

    def __init__(self, *, rewind: bool = True, **kw: object) -> None:
        super().__init__(classes="pane", **kw)  # type: ignore[arg-type]
        self.border_title = "Log"
        self.rewind = rewind
        """Whether ``b`` rewinds (the GM's app) or does nothing (the player view)."""
        self._shown: tuple[int, int, Text | None] | None = None
        """Count, cursor and newest entry's line as drawn (None before the first draw)."""
        self._redraws = 0
        """Full redraws so far: older entries drawn late belong to the latest one only."""
        self._entries: list[tuple[int, int]] = []
        """The log index and round of each line drawn, in order."""
        self._rolled = False
        """Whether a line drawn shows a die the tracker rolled (the legend says n*)."""
        self._enc: Encounter | None = None

    def compose(self) -> ComposeResult:
        yield LogView(wrap=False, id="log-view")

    def refresh_from(self, enc: Encounter, show_secret: bool = True) -> None:
        self._enc = enc
        view = self.query_one(LogView)
        count, cursor = len(enc.log), enc.cursor
        newest = headline(enc.log[count - 1], count - 1 >= cursor) if count else None
        if (count, cursor, newest) == self._shown:
            return  # the log has not changed (only its tail ever changes)
        drawn_count, drawn_cursor, _ = self._shown or (0, 0, None)
        self._shown = (count, cursor, newest)
        appended = count > drawn_count and cursor == count and drawn_cursor == drawn_count
        if appended and drawn_count:
            entries, texts = self._lines(enc, max(drawn_count, count - SHOWN), count,
                                         show_secret)
            self._entries += entries
            view.write_all(texts)
        else:
            # the newest entries fill the screen; older ones are read from the journal
            # and drawn above them once that screen is up
            marked = self.marked_entry() if view.has_focus else None
            view.clear()
            self._redraws += 1
            start = max(0, count - SHOWN)
            first = max(start, count - 2 * max(self.app.size.height, 1))
            self._entries, texts = self._lines(enc, first, count, show_secret)
            view.write_all(texts)
            if marked is not None:
                self._mark(marked)
            if first > start:
                self.call_after_refresh(self._write_older, self._redraws, enc, start, first,
                                        show_secret)
        undone = count - cursor
        applied = "1 entry" if cursor == 1 else f"{cursor} entries"
        self.border_subtitle = applied + (f", {undone} undone" if undone else "")
        # the legend of the dice mark, once a row shows one (the title has room at 80x24)
        self.border_title = "Log · * rolled" if self._rolled else "Log"

    def _write_older(self, redraw: int, enc: Encounter, start: int, stop: int,
                     show_secret: bool) -> None:
        if redraw == self._redraws:  # not redrawn since
            entries, texts = self._lines(enc, start, stop, show_secret)
            self._entries[:0] = entries
            self.query_one(LogView).prepend(texts)

    def _lines(self, enc: Encounter, start: int, stop: int,
               show_secret: bool) -> tuple[list[tuple[int, int]], list[Text]]:
        cursor = enc.cursor
        entries: list[tuple[int, int]] = []
        texts: list[Text] = []
        for i in range(start, stop):
            entry = enc.log[i]
            if entry.secret and not show_secret:
                continue
            entries.append((i, entry.round))
            texts.append(headline(entry, undone=i >= cursor))
            self._rolled = self._rolled or any_rolled(entry)
        return entries, texts

    # --- the cursor -------------------------------------------------------------------

    def marked_entry(self) -> int | None:
        """The log index of the entry under the cursor."""
        at = self.query_one(LogView).cursor
        if at is None or not 0 <= at < len(self._entries):
            return None
        return self._entries[at][0]

    def _mark(self, log_index: int) -> None:
        for at, (i, _) in enumerate(self._entries):
            if i >= log_index:
                self.query_one(LogView).move_cursor(at)
                return

    def action_round(self, step: int) -> None:
        """Put the cursor on the first entry of this round (from there, of the one
        before), or of the next round."""
        view = self.query_one(LogView)
        at = view.cursor
        if at is None or not self._entries:
            return
        view.focus()
        rounds = [r for _, r in self._entries]
        here = rounds[at]
        if step > 0:
            later = next((k for k in range(at + 1, len(rounds)) if rounds[k] != here), None)
            view.move_cursor(len(rounds) - 1 if later is None else later)
            return
        k = at
        while k > 0 and rounds[k - 1] == here:
            k -= 1
        if k == at and k > 0:  # already at its start: the start of the round before
            k -= 1
            while k > 0 and rounds[k - 1] == rounds[k]:
                k -= 1
        view.move_cursor(k)

    def action_details(self) -> None:
        """The marked entry whole, with every die, in a dialog."""
        index = self.marked_entry()
        if index is None or self._enc is None or index >= len(self._enc.log):
            return
        enc = self._enc
        entry = enc.log[index]
        undone = index >= enc.cursor
        title = f"Entry {index + 1} · round {entry.round}" + (" · undone" if undone else "")
        hint = "Enter / Esc: close" + (" · b in the log: back to here" if self.rewind else "")
        self.app.push_screen(reading.ReadingScreen(title, details(index + 1, entry, undone),
                                                   hint=hint))

    def action_rewind(self) -> None:
        entry = self.marked_entry()
        if entry is not None:
            self.post_message(self.Rewind(entry + 1))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rewind":
            return self.rewind
        return True
