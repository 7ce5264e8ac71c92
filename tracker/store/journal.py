"""The journal: a save's history, one checksummed JSON line per record, only ever appended.

Format (one line per record, UTF-8, keys in this order)::

    {"id":"<encounter id>","s":<seq>,"k":"<kind>",<the kind's fields>,"ph":"<hash of the
     record before>","h":"<hash of this line up to its ,"h">"}

``h`` is the BLAKE2b-128 (hex) of the line's bytes before ``,"h":"``; ``ph`` is the ``h``
of the record before it (``""`` for the first), so the records form a chain: a record cut
short, altered, or copied in from another encounter (another ``id``) breaks it and is
reported with its line, never applied. ``s`` counts records from 0. The kinds:

- ``state``: ``"b"`` the whole encounter without its log (as the state file holds it),
  ``"c"`` how many log entries it has and ``"hd"`` the offset of the newest one's record
  (``-1``: none), ``"why"``: start, restore, repair or save-as. The first record of every
  journal is one (for ``tracker new``, the empty encounter), so ``tracker replay``
  rebuilds from it alone.
- ``entry``: one log entry. ``"n"`` its index, ``"p"`` the offset of entry ``n - 1``'s
  record (``-1``: none), ``"e"`` the entry as ``LogEntry`` writes it (see
  :func:`entry_fields`). Applying it moves the cursor to ``n`` (undoing or redoing),
  drops the entries from ``n`` on, appends this one and applies its ops.
- ``cursor``: ``"c"`` the new cursor (an undo or a redo: the ops are in the entries).
- ``takeover``: ``"by"`` and ``"from"`` (pid, host), when one tracker took the encounter
  over from another. It changes nothing but fences off the old writer.

An entry's fields are whatever :class:`~tracker.core.model.LogEntry` serialises: a new
field added to ``LogEntry`` is written and read with no change here, and the checksum
covers the bytes as written, so no field needs to be known to verify a record.

The state file (``battle.toml``) names the record it matches (its ``[save]`` table: the
record count, the offset of the last record and its hash). Records after that one were
committed after the state was last written: opening applies them ("rolls forward").

For a reader that follows a game as it is played (the player view), :func:`read_after`
returns the records appended after a known :class:`Position`, verified, without
reading what came before. Opening checks the records before too, from the first
(``chain.py``).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tracker.core.invalid import first
from tracker.core.log import LogError
from tracker.core.model import LogEntry

from . import fs
from .blocks import BlockReader

SUFFIX = ".journal.jsonl"
HASH_HEX = 32
KINDS = ("state", "entry", "cursor", "takeover")
HASH_KEY = b',"h":"'
_TAIL = b'"}\n'
CUT_SHORT = "a record cut short (no end of line)"
UNENDED = "the record's line break is missing (the file was cut just after its checksum)"


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=HASH_HEX // 2).hexdigest()


def journal_name(save: Path, taken: Iterable[str] = ()) -> str:
    """The journal a save starts: ``battle.toml`` writes ``battle.journal.jsonl`` (or
    ``battle-2.journal.jsonl`` ... when that name is already used)."""
    used = set(taken)
    name = save.stem + SUFFIX
    k = 2
    while name in used:
        name, k = f"{save.stem}-{k}{SUFFIX}", k + 1
    return name


def valid_name(name: str) -> bool:
    """A plain file name beside the save: no folders, no hidden files."""
    return bool(name) and Path(name).name == name and not name.startswith(".")


class JournalError(LogError):
    """A record that cannot be used: the journal, its line and byte, and why."""

    def __init__(self, path: Path, what: str, line: int | None = None, offset: int = -1):
        self.path, self.what, self.line, self.offset = path, what, line, offset
        if line is not None:
            text = f"{path} line {line}" + (f", byte {offset}" if offset >= 0 else "") + \
                f": {what}"
        elif offset >= 0:
            text = f"{path} at byte {offset}: {what}"
        else:
            text = f"{path}: {what}"
        super().__init__(text)


class JournalChanged(JournalError):
    """The journal is not where this writer left it: another tracker wrote to it (took the
    encounter over), or it was cut short or replaced. Nothing is written to it."""


@dataclass(frozen=True)
class Position:
    """Where a journal stands: how many records, the last one's offset, its end, its hash."""

    records: int = 0
    at: int = -1
    end: int = 0
    last: str = ""


