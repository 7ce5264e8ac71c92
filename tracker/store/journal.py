"""The journal: a save's log, one JSON line per entry, appended and never rewritten.

Each line is a record ``{"n": index, "p": offset of the record before, "e": entry}``.
The save's TOML names its journal, how many entries the log has and the byte offset of
the newest record; the rest of the log is found by following ``p`` back from there.

Because nothing is ever overwritten, every state that was saved stays readable: a
backup of the TOML from an hour ago points into the same journal. Lines no state points
to are simply never reached: entries dropped when a new change replaced an undone tail,
or records appended by a save whose TOML never landed (the machine died between the
two writes). A torn last line from such a crash is left as it is; the next record
starts on a fresh line.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ValidationError

from tracker.core.log import LogError
from tracker.core.model import LogEntry

SUFFIX = ".log.jsonl"
BLOCK = 1 << 18
"""Bytes read at a time when walking back through the journal."""


class Record(BaseModel):
    n: int
    p: int
    e: LogEntry


def journal_name(save: Path) -> str:
    """The journal a save starts with: ``battle.toml`` keeps its log in ``battle.log.jsonl``."""
    return save.stem + SUFFIX


def valid_name(name: str) -> bool:
    """A plain file name beside the save: no folders, no hidden files."""
    return bool(name) and Path(name).name == name and not name.startswith(".")


class JournalReader:
    """Reads records by offset, a block at a time (walking back reads neighbours next)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._buf = b""
        self._start = 0

    def describe(self) -> str:
        return str(self.path)

    def read(self, offset: int) -> tuple[int, int, LogEntry]:
        line = self._line(offset)
        try:
            rec = Record.model_validate_json(line)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise LogError(
                f"{self.path} at byte {offset}: a log record"
                + (f" ({where}: {err['msg']})" if where else f" ({err['msg']})")
            ) from None
        if not -1 <= rec.p < offset:
            raise LogError(f"{self.path} at byte {offset}: a link back to an earlier record")
        return rec.n, rec.p, rec.e

    def _line(self, offset: int) -> bytes:
        if offset < 0:
            raise LogError(f"{self.path}: no record at byte {offset}")
        rel = offset - self._start
        end = self._buf.find(b"\n", rel) if 0 <= rel < len(self._buf) else -1
        if end < 0:
            self._fill(offset)
            rel = offset - self._start
            end = self._buf.find(b"\n", rel)
        if end < 0:  # a line longer than a block: read it whole
            try:
                with open(self.path, "rb") as fh:
                    fh.seek(offset)
                    line = fh.readline()
            except OSError as exc:
                raise LogError(f"{self.path}: {exc.strerror or exc}") from None
            if not line.endswith(b"\n"):
                raise LogError(f"{self.path} at byte {offset}: a whole record, found the end")
            return line
        return self._buf[rel:end]

    def _fill(self, offset: int) -> None:
        """Read the block that ends a little past ``offset`` (records before it come next)."""
        start = max(0, offset + (1 << 16) - BLOCK)
        try:
            with open(self.path, "rb") as fh:
                fh.seek(start)
                self._buf = fh.read(BLOCK)
        except FileNotFoundError:
            raise LogError(f"{self.path}: missing (it holds this save's log)") from None
        except OSError as exc:
            raise LogError(f"{self.path}: {exc.strerror or exc}") from None
        self._start = start
        if offset >= start + len(self._buf):
            raise LogError(f"{self.path}: ends before byte {offset}")


def append(path: Path, index: int, before: int, entries: list[LogEntry]) -> list[int]:
    """Append ``entries`` (the first is entry ``index``, linked to ``before``); fsync.

    Returns the offset of each record. A torn line left by a crash is closed first, so
    the new records start on a line of their own.
    """
    offsets: list[int] = []
    chunks: list[bytes] = []
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        pos = os.lseek(fd, 0, os.SEEK_END)
        if before >= pos:
            # the file was replaced or cut short since this log was read from it: a
            # record linked into it would point at the wrong place, so write nothing
            raise LogError(
                f"{path}: holds {pos} bytes but the log links to byte {before} "
                "(was it moved, replaced or cut short?)"
            )
        if pos > 0 and os.pread(fd, 1, pos - 1) != b"\n":
            chunks.append(b"\n")
            pos += 1
        for k, entry in enumerate(entries):
            body = entry.model_dump_json(exclude_none=True).encode("utf-8")
            line = b'{"n":%d,"p":%d,"e":%s}\n' % (index + k, before, body)
            offsets.append(pos)
            chunks.append(line)
            before = pos
            pos += len(line)
        data = b"".join(chunks)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    return offsets


def read_after(path: Path, offset: int) -> tuple[list[tuple[int, int, int, LogEntry]], int]:
    """Whole records that start at or after byte ``offset``, as ``(offset, index, offset
    before, entry)``, and the byte where the next read goes on (a line still being written
    is left for then). A line that is not a record (torn by a crash) is skipped."""
    start = max(offset, 0)
    try:
        with open(path, "rb") as fh:
            fh.seek(start)
            data = fh.read()
    except FileNotFoundError:
        return [], start
    except OSError as exc:
        raise LogError(f"{path}: {exc.strerror or exc}") from None
    whole = data.rfind(b"\n") + 1
    out: list[tuple[int, int, int, LogEntry]] = []
    at = 0
    for line in data[:whole].splitlines(keepends=True):
        try:
            rec = Record.model_validate_json(line)
        except ValidationError:
            rec = None
        if rec is not None and -1 <= rec.p < start + at:
            out.append((start + at, rec.n, rec.p, rec.e))
        at += len(line)
    return out, start + whole
