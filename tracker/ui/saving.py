"""The app's side of saving: the status line, the save worker, the timers and the signals.

What is saved, when, and what each step means is the session's
(:mod:`tracker.session.saving`); the app runs its writes in a worker thread, on a timer
and when asked to end, and shows the news each step gives: "saving…" while a change is
not on disk, a failure and its retry, read-only, taken over.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from textual import work
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Static

from tracker import startup
from tracker.session.opening import Opened
from tracker.session.saving import POLL_SECONDS, RETRY_SECONDS, Saving
from tracker.ui import status as status_line
from tracker.ui.errors import log_unexpected
from tracker.ui.topbar import TopBar
from tracker.ui.typeahead import TypeAhead

if TYPE_CHECKING:
    from tracker.session import save_news as news
    from tracker.session.save_news import Leave, Refused, SaveNews
    from tracker.ui.screens import confirm
else:  # loaded after the first screen, or when first used (see tracker.startup)
    news = startup.lazy("tracker.session.save_news")
    confirm = startup.lazy("tracker.ui.screens.confirm")

SAVING = "saving… "


class Committed(Message):
    """A change reached the journal (posted from the save worker)."""


class SavingApp(TypeAhead):
    """An app on an opened encounter that saves it as the GM plays; shows the status line."""

    exit_deadline: float | None = 3.0
    """Seconds a signal leaves Textual to finish its exit before the process ends."""

    def __init__(self, opened: Opened, autosave: bool = True) -> None:
        super().__init__()
        self.opened = opened
        self.session = opened.session
        self.saving = Saving(opened, autosave)
        self.saving.on_commit = self._on_commit
        self._status_text = ""
        self._status_error = False
        self._status_short = ""

    def _on_commit(self) -> None:
        self.post_message(Committed())  # thread-safe: from the save worker

    def start_saving(self) -> None:
        """On mount: the retry and take-over timers, a first save if one is due, and the
        offer to take over a view opened read-only."""
        self.set_interval(RETRY_SECONDS, self._retry_save)
        self.set_interval(POLL_SECONDS, self._watch_lock)
        if self.saving.due:
            self._save_worker()
        if self.saving.holder:
            self._offer_take_over()

    def refresh_panes(self, units: set[str] | None = None) -> None:
        """Redraw what shows the encounter (the app's panes)."""

    # --- the status line ----------------------------------------------------------------

    def set_status(self, message: str, error: bool = False, toast: bool = True,
                   short: str = "") -> None:
        """Show ``message`` in the status line, on two lines at most; one too long for
        them shows ``short`` (what came of an action) or as much as fits, and whole with
        ``m`` (``toast`` is kept for callers: nothing is ever drawn over the panes)."""
        self._status_text, self._status_error = message, error
        self._status_short = short
        self._draw_status()

    @property
    def status_message(self) -> str:
        """The status line's message, whole."""
        return self._status_text

    def saving_mark(self) -> str:
        """The top bar's mark while a change is not on disk yet (the status line can be
        covered by the command line)."""
        return "saving…" if self.saving.saving else ""

    def _draw_status(self) -> None:
        try:
            status = self.query_one("#status", Static)
            bar = self.query_one(TopBar)
        except NoMatches:  # the app is closing: a late save report has nothing to draw on
            return
        saving = self.saving.saving
        width = (self.size.width or 80) - 2  # its padding
        mark = SAVING if saving else ""
        shown, whole = status_line.fit(mark + self._status_text, width)
        short = f"{mark}{self._status_short}{status_line.MORE}"
        if not whole and self._status_short and status_line.lines_of(short, width) <= \
                status_line.LINES:
            shown = short
        status.update(shown)
        status.set_class(self._status_error, "error")
        status.set_class(saving, "saving")
        bar.show(self.session, self.saving_mark())

    def show_save(self, said: SaveNews | None) -> None:
        """Show what saving says (None: nothing new)."""
        if said is None:
            return
        if isinstance(said, news.Leave):
            self._leave(said)
        elif isinstance(said, (news.ReadOnly, news.Reopened)):
            self.refresh_panes()
            self.set_status(said.message, error=isinstance(said, news.ReadOnly))
        elif isinstance(said, (news.SaveFailed, news.Refused)):
            self.set_status(said.message, error=True)
        elif said.message:
            self.set_status(said.message)
        else:
            self._draw_status()

    # --- the worker -----------------------------------------------------------------------

    def note_change(self) -> None:
        """A change was made (the session's on_change): save it in the worker."""
        if self.saving.changed():
            # written once the change is on the GM's screen: the players' views follow
            # the save, so their redraws come after the GM's frame, not during it
            self.call_after_refresh(self._save_worker)

    def on_committed(self, message: Committed) -> None:
        self.show_save(self.saving.committed())

    @work(thread=True, group="save", exit_on_error=False)
    def _save_worker(self) -> None:
        ok = self.saving.write()
        self.call_from_thread(self._written, ok)

    def _written(self, ok: bool) -> None:
        self.show_save(self.saving.written(ok))

    def _retry_save(self) -> None:
        if self.saving.due:
            self._save_worker()

    # --- leaving --------------------------------------------------------------------------

    async def action_quit(self) -> None:
        said = self.saving.quit()
        if isinstance(said, news.Leave):
            self.exit()  # every change is in the journal at least: nothing is lost
        else:
            self.show_save(said)

    def handle_exit_signal(self) -> None:
        """SIGHUP or SIGTERM: save, let go of the lock, and leave (see
        :meth:`Saving.on_signal`).

        The terminal may already be gone, and a screen that cannot be written to can
        keep Textual from finishing its exit; the save is safe by then, so a timer ends
        the process if the exit has not within a few seconds.
        """
        self.show_save(self.saving.on_signal())

    def note_rescue(self, left: Leave) -> None:
        """A rescue copy goes into the error log too (the screen may be gone)."""
        if left.rescued is None:
            return
        try:
            log_unexpected(RuntimeError(f"{self.session.path} could not be saved; "
                                        f"{left.message}"), "rescue on exit")
        except OSError:
            pass

    def _leave(self, left: Leave) -> None:
        self.note_rescue(left)
        if self.exit_deadline is not None:
            timer = threading.Timer(self.exit_deadline, os._exit, args=(0,))
            timer.daemon = True
            timer.start()
        self.exit()

    def on_unmount(self) -> None:
        self.saving.close()

    def save_as(self, name: str) -> None:
        """Write the encounter (with its whole history) to a new save, and go on there."""
        self.show_save(self.saving.save_as(name))

    # --- handing over ---------------------------------------------------------------------

    def _watch_lock(self) -> None:
        self.show_save(self.saving.watch_lock())

    def _offer_take_over(self) -> None:
        who = self.saving.holder
        question = (f"{who} writes this encounter.\nTake it over? It is asked to save "
                    "and let go;\nafter 10 s it is taken over regardless.")

        def answered(yes: bool | None) -> None:
            if yes:
                self.set_status(f"asking {who} to save and let go …")
                self._take_over()

        self.push_screen(confirm.ConfirmScreen(question, yes="take it over", no="read-only"),
                         answered)

    @work(thread=True, group="take-over", exit_on_error=False)
    def _take_over(self) -> None:
        opened = self.saving.take_over()
        self.call_from_thread(self._took_over, opened)

    def _took_over(self, opened: Opened | Refused) -> None:
        self.show_save(self.saving.took_over(opened))