@dataclass
class Record:
    seq: int
    kind: str
    offset: int
    end: int
    hash: str
    prev: str
    data: dict[str, Any] = field(repr=False)

    @property
    def position(self) -> Position:
        """The journal's position just after this record."""
        return Position(self.seq + 1, self.offset, self.end, self.hash)

    def entry(self) -> LogEntry:
        return LogEntry.model_validate(self.data["e"])


# --- encoding -------------------------------------------------------------------------------


def entry_fields(index: int, before: int, entry: LogEntry) -> bytes:
    """The fields of an ``entry`` record: how a log entry is written to the journal.

    The entry is serialised by ``LogEntry`` itself (``model_dump_json``, nulls left
    out): fields added to ``LogEntry`` go into the journal as they are.
    """
    body = entry.model_dump_json(exclude_none=True).encode("utf-8")
    return b'"n":%d,"p":%d,"e":%s' % (index, before, body)


def json_fields(**values: Any) -> bytes:
    """Fields of any record kind, from plain JSON values (keys in the order given)."""
    text = json.dumps(values, ensure_ascii=False, separators=(",", ":"))
    return text[1:-1].encode("utf-8")


def encode(enc_id: str, seq: int, kind: str, fields: bytes, prev: str) -> tuple[bytes, str]:
    """One record's line and its hash."""
    head = b'{"id":%s,"s":%d,"k":"%s"' % (json.dumps(enc_id).encode(), seq, kind.encode())
    body = head + (b"," + fields if fields else b"") + b',"ph":"' + prev.encode() + b'"'
    h = digest(body)
    return body + HASH_KEY + h.encode() + _TAIL, h


def decode(line: bytes, offset: int, *, unended: bool = False) -> Record:
    """A record from its line (with the line break); ValueError says what is wrong.

    ``unended``: the file ends on this line, and a line whose only loss is its line
    break is the whole record it holds (its checksum covers every byte before that).
    """
    cut_short = not line.endswith(b"\n")
    if cut_short:
        if not unended:
            raise ValueError(CUT_SHORT)
        line += b"\n"
    cut = len(line) - len(_TAIL) - HASH_HEX - len(HASH_KEY)
    if cut <= 0 or line[cut : cut + len(HASH_KEY)] != HASH_KEY or not line.endswith(_TAIL):
        raise ValueError(CUT_SHORT if cut_short else
                         "not a record of this tracker's journal (no checksum)")
    given = line[cut + len(HASH_KEY) : cut + len(HASH_KEY) + HASH_HEX].decode("ascii", "replace")
    if digest(line[:cut]) != given:
        raise ValueError(CUT_SHORT if cut_short else
                         "the checksum does not match (the record was altered or damaged)")
    try:
        data = json.loads(line)
    except ValueError:
        raise ValueError("not valid JSON") from None
    seq, kind, prev = data.get("s"), data.get("k"), data.get("ph")
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise ValueError("no encounter id")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise ValueError("no record number")
    if kind not in KINDS:
        raise ValueError(f"an unknown kind of record {kind!r}")
    if not isinstance(prev, str):
        raise ValueError("no link to the record before")
    return Record(seq, kind, offset, offset + len(line), given, prev, data)


class _Fields(BaseModel):
    """A record's own fields (the others are the line's: id, s, k, ph, h)."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True, defer_build=True)


class _EntryFields(_Fields):
    n: int = Field(ge=0)
    """The entry's index in the log."""
    p: int = Field(ge=-1)
    """The offset of entry ``n - 1``'s record (-1: none)."""
    e: dict[str, Any]


class _CursorFields(_Fields):
    c: int = Field(ge=0)


class _StateFields(_Fields):
    b: dict[str, Any]
    c: int = Field(ge=0)
    hd: int = Field(ge=-1)


_FIELDS: dict[str, type[_Fields]] = {
    "entry": _EntryFields, "cursor": _CursorFields, "state": _StateFields,
}


def check_fields(rec: Record) -> None:
    """ValueError if a record's own fields are not what its kind needs."""
    model = _FIELDS.get(rec.kind)
    if model is None:
        return
    try:
        fields = model.model_validate(rec.data)
    except ValidationError as exc:
        found = first(exc)
        raise ValueError(f"{rec.kind} record: {found.key}: {found.expected}") from None
    back = fields.p if isinstance(fields, _EntryFields) else getattr(fields, "hd", -1)
    if back >= rec.offset:
        raise ValueError(f"{rec.kind} record: a link back to an earlier record")
    if isinstance(fields, _EntryFields):
        try:
            rec.entry()
        except ValidationError as exc:
            found = first(exc)
            raise ValueError(f"entry record: e.{found.key}: {found.expected}") from None


