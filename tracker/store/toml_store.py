"""Encounters as TOML: schema version, migration, validation with clear errors, atomic writes.

A save is written to a temp file in the same folder, flushed, fsynced, then moved over the
old one with ``os.replace``; the previous version goes into a ring of backups first. A
file that fails to load is reported (file, key path, what was expected) and never written.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError

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


def dump_encounter(enc: Encounter) -> bytes:
    """The save's bytes: ``schema`` first, then the encounter with no null values."""
    body = enc.model_dump(mode="json", exclude_none=True)
    return tomli_w.dumps({"schema": SCHEMA_VERSION, **body}).encode("utf-8")


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
            if path.read_bytes() == data:
                return
        except OSError:
            pass
        rotate_backups(path, backups)
    write_atomic(path, data)
