"""Encounters as TOML: schema and migration, checksummed state, journal, atomic writes.

A save is two files: the state (``battle.toml``: who is in the fight, where it stands,
its settings) and its journal (``battle.journal.jsonl``: every change, appended, see
``journal.py``). A change is committed when its journal record is fsynced; the state
is then rewritten (a temp file with an unpredictable name, exclusive create, fsync,
``os.replace``, fsync of the folder) and the state it replaced goes into a ring of
backups. The state ends with ``[save]`` (the encounter's id and the journal record it
matches) and ``[end]`` (a checksum of everything before it): a state cut short or
altered is reported, never used. Opening reads the state, checks the record it names,
and applies the records written after it (committed after the state was last written).

Saves of schema 1 and 2 (a log inline as ``[[log]]`` tables, or a journal without
checksums) are read as they are and get a journal of their own at their first write.
"""

from __future__ import annotations

import re
import secrets
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli
import tomli_w
from pydantic import TypeAdapter, ValidationError

from tracker.core import history
from tracker.core.invalid import problem
from tracker.core.log import Log, LogError
from tracker.core.model import SCHEMA_VERSION, Encounter, Jump, LogEntry

from . import chain, fs, journal, legacy
from .journal import JournalError, JournalWriter, Position, Record, Scan

ModelFor = Callable[[str], type[Encounter]]
BACKUP_DIR = ".tracker-backups"
END = b'[end]\nchecksum = "'
BODY_KEYS = ("schema", "log", "save", "end")


class SaveError(Exception):
    """A save file that cannot be used: which file, where in it, what was expected."""

    def __init__(self, path: Path | str, key: str, expected: str) -> None:
        self.path = Path(path)
        self.key = key
        # one line whatever the file held: a value with a line break is shown escaped
        self.expected = expected.replace("\r", "\\r").replace("\n", "\\n")
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f" at {self.key}" if self.key else ""
        return f"{self.path}{where}: {self.expected}"


COMMITTED = "committed; the state will be rebuilt at the next open"
"""What a command says when its change is in the journal but the state file could not
be written (the next opening applies the journal's newer records)."""


# --- migrations: each takes the data of version N and returns version N + 1 ---------------

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    # 2 keeps the log in a journal beside the state; an inline log (all schema 1 had)
    # is still read, so nothing else changes
    1: lambda data: data,
    # 3 adds the [save] table (encounter id, journal record) and the [end] checksum, and
    # the journal's records are checksummed and chained; the body is unchanged, and a
    # save of schema 2 gets its new journal (a new file) at its first write
    2: lambda data: data,
}


def migrate(data: dict[str, Any], path: Path) -> dict[str, Any]:
    version = data.get("schema")
    if version is None:
        raise SaveError(path, "schema", "a first key `schema = N` (this is not a tracker save)")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(path, "schema", f"a whole number, found {version!r}")
    if version > SCHEMA_VERSION:
        raise SaveError(
            path,
            "schema",
            f"schema {version} is newer than this tracker reads ({SCHEMA_VERSION}); upgrade it",
        )
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveError(path, "schema", f"a known schema, found {version}")
        data = step(data)
        version += 1
        data["schema"] = version
    return data


# --- reading ------------------------------------------------------------------------------


def _loc(loc: tuple[Any, ...], data: dict[str, Any]) -> str:
    """A pydantic error location as a TOML key path: combatants[2].pools[0].size."""
    out = ""
    node: Any = data
    for part in loc:
        if isinstance(part, int):
            name = ""
            if isinstance(node, list) and 0 <= part < len(node) and isinstance(node[part], dict):
                name = node[part].get("id") or node[part].get("name") or ""
            out += f"[{part}]" if not name else f"[{part}:{name}]"
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
        else:
            if str(part).startswith(("function-", "tagged-union")):
                continue
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out


_ENTRIES: TypeAdapter[list[LogEntry]] = TypeAdapter(list[LogEntry])


def journal_folder(path: Path) -> Path:
    """Where a save's journal lives: beside it (a backup's is beside the save it came from)."""
    folder = path.parent
    return folder.parent if folder.name == BACKUP_DIR else folder


# --- the link: which journal an encounter is written to ------------------------------------


@dataclass
class JournalLink:
    """Where an encounter is saved: its state file, its journal and how far both are.

    Kept for the encounter's log (:func:`link_of`). ``position`` is the end of the
    journal as this process knows it; ``state_position`` the record the state file on
    disk matches (behind ``position`` while the state waits to be rewritten).
    """

    path: Path
    journal: Path
    enc_id: str
    position: Position
    state_position: Position
    cursor: int
    """The cursor as the journal's records leave it."""
    jump: tuple[int, int] | None = None
    """The rewind that undo takes back in one step, as the records leave it."""
    legacy: bool = False
    """A schema 1 or 2 save: the next write starts a journal for it."""
    writer: JournalWriter | None = None
    torn: Scan | None = None
    """An unfinished record after the last good one (a crash while appending)."""
    rolled: int = 0
    """Records applied at opening (written after the state was)."""

    def ensure_writer(self) -> JournalWriter:
        if self.writer is None:
            self.writer = JournalWriter(self.journal, self.enc_id, self.position)
        return self.writer


