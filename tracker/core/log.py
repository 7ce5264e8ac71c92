"""The encounter's log as a sequence whose older entries stay on disk until they are used.

A long battle keeps thousands of entries. Opening it must not parse them all, so the
log holds the newest entries in memory and reads older ones from the save's journal
(see ``tracker.store.journal``) only when something asks for them: the log pane for the
last screenful, ``undo`` for the entry it reverts, ``tracker replay`` for all of them.

Each entry in memory knows where its record sits in the journal (``-1``: not written
yet). Written entries always come first and unwritten ones after them, because a new
entry is appended and dropping the undone tail cuts from the end.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, overload

if TYPE_CHECKING:
    from .model import LogEntry


class LogError(RuntimeError):
    """An entry that should be in the journal cannot be read from it."""


class LogSource(Protocol):
    """Where written entries are read back from."""

    def read(self, offset: int) -> tuple[int, int, LogEntry]:
        """The record at ``offset``: its index, the offset of the entry before, the entry."""
        ...

    def describe(self) -> str: ...


class Log:
    """``list``-like: ``len``, indexing, slices, iteration, ``append``, ``del log[n:]``."""

    def __init__(self, entries: Iterable[LogEntry] = ()) -> None:
        self._items: list[LogEntry] = list(entries)
        self._where: list[int] = [-1] * len(self._items)
        self._base = 0
        """Index of ``_items[0]``; entries before it are only in the journal."""
        self._before = -1
        """Journal offset of entry ``_base - 1``, where reading back goes on."""
        self.source: LogSource | None = None
        self.journal = ""
        """File name of the journal, beside the save ("" until first written)."""
        self.lock = threading.RLock()
        """Held while entries move between the journal and memory (the autosave worker
        marks what it wrote while the UI thread may be reading back)."""

    @classmethod
    def on_journal(cls, source: LogSource, journal: str, count: int, head: int) -> Log:
        """A log of ``count`` entries whose newest record is at ``head``; none read yet."""
        log = cls()
        log.source, log.journal = source, journal
        log._base, log._before = count, head
        return log

    # --- reading ------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._base + len(self._items)

    @property
    def in_memory(self) -> int:
        return len(self._items)

    def load_back_to(self, index: int) -> None:
        """Read entries from the journal until ``index`` is in memory."""
        index = max(index, 0)
        if index >= self._base:
            return
        with self.lock:
            self._read_back(index)

    def _read_back(self, index: int) -> None:
        if index >= self._base:
            return
        if self.source is None:
            raise LogError(f"entries before {self._base} are not available")
        items: list[LogEntry] = []
        where: list[int] = []
        at, n = self._before, self._base - 1
        while n >= index:
            got, before, entry = self.source.read(at)
            if got != n:
                raise LogError(
                    f"{self.source.describe()}: the record at byte {at} is entry {got + 1}, "
                    f"expected entry {n + 1}"
                )
            items.append(entry)
            where.append(at)
            at, n = before, n - 1
        items.reverse()
        where.reverse()
        self._items[:0] = items
        self._where[:0] = where
        self._base, self._before = index, at

    def load_all(self) -> None:
        self.load_back_to(0)

    def _index(self, i: int) -> int:
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("log index out of range")
        return i

    @overload
    def __getitem__(self, i: int) -> LogEntry: ...

    @overload
    def __getitem__(self, i: slice) -> list[LogEntry]: ...

    def __getitem__(self, i: int | slice) -> LogEntry | list[LogEntry]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if start < stop:
                self.load_back_to(start)
            return [self[k] for k in range(start, stop, step)]
        i = self._index(i)
        if i < self._base:
            self.load_back_to(i)
        return self._items[i - self._base]

    def __iter__(self) -> Iterator[LogEntry]:
        self.load_all()
        return iter(list(self._items))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            return list(self) == list(other)
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Log({len(self)} entries, {len(self._items)} in memory)"

    # --- changing -----------------------------------------------------------------------

    def append(self, entry: LogEntry) -> None:
        self._items.append(entry)
        self._where.append(-1)

    def append_written(self, entry: LogEntry, offset: int) -> None:
        """Append an entry read from the journal at ``offset``."""
        self._items.append(entry)
        self._where.append(offset)

    def __delitem__(self, i: slice) -> None:
        """Only ``del log[n:]``: a new change drops the undone tail."""
        if not isinstance(i, slice) or i.stop is not None or i.step is not None:
            raise TypeError("only the tail of a log can be dropped")
        start = i.start or 0
        if start < 0:
            start = max(0, start + len(self))
        if start >= len(self):
            return
        with self.lock:
            self.load_back_to(start)
            del self._items[start - self._base :]
            del self._where[start - self._base :]

    # --- what the journal writer needs ----------------------------------------------------

    def pending(self) -> tuple[int, int, list[LogEntry]]:
        """Entries not written yet: the index of the first, the offset before it, the entries."""
        with self.lock:
            return self._pending()

    def _pending(self) -> tuple[int, int, list[LogEntry]]:
        first = len(self._where)
        while first > 0 and self._where[first - 1] < 0:
            first -= 1
        before = self._where[first - 1] if first > 0 else self._before
        return self._base + first, before, self._items[first:]

    def mark_written(self, index: int, entries: list[LogEntry], offsets: list[int]) -> None:
        """Record where entries went, if they are still the entries at those indices."""
        with self.lock:
            self._mark(index, entries, offsets)

    def _mark(self, index: int, entries: list[LogEntry], offsets: list[int]) -> None:
        for k, (entry, offset) in enumerate(zip(entries, offsets, strict=True)):
            pos = index + k - self._base
            if 0 <= pos < len(self._items) and self._items[pos] is entry:
                self._where[pos] = offset

    def head(self) -> int:
        """Journal offset of the newest entry (-1 for an empty log)."""
        if self._items:
            return self._where[-1]
        return self._before

    def copy(self) -> Log:
        """A log of the same entries, reading older ones from the same journal (entries
        are never changed in place, so they are shared)."""
        with self.lock:
            twin = Log()
            twin._items, twin._where = list(self._items), list(self._where)
            twin._base, twin._before = self._base, self._before
            twin.source, twin.journal = self.source, self.journal
            return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Log:
        return self.copy()
