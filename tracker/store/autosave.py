"""Autosave: the UI asks for a save after every change; a worker thread writes it.

``request`` is all the UI thread does (a counter bump). ``run_pending`` runs in a worker:
it takes a snapshot of the newest state (under the session's lock), appends the new log
entries to the journal and writes the state atomically, coalescing requests that came
in meanwhile. A failed write (disk full, read-only folder) keeps the request pending so
a later call retries; the encounter stays in memory all along.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from tracker.core.log import LogError

from .toml_store import Snapshot, write_snapshot


class Autosaver:
    def __init__(self, path: Path, take: Callable[[], Snapshot], backups: int = 5) -> None:
        self.path = path
        self._take = take
        self.backups = backups
        self._wanted = 0
        self._done = 0
        self._write = threading.Lock()
        self.last_error: str | None = None
        self.saves = 0

    def request(self) -> None:
        self._wanted += 1

    @property
    def pending(self) -> bool:
        return self._done < self._wanted

    def run_pending(self) -> bool:
        """Write until nothing is pending; False (with ``last_error``) if a write failed."""
        with self._write:
            while self._done < self._wanted:
                target = self._wanted
                try:
                    write_snapshot(self._take(), self.path, self.backups)
                except (OSError, LogError) as exc:
                    why = getattr(exc, "strerror", None) or exc
                    self.last_error = f"could not save {self.path.name}: {why}"
                    return False
                self._done = target
                self.saves += 1
                self.last_error = None
        return True

    def prepare(self) -> None:
        """Format the state once without writing it, so the first save after opening
        only formats what changed (run in a worker while the GM looks at the screen)."""
        with self._write:
            self._take()

    def flush(self) -> bool:
        """Save now, on the calling thread (on exit, on SIGHUP)."""
        return self.run_pending()