_links: dict[int, JournalLink] = {}
"""The journal each log in memory is written to, by the log's identity: the log (core)
knows nothing of the store. A log's link goes when the log does; a copy of a log (a
deep copy of its encounter) is linked to nothing, so saving it starts a journal."""


def link_of(enc: Encounter) -> JournalLink | None:
    """Where ``enc`` is written (None: nowhere yet, or a copy)."""
    return _links.get(id(enc.log))


def bind_log(log: Log, link: JournalLink | None) -> None:
    """Note that ``log`` is written to ``link``'s journal (None: to none)."""
    key = id(log)
    if link is None:
        _links.pop(key, None)
        return
    if key not in _links:
        weakref.finalize(log, _links.pop, key, None)
    _links[key] = link


# --- reading --------------------------------------------------------------------------------


def split_state(raw: bytes, path: Path) -> bytes:
    """The state's bytes before its ``[end]``, checked against the checksum there."""
    cut = raw.rfind(END)
    tail = raw[cut + len(END):] if cut >= 0 else b""
    if cut < 0 or len(tail) != journal.HASH_HEX + 2 or not tail.endswith(b'"\n'):
        raise SaveError(path, "end", "the end of the save ([end] and its checksum): the file "
                        "was cut short (`tracker repair` rebuilds it from the journal)")
    if journal.digest(raw[:cut]) != tail[: journal.HASH_HEX].decode("ascii", "replace"):
        raise SaveError(path, "end.checksum", "a matching checksum: the file was altered or "
                        "damaged (`tracker repair` rebuilds it from the journal)")
    return raw[:cut]


def read_state(path: Path) -> tuple[dict[str, Any], bytes]:
    """The parsed TOML of a state file. Its checksum is checked whenever it has anything
    of the schema 3 form (an ``[end]``, a ``[save]`` table, a checksummed journal named
    in its ``[log]``), whatever its ``schema`` line says: a save is old only when none
    of that is there."""
    raw = _read_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        raise SaveError(path, f"line {line}", f"UTF-8 text, found the byte "
                        f"{raw[exc.start]:#04x} at byte {exc.start} (column {column})"
                        + _rebuilt_hint(path, raw)) from None
    if not text.strip():
        raise SaveError(path, "", "a save, found an empty file" + _rebuilt_hint(path, raw))
    signed = END in raw
    if signed:
        split_state(raw, path)
    try:
        data = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        claimed = re.match(rb"schema = (\d+)\n", raw)
        if claimed and int(claimed.group(1)) == SCHEMA_VERSION and not signed:
            raise SaveError(path, "end", "a whole save: the file was cut short "
                            "(`tracker repair` rebuilds it from the journal)") from None
        where = (f"line {exc.lineno}" if getattr(exc, "lineno", None) else "")
        raise SaveError(path, where, f"valid TOML ({exc})" + _rebuilt_hint(path, raw)) from None
    version = data.get("schema")
    form = new_format(data, raw, path)
    if form and version != SCHEMA_VERSION and not (
            isinstance(version, int) and version > SCHEMA_VERSION):
        raise SaveError(path, "schema", f"{SCHEMA_VERSION}: the file has {form} of schema "
                        f"{SCHEMA_VERSION}, found {version!r} (the file was altered or "
                        "damaged: `tracker repair` rebuilds it from the journal)")
    if version == SCHEMA_VERSION and not signed:
        split_state(raw, path)
    return data, raw


def _read_bytes(path: Path) -> bytes:
    try:
        return fs.read_regular(path)
    except FileNotFoundError:
        raise SaveError(path, "", "no such file") from None
    except fs.NotRegular as exc:
        raise SaveError(path, "", f"a regular file: {exc.strerror}") from None
    except IsADirectoryError:
        raise SaveError(path, "", "a file, found a folder") from None
    except OSError as exc:
        raise SaveError(path, "", f"a readable file ({exc.strerror})") from None


_SAVE_TABLE = re.compile(rb"^\[save\][ \t]*\r?$", re.MULTILINE)


def new_format(data: dict[str, Any], raw: bytes, path: Path) -> str:
    """What a state holds of the schema 3 form ("" for nothing: an old save)."""
    if END in raw:
        return "the [end] checksum"
    if "save" in data or _SAVE_TABLE.search(raw):
        return "a [save] table"
    log = data.get("log")
    name = log.get("journal") if isinstance(log, dict) else None
    if isinstance(name, str) and journal.valid_name(name) and \
            checksummed(journal_folder(path) / name):
        return "a checksummed journal"
    return ""


