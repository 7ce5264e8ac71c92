"""The damage table: Shock, Pain and Blood Loss (BL) by damage type, location and wound level,
and the 2d6 missile hit locations.

The text names the Cutting, Puncture, Blunt and Generic tables without printing them, so
an example ships in ``damage.toml`` beside this file; the ``damage_table`` setting points
at a GM's own file of the same layout. Validated on first use and read again when the
file changes: an error names the file, the key and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from tracker.core.tables import TableError, load_table
from tracker.core.words import digits
from tracker.rules.errors import RuleError

from .common import DAMAGE_TYPES

DAMAGE_FILE = Path(__file__).with_name("damage.toml")
LEVELS = 5
"""Wound levels with an entry (1-5; a level-0 wound is a bruise or scratch)."""


@dataclass(frozen=True, slots=True)
class WoundRow:
    """What a wound of one level does."""

    shock: int = 0
    pain: int = 0
    blood_loss: int = 0
    knockdown: bool = False
    knockout: bool = False
    note: str = ""


@dataclass(frozen=True, slots=True)
class Location:
    """A location's columns: one entry per wound level 1-5 (missing ones count as none)."""

    shock: tuple[int, ...] = ()
    pain: tuple[int, ...] = ()
    blood_loss: tuple[int, ...] = ()
    knockdown: tuple[bool, ...] = ()
    knockout: tuple[bool, ...] = ()
    note: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for f in fields(self):
            if len(getattr(self, f.name)) > LEVELS:
                raise ValueError(f"{f.name} has more than {LEVELS} entries (levels 1-{LEVELS})")

    def __getitem__(self, column: str) -> tuple[Any, ...]:
        return tuple(getattr(self, column))

    def row(self, level: int) -> WoundRow:
        i = min(level, LEVELS) - 1
        values: dict[str, Any] = {}
        for f in fields(WoundRow):
            column = getattr(self, f.name)
            if i < len(column):
                values[f.name] = column[i]
        return WoundRow(**values)


@dataclass(frozen=True, slots=True)
class DamageTable:
    """``[TYPE.LOCATION]`` tables, and ``[missile_location]`` (2d6 roll -> location)."""

    cutting: dict[str, Location] = field(default_factory=dict)
    puncture: dict[str, Location] = field(default_factory=dict)
    blunt: dict[str, Location] = field(default_factory=dict)
    generic: dict[str, Location] = field(default_factory=dict)
    missile_location: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for roll in self.missile_location:
            if not digits(roll) or not 2 <= int(roll) <= 12:
                raise ValueError(f"missile_location: '{roll}' is not a 2d6 roll (2 to 12)")

    def __getitem__(self, name: str) -> Any:
        return getattr(self, name)

    def of_type(self, damage_type: str) -> dict[str, Location]:
        if damage_type not in DAMAGE_TYPES:
            return {}
        by_type: dict[str, Location] = getattr(self, damage_type)
        return by_type


def damage_table(path: str = "") -> DamageTable:
    """The damage table at ``path`` (empty: the example table shipped with the tracker)."""
    file = Path(path).expanduser() if path else DAMAGE_FILE
    try:
        file.stat()
        return load_table(DamageTable, file)
    except OSError as exc:
        raise RuleError(f"damage table {file}: {exc.strerror or exc}") from None
    except TableError as exc:
        where = f" at {exc.key}" if exc.key else ""
        raise RuleError(f"damage table {file}{where}: {exc.expected}") from None


def lookup(path: str, damage_type: str, location: str, level: int) -> WoundRow:
    """The table's row for a wound; level 0 has no effect."""
    if level <= 0:
        return WoundRow(note="bruise or scratch")
    by_type = damage_table(path).of_type(damage_type)
    if not by_type:
        raise RuleError(f"damage table has no {damage_type} damage")
    loc = "any" if damage_type == "generic" and "any" in by_type else location.lower()
    entry = by_type.get(loc)
    if entry is None:
        raise RuleError(
            f"damage table has no {damage_type} wound to '{location}' "
            f"(locations: {', '.join(sorted(by_type))})"
        )
    return entry.row(level)


def missile_location(path: str, roll: int) -> str:
    """The location a 2d6 missile hit location roll strikes (chest where the table is silent)."""
    return damage_table(path).missile_location.get(str(roll), "chest")
