"""Following a save as another tracker writes it, without reading it whole again.

The GM's tracker appends each change to the journal, then rewrites the state. A
:class:`Follower` keeps its own full copy of the encounter: when the state file changes
it reads only the state's marks (cursor, journal length, newest record) and the journal
records appended since it last looked, and brings its copy there by applying or undoing
the entries' ops. Undo and redo write no record, so the cursor in the marks says how far
to go. Anything it cannot follow that way (a restored backup, a save moved to another
journal, a record it cannot place) makes it load the save again. Nothing here draws; the
player view runs :meth:`Follower.poll` in a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tracker.core import history
from tracker.core.history import HistoryError
from tracker.core.log import LogError
from tracker.core.model import Encounter, LogEntry
from tracker.session.redaction import SHOWN
from tracker.store import SaveError
from tracker.store.journal import JournalReader, read_after
from tracker.store.toml_store import Marks, journal_folder, read_marks

Loader = Callable[[Path], Encounter]


def _key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)  # each atomic save is a new inode


class Follower:
    """A full copy of the encounter at ``path``, kept in step by :meth:`poll`."""

    def __init__(self, path: Path, load: Loader) -> None:
        self.path = Path(path)
        self._load = load
        self.enc: Encounter
        self.reloads = 0
        """Times the save was read whole (the first load included)."""
        self._reload()

    def _reload(self) -> None:
        self._key = _key(self.path)
        self.enc = self._load(self.path)
        self.reloads += 1
        self._offsets: dict[int, int] = {}
        """Journal offset -> index of the entries this copy holds, as far as known."""
        self._fresh: dict[int, tuple[int, int, LogEntry]] = {}
        """Records read but not yet placed: offset -> (index, offset before, entry)."""
        log = self.enc.log
        self._journal = log.journal
        head = log.head()
        self._pos = max(head, 0)
        if head >= 0 and log.source is not None:
            at, n = head, len(log) - 1
            reader = JournalReader(self.journal_path)
            while at >= 0 and n >= 0 and len(self._offsets) < SHOWN + 1:
                self._offsets[at] = n
                try:
                    _, at, _ = reader.read(at)
                except LogError:
                    break
                n -= 1

    @property
    def journal_path(self) -> Path:
        return journal_folder(self.path) / self.enc.log.journal

    def poll(self) -> bool:
        """Catch up with the save; True if the encounter changed. A save that cannot be
        read right now (being replaced, broken) is left for the next poll."""
        key = _key(self.path)
        if key is None or key == self._key:
            return False
        try:
            marks = read_marks(self.path)
            if marks is None or marks.journal != self._journal or not self._follow(marks):
                self._reload()
                return True
        except (HistoryError, LogError, IndexError, KeyError):
            self._reload()
            return True
        except SaveError:
            return False
        self._key = key
        return True

    def _follow(self, marks: Marks) -> bool:
        """Bring the copy to ``marks``; False when the journal does not lead there."""
        if marks.count and marks.journal:
            records, self._pos = read_after(self.journal_path, self._pos)
            for offset, n, before, entry in records:
                if offset not in self._offsets:
                    self._fresh[offset] = (n, before, entry)
        enc, log = self.enc, self.enc.log
        chain: list[tuple[int, LogEntry]] = []
        at, n = marks.head, marks.count - 1
        while n >= 0 and self._offsets.get(at) != n:
            rec = self._fresh.get(at)
            if rec is None or rec[0] != n:
                return False
            chain.append((at, rec[2]))
            at, n = rec[1], n - 1
        shared = n + 1
        if chain or len(log) != marks.count:
            while enc.cursor > shared:
                history.undo(enc)
            del log[shared:]
            self._offsets = {o: i for o, i in self._offsets.items() if i < shared}
            for offset, entry in reversed(chain):
                self._offsets[offset] = len(log)
                self._fresh.pop(offset, None)
                log.append_written(entry, offset)
        if not 0 <= marks.cursor <= len(log):
            return False
        while enc.cursor < marks.cursor:
            history.redo(enc)
        while enc.cursor > marks.cursor:
            history.undo(enc)
        return True