def checksummed(jpath: Path) -> bool:
    """Whether a file is a journal of checksummed records (as far as its first bytes say)."""
    try:
        fd = fs.open_regular(jpath)
    except OSError:
        return False
    try:
        return fs.pread_all(fd, 7, 0) == b'{"id":"'
    except OSError:
        return False
    finally:
        fs.current().close(fd)


def journal_beside(path: Path) -> Path | None:
    """The checksummed journal a save's name gives it, when the state cannot say:
    ``battle.journal.jsonl`` (or ``battle-2.journal.jsonl`` ..., the newest)."""
    folder = journal_folder(path)
    try:
        names = fs.current().listdir(folder)
    except OSError:
        return None
    pattern = re.compile(re.escape(path.stem) + r"(-\d+)?" + re.escape(journal.SUFFIX))
    found: list[tuple[int, Path]] = []
    for name in names:
        if pattern.fullmatch(name) and checksummed(folder / name):
            try:
                found.append((fs.current().lstat(folder / name).st_mtime_ns, folder / name))
            except OSError:
                continue
    return max(found)[1] if found else None


REBUILD_HINT = " (`tracker repair` rebuilds it from the journal)"


def _rebuilt_hint(path: Path, raw: bytes) -> str:
    if END not in raw and journal_beside(path) is None:
        return ""
    return REBUILD_HINT


def save_table(data: dict[str, Any], path: Path) -> tuple[str, Position]:
    raw = data.get("save")
    if not isinstance(raw, dict):
        raise SaveError(path, "save", "a [save] table (the encounter's id and journal record)")
    enc_id = raw.get("id")
    if not isinstance(enc_id, str) or not enc_id:
        raise SaveError(path, "save.id", "the encounter's id")
    vals = []
    for key, low in (("records", 1), ("at", 0), ("end", 1)):
        v = raw.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or v < low:
            raise SaveError(path, f"save.{key}", f"a whole number from {low}, found {v!r}")
        vals.append(v)
    last = raw.get("last")
    if not isinstance(last, str) or len(last) != journal.HASH_HEX:
        raise SaveError(path, "save.last", "the hash of the journal record the state matches")
    return enc_id, Position(vals[0], vals[1], vals[2], last)


def parse_body(data: dict[str, Any], path: Path, model_for: ModelFor) -> Encounter:
    """The encounter a state (or a state record) holds, without its log."""
    data = migrate(dict(data), path)
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str):
        raise SaveError(path, "ruleset", "a ruleset id such as \"harn\" or \"warmaster\"")
    try:
        model = model_for(ruleset)
    except (LookupError, ValueError) as exc:
        raise SaveError(path, "ruleset", str(exc)) from None
    body = {k: v for k, v in data.items() if k not in BODY_KEYS}
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise _invalid(path, exc, body) from None


def parse_encounter(data: dict[str, Any], path: Path, model_for: ModelFor) -> Encounter:
    """A schema 1 or 2 state (its log inline or in a journal without checksums)."""
    enc = parse_body(data, path, model_for)
    enc.log = _read_legacy_log(data.get("log"), path)
    if not 0 <= enc.cursor <= len(enc.log):
        raise SaveError(path, "cursor", f"0..{len(enc.log)} (the number of log entries)")
    return enc


def _read_legacy_log(raw: Any, path: Path) -> Log:
    """The ``log`` of a schema 1 or 2 save: ``[[log]]`` tables, or a ``[log]`` table."""
    if raw is None:
        return Log()
    if isinstance(raw, list):
        try:
            return Log(_ENTRIES.validate_python(raw))
        except ValidationError as exc:
            raise _invalid(path, exc, {"log": raw}, ("log",)) from None
    count, head, name = _log_table(raw, path)
    if count == 0:
        return Log()
    reader = legacy.JournalReader(journal_folder(path) / name)
    try:
        n, before, entry = reader.read(head)
    except LogError as exc:
        raise SaveError(path, "log.head", f"the newest log entry: {exc}") from None
    if n != count - 1:
        raise SaveError(path, "log.head", f"entry {count} of the log, found entry {n + 1}")
    log = Log.on_journal(reader, name, count - 1, before)
    log.append_written(entry, head)
    return log


