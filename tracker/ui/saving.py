"""The GM's app and its saves.

- A change is drawn at once, with "saving…" in the status line until its journal record
  is on disk; then the mark goes (a change without it is committed).
- A failed save says so ("could not save …; retrying") and is retried every few
  seconds; the line clears when a retry succeeds.
- Quitting saves first. If saving is impossible the app stays open and says so; the
  unsaved changes can be written elsewhere with ``:save-as FILE``. SIGHUP and SIGTERM
  save and exit; when saving is impossible the changes are written to a rescue copy in
  the data folder, and if even that fails the app keeps running and retrying.
- Another tracker may ask for the encounter (``tracker --take-over``): this one saves,
  lets go and goes read-only; if it was taken over without letting go, it stops
  writing and offers ``:save-as`` for what it had not saved.
- A second tracker opened read-only asks whether to take the encounter over.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.message import Message
from textual.widgets import Static

from tracker.store.autosave import Autosaver
from tracker.store.lock import Lock
from tracker.store.toml_store import Snapshot, binding_of, snapshot

if TYPE_CHECKING:
    from tracker.session.opening import Opened
    from tracker.session.session import Session

RETRY_SECONDS = 5
POLL_SECONDS = 1.0
SAVING = "saving… "


class SaveCommitted(Message):
    """The journal holds every change up to ``number`` (posted from the save worker)."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number


