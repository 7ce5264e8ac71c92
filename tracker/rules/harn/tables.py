"""The Missile Sequence tables (``tables.toml`` beside this file), validated on first use:
Missile Actions, Missile Range (BR bands), missile skill by weapon, the test's limits and
the situational modifiers as rows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tracker.core.tables import Modifier, load_table
from tracker.rules.errors import RuleError

from .kinds import WEAPONS

TABLES_FILE = Path(__file__).with_name("tables.toml")



@dataclass(frozen=True, slots=True)
class MissileAction:
    """A row of the Missile Actions table."""

    weapons: tuple[str, ...]
    action: str
    movement: str
    time: str
    defence: str


@dataclass(frozen=True, slots=True)
class Band:
    """A row of the Missile Range table."""

    attack_type: str
    label: str
    multiple: float
    """Of the Base Range (BR): the band reaches BR x this (halves and whole numbers, which
    floats hold exactly)."""
    modifier: int
    zd: int
    impact: int
    charge: int | None = None
    """Impact modifier of a Charging Throw (None: no charging throw at this range)."""
    area: str = ""
    """What a Volley attack aims at (15'd); empty for Direct attacks."""
    thrown_weapon_zd: bool = False
    """Thrown weapons use their own ZD (Thrown Weapon table) at this range."""

    @property
    def volley(self) -> bool:
        return bool(self.area)

    def reach(self, br: float) -> float:
        return br * self.multiple


@dataclass(frozen=True, slots=True)
class Limits:
    volley_min_overhead: int
    charge_min_range: int
    aim_pull_over_draw: int
    """A bow may be aimed only if Pull exceeds Draw by at least this."""


@dataclass(frozen=True, slots=True)
class Span:
    by_hand: int
    spanner: tuple[int, ...]

    @property
    def rounds(self) -> tuple[int, ...]:
        return (self.by_hand, *self.spanner)


@dataclass(frozen=True, slots=True)
class Weapon:
    """A row of the missile skill table."""

    skill: str
    ml_field: str
    verb: str
    sb_multiple: int = 0


@dataclass(frozen=True, slots=True)
class Test:
    eml_min: int
    eml_max: int
    critical_multiple: int
    spoiled_at: int


@dataclass(frozen=True, slots=True)
class Tables:
    schema: int
    missile_actions: tuple[MissileAction, ...]
    bands: tuple[Band, ...]
    limits: Limits
    span: Span
    weapons: dict[str, Weapon]
    test: Test
    situational: tuple[Modifier, ...]

    def __post_init__(self) -> None:
        if not self.bands:
            raise ValueError("bands: the Missile Range table has no rows")
        reach = [b.multiple for b in self.bands]
        if reach != sorted(reach) or len(set(reach)) != len(reach):
            raise ValueError("bands: rows must go from the shortest multiple of BR up")
        missing = [w for w in WEAPONS if w not in self.weapons]
        if missing:
            raise ValueError(f"weapons: no row for {', '.join(missing)}")


def tables() -> Tables:
    return load_table(Tables, TABLES_FILE)


def fmt_num(value: float) -> int | float:
    """A number for JSON and the log: whole numbers as int."""
    return int(value) if float(value).is_integer() else value


def band_for(range_ft: int, br: float) -> Band:
    """The shortest multiple of BR that reaches the target, or RuleError beyond the last."""
    if br <= 0:
        raise RuleError("br= must be more than 0 (the weapon's Base Range in feet)")
    bands = tables().bands
    for band in bands:
        if range_ft <= band.reach(br):
            return band
    last = bands[-1]
    raise RuleError(
        f"range {range_ft} ft is out of range: beyond {fmt_num(last.multiple)} x BR "
        f"({fmt_num(last.reach(br))} ft)"
    )


def weapon(kind: str) -> Weapon:
    return tables().weapons[kind]


def missile_action(kind: str, action: str) -> MissileAction:
    """The Missile Actions row of ``action`` with a weapon of ``kind``."""
    for row in tables().missile_actions:
        if row.action == action and kind in row.weapons:
            return row
    raise RuleError(f"{action}: a {kind} has no such action (Missile Actions table)")


ATTACKS = frozenset({"missile", "fire", "shoot", "throw", "charge"})
"""The actions that are a missile attack."""


def attack_row(kind: str, action: str) -> MissileAction:
    """The Missile Actions row of an attack: ``missile`` and ``fire`` are the weapon's own
    (a throw with a thrown weapon, else a shot)."""
    if action in ("missile", "fire"):
        action = "throw" if kind == "thrown" else "shoot"
    return missile_action(kind, action)


def row_for(kind: str, action: str) -> MissileAction | None:
    """The Missile Actions row of any action (None: not in the table, or ``defend``)."""
    try:
        return attack_row(kind, action) if action in ATTACKS else missile_action(kind, action)
    except RuleError:
        return None


def abandonable() -> frozenset[str]:
    """Actions that induce the Ignore defence: they may be abandoned to defend normally."""
    return frozenset(r.action for r in tables().missile_actions if r.defence == "ignore")


def check_aim(kind: str, pull: int | None, draw: int | None, what: str) -> None:
    """A sling has no Aim action; a bow may be aimed only if Pull exceeds Draw by 75."""
    if kind == "sling":
        raise RuleError(f"{what}: a sling has no Aim action")
    need = tables().limits.aim_pull_over_draw
    if kind == "bow" and pull is not None and draw is not None and pull - draw < need:
        raise RuleError(
            f"{what}: a bow may be aimed only if Pull exceeds Draw by {need} (Pull {pull}, "
            f"Draw {draw})"
        )
