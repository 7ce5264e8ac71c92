"""Checking a journal from its first record: what opening, `check` and repair trust.

:func:`verify_chain` checks every record up to the one a state names (its checksum, its
encounter, its number and its link to the record before), a block at a time and without
parsing a whole record, so that opening can afford it: no earlier byte changes unseen.
:func:`survey` reads a journal to its last byte for `check` and repair: the chain of
whole records from the first (a record is whole when its JSON parses and its checksum
holds; a last line that lost only its line break is whole) and every damage after it,
each with its line and byte.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import fs
from .journal import (
    CUT_SHORT,
    HASH_HEX,
    HASH_KEY,
    UNENDED,
    JournalError,
    Position,
    Record,
    check_fields,
    decode,
    open_journal,
)


def read_all(path: Path) -> bytes:
    """Every byte of a journal (a regular file: no link, FIFO or device)."""
    fd = open_journal(path)
    try:
        size = fs.current().fstat(fd).st_size
        return fs.pread_all(fd, size, 0)
    except OSError as exc:
        raise JournalError(path, exc.strerror or str(exc)) from None
    finally:
        fs.current().close(fd)


CHAIN_BLOCK = 1 << 20
"""Bytes of the journal read at a time while its chain is checked (memory stays flat
however long the battle)."""


def verify_chain(path: Path, upto: Position, enc_id: str) -> None:
    """Check every record from the first to the one a state names (``upto``): each
    checksum, the encounter, the numbers and the chain of hashes, so that no earlier
    byte can change unseen. JournalError at the first damage, with its line and byte.

    Fast enough to run at every opening: a record is parsed only when it is damaged
    (to say how); a whole one costs a hash and a few comparisons of bytes.
    """
    fd = open_journal(path)
    try:
        try:
            size = fs.current().fstat(fd).st_size
            _verify_blocks(path, fd, min(size, upto.end), upto, enc_id, size)
        except OSError as exc:
            raise JournalError(path, exc.strerror or str(exc)) from None
    finally:
        fs.current().close(fd)


def _verify_blocks(path: Path, fd: int, end: int, upto: Position, enc_id: str,
                   size: int) -> None:
    head = b'{"id":%s,"s":' % json.dumps(enc_id).encode()
    seq, prev, last_at = 0, b"", -1
    blank = hashlib.blake2b(digest_size=HASH_HEX // 2)
    buf, base, rel = b"", 0, 0  # the bytes read, the offset of buf[0], the next record's
    while base + rel < end:
        nl = buf.find(b"\n", rel)
        if nl < 0:
            read = base + len(buf)
            if read >= end:
                break
            buf = buf[rel:] + fs.pread_all(fd, min(CHAIN_BLOCK, end - read), read)
            base, rel = base + rel, 0
            continue
        cut = nl - HASH_HEX - 2 - len(HASH_KEY)  # the record's bytes before its ,"h":"
        hashed = blank.copy()
        if cut > rel:
            with memoryview(buf) as view:  # hashed where it lies: no copy of its bytes
                hashed.update(view[rel:cut])
        h = buf[cut + len(HASH_KEY) : nl - 2]
        if not (cut > rel and buf.startswith(HASH_KEY, cut) and buf.startswith(b'"}', nl - 2)
                and buf.startswith(head, rel)
                and buf.startswith(b"%d," % seq, rel + len(head))
                and buf.startswith(b',"ph":"%s"' % prev, cut - len(prev) - 8)
                and hashed.hexdigest().encode() == h):
            raise _damage(path, buf[rel : nl + 1], base + rel, seq,
                          prev.decode("ascii", "replace"), enc_id)
        prev, seq, last_at, rel = h, seq + 1, base + rel, nl + 1
    at = base + rel
    if at < upto.end:  # the file ends (or a record runs on) before the record named
        rest = buf[rel:]
        if size >= upto.end:
            what = ("the record the save names is not the one there (the journal was "
                    "replaced or rewritten)")
        elif not rest:
            what = "the journal ends before the record the save names"
        elif size == upto.end - 1 and _whole_unended(rest, at):
            what = UNENDED
        else:
            what = f"{CUT_SHORT}: the journal ends before the record the save names"
        raise JournalError(path, what, seq + 1, at)
    if seq != upto.records or last_at != upto.at or prev.decode() != upto.last:
        raise JournalError(path, "the record the save names is not the one there "
                           "(the journal was replaced or rewritten)", max(seq, 1),
                           max(last_at, 0))


def _whole_unended(line: bytes, at: int) -> bool:
    try:
        decode(line, at, unended=True)
    except ValueError:
        return False
    return True


def _damage(path: Path, line: bytes, at: int, seq: int, prev: str,
            enc_id: str | None) -> JournalError:
    """What is wrong with ``line``, the record at byte ``at`` (the ``seq``-th, on line
    ``seq + 1``, after ``prev``)."""
    try:
        rec = decode(line, at)
        check_fields(rec)
        if enc_id is not None and rec.data["id"] != enc_id:
            raise ValueError(f"a record of another encounter ({rec.data['id']})")
        if rec.seq != seq:
            raise ValueError(f"record number {rec.seq}, expected {seq}")
        if rec.prev != prev:
            raise ValueError("does not follow the record before it (the chain is broken)")
    except ValueError as exc:
        return JournalError(path, str(exc), seq + 1, at)
    return JournalError(path, "not written as this tracker writes a record", seq + 1, at)


@dataclass
class Survey:
    """A journal read from its first record to its last byte (for check and repair)."""

    path: Path
    records: list[Record]
    """The whole records, in a chain from the first: what repair keeps."""
    damage: list[JournalError]
    """Every damaged line: the first is where the chain breaks (or a last record that
    lost its line break); the others, later lines that are not whole records."""
    lines: list[tuple[int, bytes]]
    """The lines after the last whole record, with their offsets: what repair cuts off."""
    size: int
    enc_id: str
    unended: bool = False
    """The last whole record ends the file without its line break."""

    @property
    def end(self) -> Position:
        return self.records[-1].position if self.records else Position()


def survey(path: Path, enc_id: str | None = None, data: bytes | None = None) -> Survey:
    """Read every line of a journal: the chain of whole records from the first (records
    of ``enc_id``, or of the encounter the first record names) and every damage after."""
    if data is None:
        data = read_all(path)
    records: list[Record] = []
    damage: list[JournalError] = []
    cut: list[tuple[int, bytes]] = []
    ident, pos, at, line_no, unended = enc_id, Position(), 0, 1, False
    broken = False
    while at < len(data):
        nl = data.find(b"\n", at)
        line = data[at:] if nl < 0 else data[at : nl + 1]
        try:
            rec = decode(line, at, unended=nl < 0)
            check_fields(rec)
            if not broken:
                ident = ident or rec.data["id"]
                if rec.data["id"] != ident:
                    raise ValueError(f"a record of another encounter ({rec.data['id']})")
                if rec.seq != pos.records:
                    raise ValueError(f"record number {rec.seq}, expected {pos.records}")
                if rec.prev != pos.last:
                    raise ValueError("does not follow the record before it (the chain is "
                                     "broken)")
                records.append(rec)
                pos = rec.position
                if nl < 0:
                    unended = True
                    damage.append(JournalError(path, UNENDED, line_no, at))
        except ValueError as exc:
            broken = True
            damage.append(JournalError(path, str(exc), line_no, at))
        if broken:
            cut.append((at, line))
        at += len(line)
        line_no += 1
    if ident is None:
        ident = next((str(d["id"]) for d in map(_lenient, (b for _, b in cut))
                      if isinstance(d.get("id"), str)), "")
    return Survey(path, records, damage, cut, len(data), ident, unended)


def _lenient(line: bytes) -> dict[str, Any]:
    """What a line that is not a whole record still says (for messages only)."""
    try:
        data = json.loads(line)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def said(line: bytes) -> tuple[str, int | None]:
    """The kind of record a cut-off line was, and the round of its entry (as far as its
    bytes still say: for saying what repair drops)."""
    data = _lenient(line)
    kind = data.get("k")
    entry = data.get("e")
    rnd = entry.get("round") if isinstance(entry, dict) else None
    if not isinstance(kind, str):
        found = re.search(rb'"k":"(\w+)"', line)
        kind = found.group(1).decode() if found else ""
    if not isinstance(rnd, int) or isinstance(rnd, bool):
        found = re.search(rb'"round":(\d+)', line)
        rnd = int(found.group(1)) if found else None
    return kind, rnd