class SavingMixin:
    """Save handling for :class:`~tracker.ui.app.TrackerApp` (see the module docstring)."""

    opened: Opened
    session: Session
    autosaver: Autosaver | None
    exit_deadline: float | None

    if TYPE_CHECKING:
        def query_one(self, *a: Any, **k: Any) -> Any: ...
        def set_interval(self, *a: Any, **k: Any) -> Any: ...
        def post_message(self, message: Message) -> bool: ...
        def call_from_thread(self, *a: Any, **k: Any) -> Any: ...
        def call_after_refresh(self, *a: Any, **k: Any) -> bool: ...
        def exit(self, *a: Any, **k: Any) -> None: ...
        def refresh_panes(self, units: set[str] | None = None) -> None: ...
        def push_screen(self, *a: Any, **k: Any) -> Any: ...
        def notify(self, *a: Any, **k: Any) -> None: ...
        @property
        def size(self) -> Any: ...

    def init_saving(self, autosave: bool) -> None:
        self._status_text = ""
        self._status_error = False
        self._changes = 0
        self._had_error = False
        self._exit_when_saved = False
        self.autosaver = None
        if autosave and self.session.path is not None and not self.session.read_only:
            self.autosaver = self._make_saver()

    def _make_saver(self) -> Autosaver:
        session = self.session

        def take() -> Snapshot:
            with session.lock:
                assert session.path is not None
                return snapshot(session.enc, session.path)

        assert session.path is not None
        saver = Autosaver(session.path, take, lock=self.opened.lock)
        def committed(number: int) -> None:
            self.post_message(SaveCommitted(number))  # thread-safe: from the save worker

        saver.on_commit = committed
        b = binding_of(session.enc)
        if b is not None and not b.legacy and b.state_position != b.position:
            saver.request()  # the state file is behind its journal: bring it up to date
        return saver

    def start_saving(self) -> None:
        """On mount: retry timer, take-over watch, signals, a first save if one is due."""
        self.set_interval(RETRY_SECONDS, self._retry_save)
        if self.opened.lock is not None:
            self.set_interval(POLL_SECONDS, self._watch_lock)
        if self.autosaver is not None and self.autosaver.pending:
            self._save_worker()
        if self.session.read_only and self.opened.held_by:
            self._offer_take_over()

    # --- the status line ----------------------------------------------------------------

    def set_status(self, message: str, error: bool = False, toast: bool = True) -> None:
        """Show ``message`` in the status line; one too long for it is also shown whole
        in a notice (``toast=False``: the caller shows its own)."""
        self._status_text, self._status_error = message, error
        self._draw_status()
        width = self.size.width or 80
        if toast and len(message) + 2 > width:
            self.notify(message, severity="error" if error else "information",
                        timeout=10 if error else 6)

    @property
    def saving(self) -> bool:
        """Whether a change on screen is not on disk yet."""
        saver = self.autosaver
        return saver is not None and saver.committed < self._changes

    def saving_mark(self) -> str:
        """The top bar's mark while a change is not on disk yet (the status line can be
        covered by the command line)."""
        return "saving…" if self.saving else ""

    def _draw_status(self) -> None:
        from textual.css.query import NoMatches

        from tracker.ui.topbar import TopBar

        try:
            status = self.query_one("#status", Static)
            bar = self.query_one(TopBar)
        except NoMatches:  # the app is closing: a late save report has nothing to draw on
            return
        saving = self.saving
        status.update((SAVING if saving else "") + self._status_text)
        status.set_class(self._status_error, "error")
        status.set_class(saving, "saving")
        bar.show(self.session, self.saving_mark())

    def note_change(self) -> None:
        """A change was made (the session's on_change): save it in the worker."""
        if self.autosaver is not None:
            self._changes = self.autosaver.request()
            # written once the change is on the GM's screen: the players' views follow
            # the save, so their redraws come after the GM's frame, not during it
            self.call_after_refresh(self._save_worker)

    def on_save_committed(self, message: SaveCommitted) -> None:
        if self._had_error and self.autosaver is not None and self.autosaver.failures == 0:
            self._had_error = False
            self.set_status(f"saved {self.autosaver.path.name}")
        else:
            self._draw_status()

    # --- the worker -----------------------------------------------------------------------

    @work(thread=True, group="save", exit_on_error=False)
    def _save_worker(self) -> None:
        saver = self.autosaver
        if saver is None:
            return
        ok = saver.run_pending()
        self.call_from_thread(self._saved, ok)

    def _saved(self, ok: bool) -> None:
        saver = self.autosaver
        if saver is None:
            return
        if ok:
            if self._had_error:
                self._had_error = False
                self.set_status(f"saved {saver.path.name}")
            if self._exit_when_saved:
                self._leave()
            return
        self._had_error = True
        if saver.lost:
            self._lost_encounter(saver.lost)
        elif saver.safe:
            self.set_status(f"{saver.last_error}; retrying (every change is in the journal)",
                            error=True)
        else:
            self.set_status(f"{saver.last_error}; retrying; :save-as FILE keeps the changes",
                            error=True)

    def _retry_save(self) -> None:
        if self.autosaver is not None and self.autosaver.pending and not self.autosaver.lost:
            self._save_worker()

    def save_now(self) -> bool:
        """Save on this thread; False if something is left unsaved."""
        if self.autosaver is None:
            return True
        return self.autosaver.flush()

    # --- quitting -------------------------------------------------------------------------

    async def action_quit(self) -> None:
        saver = self.autosaver
        if self.save_now() or (saver is not None and saver.safe):
            self.exit()  # every change is in the journal at least: nothing is lost
            return
        assert saver is not None
        self._had_error = True
        self.set_status(f"not quitting: {saver.last_error}. Nothing is lost yet: "
                        ":save-as FILE writes the encounter elsewhere", error=True)

    def _leave(self) -> None:
        if self.opened.lock is not None:
            self.opened.lock.release()
        if self.exit_deadline is not None:
            timer = threading.Timer(self.exit_deadline, os._exit, args=(0,))
            timer.daemon = True
            timer.start()
        self.exit()

    def handle_exit_signal(self) -> None:
        """SIGHUP or SIGTERM: save, let go of the lock, and leave. If saving is
        impossible, write a rescue copy and leave; if that fails too, stay and retry.

        The terminal may already be gone, and a screen that cannot be written to can
        keep Textual from finishing its exit; the save is safe by then, so a timer ends
        the process if the exit has not within a few seconds.
        """
        if self.save_now() or (self.autosaver is not None and self.autosaver.safe):
            self._leave()
            return
        rescued = rescue(self.session)
        if rescued is not None:
            self.autosaver = None
            self._leave()
            return
        self._exit_when_saved = True
        self.set_status("asked to exit, but the encounter cannot be saved: retrying",
                        error=True)

    def on_unmount(self) -> None:
        self.save_now()
        if self.opened.lock is not None:
            self.opened.lock.release()

    # --- :save-as ---------------------------------------------------------------------------

    def save_as(self, name: str) -> None:
        """Write the encounter (with its whole history) to a new save, and go on there."""
        from tracker.store.fs import describe
        from tracker.store.lock import LockHeld
        from tracker.store.toml_store import save_encounter

        name = name.strip()
        if not name:
            self.set_status("save-as FILE: where to write the encounter", error=True)
            return
        base = self.session.path.parent if self.session.path else Path.cwd()
        path = (base / Path(name).expanduser())
        if path.suffix != ".toml":
            path = path.with_name(path.name + ".toml")
        if path.exists() or path.is_symlink():
            self.set_status(f"save-as: {path} already exists", error=True)
            return
        lock = Lock(path)
        try:
            lock.acquire()
            with self.session.lock:
                save_encounter(self.session.enc, path)
        except LockHeld as held:
            self.set_status(f"save-as: {held}", error=True)
            return
        except OSError as exc:
            lock.release()
            self.set_status(f"save-as: {describe(exc)}", error=True)
            return
        old = self.opened.lock
        self.opened.lock = lock
        if old is not None:
            old.release()
        self.session.path = path
        self.session.read_only = False
        self.autosaver = self._make_saver()
        self._changes = 0
        self._had_error = False
        self.refresh_panes()
        self.set_status(f"saved as {path}; changes go there from now on")

    # --- handing over ---------------------------------------------------------------------

    def _watch_lock(self) -> None:
        lock = self.opened.lock
        if lock is None or self.session.read_only:
            return
        if lock.lost():
            self._lost_encounter("another tracker took this encounter over")
            return
        who = lock.asked()
        if not who:
            return
        if self.save_now():
            lock.release()
            self.opened.lock = None
            self._go_read_only(f"saved and handed over to {who}: read-only now")
        else:
            saver = self.autosaver
            why = saver.last_error if saver else "?"
            self.set_status(f"{who} asks for this encounter, but it cannot be saved ({why}); "
                            ":save-as FILE keeps your changes", error=True)

    def _lost_encounter(self, why: str) -> None:
        unsaved = self.autosaver.uncommitted if self.autosaver is not None else 0
        self._go_read_only(why + (f"; {unsaved} change(s) not saved: :save-as FILE keeps them"
                                  if unsaved > 0 else ""))

    def _go_read_only(self, message: str) -> None:
        self.session.read_only = True
        if self.autosaver is not None and not self.autosaver.pending:
            self.autosaver = None
        self.refresh_panes()
        self.set_status(message, error=True)

    def _offer_take_over(self) -> None:
        from tracker.ui.screens.confirm import ConfirmScreen

        who = self.opened.held_by
        question = (f"{who} writes this encounter.\nTake it over? It is asked to save "
                    "and let go;\nafter 10 s it is taken over regardless.")

        def answered(yes: bool | None) -> None:
            if yes:
                self.set_status(f"asking {who} to save and let go …")
                self._take_over()

        self.push_screen(ConfirmScreen(question), answered)

    @work(thread=True, group="take-over", exit_on_error=False)
    def _take_over(self) -> None:
        from tracker.session.opening import open_encounter

        path = self.session.path
        assert path is not None
        try:
            opened = open_encounter(path, take_over=True)
        except Exception as exc:  # a file error or a bad save: one line, the view stays
            self.call_from_thread(self.set_status, f"take-over failed: {exc}", True)
            return
        self.call_from_thread(self._took_over, opened)

    def _took_over(self, opened: Opened) -> None:
        if opened.session.read_only:
            self.set_status(f"take-over failed: {opened.notice}", error=True)
            return
        self.opened.lock = opened.lock
        self.opened.held_by = ""
        self.session.enc = opened.session.enc
        self.session.read_only = False
        self.autosaver = self._make_saver()
        self.set_interval(POLL_SECONDS, self._watch_lock)
        self.refresh_panes()
        self.set_status(opened.notice or "taken over")


def rescue(session: Session) -> Path | None:
    """Write the encounter to a new save in the data folder (its own journal); None if
    even that fails. For a signal that must end the app while its save cannot be written."""
    from tracker.store.paths import data_dir
    from tracker.store.toml_store import save_encounter

    try:
        folder = data_dir() / "rescued"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        stem = session.path.stem if session.path else "encounter"
        target = folder / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}.toml"
        copy = session.enc.model_copy(deep=True)
        copy.log.load_all()
        save_encounter(copy, target)
    except Exception:
        return None
    from tracker.ui.errors import log_unexpected

    try:
        log_unexpected(RuntimeError(f"{session.path} could not be saved; the encounter was "
                                    f"written to {target}"), "rescue on exit")
    except OSError:
        pass
    return target
