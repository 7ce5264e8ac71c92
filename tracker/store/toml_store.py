"""Encounters as TOML: schema version, migration, validation with clear errors, atomic writes.

A save is written to a temp file in the same folder, flushed, fsynced, then moved over the
old one with ``os.replace``; the previous version goes into a ring of backups first. A
file that fails to load is reported (file, key path, what was expected) and never written.
"""

from __future__ import annotations

import os
import threading
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError
from tomli_w import _writer as toml_writer

from tracker.core.model import SCHEMA_VERSION, Encounter

ModelFor = Callable[[str], type[Encounter]]
BACKUP_DIR = ".tracker-backups"


class SaveError(Exception):
    """A save file that cannot be used: which file, where in it, what was expected."""

    def __init__(self, path: Path | str, key: str, expected: str) -> None:
        self.path = Path(path)
        self.key = key
        self.expected = expected
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f" at {self.key}" if self.key else ""
        return f"{self.path}{where}: {self.expected}"


# --- migrations: each takes the data of version N and returns version N + 1 ---------------

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


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
    body = {k: v for k, v in data.items() if k != "schema"}
    try:
        enc = model.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        got = err.get("input")
        shown = "" if isinstance(got, (dict, list)) else f", found {got!r}"
        raise SaveError(path, _loc(tuple(err["loc"]), body), f"{err['msg']}{shown}{more}") from None
    if not 0 <= enc.cursor <= len(enc.log):
        raise SaveError(path, "cursor", f"0..{len(enc.log)} (the number of log entries)")
    return enc


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
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveError(path, "", "UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise SaveError(path, "", f"valid TOML ({exc})") from None
    return parse_encounter(data, path, model_for)


# --- writing ------------------------------------------------------------------------------


ITEM_LISTS = ("combatants", "units", "log")
"""Lists written as arrays of tables, one ``[[...]]`` per item, whose text is kept."""

# tomli_w's own table writer (tomli-w 1.x): the text of one item is the text it gives for
# that item inside the whole document, so kept items join into the same bytes.
_FAST = all(
    hasattr(toml_writer, name)
    for name in ("Context", "gen_table_chunks", "is_suitable_inline_table", "is_aot",
                 "format_key_part", "format_literal")
)


class _Written:
    """The TOML text of each item of one encounter's lists, as last written.

    A log entry never changes once committed, so its text is kept and reused; a unit or
    combatant is reused while its data equals what was written.
    """

    def __init__(self, enc: Encounter) -> None:
        self.enc = enc
        self.items: dict[str, dict[int, tuple[Any, Any, str, bool]]] = {}


_written: dict[int, _Written] = {}
_written_lock = threading.Lock()


def _entry_mark(entry: Any) -> tuple[Any, ...]:
    return (entry.text, entry.kind, entry.round, entry.actor, entry.secret,
            len(entry.rolls), len(entry.ops))


def _item_texts(
    written: _Written, name: str, models: list[Any], plain: list[Any] | None
) -> tuple[list[str], bool]:
    """Each item's ``[[name]]`` text, and whether every item fits an inline table."""
    old = written.items.get(name, {})
    new: dict[int, tuple[Any, Any, str, bool]] = {}
    texts = []
    all_inline = True
    for i, model in enumerate(models):
        data = None if plain is None else plain[i]
        mark = _entry_mark(model) if data is None else data
        held = old.get(id(model))
        if held is None or held[0] is not model or held[1] != mark:
            if data is None:
                data = model.model_dump(mode="json", exclude_none=True)
            # a context per item: tomli_w keys its inline-table cache by id()
            ctx = toml_writer.Context(False, 4)
            text = "".join(toml_writer.gen_table_chunks(data, ctx, name=name, inside_aot=True))
            held = (model, mark, text, toml_writer.is_suitable_inline_table(data, ctx))
        new[id(model)] = held
        texts.append(held[2])
        all_inline = all_inline and held[3]
    written.items[name] = new
    return texts, all_inline


def dump_encounter(enc: Encounter) -> bytes:
    """The save's bytes: ``schema`` first, then the encounter with no null values.

    The bytes are those of ``tomli_w.dumps`` on the whole encounter, but the text of log
    entries, units and combatants written before is reused, so the autosave of a long
    battle only serialises what changed.
    """
    if not _FAST:
        body = enc.model_dump(mode="json", exclude_none=True)
        return tomli_w.dumps({"schema": SCHEMA_VERSION, **body}).encode("utf-8")
    body = enc.model_dump(mode="json", exclude_none=True, exclude={"log"})
    doc: dict[str, Any] = {"schema": SCHEMA_VERSION}
    for key in type(enc).model_fields:
        if key == "log" or key in body:
            doc[key] = body.get(key)
    with _written_lock:
        written = _written.get(id(enc))
        if written is None or written.enc is not enc:
            if len(_written) >= 4:
                _written.pop(next(iter(_written)))
            written = _written[id(enc)] = _Written(enc)
        return _dump(doc, written)


def _dump(doc: dict[str, Any], written: _Written) -> bytes:
    """``tomli_w``'s top level: plain values first, then tables and arrays of tables."""
    enc = written.enc
    ctx = toml_writer.Context(False, 4)
    literals: list[str] = []
    tables: list[str] = []
    for key, value in doc.items():
        if key == "log":
            value = []
        models = getattr(enc, key) if key in ITEM_LISTS else None
        if models:
            texts, all_inline = _item_texts(written, key, models, value if value else None)
            if not all_inline:
                tables += texts
                continue
            if key == "log":
                value = [e.model_dump(mode="json", exclude_none=True) for e in models]
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
    return (head + ("\n" if head and tables else "") + "\n".join(tables)).encode("utf-8")


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
    write_atomic(ring[0], path.read_bytes())


def save_encounter(enc: Encounter, path: Path | str, backups: int = 5) -> None:
    """Save atomically, keeping ``backups`` previous versions."""
    save_bytes(dump_encounter(enc), Path(path), backups)


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
