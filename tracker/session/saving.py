"""Committing and saving an open encounter: the app and `tracker exec` save through here.

- A change is committed when its journal record is on disk (fsynced); until then
  :attr:`Saving.saving` is set (the app marks it "saving…"). The state file is rewritten
  after that, the changes made meanwhile written together (see ``tracker.store.autosave``).
- A failed save says so (:class:`SaveFailed`: "could not save …; retrying") and is retried
  every :data:`RETRY_SECONDS`; :class:`Saved` clears the line when a retry works.
- Quitting saves first (:meth:`Saving.quit`). If saving is impossible the app stays open
  and says so; the changes can be written elsewhere with ``:save-as FILE``
  (:meth:`Saving.save_as`). SIGHUP and SIGTERM save and leave (:meth:`Saving.on_signal`);
  when saving is impossible the encounter is written to a rescue copy in the data folder,
  and if even that fails the app stays and retries.
- Another tracker may ask for the encounter (``tracker --take-over``): this one saves,
  lets go and goes read-only (:meth:`Saving.watch_lock`, every :data:`POLL_SECONDS`); if
  it was taken over without letting go, it writes nothing more and offers ``:save-as``.
- A tracker opened read-only may take the encounter over (:meth:`Saving.take_over`).

Nothing here draws: each step returns what the GM is to be told as typed news
(:mod:`tracker.session.save_news`), which the app shows. The writes of the app run in a
worker thread (:meth:`Saving.write`); everything else runs on the thread that runs the
commands.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tracker import startup
from tracker.core.model import Encounter
from tracker.session.opening import Opened, open_encounter
from tracker.store.autosave import Autosaver
from tracker.store.fs import describe, make_folders
from tracker.store.lock import Lock, LockHeld
from tracker.store.paths import data_dir
from tracker.store.toml_store import Snapshot, link_of, save_encounter, snapshot

if TYPE_CHECKING:
    from tracker.session import save_news as news
    from tracker.session.save_news import Leave, ReadOnly, Refused, SaveNews
else:  # loaded with the first save, after the first screen (see tracker.startup)
    news = startup.lazy("tracker.session.save_news")

RETRY_SECONDS = 5
"""How often a failed save is tried again."""
POLL_SECONDS = 1.0
"""How often the holder looks whether another tracker asks for the encounter."""


class Saving:
    """The saving of one opened encounter (see the module docstring)."""

    def __init__(self, opened: Opened, autosave: bool = True) -> None:
        self.opened = opened
        self.session = opened.session
        self.on_commit: Callable[[], None] | None = None
        """Told, from the save worker's thread, when a change reaches the journal."""
        self._changes = 0
        self._had_error = False
        self._leave_when_saved = False
        self.autosaver: Autosaver | None = None
        if autosave and self.session.path is not None and not self.session.read_only:
            self.autosaver = self._make_saver()

    def _make_saver(self) -> Autosaver:
        session = self.session
        assert session.path is not None
        path = session.path

        def take() -> Snapshot:
            with session.lock:
                return snapshot(session.enc, path)

        saver = Autosaver(path, take, lock=self.opened.lock)
        saver.on_commit = self._committed
        link = link_of(session.enc)
        if link is not None and not link.legacy and link.state_position != link.position:
            saver.request()  # the state file is behind its journal: bring it up to date
        return saver

    def _committed(self, number: int) -> None:
        if self.on_commit is not None:
            self.on_commit()

    # --- while the GM plays -------------------------------------------------------------

    @property
    def saving(self) -> bool:
        """Whether a change made is not on disk yet."""
        saver = self.autosaver
        return saver is not None and saver.committed < self._changes

    @property
    def due(self) -> bool:
        """Whether something is waiting to be written (a worker should :meth:`write`)."""
        saver = self.autosaver
        return saver is not None and saver.pending and not saver.lost

    def changed(self) -> bool:
        """A change was made: whether it is to be written (then :meth:`write` it)."""
        if self.autosaver is None:
            return False
        self._changes = self.autosaver.request()
        return True

    def prepare(self) -> None:
        """Format the state once, so the first save only formats what changed (in a
        worker, while the GM looks at the first screen)."""
        if self.autosaver is not None:
            self.autosaver.prepare()

    def write(self) -> bool:
        """Write what is waiting (in a worker thread); hand the answer to :meth:`written`."""
        return self.autosaver.run_pending() if self.autosaver is not None else True

    def written(self, ok: bool) -> SaveNews:
        """What a :meth:`write` comes to: Saved, SaveFailed, ReadOnly, or Leave when the
        app was asked to end while nothing could be saved."""
        saver = self.autosaver
        if saver is None:
            return news.Saved()
        if ok:
            recovered, self._had_error = self._had_error, False
            if self._leave_when_saved:
                return self._leave(news.Leave())
            return news.Saved(f"saved {saver.path.name}" if recovered else "")
        self._had_error = True
        if saver.lost:
            return self._lost(saver.lost)
        if saver.safe:
            return news.SaveFailed(
                f"{saver.last_error}; retrying (every change is in the journal)", committed=True)
        return news.SaveFailed(f"{saver.last_error}; retrying; :save-as FILE keeps the changes")

    def committed(self) -> SaveNews:
        """What a change reaching the journal comes to (after :attr:`on_commit`)."""
        saver = self.autosaver
        if self._had_error and saver is not None and saver.failures == 0:
            self._had_error = False
            return news.Saved(f"saved {saver.path.name}")
        return news.Saved()

    def save_now(self) -> SaveNews:
        """Write everything on this thread (`tracker exec`, quitting, a signal)."""
        saver = self.autosaver
        if saver is None or saver.flush():
            return news.Saved()
        return news.SaveFailed(saver.last_error or "could not save", committed=saver.safe)

    def _safe_now(self) -> bool:
        """Save now; whether leaving loses nothing (the journal holds every change)."""
        return isinstance(self.save_now(), news.Saved) or (
            self.autosaver is not None and self.autosaver.safe)

    # --- leaving --------------------------------------------------------------------------

    def quit(self) -> SaveNews:
        """The GM quits: Leave once nothing is lost, else Refused, saying what to do."""
        if self._safe_now():
            return news.Leave()
        self._had_error = True
        why = self.autosaver.last_error if self.autosaver is not None else "could not save"
        return news.Refused(f"not quitting: {why}. Nothing is lost yet: :save-as FILE writes "
                            "the encounter elsewhere")

    def on_signal(self) -> SaveNews:
        """SIGHUP or SIGTERM: save, let go and Leave; if saving is impossible, write a
        rescue copy and Leave; if that fails too, stay (Refused) and leave once a retry
        works."""
        if self._safe_now():
            return self._leave(news.Leave())
        rescued = rescue(self.session.enc, self.session.path)
        if rescued is not None:
            self.autosaver = None
            return self._leave(news.Leave(f"the encounter was written to {rescued}", rescued))
        self._leave_when_saved = True
        return news.Refused("asked to exit, but the encounter cannot be saved: retrying")

    def finish(self) -> Leave:
        """The app has ended, however it ended: save what is left (or rescue it), and let
        go of the lock. The message is for the shell ("": nothing to say)."""
        saver = self.autosaver
        if isinstance(self.save_now(), news.Saved):
            return self._leave(news.Leave())
        why = saver.last_error if saver is not None else "could not save"
        if saver is not None and saver.safe:
            return self._leave(news.Leave(f"{why}; every change is in the journal and is "
                                          "applied when the encounter is next opened"))
        rescued = rescue(self.session.enc, self.session.path)
        where = (f"the encounter was written to {rescued}" if rescued
                 else "the last changes could not be written anywhere")
        return self._leave(news.Leave(f"{why}; {where}", rescued, saved=False))

    def close(self) -> None:
        """Save what is left and let go of the lock (the app is closing)."""
        self.save_now()
        self.release()

    def release(self) -> None:
        if self.opened.lock is not None:
            self.opened.lock.release()

    def _leave(self, leaving: Leave) -> Leave:
        self.release()
        return leaving

    # --- writing elsewhere ----------------------------------------------------------------

    def save_as(self, name: str) -> SaveNews:
        """Write the encounter, with its whole history, to a new save and go on there."""
        session = self.session
        name = name.strip()
        if not name:
            return news.Refused("save-as FILE: where to write the encounter")
        base = session.path.parent if session.path else Path.cwd()
        path = base / Path(name).expanduser()
        if path.is_dir() or name.endswith("/"):  # a folder: the save goes into it
            path = path / (session.path.name if session.path else "encounter.toml")
        if path.suffix != ".toml":
            path = path.with_name(path.name + ".toml")
        if path.exists() or path.is_symlink():
            return news.Refused(f"save-as: {path} already exists")
        lock = Lock(path)
        try:
            make_folders(path.parent)  # 0700, as the data folder's
            lock.acquire()
            with session.lock:
                save_encounter(session.enc, path)
        except LockHeld as held:
            return news.Refused(f"save-as: {held}")
        except OSError as exc:  # said of the save asked for, not of its lock or temp file
            lock.release()
            return news.Refused(f"save-as: {path}: {exc.strerror or describe(exc)}")
        self.release()
        self.opened.lock = lock
        session.path = path
        session.read_only = False
        self.autosaver = self._make_saver()
        self._changes = 0
        self._had_error = False
        return news.Reopened(f"saved as {path}; changes go there from now on")

    # --- handing over and taking over -----------------------------------------------------

    def watch_lock(self) -> SaveNews | None:
        """Has another tracker asked for the encounter, or taken it? (every second)"""
        lock = self.opened.lock
        if lock is None or self.session.read_only:
            return None
        lost = lock.lost()
        if lost:
            return self._lost(lost)
        if lock.notice:  # its lock file was deleted and made again: still this tracker's
            notice, lock.notice = lock.notice, ""
            return news.SaveNews(notice)
        who = lock.asked()
        if not who:
            return None
        if isinstance(self.save_now(), news.Saved):
            lock.release()
            self.opened.lock = None
            return self._read_only(f"saved and handed over to {who}: read-only now")
        why = self.autosaver.last_error if self.autosaver is not None else "?"
        return news.Refused(f"{who} asks for this encounter, but it cannot be saved ({why}); "
                            ":save-as FILE keeps your changes")

    def _lost(self, why: str) -> ReadOnly:
        unsaved = self.autosaver.uncommitted if self.autosaver is not None else 0
        return self._read_only(why + (f"; {unsaved} change(s) not saved: :save-as FILE keeps "
                                      "them" if unsaved > 0 else ""))

    def _read_only(self, message: str) -> ReadOnly:
        self.session.read_only = True
        if self.autosaver is not None and not self.autosaver.pending:
            self.autosaver = None
        return news.ReadOnly(message)

    @property
    def holder(self) -> str:
        """Who writes the encounter this read-only view was opened on ("": nobody asked)."""
        return self.opened.held_by if self.session.read_only else ""

    def take_over(self) -> Opened | Refused:
        """Ask the holder to save and let go, and take the encounter after a timeout (in a
        worker thread: it waits); hand the answer to :meth:`took_over`."""
        path = self.session.path
        assert path is not None
        try:
            return open_encounter(path, take_over=True)
        except Exception as exc:  # a file error or a bad save: one line, the view stays
            return news.Refused(f"take-over failed: {exc}")

    def took_over(self, opened: Opened | Refused) -> SaveNews:
        """Go on with the encounter as the take-over opened it."""
        if isinstance(opened, news.Refused):
            return opened
        if opened.session.read_only:
            return news.Refused(f"take-over failed: {opened.notice}")
        self.opened.lock = opened.lock
        self.opened.held_by = ""
        self.session.enc = opened.session.enc
        self.session.read_only = False
        self.autosaver = self._make_saver()
        return news.Reopened(opened.notice or "taken over")


def rescue(enc: Encounter, path: Path | None) -> Path | None:
    """Write the encounter to a new save in the data folder (a journal of its own); None
    if even that fails. For an app that must end while its own save cannot be written."""
    try:
        folder = data_dir() / "rescued"
        make_folders(folder)  # 0700, and any missing parent, whatever the umask
        stem = path.stem if path else "encounter"
        target = folder / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}.toml"
        copy = enc.model_copy(deep=True)
        copy.log.load_all()
        save_encounter(copy, target)
    except Exception:
        return None
    return target
