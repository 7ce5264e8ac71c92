"""Encounters as TOML: schema version, migration, validation with clear errors, atomic writes.

A save is two files: the state (``battle.toml``: who is in the fight, where it stands,
its settings) and its journal (``battle.log.jsonl``: the log, appended, see
``journal.py``). Saving appends the new log entries to the journal and fsyncs it, then
writes the state to a temp file in the same folder, fsyncs it and moves it over the old
one with ``os.replace``; the previous state goes into a ring of backups first. Opening
reads the state and only the newest record of the journal, so a battle with a long
history opens as fast as a short one. A file that fails to load is reported (file, key
path, what was expected) and never written.

A save may also carry its log inline as ``[[log]]`` tables (the shipped samples do, and
saves of schema 1 did); the first save moves it into a journal.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli
import tomli_w
from pydantic import TypeAdapter, ValidationError
from tomli_w import _writer as toml_writer

from tracker.core.log import Log, LogError
from tracker.core.model import SCHEMA_VERSION, Encounter, LogEntry

from . import journal

ModelFor = Callable[[str], type[Encounter]]
BACKUP_DIR = ".tracker-backups"


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


# --- migrations: each takes the data of version N and returns version N + 1 ---------------

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    # 2 keeps the log in a journal beside the state; an inline log (all schema 1 had)
    # is still read, so nothing else changes
    1: lambda data: data,
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


def parse_encounter(data: dict[str, Any], path: Path, model_for: ModelFor) -> Encounter:
    data = migrate(dict(data), path)
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str):
        raise SaveError(path, "ruleset", "a ruleset id such as \"harn\" or \"warmaster\"")
    try:
        model = model_for(ruleset)
    except (LookupError, ValueError) as exc:
        raise SaveError(path, "ruleset", str(exc)) from None
    body = {k: v for k, v in data.items() if k not in ("schema", "log")}
    try:
        enc = model.model_validate(body)
    except ValidationError as exc:
        raise _invalid(path, exc, body) from None
    enc.log = _read_log(data.get("log"), path)
    if not 0 <= enc.cursor <= len(enc.log):
        raise SaveError(path, "cursor", f"0..{len(enc.log)} (the number of log entries)")
    return enc


def _invalid(
    path: Path, exc: ValidationError, data: dict[str, Any], prefix: tuple[Any, ...] = ()
) -> SaveError:
    err = exc.errors()[0]
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    got = err.get("input")
    shown = "" if isinstance(got, (dict, list)) else f", found {got!r}"
    return SaveError(path, _loc(prefix + tuple(err["loc"]), data), f"{err['msg']}{shown}{more}")


_ENTRIES: TypeAdapter[list[LogEntry]] = TypeAdapter(list[LogEntry])


def journal_folder(path: Path) -> Path:
    """Where a save's journal lives: beside it (a backup's is beside the save it came from)."""
    folder = path.parent
    return folder.parent if folder.name == BACKUP_DIR else folder


def _read_log(raw: Any, path: Path) -> Log:
    """The ``log`` of a save: inline ``[[log]]`` tables, or a ``[log]`` table naming a journal."""
    if raw is None:
        return Log()
    if isinstance(raw, list):
        try:
            return Log(_ENTRIES.validate_python(raw))
        except ValidationError as exc:
            raise _invalid(path, exc, {"log": raw}, ("log",)) from None
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
    if count == 0:
        log = Log()
        log.journal = name
        return log
    if not name:
        raise SaveError(path, "log.journal", "the journal's file name (the log has entries)")
    reader = journal.JournalReader(journal_folder(path) / name)
    try:
        n, before, entry = reader.read(head)
    except LogError as exc:
        raise SaveError(path, "log.head", f"the newest log entry: {exc}") from None
    if n != count - 1:
        raise SaveError(path, "log.head", f"entry {count} of the log, found entry {n + 1}")
    log = Log.on_journal(reader, name, count - 1, before)
    log.append_written(entry, head)
    return log


def load_encounter(path: Path | str, model_for: ModelFor) -> Encounter:
    """Read and validate a save; any problem is a SaveError and the file is left alone."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(path, "", "no such file") from None
    except IsADirectoryError:
        raise SaveError(path, "", "a file, found a folder") from None
    except OSError as exc:
        raise SaveError(path, "", f"a readable file ({exc.strerror})") from None
    try:
        data = tomli.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveError(path, "", "UTF-8 text") from None
    except tomli.TOMLDecodeError as exc:
        raise SaveError(path, "", f"valid TOML ({exc})") from None
    return parse_encounter(data, path, model_for)


# --- writing ------------------------------------------------------------------------------


ITEM_LISTS = ("combatants", "units")
"""Lists written as arrays of tables, one ``[[...]]`` per item, whose text is kept."""

# tomli_w's own table writer (tomli-w 1.x): the text of one item is the text it gives for
# that item inside the whole document, so kept items join into the same bytes.
_FAST = all(
    hasattr(toml_writer, name)
    for name in ("Context", "gen_table_chunks", "is_suitable_inline_table", "is_aot",
                 "format_key_part", "format_literal")
)


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
            # a context per item: tomli_w keys its inline-table cache by id()
            ctx = toml_writer.Context(False, 4)
            text = "".join(toml_writer.gen_table_chunks(data, ctx, name=name, inside_aot=True))
            held = (model, data, text, toml_writer.is_suitable_inline_table(data, ctx))
        new[id(model)] = held
        texts.append(held[2])
        all_inline = all_inline and held[3]
    written.items[name] = new
    return texts, all_inline


