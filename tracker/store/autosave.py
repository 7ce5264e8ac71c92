"""Autosave: the UI asks for a save after every change; a worker thread writes it.

``request`` is all the UI thread does (a counter bump); it returns the change's number.
``run_pending`` runs in a worker: it takes a snapshot of the newest state (under the
session's lock), appends its records to the journal and fsyncs it, which commits every
change up to that number (``committed``, and ``on_commit`` is told), then rewrites the
state, coalescing requests that came in meanwhile. A failed write (disk full, read-only
folder) keeps the request pending so a later call retries; the encounter stays in
memory all along. Once another tracker has taken the encounter over (``lost``), nothing
more is written.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from tracker.core.log import LogError

from .journal import JournalChanged
from .lock import Lock
from .toml_store import COMMITTED, Snapshot, commit, write_state


class Autosaver:
    def __init__(
        self,
        path: Path,
        take: Callable[[], Snapshot],
        backups: int = 5,
        lock: Lock | None = None,
    ) -> None:
        self.path = path
        self._take = take
        self.backups = backups
        self.lock = lock
        self._wanted = 0
        self._done = 0
        self.committed = 0
        """The number of the newest change whose journal record is on disk."""
        self._write = threading.Lock()
        self.last_error: str | None = None
        self.failures = 0
        """Failed attempts since the last write that succeeded."""
        self.lost = ""
        """Why nothing more is written (another tracker took the encounter over)."""
        self.saves = 0
        self.on_commit: Callable[[int], None] | None = None

    def request(self) -> int:
        self._wanted += 1
        return self._wanted

    @property
    def pending(self) -> bool:
        return self._done < self._wanted

    @property
    def uncommitted(self) -> int:
        """Changes not in the journal yet (0: only the state file is behind, and the
        next opening applies the journal's records)."""
        return self._wanted - self.committed

    @property
    def safe(self) -> bool:
        """Whether leaving now loses nothing (every change is in the journal)."""
        return self.uncommitted <= 0 and not self.lost

    def run_pending(self) -> bool:
        """Write until nothing is pending; False (with ``last_error``) if a write failed."""
        with self._write:
            while self._done < self._wanted:
                if self.lost:
                    self.last_error = self.lost
                    return False
                target = self._wanted
                try:
                    snap = self._take()
                    self.path = snap.path
                    commit(snap)
                    # a new journal counts once a state on disk names it
                    named = snap.link is not None and snap.link.state_position.records > 0
                except JournalChanged as exc:
                    self.lost = f"not saved: {exc.what}"
                    return self._failed(self.lost)
                except (OSError, LogError) as exc:
                    return self._failed(_why(exc))
                if named:
                    self._committed(target)
                try:
                    why = self.lock.lost() if self.lock is not None else None
                    if why:  # the change is in the journal already: only the state waits
                        self.lost = f"not saved: {why}"
                        return self._failed(f"{why}; {COMMITTED}")
                    write_state(snap, self.backups)
                except (OSError, LogError) as exc:
                    return self._failed(_why(exc))
                self._committed(target)
                self._done = target
                self.saves += 1
                self.last_error = None
                self.failures = 0
        return True

    def _committed(self, target: int) -> None:
        if target > self.committed:
            self.committed = target
            if self.on_commit is not None:
                self.on_commit(target)

    def _failed(self, why: str) -> bool:
        self.last_error = f"could not save {self.path.name}: {why}"
        self.failures += 1
        return False

    def prepare(self) -> None:
        """Format the state once without writing it, so the first save after opening
        only formats what changed (run in a worker while the GM looks at the screen)."""
        with self._write:
            self._take()

    def flush(self) -> bool:
        """Save now, on the calling thread (on quit, on SIGHUP)."""
        return self.run_pending()


def _why(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc) or type(exc).__name__
    return str(exc)
