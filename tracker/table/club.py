"""A club's server: the tables one server holds, and which of them a key may join.

`tracker serve FILE` is a club of one table; `tracker serve FOLDER` serves every
encounter in the folder that has an access file beside it (``NAME.access.toml`` for
``NAME.toml``), each with its own GM. A key of several tables is asked which first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tracker.table.access import SPECTATOR, Access, AccessError, Role, read_access
from tracker.table.table import Table

ACCESS_SUFFIX = ".access.toml"


@dataclass(frozen=True)
class Choice:
    """A table a connection may sit at, and as what."""

    table: Table
    role: Role

    def describe(self) -> str:
        return f"{self.table.name} ({self.role.describe()})"


@dataclass
class Club:
    tables: list[Table] = field(default_factory=list)

    def choices(self, blob: str | None) -> list[Choice]:
        """Where a key (None: no key) may sit: each table whose access file names it, or,
        for any other key, the open tables as a spectator."""
        named = [Choice(t, role) for t in self.tables
                 if blob is not None and (role := t.access.role_of(blob)) is not None]
        if named:
            return named
        return [Choice(t, Role(SPECTATOR)) for t in self.tables if t.access.open_spectators]

    @property
    def anyone_may_watch(self) -> bool:
        return any(t.access.open_spectators for t in self.tables)


def club_saves(folder: Path) -> list[tuple[Path, Path]]:
    """Each encounter in ``folder`` with an access file beside it: (save, access file)."""
    found = []
    for access in sorted(folder.glob(f"*{ACCESS_SUFFIX}")):
        save = access.with_name(access.name.removesuffix(ACCESS_SUFFIX) + ".toml")
        if not save.is_file():
            raise AccessError(access, "", f"an encounter beside it ({save.name} is not there)")
        found.append((save, access))
    return found


def read_club(folder: Path) -> list[tuple[Path, Access]]:
    """Each encounter of the folder with its access file read (AccessError if one is bad)."""
    return [(save, read_access(access)) for save, access in club_saves(folder)]
