"""The access file of a table server: which public key plays which role.

```toml
[gm]
keys = ["ssh-ed25519 AAAA... gm@laptop"]
[sides.English]
keys = ["ssh-ed25519 AAAA... alice"]
[spectators]
keys = ["ssh-ed25519 AAAA... bob"]
open = false   # true: anyone may watch the public view without a key
```

A key names one role. The file is trusted as sshd trusts ``authorized_keys``: one that
another user could write (group or others may write it or its folder, or it belongs to
someone else) is refused, and so is one that does not read this way, each with the file,
the key path and what was expected, before the server listens.
"""

from __future__ import annotations

import base64
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import asyncssh
import tomli
from pydantic import AfterValidator, BaseModel, ConfigDict, StrictBool, ValidationError

GM = "gm"
SPECTATOR = "spectator"


class AccessError(Exception):
    """An access file that cannot be used: which file, where in it, what was expected."""

    def __init__(self, path: Path, key: str, expected: str) -> None:
        self.path, self.key, self.expected = path, key, expected.replace("\n", "\\n")
        super().__init__(f"{path}{f' at {key}' if key else ''}: {self.expected}")


@dataclass(frozen=True)
class Role:
    """What a connection gets: the GM's app, one side's view, or the public view."""

    kind: str
    """``gm``, ``side`` or ``spectator``."""
    side: str | None = None

    def describe(self) -> str:
        return f"side {self.side}" if self.kind == "side" else self.kind


@dataclass
class Access:
    """Public keys (their base64 blob, which identifies a key) by role."""

    path: Path
    roles: dict[str, Role] = field(default_factory=dict)
    open_spectators: bool = False
    digest: str = ""
    """A hash of the file as read: the browser addresses stay while it does."""
    named_sides: list[str] = field(default_factory=list)
    """Every ``[sides.NAME]`` table of the file, with keys or not."""

    def role_of(self, blob: str) -> Role | None:
        return self.roles.get(blob)

    @property
    def sides(self) -> list[str]:
        return sorted({r.side for r in self.roles.values() if r.side})

    def count(self, kind: str) -> int:
        return sum(1 for r in self.roles.values() if r.kind == kind)

    def unknown_sides(self, sides: set[str]) -> list[str]:
        """Sides this file names (a table with no keys yet too) that the encounter (with
        ``sides``) does not have."""
        return [s for s in sorted({*self.sides, *self.named_sides}) if s not in sides]


def key_blob(line: str) -> str:
    """The base64 part of an OpenSSH public key line, checked to be a key of its type."""
    parts = line.split()
    if len(parts) < 2:
        raise ValueError("an OpenSSH public key line (ssh-ed25519 AAAA... comment)")
    kind, blob = parts[0], parts[1]
    try:
        raw = base64.b64decode(blob, validate=True)
    except ValueError:
        raise ValueError(f"base64 key data after {kind}") from None
    name_len = int.from_bytes(raw[:4], "big")
    if raw[4 : 4 + name_len].decode("ascii", "replace") != kind:
        raise ValueError(f"a {kind} key (the key data says otherwise)")
    try:
        asyncssh.import_public_key(f"{kind} {blob}")
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise ValueError(f"a public key asyncssh can read ({exc})") from None
    return blob


PublicKey = Annotated[str, AfterValidator(key_blob)]


class _Keys(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    keys: list[PublicKey] = []


class _Spectators(_Keys):
    open: StrictBool = False


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    gm: _Keys = _Keys()
    sides: dict[str, _Keys] = {}
    spectators: _Spectators = _Spectators()


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _expected(err: Any, data: Any) -> str:
    """What the file should say where pydantic found it does not."""
    loc, kind = tuple(err["loc"]), err["type"]
    found = err.get("input")
    if kind == "extra_forbidden":
        if len(loc) == 1:
            return "only [gm], [sides.NAME] and [spectators] tables"
        return "only keys and open" if loc[0] == "spectators" else "only keys"
    if kind == "value_error":
        shown = found if not isinstance(found, str) or len(found) < 40 else found[:37] + "..."
        return f"{err['ctx']['error']}, found {shown!r}"
    if loc[-1] == "keys":
        return "a list of public key lines"
    if loc and loc[-1] == "open":
        return f"true or false, found {found!r}"
    if len(loc) >= 2 and loc[-2] == "keys":
        return f"a public key line in quotes, found {found!r}"
    if loc == ("sides",) or (len(loc) == 2 and loc[0] == "sides"):
        return "[sides.NAME] tables, one for each side"
    return "a table with keys = [...]"


def check_trust(path: Path) -> None:
    """Refuse a file that another user could change, as sshd's StrictModes does: it and
    its folder must belong to this user (or root) and not be writable by group or others."""
    me = os.getuid()
    for where, what in ((path, "file"), (path.resolve().parent, "folder")):
        try:
            st = where.stat()
        except OSError:
            continue
        if st.st_uid not in (me, 0):
            raise AccessError(path, "", f"a {what} of your own (it belongs to uid {st.st_uid})")
        writable = st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        sticky = what == "folder" and st.st_mode & stat.S_ISVTX
        if writable and not sticky:
            mode = stat.S_IMODE(st.st_mode)
            raise AccessError(path, "", f"a {what} only you can write (it is {mode:o}: "
                              f"chmod go-w {where})")


def read_access(path: Path | str) -> Access:
    path = Path(path)
    try:
        raw = path.read_bytes()
        check_trust(path)
        data = tomli.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise AccessError(path, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AccessError(path, "", f"a readable UTF-8 file ({exc})") from None
    except tomli.TOMLDecodeError as exc:
        raise AccessError(path, "", f"valid TOML ({exc})") from None
    try:
        parsed = _File.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise AccessError(path, _where(tuple(err["loc"])), _expected(err, data)) from None
    found: list[tuple[str, str, Role]] = [
        (f"gm.keys[{i}]", blob, Role(GM)) for i, blob in enumerate(parsed.gm.keys)]
    for name, table in parsed.sides.items():
        found += [(f"sides.{name}.keys[{i}]", blob, Role("side", name))
                  for i, blob in enumerate(table.keys)]
    found += [(f"spectators.keys[{i}]", blob, Role(SPECTATOR))
              for i, blob in enumerate(parsed.spectators.keys)]
    access = Access(path, open_spectators=parsed.spectators.open,
                    digest=hashlib.sha256(raw).hexdigest(), named_sides=list(parsed.sides))
    first: dict[str, str] = {}
    for at, blob, role in found:
        if blob in first:
            raise AccessError(path, at, f"a key of one role only (it is also at {first[blob]})")
        first[blob] = at
        access.roles[blob] = role
    if not access.roles and not access.open_spectators:
        raise AccessError(path, "gm.keys", "at least one key (no one could connect)")
    return access
