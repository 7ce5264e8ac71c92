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

A key names one role. A file that does not read this way is refused with the file, the
key path and what was expected, before the server listens.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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

    def role_of(self, blob: str) -> Role | None:
        return self.roles.get(blob)

    @property
    def sides(self) -> list[str]:
        return sorted({r.side for r in self.roles.values() if r.side})

    def count(self, kind: str) -> int:
        return sum(1 for r in self.roles.values() if r.kind == kind)


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
    import asyncssh

    try:
        asyncssh.import_public_key(f"{kind} {blob}")
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise ValueError(f"a public key asyncssh can read ({exc})") from None
    return blob


def _keys(path: Path, where: str, table: Any) -> list[tuple[str, str]]:
    if not isinstance(table, dict):
        raise AccessError(path, where, "a table with keys = [...]")
    allowed_keys = {"keys", "open"} if where == "spectators" else {"keys"}
    unknown = sorted(set(table) - allowed_keys)
    if unknown:
        allowed = "keys and open" if where == "spectators" else "keys"
        raise AccessError(path, f"{where}.{unknown[0]}", f"only {allowed}")
    keys = table.get("keys", [])
    if not isinstance(keys, list):
        raise AccessError(path, f"{where}.keys", "a list of public key lines")
    out = []
    for i, line in enumerate(keys):
        at = f"{where}.keys[{i}]"
        if not isinstance(line, str):
            raise AccessError(path, at, f"a public key line in quotes, found {line!r}")
        try:
            out.append((at, key_blob(line)))
        except ValueError as exc:
            shown = line if len(line) < 40 else line[:37] + "..."
            raise AccessError(path, at, f"{exc}, found {shown!r}") from None
    return out


def read_access(path: Path | str) -> Access:
    import tomli

    path = Path(path)
    try:
        data = tomli.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise AccessError(path, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AccessError(path, "", f"a readable UTF-8 file ({exc})") from None
    except tomli.TOMLDecodeError as exc:
        raise AccessError(path, "", f"valid TOML ({exc})") from None
    unknown = sorted(set(data) - {"gm", "sides", "spectators"})
    if unknown:
        raise AccessError(path, unknown[0], "only [gm], [sides.NAME] and [spectators] tables")
    access = Access(path)
    found: list[tuple[str, str, Role]] = [
        (at, blob, Role(GM)) for at, blob in _keys(path, "gm", data.get("gm", {}))
    ]
    sides = data.get("sides", {})
    if not isinstance(sides, dict):
        raise AccessError(path, "sides", "[sides.NAME] tables, one for each side")
    for name, table in sides.items():
        found += [(at, blob, Role("side", name))
                  for at, blob in _keys(path, f"sides.{name}", table)]
    spectators = data.get("spectators", {})
    found += [(at, blob, Role(SPECTATOR)) for at, blob in _keys(path, "spectators", spectators)]
    opened = spectators.get("open", False) if isinstance(spectators, dict) else False
    if not isinstance(opened, bool):
        raise AccessError(path, "spectators.open", f"true or false, found {opened!r}")
    access.open_spectators = opened
    first: dict[str, str] = {}
    for at, blob, role in found:
        if blob in first:
            raise AccessError(path, at, f"a key of one role only (it is also at {first[blob]})")
        first[blob] = at
        access.roles[blob] = role
    if not access.roles and not opened:
        raise AccessError(path, "gm.keys", "at least one key (no one could connect)")
    return access