def dump_state(enc: Encounter) -> str:
    """The state's TOML without its log: ``schema`` first, no nulls, no default values.

    The text is that of ``tomli_w.dumps``, but the text of units and combatants written
    before is reused, so the autosave of a large battle only formats what changed.
    """
    body = enc.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    body.update(name=enc.name, ruleset=enc.ruleset)  # a ruleset's model defaults its id
    doc: dict[str, Any] = {"schema": SCHEMA_VERSION}
    for key in type(enc).model_fields:
        if key in body:
            doc[key] = body[key]
    if not _FAST:
        return tomli_w.dumps(doc)
    with _written_lock:
        written = _written.get(id(enc))
        if written is None or written.enc is not enc:
            if len(_written) >= 4:
                _written.pop(next(iter(_written)))
            written = _written[id(enc)] = _Written(enc)
        return _dump(doc, written)


def _dump(doc: dict[str, Any], written: _Written) -> str:
    """``tomli_w``'s top level: plain values first, then tables and arrays of tables."""
    enc = written.enc
    ctx = toml_writer.Context(False, 4)
    literals: list[str] = []
    tables: list[str] = []
    for key, value in doc.items():
        models = getattr(enc, key) if key in ITEM_LISTS else None
        if models:
            texts, all_inline = _item_texts(written, key, models, value)
            if not all_inline:
                tables += texts
                continue
        if isinstance(value, Mapping):
            tables.append("".join(toml_writer.gen_table_chunks(value, ctx, name=key)))
        elif toml_writer.is_aot(value) and not all(
            toml_writer.is_suitable_inline_table(t, ctx) for t in value
        ):
            tables += [
                "".join(toml_writer.gen_table_chunks(t, ctx, name=key, inside_aot=True))
                for t in value
            ]
        else:
            literals.append(
                f"{toml_writer.format_key_part(key)} = {toml_writer.format_literal(value, ctx)}\n"
            )
    head = "".join(literals)
    return head + ("\n" if head and tables else "") + "\n".join(tables)


@dataclass
class Snapshot:
    """One save, taken under the session's lock; writing it needs no lock.

    ``entries`` are the log entries not in the journal yet (the first is entry
    ``index``, linked to the record at ``before``); ``head`` is the newest record's
    offset when nothing is pending.
    """

    state: str
    log: Log
    journal: Path
    index: int
    before: int
    entries: list[LogEntry]
    count: int
    head: int


def snapshot(enc: Encounter, path: Path) -> Snapshot:
    log = enc.log
    folder = journal_folder(path)
    with log.lock:
        bound = getattr(log.source, "path", None)
        if bound is not None and Path(bound) != folder / log.journal:
            log.detach()  # saved somewhere else: that folder gets a journal of its own
        if not log.journal:
            log.journal = journal.journal_name(path)
        index, before, entries = log.pending()
        return Snapshot(dump_state(enc), log, folder / log.journal, index, before, entries,
                        len(log), log.head())


def write_snapshot(snap: Snapshot, path: Path, backups: int = 5) -> None:
    """Append the new log entries to the journal (fsynced), then write the state."""
    head = snap.head
    if snap.entries:
        offsets = journal.append(snap.journal, snap.index, snap.before, snap.entries)
        with snap.log.lock:
            snap.log.mark_written(snap.index, snap.entries, offsets)
            if snap.log.source is None:
                snap.log.source = journal.JournalReader(snap.journal)
        head = offsets[-1]
    table = {"journal": snap.journal.name, "count": snap.count, "head": head if snap.count else -1}
    text = snap.state.rstrip("\n") + "\n\n" + tomli_w.dumps({"log": table})
    save_bytes(text.encode("utf-8"), path, backups)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` so that ``path`` holds either the old bytes or the new, never half."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def backup_paths(path: Path, keep: int) -> list[Path]:
    folder = path.parent / BACKUP_DIR
    return [folder / f"{path.stem}.{n}{path.suffix}" for n in range(1, keep + 1)]


def rotate_backups(path: Path, keep: int) -> None:
    """Shift the ring (1 is the newest) and copy the current save into slot 1."""
    if keep <= 0 or not path.exists():
        return
    ring = backup_paths(path, keep)
    ring[0].parent.mkdir(exist_ok=True)
    for older, newer in zip(reversed(ring[1:]), reversed(ring[:-1]), strict=True):
        if newer.exists():
            os.replace(newer, older)
    ring[0].unlink(missing_ok=True)
    try:
        # the save is about to be replaced by a new file, so a second name for the
        # current one is a backup that costs no copy
        os.link(path, ring[0])
    except OSError:
        write_atomic(ring[0], path.read_bytes())


def save_encounter(enc: Encounter, path: Path | str, backups: int = 5) -> None:
    """Save atomically (journal first, then the state), keeping ``backups`` previous states."""
    write_snapshot(snapshot(enc, Path(path)), Path(path), backups)


def save_bytes(data: bytes, path: Path, backups: int = 5) -> None:
    if path.exists() and backups > 0:
        try:
            # only a file of the same size can hold the same bytes: skip reading the rest
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                return
        except OSError:
            pass
        rotate_backups(path, backups)
    write_atomic(path, data)


@dataclass(frozen=True)
class Marks:
    """Where a save stands, read without parsing the rest of it: how many log entries are
    applied, and its journal's name, length and newest record."""

    cursor: int
    journal: str
    count: int
    head: int


def read_marks(path: Path) -> Marks | None:
    """The marks of a save as :func:`write_snapshot` writes it (top-level values first,
    the ``[log]`` table last); None for a save that keeps its log inline or cannot be read
    that way (read it whole then)."""
    import re

    try:
        data = path.read_bytes()
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
