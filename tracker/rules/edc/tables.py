"""The edc tables (``tables.toml`` beside this file), validated when a roll first reads
them: the difficult-terrain TNs, the multiple-opponents TNs, the Combat Pool (CP)
modifiers, the reach penalty, the missile evasion DTNs, the gaits and riding maneuvers.

Imported by the actions inside their methods, so that ``tracker resolve`` reads a table
only for a roll that needs it; the names the tables use are the choices in ``common.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tracker.core.tables import load_table
from tracker.rules.errors import RuleError

from .common import EVASIONS, GAITS, MANEUVERS, MOVEMENTS, TERRAINS

TABLES_FILE = Path(__file__).with_name("tables.toml")

Dash = Literal["-"]
"""A dash in a printed table: no value there."""


@dataclass(frozen=True, slots=True)
class TerrainRow:
    """A row of the difficult-terrain table: the TN in each column, or a dash."""

    names: tuple[str, ...]
    """The choices that read this row (``swampy``, ``rocky``)."""
    tn: tuple[int | Dash, ...]
    text: str = ""


@dataclass(frozen=True, slots=True)
class Terrain:
    """Terrain Rolls - Difficult Terrain."""

    columns: tuple[str, ...]
    movements: dict[str, str]
    """Each movement a roll may name, and the column it reads."""
    rows: tuple[TerrainRow, ...]

    def __post_init__(self) -> None:
        for move, column in self.movements.items():
            if column not in self.columns:
                raise ValueError(f"movement {move} reads a column not in {self.columns}")
        seen: set[str] = set()
        for row in self.rows:
            if len(row.tn) != len(self.columns):
                raise ValueError(f"row {row.names[0] if row.names else '?'} has {len(row.tn)}"
                                 f" TNs for {len(self.columns)} columns")
            twice = seen.intersection(row.names)
            if twice:
                raise ValueError(f"terrain {sorted(twice)[0]} is in two rows")
            seen.update(row.names)
        same_words("rows", [n for row in self.rows for n in row.names], TERRAINS)
        same_words("movements", list(self.movements), MOVEMENTS)


@dataclass(frozen=True, slots=True)
class OpponentsRow:
    """A row of the multiple-opponents table: from how many opponents, its TNs."""

    at_least: int
    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Opponents:
    """Terrain Rolls - Multiple Opponents."""

    most_faced: int
    most_faced_small: int
    rows: tuple[OpponentsRow, ...]

    def __post_init__(self) -> None:
        starts = [r.at_least for r in self.rows]
        if starts != sorted(set(starts)) or not starts or starts[0] < 2:
            raise ValueError("rows must start at 2 or more opponents, in rising order")


@dataclass(frozen=True, slots=True)
class Cut:
    """Dice a condition takes off the pool: ``less`` dice, or 1/``fraction`` of it."""

    less: int = 0
    fraction: int = 0


@dataclass(frozen=True, slots=True)
class Pool:
    """The Combat Pool modifiers the text gives."""

    higher_footing: int
    posture_dice: int
    prone_fraction: int
    health_one_fraction: int
    lighting: dict[str, Cut]


@dataclass(frozen=True, slots=True)
class Reach:
    """Weapon length: the CP lost per step of reach against a longer weapon."""

    penalty_per_step: int


@dataclass(frozen=True, slots=True)
class Missile:
    """Missile defences."""

    evade: dict[str, int]
    """DTN of each evasion against a missile."""

    def __post_init__(self) -> None:
        same_words("evade", list(self.evade), EVASIONS)


@dataclass(frozen=True, slots=True)
class Gait:
    """A gait: its move (times the mount's Move) and its step."""

    name: str
    move: float
    """Times the mount's Move."""
    step: int


@dataclass(frozen=True, slots=True)
class Maneuver:
    """A riding maneuver: steps of gait it changes, and whether it is free."""

    name: str
    steps: int = 0
    free: bool = False
    """A skilled rider out of combat needs no check."""


@dataclass(frozen=True, slots=True)
class Ride:
    """Gaits and riding maneuvers."""

    ride_by: tuple[str, ...]
    gaits: tuple[Gait, ...]
    maneuvers: tuple[Maneuver, ...]

    def __post_init__(self) -> None:
        names = [g.name for g in self.gaits]
        same_words("gaits", names, GAITS)
        same_words("maneuvers", [m.name for m in self.maneuvers], MANEUVERS)
        for gait in self.ride_by:
            if gait not in names:
                raise ValueError(f"ride_by names {gait}, not a gait ({', '.join(names)})")


@dataclass(frozen=True, slots=True)
class Tables:
    """Every table of ``tables.toml``."""

    schema: int
    terrain: Terrain
    opponents: Opponents
    pool: Pool
    reach: Reach
    missile: Missile
    ride: Ride


def same_words(key: str, found: list[str], choices: tuple[str, ...]) -> None:
    """The table names each choice an action offers, once, and nothing else."""
    extra = [w for w in found if w not in choices]
    if extra:
        raise ValueError(f"{key}: '{extra[0]}' is not one of {', '.join(choices)}")
    left = [w for w in choices if w not in found]
    if left:
        raise ValueError(f"{key}: no entry for {', '.join(left)}")


def tables() -> Tables:
    return load_table(Tables, TABLES_FILE)


# --- lookups -----------------------------------------------------------------------------


def terrain_tn(terrain: str, movement: str) -> int:
    """TN of a difficult-terrain roll (Terrain Rolls - Difficult Terrain)."""
    t = tables().terrain
    row = next((r for r in t.rows if terrain in r.names), None)
    if row is None:
        raise RuleError(f"terrain '{terrain}': one of {', '.join(TERRAINS)}")
    column = t.movements.get(movement)
    if column is None:
        raise RuleError(f"movement '{movement}': one of {', '.join(t.movements)}")
    tn = row.tn[t.columns.index(column)]
    if tn == "-":
        raise RuleError(f"{terrain} has no TN when {movement} (only normal/defending and faster)")
    return tn


def opponents_tns(n: int, column: str) -> tuple[int, int]:
    """(outnumbered fighter's TN, opponents' TN) for ``n`` opponents."""
    rows = [r for r in tables().opponents.rows if n >= r.at_least]
    if not rows:
        raise RuleError("opponents: at least 2 opponents")
    first, second = rows[-1].first, rows[-1].second
    return (first, second) if column == "lone_first" else (second, first)


def most_faced(small_foes: bool) -> int:
    o = tables().opponents
    return o.most_faced_small if small_foes else o.most_faced


def gait(name: str) -> Gait:
    for g in tables().ride.gaits:
        if g.name == name:
            return g
    raise RuleError(f"gait '{name}': one of {', '.join(GAITS)}")


def maneuver(name: str) -> Maneuver:
    for m in tables().ride.maneuvers:
        if m.name == name:
            return m
    raise RuleError(f"maneuver '{name}': one of {', '.join(MANEUVERS)}")


def gait_after(now: str, name: str) -> str:
    """The gait after a maneuver: steps up or down, between standing and the fastest."""
    gaits = tables().ride.gaits
    top = max(g.step for g in gaits)
    step = max(0, min(top, gait(now).step + maneuver(name).steps))
    return next(g.name for g in gaits if g.step == step)
