"""Lines of a journal read back by offset, a block at a time.

Walking back through a log asks for the record just before the one read last, so a block
is read to end a little past the offset asked: the records before it come from the block
in hand, with no read of the disk. How a block is read and how a reader fails are each
journal's own (``journal.py``, and ``legacy.py`` for schema 2 saves).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

AHEAD = 1 << 16
"""How far past the offset asked a block ends."""


class BlockReader:
    """Keeps the block of the file at ``path`` read last, and finds lines in it."""

    BLOCK = 1 << 18
    """Bytes read at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._buf = b""
        self._start = 0

    def describe(self) -> str:
        return str(self.path)

    def _held(self, offset: int) -> bytes | None:
        """The line at ``offset`` with its line break, where the block in hand holds it
        whole (None: it does not)."""
        rel = offset - self._start
        end = self._buf.find(b"\n", rel) if 0 <= rel < len(self._buf) else -1
        return self._buf[rel : end + 1] if end >= 0 else None

    def _fill(self, offset: int, read: Callable[[int, int], bytes]) -> bytes | None:
        """Read the block that ends a little past ``offset`` with ``read(start, size)``;
        the line at ``offset`` in it, as :meth:`_held` finds it."""
        start = max(0, offset + AHEAD - self.BLOCK)
        self._buf = read(start, self.BLOCK)
        self._start = start
        return self._held(offset)