def _log_table(raw: Any, path: Path) -> tuple[int, int, str]:
    if not isinstance(raw, dict):
        raise SaveError(path, "log", "a [log] table or [[log]] entries")
    unknown = sorted(set(raw) - {"journal", "count", "head"})
    if unknown:
        raise SaveError(path, f"log.{unknown[0]}", "only journal, count and head")
    name, count, head = raw.get("journal", ""), raw.get("count", 0), raw.get("head", -1)
    if not isinstance(name, str) or (name and not journal.valid_name(name)):
        raise SaveError(path, "log.journal", f"a file name beside the save, found {name!r}")
    for key, value, low in (("count", count, 0), ("head", head, -1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise SaveError(path, f"log.{key}", f"a whole number from {low}, found {value!r}")
    if count and not name:
        raise SaveError(path, "log.journal", "the journal's file name (the log has entries)")
    return count, head, name


def log_on_journal(reader: journal.JournalReader, name: str, count: int, head: int) -> Log:
    """A log of ``count`` entries whose newest record is at ``head``; only that one read."""
    if count == 0:
        log = Log()
    else:
        n, before, entry = reader.read(head)
        if n != count - 1:
            raise JournalError(reader.path, f"entry {n + 1} where the save names entry {count}",
                               journal.line_number(reader.path, head), head)
        log = Log.on_journal(reader, name, count - 1, before)
        log.append_written(entry, head)
    log.source, log.journal = reader, name
    return log


def load_encounter(path: Path | str, model_for: ModelFor, *, roll: bool = True) -> Encounter:
    """Read and validate a save, and apply the journal records written after its state.

    Any problem is a SaveError naming the file, the key or journal line, and what was
    expected; nothing is written. An unfinished last record (a crash while appending)
    is not applied; it is noted on the link for the writer to set aside.
    """
    path = Path(path)
    data, _ = read_state(path)
    version = data.get("schema")
    if not isinstance(version, int) or isinstance(version, bool) or version < 3:
        enc = parse_encounter(data, path, model_for)
        name = enc.log.journal or ""
        folder = journal_folder(path)
        bind_log(enc.log, JournalLink(path, folder / name, "", Position(), Position(),
                                      enc.cursor, legacy=True))
        return enc
    migrate(dict(data), path)  # a newer schema is refused before anything else
    enc_id, pos = save_table(data, path)
    count, head, name = _log_table(data.get("log"), path)
    if not name:
        raise SaveError(path, "log.journal", "the journal's file name")
    jpath = journal_folder(path) / name
    enc = parse_body(data, path, model_for)
    try:
        chain.verify_chain(jpath, pos, enc_id)
        reader = journal.JournalReader(jpath, enc_id)
        enc.log = log_on_journal(reader, name, count, head)
    except JournalError as exc:
        raise SaveError(path, "save", f"its journal, whole up to the record it names: {exc}"
                        + ("; `tracker repair` keeps every whole record"
                           if exc.line is not None else "")) from None
    if not 0 <= enc.cursor <= len(enc.log):
        raise SaveError(path, "cursor", f"0..{len(enc.log)} (the number of log entries)")
    link = JournalLink(path, jpath, enc_id, pos, pos, enc.cursor, jump=jump_of(enc))
    bind_log(enc.log, link)
    if roll and path.parent.name != BACKUP_DIR:  # a backup is the state it was
        enc = roll_forward(enc, link, model_for)
    return enc


def roll_forward(enc: Encounter, link: JournalLink, model_for: ModelFor) -> Encounter:
    """Apply the records after the state's own (committed after it was written)."""
    try:
        got = journal.scan(link.journal, link.enc_id, link.position)
    except JournalError as exc:
        raise SaveError(link.path, "save", str(exc)) from None
    for rec in got.records:
        try:
            applied = apply_record(enc, rec, link, model_for)
            assert applied is not None
            enc = applied
        except (ValueError, LogError, history.HistoryError, SaveError) as exc:
            raise SaveError(link.path, "save", f"{link.journal} line "
                            f"{journal.line_number(link.journal, rec.offset)}: the record "
                            f"does not fit the state ({exc}); not applied "
                            "(`tracker repair` puts it right)") from None
        link.rolled += 1
    if got.problem is not None:
        if not got.torn:
            raise SaveError(link.path, "save", f"{got.problem}; not applied "
                            "(`tracker repair` puts it right)")
        link.torn = got
    link.position = got.end
    link.cursor = enc.cursor
    link.jump = jump_of(enc)
    return enc


def move_cursor(enc: Encounter, cursor: int) -> None:
    if not 0 <= cursor <= len(enc.log):
        raise ValueError(f"cursor {cursor} outside the log's 0..{len(enc.log)}")
    while enc.cursor > cursor:
        history.undo(enc)
    while enc.cursor < cursor:
        history.redo(enc)


LogMaker = Callable[[int, int], Log]
"""Builds the log a ``state`` record names from its entry count and head offset."""


def apply_record(enc: Encounter | None, rec: Record, link: JournalLink, model_for: ModelFor,
                 make_log: LogMaker | None = None) -> Encounter | None:
    """The encounter after one journal record: the same object, or a new one for a
    ``state`` record (None before the first state record: entries there are history)."""
    if rec.kind == "state":
        body = dict(rec.data["b"])
        body["schema"] = SCHEMA_VERSION
        new = parse_body(body, link.journal, model_for)
        count, head = rec.data["c"], rec.data["hd"]
        if make_log is None:
            reader = journal.JournalReader(link.journal, link.enc_id)
            new.log = log_on_journal(reader, link.journal.name, count, head)
        else:
            new.log = make_log(count, head)
        if not 0 <= new.cursor <= len(new.log):
            raise ValueError("its cursor is outside its log")
        bind_log(new.log, link)
        return new
    if enc is None:
        return None
    if rec.kind == "entry":
        n = rec.data["n"]
        if n > len(enc.log):
            raise ValueError(f"entry {n + 1} follows a log of {len(enc.log)}")
        move_cursor(enc, n)
        del enc.log[n:]
        if enc.log.head() != rec.data["p"]:
            raise ValueError(f"entry {n + 1} links to another entry before it")
        entry = rec.entry()
        enc.log.append_written(entry, rec.offset)
        for op in entry.ops:
            history.apply_op(enc, op)
        enc.cursor = n + 1
        _set_jump(enc, None)
    elif rec.kind == "cursor":
        move_cursor(enc, rec.data["c"])
        held = rec.data.get("j")
        _set_jump(enc, tuple(held) if isinstance(held, list) and len(held) == 2 else None)
    return enc


def _set_jump(enc: Encounter, held: tuple[int, ...] | None) -> None:
    if "jump" not in type(enc).model_fields:
        return
    enc.jump = Jump(start=held[0], end=held[1]) if held is not None else None


def _invalid(
    path: Path, exc: ValidationError, data: dict[str, Any], prefix: tuple[Any, ...] = ()
) -> SaveError:
    err = exc.errors()[0]
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    got = err.get("input")
    shown = "" if isinstance(got, (dict, list)) else f", found {got!r}"
    said = problem(err).expected if err["type"] == "string_pattern_mismatch" else err["msg"]
    return SaveError(path, _loc(prefix + tuple(err["loc"]), data), f"{said}{shown}{more}")


# --- writing --------------------------------------------------------------------------------


ITEM_LISTS = ("combatants", "units")
"""Lists written as arrays of tables, one ``[[...]]`` per item, whose text is kept."""

class _Written:
    """The TOML text of each combatant and unit of one encounter, as last written: an
    item is reused while its data equals what was written."""

    def __init__(self, enc: Encounter) -> None:
        self.enc = enc
        self.items: dict[str, dict[int, tuple[Any, Any, str, bool]]] = {}


_written: dict[int, _Written] = {}
_written_lock = threading.Lock()


def _item_texts(
    written: _Written, name: str, models: list[Any], plain: list[Any]
) -> tuple[list[str], bool]:
    """Each item's ``[[name]]`` text, and whether every item fits an inline table."""
    old = written.items.get(name, {})
    new: dict[int, tuple[Any, Any, str, bool]] = {}
    texts = []
    all_inline = True
    for model, data in zip(models, plain, strict=True):
        held = old.get(id(model))
        if held is None or held[0] is not model or held[1] != data:
            held = (model, data, *_item_text(name, data))
        new[id(model)] = held
        texts.append(held[2])
        all_inline = all_inline and held[3]
    written.items[name] = new
    return texts, all_inline


def _item_text(name: str, data: dict[str, Any]) -> tuple[str, bool]:
    """One item of the array of tables ``name`` as ``tomli_w.dumps`` writes it in the
    whole document (a ``[[name]]`` table), and whether it fits an inline table: an array
    is written inline when all its items do."""
    text = tomli_w.dumps({name: [data]})
    aot = f"[[{name}]]\n"
    if text.startswith(aot):
        return text, False
    # short enough to be inline: the table it is when another item of the array is not;
    # its keys and sub-tables are written as those of a table ``[name]``
    table = tomli_w.dumps({name: data})
    header = f"[{name}]\n"
    return aot + (table[len(header):] if table.startswith(header) else "\n" + table), True


def state_doc(enc: Encounter) -> dict[str, Any]:
    """The state as written: ``schema`` first, no nulls, no default values, no log."""
    body = enc.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    body.update(name=enc.name, ruleset=enc.ruleset)  # a ruleset's model defaults its id
    doc: dict[str, Any] = {"schema": SCHEMA_VERSION}
    for key in type(enc).model_fields:
        if key in body:
            doc[key] = body[key]
    return doc


def dump_state(enc: Encounter) -> str:
    """The state's TOML without its log: ``schema`` first, no nulls, no default values.

    The text is that of ``tomli_w.dumps``, but the text of units and combatants written
    before is reused, so the autosave of a large battle only formats what changed.
    """
    doc = state_doc(enc)
    with _written_lock:
        written = _written.get(id(enc))
        if written is None or written.enc is not enc:
            if len(_written) >= 4:
                _written.pop(next(iter(_written)))
            written = _written[id(enc)] = _Written(enc)
        return _dump(doc, written)


def _dump(doc: dict[str, Any], written: _Written) -> str:
    """``tomli_w.dumps(doc)`` put together key by key: plain values first, then tables
    and arrays of tables, as tomli_w orders them."""
    enc = written.enc
    literals: list[str] = []
    tables: list[str] = []
    for key, value in doc.items():
        models = getattr(enc, key) if key in ITEM_LISTS else None
        if models:
            texts, all_inline = _item_texts(written, key, models, value)
            if not all_inline:
                tables += texts
                continue
        text = tomli_w.dumps({key: value})
        (tables if text.startswith("[") else literals).append(text)
    head = "".join(literals)
    return head + ("\n" if head and tables else "") + "\n".join(tables)


@dataclass
class Snapshot:
    """One save, taken under the session's lock; writing it needs no lock.

    ``items`` are the journal records to append (log entries not written yet, then the
    cursor if an undo or redo moved it); ``full`` is set when the save needs a journal
    of its own first (a new save, an older schema, another folder).
    """

    state: str
    path: Path
    log: Log
    link: JournalLink | None
    count: int
    cursor: int
    head: int
    index: int
    before: int
    items: list[tuple[str, Any]]
    full: bool = False
    jump: tuple[int, int] | None = None
    position: Position = field(default_factory=Position)
    records: list[Record] = field(default_factory=list)

    @property
    def committed(self) -> bool:
        return bool(self.records) or not self.items


def jump_of(enc: Encounter) -> tuple[int, int] | None:
    held = getattr(enc, "jump", None)
    return (held.start, held.end) if held is not None else None


def cursor_fields(enc: Encounter) -> bytes:
    """A ``cursor`` record: the cursor, and the rewind undo would take back (``j``)."""
    held = jump_of(enc)
    if held is None:
        return journal.json_fields(c=enc.cursor)
    return journal.json_fields(c=enc.cursor, j=list(held))


def body_json(enc: Encounter) -> dict[str, Any]:
    body = enc.model_dump(mode="json", exclude_none=True)
    body.update(name=enc.name, ruleset=enc.ruleset)
    return body


def snapshot(enc: Encounter, path: Path) -> Snapshot:
    """What to write for ``enc`` to be saved at ``path`` (called under the session's lock)."""
    log = enc.log
    with log.lock:
        b = link_of(enc)
        full = b is None or b.legacy or b.path != path
        if full:
            log.load_all()
            items = _full_items(enc)
            index, before = 0, -1
        else:
            assert b is not None
            index, before, entries = log.pending()
            items = [("entry", (index + k, e)) for k, e in enumerate(entries)]
            implied = index + len(entries) if entries else b.cursor
            jump = None if entries else b.jump  # a new entry ends a rewind's take-back
            if enc.cursor != implied or jump_of(enc) != jump:
                items.append(("cursor", cursor_fields(enc)))
        return Snapshot(dump_state(enc), path, log, None if full else b, len(log), enc.cursor,
                        log.head(), index, before, items, full, jump_of(enc))


def _full_items(enc: Encounter) -> list[tuple[str, Any]]:
    """The records of a new journal: the encounter before its first entry, then every
    entry and the cursor; or, when the log cannot be undone back to its start, the
    entries followed by the encounter as it is."""
    entries = list(enc.log)
    work = enc.model_copy(deep=True)
    try:
        while history.undo(work) is not None:
            pass
        base = journal.json_fields(b=body_json(work), c=0, hd=-1, why="start")
    except (history.HistoryError, LogError, ValueError, LookupError):
        items: list[tuple[str, Any]] = [("entry", (k, e)) for k, e in enumerate(entries)]
        body = body_json(enc)

        def now(before: int) -> bytes:
            return journal.json_fields(b=body, c=len(entries), hd=before, why="start")

        return items + [("state", now)]
    items = [("state", base)]
    items += [("entry", (k, e)) for k, e in enumerate(entries)]
    if enc.cursor != len(entries) or jump_of(enc) is not None:
        items.append(("cursor", cursor_fields(enc)))
    return items


def commit(snap: Snapshot) -> list[Record]:
    """Append the snapshot's records to the journal and fsync: from here the change is
    committed (a new journal is committed once the state naming it is written)."""
    if snap.full:
        return _commit_new(snap)
    b = snap.link
    assert b is not None
    writer = b.ensure_writer()
    records = writer.append(snap.items, snap.before)
    b.position = writer.pos
    b.cursor = snap.cursor
    b.jump = snap.jump
    _mark(snap, records, b)
    snap.position, snap.records = b.position, records
    return records


def _mark(snap: Snapshot, records: list[Record], b: JournalLink) -> None:
    entries = [(rec, item) for rec, item in zip(records, snap.items, strict=True)
               if rec.kind == "entry"]
    if not entries:
        return
    first = entries[0][1][1][0]
    with snap.log.lock:
        snap.log.mark_written(first, [item[1][1] for _, item in entries],
                              [rec.offset for rec, _ in entries])
        if snap.log.source is None or getattr(snap.log.source, "path", None) != b.journal:
            snap.log.source = journal.JournalReader(b.journal, b.enc_id)
        snap.log.journal = b.journal.name


def _commit_new(snap: Snapshot) -> list[Record]:
    folder = journal_folder(snap.path)
    fs.ensure_folder(folder)
    try:
        taken = fs.current().listdir(folder)
    except OSError:
        taken = []
    jpath = folder / journal.journal_name(snap.path, taken)
    enc_id = secrets.token_hex(8)
    records = journal.new_journal(jpath, enc_id, snap.items, snap.before)
    pos = records[-1].position
    b = JournalLink(snap.path, jpath, enc_id, pos, Position(), snap.cursor, jump=snap.jump)
    b.writer = JournalWriter(jpath, enc_id, pos)
    with snap.log.lock:
        _mark(snap, records, b)
        bind_log(snap.log, b)
        snap.log.source = journal.JournalReader(jpath, enc_id)
        snap.log.journal = jpath.name
    snap.link, snap.position, snap.records = b, pos, records
    return records


def state_bytes(snap: Snapshot) -> bytes:
    b = snap.link
    assert b is not None
    # the entries written are the log's newest (what was pending is always its tail)
    entries = [r for r in snap.records if r.kind == "entry"]
    head = entries[-1].offset if entries else snap.head
    if snap.count == 0:
        head = -1
    pos = snap.position
    tables = {
        "log": {"journal": b.journal.name, "count": snap.count, "head": head},
        "save": {"id": b.enc_id, "records": pos.records, "at": pos.at, "end": pos.end,
                 "last": pos.last},
    }
    body = (snap.state.rstrip("\n") + "\n\n" + tomli_w.dumps(tables) + "\n").encode("utf-8")
    return body + END + journal.digest(body).encode() + b'"\n'


def write_state(snap: Snapshot, backups: int = 5) -> None:
    """Write the state that matches the snapshot's records (after :func:`commit`)."""
    data = state_bytes(snap)
    b = snap.link
    assert b is not None
    # a state naming another journal record cannot hold the same bytes as the one there
    write_state_file(snap.path, data, backups, maybe_same=b.state_position == snap.position)
    assert b is not None
    b.state_position = snap.position
    b.legacy = False


def write_snapshot(snap: Snapshot, path: Path, backups: int = 5) -> None:
    """Commit the snapshot's records, then write the state."""
    commit(snap)
    write_state(snap, backups)


def save_encounter(enc: Encounter, path: Path | str, backups: int = 5) -> None:
    """Save ``enc`` at ``path``: its new records to the journal, then the state."""
    path = Path(path)
    write_snapshot(snapshot(enc, path), path, backups)


# --- the state file and its backups ---------------------------------------------------------


write_atomic = fs.write_atomic
"""``write_atomic(path, data)``: the file holds its old bytes or ``data``, never half
(temp file with an unpredictable name, exclusive create, fsync, rename, folder fsync)."""


def backup_folder(path: Path) -> Path:
    return path.parent / BACKUP_DIR


def backup_paths(path: Path, keep: int) -> list[Path]:
    folder = backup_folder(path)
    return [folder / f"{path.stem}.{n}{path.suffix}" for n in range(1, keep + 1)]


_marks: dict[tuple[int, int, int, int], str] = {}
"""Fingerprints of files already read, by device, inode, size and modification time (a
backup is never rewritten in place: a new state is a new file)."""


def fingerprint(path: Path) -> str | None:
    """What a state holds, whatever journal record it names: two files with the same
    fingerprint are one state (None: no such file; OSError if it cannot be read)."""
    try:
        st = fs.current().lstat(path)
    except FileNotFoundError:
        return None
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    known = _marks.get(key)
    if known is not None:
        return known
    return _remember(key, fs.read_regular(path))


def _remember(key: tuple[int, int, int, int], raw: bytes) -> str:
    cut = raw.find(b"\n[log]\n")
    mark = journal.digest(raw[:cut] if cut >= 0 else raw)
    if len(_marks) > 1000:
        _marks.clear()
    _marks[key] = mark
    return mark


def write_state_file(path: Path, data: bytes, backups: int = 5, maybe_same: bool = True) -> None:
    """Replace the state with ``data`` atomically; then the replaced state joins the
    backup ring, which rotates only now that the write has succeeded."""
    f = fs.current()
    fs.refuse_link(path, "the save")
    try:  # only a file of the same size can hold the same bytes: skip reading the rest
        same = maybe_same and f.lstat(path).st_size == len(data) and \
            fs.read_regular(path) == data
    except OSError:
        same = False
    if same:
        f.fsync_dir(path.parent)  # an earlier write may have failed just before this
        return
    tmp = fs.write_temp(path, data)
    keep: Path | None = None
    try:
        exists = _exists(path)
        if backups > 0 and exists:
            folder = backup_folder(path)
            fs.ensure_folder(folder, BACKUP_DIR)
            keep = fs.temp_name(folder / path.name)
            try:
                f.link(path, keep)  # a second name for the state about to be replaced
            except OSError:
                keep = fs.write_temp(folder / path.name, fs.read_regular(path))
        f.replace(tmp, path)
        f.fsync_dir(path.parent)
        try:  # its fingerprint, for when it joins the backups: no need to read it back
            st = f.lstat(path)
            _remember((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns), data)
        except OSError:
            pass
    except BaseException:
        fs.remove_quietly(tmp)
        if keep is not None:
            fs.remove_quietly(keep)
        raise
    if keep is not None:
        try:
            rotate(path, keep, backups)
        except BaseException:
            fs.remove_quietly(keep)
            raise


def _exists(path: Path) -> bool:
    try:
        fs.current().lstat(path)
    except FileNotFoundError:
        return False
    return True


def rotate(path: Path, incoming: Path, keep: int) -> None:
    """Put ``incoming`` in slot 1 of the ring; the others move up one, the oldest drops.
    A slot already holding the same state is dropped instead, so the ring never holds
    one state twice."""
    f = fs.current()
    ring = backup_paths(path, keep)
    mark = fingerprint(incoming)
    last = keep - 1
    for i, slot in enumerate(ring):
        if mark is not None and fingerprint(slot) == mark:
            last = i
            f.unlink(slot)  # the same state, older: it goes, and the ones before move up
            break
    for i in range(last, 0, -1):
        if _exists(ring[i - 1]):
            f.replace(ring[i - 1], ring[i])
    f.replace(incoming, ring[0])
    # the ring's folder is not fsynced: after a crash it is as it last reached the disk,
    # one state per slot either way, and the journal holds every change regardless


def stale_temp_names(path: Path, link: JournalLink | None) -> int:
    """Remove the temp files a crash left beside the save, its journal and in its
    backups; returns how many."""
    names = [path.name]
    if link is not None and link.journal.name:
        names.append(link.journal.name)
    gone = fs.remove_stale_temps(path.parent, names)
    gone += fs.remove_stale_temps(backup_folder(path), [path.name])
    return len(gone)


@dataclass(frozen=True)
class SaveInfo:
    """What a state file says about its journal: for a reader that follows the journal
    from where the state stands (``journal.records_after(info.journal, info.position,
    info.enc_id)``)."""

    enc_id: str
    journal: Path
    position: Position
    count: int
    head: int


def save_info(path: Path | str) -> SaveInfo:
    """The encounter id, journal and journal position a (schema 3) state names."""
    path = Path(path)
    data, _ = read_state(path)
    version = data.get("schema")
    if not isinstance(version, int) or isinstance(version, bool) or version < 3:
        raise SaveError(path, "schema", "a save of schema 3 or later (it has no checksums "
                        "yet; the tracker gives it them at its next save)")
    enc_id, pos = save_table(data, path)
    count, head, name = _log_table(data.get("log"), path)
    return SaveInfo(enc_id, journal_folder(path) / name, pos, count, head)


@dataclass(frozen=True)
class Marks:
    """Where a save stands, read without parsing the rest of it: how many log entries are
    applied, and its journal's name, length and newest record."""

    cursor: int
    journal: str
    count: int
    head: int


def read_marks(path: Path) -> Marks | None:
    """The marks of a save as :func:`write_state` writes it (top-level values first, the
    ``[log]`` table after the others); None for a save that keeps its log inline or
    cannot be read that way (read it whole then)."""
    try:
        data = fs.read_regular(path)
    except OSError:
        return None
    first_table = data.find(b"\n[")
    at = data.rfind(b"\n[log]\n")
    if first_table < 0 or at < 0:
        return None
    found = re.search(rb"^cursor = (\d+)\r?$", data[:first_table], re.MULTILINE)
    try:
        table = tomli.loads(data[at:].decode("utf-8")).get("log")
    except (UnicodeDecodeError, tomli.TOMLDecodeError):
        return None
    if not isinstance(table, dict):
        return None
    name, count, head = table.get("journal", ""), table.get("count", 0), table.get("head", -1)
    if not (isinstance(name, str) and isinstance(count, int) and isinstance(head, int)):
        return None
    return Marks(int(found.group(1)) if found else 0, name, count, head)
