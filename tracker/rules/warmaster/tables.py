"""The Warmaster tables (``tables.toml`` beside this file), validated on first use."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tracker.core.tables import load_table
from tracker.rules.errors import RuleError

from .domains import ARMOUR

TABLES_FILE = Path(__file__).with_name("tables.toml")


@dataclass(frozen=True, slots=True)
class ToHit:
    default: int
    cover_kinds: tuple[str, ...]
    """Kinds of target that are harder to hit in a defended or fortified position."""
    position: dict[str, int]


@dataclass(frozen=True, slots=True)
class DriveBack:
    ignored_hits: dict[str, int]
    """Hits a unit disregards for its drive back, by its position."""


@dataclass(frozen=True, slots=True)
class Tables:
    schema: int
    to_hit: ToHit
    drive_back: DriveBack


def tables() -> Tables:
    return load_table(Tables, TABLES_FILE)


def to_hit(position: str | None, target_kind: str | None) -> int:
    """Score needed to hit (Table 1)."""
    t = tables().to_hit
    if (target_kind or "infantry") not in t.cover_kinds:
        return t.default
    return t.position[position or "open"]


def ignored_hits(position: str | None) -> int:
    return tables().drive_back.ignored_hits[position or "open"]


def check_armour(armour: int | None) -> None:
    """RuleError unless ``armour`` is a Warmaster armour (0 or None: none)."""
    if armour and not ARMOUR.allows(armour):
        raise RuleError(f"armour={armour}: {ARMOUR.words()} (0 for none)")


def remove_stands(unsaved: int, stands: int, hits_per_stand: int, leftover: int) -> tuple[int, int]:
    """Stands removed and hits left over after ``unsaved`` more hits."""
    total = leftover + unsaved
    removed = min(stands, total // hits_per_stand)
    left = 0 if removed >= stands else total - removed * hits_per_stand
    return removed, left