# --- reading --------------------------------------------------------------------------------


def line_number(path: Path, offset: int) -> int | None:
    """The line (from 1) a byte offset of the journal is on (for messages only)."""
    try:
        fd = fs.open_regular(path)
    except OSError:
        return None
    try:
        return fs.pread_all(fd, offset, 0).count(b"\n") + 1
    except OSError:
        return None
    finally:
        fs.current().close(fd)


def read_record(path: Path, offset: int, enc_id: str | None) -> Record:
    """The record at ``offset``, verified (its checksum, fields and encounter)."""
    fd = open_journal(path)
    try:
        line = _line_at(fd, offset, path)
    finally:
        fs.current().close(fd)
    return _checked(path, line, offset, enc_id)


def open_journal(path: Path) -> int:
    try:
        return fs.open_regular(path)
    except FileNotFoundError:
        raise JournalError(path, "missing (it holds this save's history)") from None
    except OSError as exc:
        raise JournalError(path, exc.strerror or str(exc)) from None


def _line_at(fd: int, offset: int, path: Path) -> bytes:
    if offset < 0:
        raise JournalError(path, "no record there", offset=offset)
    out = b""
    at = offset
    while True:
        try:
            chunk = fs.pread_all(fd, 1 << 16, at)
        except OSError as exc:
            raise JournalError(path, exc.strerror or str(exc)) from None
        if not chunk:
            if not out:
                raise JournalError(path, "ends before the record the save names", offset=offset)
            return out
        nl = chunk.find(b"\n")
        if nl >= 0:
            return out + chunk[: nl + 1]
        out += chunk
        at += len(chunk)


def _checked(path: Path, line: bytes, offset: int, enc_id: str | None) -> Record:
    try:
        rec = decode(line, offset)
        check_fields(rec)
    except ValueError as exc:
        raise JournalError(path, str(exc), line_number(path, offset), offset) from None
    if enc_id is not None and rec.data["id"] != enc_id:
        raise JournalError(path, f"a record of another encounter ({rec.data['id']})",
                           line_number(path, offset), offset)
    return rec


class JournalReader(BlockReader):
    """Reads log entries back by offset for :class:`~tracker.core.log.Log` (undo, the log
    pane, replay), a block at a time; each record is verified as it is read."""

    def __init__(self, path: Path, enc_id: str | None = None) -> None:
        super().__init__(path)
        self.enc_id = enc_id
        """The encounter every record must belong to (None: the first one read)."""

    def read(self, offset: int) -> tuple[int, int, LogEntry]:
        line = self._line(offset)
        rec = _checked(self.path, line, offset, self.enc_id)
        if self.enc_id is None:
            self.enc_id = rec.data["id"]
        if rec.kind != "entry":
            raise JournalError(self.path, f"a {rec.kind} record where a log entry was linked",
                               line_number(self.path, offset), offset)
        return rec.data["n"], rec.data["p"], rec.entry()

    def _line(self, offset: int) -> bytes:
        line = self._held(offset)
        if line is not None:
            return line
        fd = open_journal(self.path)

        def block(start: int, size: int) -> bytes:
            try:
                return fs.pread_all(fd, size, start)
            except OSError as exc:
                raise JournalError(self.path, exc.strerror or str(exc)) from None

        try:
            line = self._fill(offset, block)
            return line if line is not None else _line_at(fd, offset, self.path)
        finally:
            fs.current().close(fd)


@dataclass
class Scan:
    """Records read forward from a position: those that verified, where they end, and
    the first problem (None: the journal ends cleanly)."""

    records: list[Record]
    end: Position
    problem: JournalError | None = None
    torn: bool = False
    """The problem is an unfinished last line (a write cut short by a crash)."""
    size: int = 0


