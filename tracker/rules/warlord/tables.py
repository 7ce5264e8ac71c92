"""The Fantasy Warlord fire table (``tables.toml`` beside this file), validated on first use."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tracker.core.tables import load_table

TABLES_FILE = Path(__file__).with_name("tables.toml")

RANGES = ("short", "medium", "long")


@dataclass(frozen=True, slots=True)
class Targets:
    most: int
    """Different targets a unit may fire on in one turn."""


@dataclass(frozen=True, slots=True)
class Kills:
    per: int
    """Percent of the FFP that kills one figure."""


@dataclass(frozen=True, slots=True)
class Tables:
    schema: int
    range_divisor: dict[str, int]
    """The FFP is divided by this at each range band."""
    targets: Targets
    kills: Kills


def tables() -> Tables:
    return load_table(Tables, TABLES_FILE)


def range_divisor(band: str) -> int:
    return tables().range_divisor[band]


def max_targets() -> int:
    return tables().targets.most
