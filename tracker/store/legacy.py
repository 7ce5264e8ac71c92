"""The journal of schema 2 saves, read when such a save is opened (it is migrated to
the checksummed journal of ``journal.py`` at its first write).

The journal: a save's log, one JSON line per entry, appended and never rewritten.

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

from pathlib import Path

from pydantic import BaseModel, ValidationError

from tracker.core.log import LogError
from tracker.core.model import LogEntry

from . import fs
from .blocks import BlockReader

SUFFIX = ".log.jsonl"


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


class JournalReader(BlockReader):
    """Reads records by offset, a block at a time (walking back reads neighbours next)."""

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
        line = self._held(offset)
        if line is None:
            line = self._fill(offset, self._read)
            if offset >= self._start + len(self._buf):
                raise LogError(f"{self.path}: ends before byte {offset}")
        if line is None:  # a line longer than a block: read it whole
            line = self._read(offset, 1 << 30)
            line = line[: line.find(b"\n") + 1] if b"\n" in line else line
            if not line.endswith(b"\n"):
                raise LogError(f"{self.path} at byte {offset}: a whole record, found the end")
        return line

    def _read(self, start: int, size: int) -> bytes:
        try:
            fd = fs.open_regular(self.path)
        except FileNotFoundError:
            raise LogError(f"{self.path}: missing (it holds this save's log)") from None
        except OSError as exc:
            raise LogError(f"{self.path}: {exc.strerror or exc}") from None
        try:
            return fs.pread_all(fd, size, start)
        except OSError as exc:
            raise LogError(f"{self.path}: {exc.strerror or exc}") from None
        finally:
            fs.current().close(fd)