def scan(path: Path, enc_id: str | None, after: Position = Position(),
         keep: bool = True) -> Scan:
    """Verify the records after ``after`` (all of them from the default): each checksum,
    encounter id, number and link to the one before. Stops at the first bad record."""
    fd = open_journal(path)
    try:
        try:
            size = fs.current().fstat(fd).st_size
            data = fs.pread_all(fd, max(0, size - after.end), after.end)
        except OSError as exc:
            raise JournalError(path, exc.strerror or str(exc)) from None
    finally:
        fs.current().close(fd)
    if size < after.end:
        return Scan([], after, JournalError(path, "cut short before the record the save names"))
    records: list[Record] = []
    pos = after
    at = 0
    ident = enc_id
    while at < len(data):
        nl = data.find(b"\n", at)
        line = data[at:] if nl < 0 else data[at : nl + 1]
        offset = after.end + at
        try:
            rec = decode(line, offset)
            check_fields(rec)
            if ident is None:
                ident = rec.data["id"]
            if rec.data["id"] != ident:
                raise ValueError(f"a record of another encounter ({rec.data['id']})")
            if rec.seq != pos.records:
                raise ValueError(f"record number {rec.seq}, expected {pos.records}")
            if rec.prev != pos.last:
                raise ValueError("does not follow the record before it (the chain is broken)")
        except ValueError as exc:
            torn = nl < 0
            line_no = _line_of(path, after, data, at)
            return Scan(records, pos, JournalError(path, str(exc), line_no, offset), torn, size)
        if keep:
            records.append(rec)
        pos = rec.position
        at += len(line)
    return Scan(records, pos, None, False, size)


def _line_of(path: Path, after: Position, data: bytes, at: int) -> int | None:
    before = 0 if after.end == 0 else (line_number(path, after.end) or 1) - 1
    return before + data.count(b"\n", 0, at) + 1


def verify_position(path: Path, pos: Position, enc_id: str) -> Record:
    """The record a state names: it must be there, whole, with the hash and number given."""
    rec = read_record(path, pos.at, enc_id)
    if rec.hash != pos.last or rec.seq != pos.records - 1 or rec.end != pos.end:
        raise JournalError(path, "the record the save names is not the one there "
                           "(the journal was replaced or rewritten)",
                           line_number(path, pos.at), pos.at)
    return rec


def records_after(path: Path, after: Position, enc_id: str) -> tuple[list[Record], Position]:
    """The records appended after ``after``, verified, and the position after them.

    For a reader that follows the journal while a game is played: start from the
    ``Position`` of the state it loaded (``SaveInfo.position``), then call again with
    the position returned. A last line still being written is left for the next call;
    an altered or foreign record raises :class:`JournalError`.
    """
    if after.records:
        verify_position(path, after, enc_id)
    got = scan(path, enc_id, after)
    if got.problem is not None and not got.torn:
        raise got.problem
    return got.records, got.end


def read_after(path: Path, offset: int) -> tuple[list[tuple[int, int, int, LogEntry]], int]:
    """The log entries of whole records that start at or after byte ``offset``, as
    ``(offset, index, offset of the entry before, entry)``, and the byte where the next
    read goes on (a line still being written is left for then). For a reader that
    follows the log as it is played (``tracker.session.live``); a line that does not verify (a
    crash's torn record, an altered one) is skipped, and records of other kinds (undo,
    redo, a state put back) are for :func:`records_after`."""
    start = max(offset, 0)
    try:
        fd = fs.open_regular(path)
    except FileNotFoundError:
        return [], start
    except OSError as exc:
        raise LogError(f"{path}: {exc.strerror or exc}") from None
    try:
        size = fs.current().fstat(fd).st_size
        data = fs.pread_all(fd, max(0, size - start), start)
    except OSError as exc:
        raise LogError(f"{path}: {exc.strerror or exc}") from None
    finally:
        fs.current().close(fd)
    whole = data.rfind(b"\n") + 1
    out: list[tuple[int, int, int, LogEntry]] = []
    at = 0
    for line in data[:whole].splitlines(keepends=True):
        try:
            rec = decode(line, start + at)
            if rec.kind == "entry":
                check_fields(rec)
                out.append((start + at, rec.data["n"], rec.data["p"], rec.entry()))
        except ValueError:
            pass
        at += len(line)
    return out, start + whole


# --- writing --------------------------------------------------------------------------------

Item = tuple[str, Any]
"""A record to write: ``("entry", (index, LogEntry))``, or ``(kind, fields)`` with the
fields as bytes (:func:`json_fields`), or as a function of the offset of the newest entry
record so far (a ``state`` record naming the log's head)."""


def layout(enc_id: str, pos: Position, items: list[Item], before: int
           ) -> tuple[bytes, list[Record], Position]:
    """The bytes of ``items`` written after ``pos``: entries are linked to the entry
    record before them (``before`` for the first), records to the record before."""
    records: list[Record] = []
    chunks: list[bytes] = []
    for kind, payload in items:
        if kind == "entry":
            n, entry = payload
            fields = entry_fields(n, before, entry)
        elif callable(payload):
            fields = payload(before)
        else:
            fields = payload
        line, h = encode(enc_id, pos.records, kind, fields, pos.last)
        rec = Record(pos.records, kind, pos.end, pos.end + len(line), h, pos.last,
                     {"n": payload[0]} if kind == "entry" else {})
        if kind == "entry":
            before = pos.end
        records.append(rec)
        chunks.append(line)
        pos = rec.position
    return b"".join(chunks), records, pos


class JournalWriter:
    """Appends records for the one tracker that holds the encounter's lock.

    Each append takes the journal's own lock for a moment and checks that the journal
    still ends where this writer left it; if another tracker wrote to it since (took
    the encounter over), or it was cut short or replaced, nothing is written
    (:class:`JournalChanged`). A failed append is cut back off, so a retry starts clean.
    """

    def __init__(self, path: Path, enc_id: str, pos: Position) -> None:
        self.path = path
        self.enc_id = enc_id
        self.pos = pos
        self._attempt = b""

    def append(self, items: list[Item], before: int = -1) -> list[Record]:
        """Append records and fsync; returns them, as written."""
        if not items:
            return []
        f = fs.current()
        try:
            fd = fs.open_regular(self.path, os.O_RDWR)
        except FileNotFoundError:
            raise JournalChanged(self.path, "missing (moved or deleted?)") from None
        try:
            f.flock(fd, fcntl.LOCK_EX)
            size = f.fstat(fd).st_size
            if size != self.pos.end:
                self._settle(fd, size)
            data, records, pos = layout(self.enc_id, self.pos, items, before)
            self._attempt = data
            try:
                fs.pwrite_all(fd, data, self.pos.end)
                f.fsync(fd)
            except BaseException:
                try:
                    f.ftruncate(fd, self.pos.end)
                except OSError:
                    pass
                raise
            self._attempt = b""
            self.pos = pos
            return records
        finally:
            f.close(fd)

    def _settle(self, fd: int, size: int) -> None:
        if size < self.pos.end:
            raise JournalChanged(self.path, f"cut short: {size} bytes, this tracker wrote "
                                 f"{self.pos.end}; nothing more is written to it")
        extra = fs.pread_all(fd, size - self.pos.end, self.pos.end)
        if self._attempt and self._attempt.startswith(extra):
            fs.current().ftruncate(fd, self.pos.end)  # what a failed append of ours left
            return
        raise JournalChanged(self.path, "another tracker wrote to it (took this encounter "
                             "over?); nothing more is written to it from here")


def new_journal(path: Path, enc_id: str, items: list[Item], before: int = -1) -> list[Record]:
    """Write a new journal at ``path`` (a name not in use: a journal is never replaced)
    holding ``items``; fsynced, and its folder too. Returns the records."""
    data, records, _ = layout(enc_id, Position(), items, before)
    tmp = fs.write_temp(path, data)
    f = fs.current()
    try:
        f.link(tmp, path)
    finally:
        fs.remove_quietly(tmp)
    f.fsync_dir(path.parent)
    return records


def trim(path: Path, pos: Position) -> bytes:
    """Cut the journal back to ``pos`` (under its lock); returns the bytes cut off. A
    last record that lost only its line break (the file ends one byte short of ``pos``)
    gets it back."""
    f = fs.current()
    fd = fs.open_regular(path, os.O_RDWR)
    try:
        f.flock(fd, fcntl.LOCK_EX)
        size = f.fstat(fd).st_size
        if size < pos.end:
            if size != pos.end - 1:
                raise JournalError(path, f"{size} bytes, fewer than the records kept "
                                   f"({pos.end}): it changed while it was repaired")
            fs.pwrite_all(fd, b"\n", size)
            cut = b""
        else:
            cut = fs.pread_all(fd, size - pos.end, pos.end)
            f.ftruncate(fd, pos.end)
        f.fsync(fd)
        return cut
    finally:
        f.close(fd)
