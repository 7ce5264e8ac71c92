"""The d6battle tables, as TOML files beside this module, validated on first use.

``weapons.toml`` (the weapon table and its special-rule lines), ``armour.toml`` (armour
save values), ``shooting.toml`` (mass shooting, impossible odds, the shooting modifiers as
rows), ``morale.toml`` (morale tests from shooting casualties) and ``combat.toml`` (combat
bonuses as rows, push & shove, the combat results). No pydantic: `tracker resolve` stays
light.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from tracker.core.tables import Condition, Modifier, load_table
from tracker.rules.errors import RuleError

HERE = Path(__file__).parent
FORMATIONS: tuple[str, ...] = ("regular", "drilled", "light", "skirmish")
KINDS: tuple[str, ...] = ("infantry", "cavalry")
"""A unit's kind, which the combat bonuses read."""


def _file(name: str) -> str:
    """A table file beside this module, as text: a resolver reads its tables at every
    run (thousands a walk of the moving odds), and text costs less than a new Path."""
    return f"{HERE}/{name}"


# --- the weapon table -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Band:
    """One range band of a weapon: its reach in inches, KA and AP."""

    range: int
    ka: int
    ap: int = 0


@dataclass(frozen=True, slots=True)
class Weapon:
    """A line of the weapon table with the special rules that bind it."""

    name: str
    effective: Band
    long: Band | None = None
    """None where the text has NA: the weapon has no long range."""
    rof_stationary: int = 1
    ka_rof2: int | None = None
    rules: tuple[str, ...] = ()
    group_rules: tuple[str, ...] = ()
    """Rules that bind it only under the setting ``bows_no_move_shoot``."""
    note: str = ""
    key: str = ""
    """Its key in the table (set on load)."""

    def __post_init__(self) -> None:
        if self.long is not None and self.long.range <= self.effective.range:
            raise ValueError(f"long range {self.long.range} is not beyond effective "
                             f"{self.effective.range}")
        if self.rof_stationary < 1:
            raise ValueError(f"rof_stationary {self.rof_stationary}: expected 1 or more")

    def band(self, range_: str) -> Band:
        if range_ == "long":
            if self.long is None:
                raise RuleError(f"{self.name} has no long range (NA in the weapon table)")
            return self.long
        return self.effective

    def binds(self, rule: str, bows_no_move_shoot: bool = False) -> bool:
        """Whether a special rule binds this weapon (group rules only under the setting)."""
        return rule in self.rules or (bows_no_move_shoot and rule in self.group_rules)


@dataclass(frozen=True, slots=True)
class WeaponTable:
    rules: dict[str, str]
    """Special-rule lines by key."""
    weapons: dict[str, Weapon]

    def __post_init__(self) -> None:
        for key, w in self.weapons.items():
            for rule in (*w.rules, *w.group_rules):
                if rule not in self.rules:
                    raise ValueError(f"weapons.{key}: unknown rule '{rule}' (rules: "
                                     f"{', '.join(self.rules)})")
        keyed = {key: replace(w, key=key) for key, w in self.weapons.items()}
        object.__setattr__(self, "weapons", keyed)  # frozen: each row learns its key once


def weapon_table() -> WeaponTable:
    return load_table(WeaponTable, _file("weapons.toml"))


def _key(name: str) -> str:
    key = re.sub(r"[\s_]+", "-", name.strip().lower())
    return key.replace("armour", "armor")


def weapon(name: str) -> Weapon:
    """The weapon table line for a name typed in any case (``light-crossbow``)."""
    weapons = weapon_table().weapons
    key = _key(name)
    found = weapons.get(key) or weapons.get(key + "s")
    if found is None:
        raise RuleError(f"weapon={name}: not in the weapon table ({', '.join(weapons)})")
    return found


# --- armour -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArmourPart:
    name: str
    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError(f"value {self.value}: expected 0 or more")


@dataclass(frozen=True, slots=True)
class ArmourTable:
    armour: dict[str, ArmourPart]


def armour_table() -> ArmourTable:
    return load_table(ArmourTable, _file("armour.toml"))


def armour_part(name: str) -> tuple[str, int]:
    """An armour part's printed name and save value (``large-shield`` -> 2)."""
    parts = armour_table().armour
    part = parts.get(_key(name))
    if part is None:
        raise RuleError(f"armour {name}: not in the armour table ({', '.join(parts)})")
    return part.name, part.value


def armour_save(parts: list[str] | tuple[str, ...]) -> int:
    """The save value: the sum of the armour parts (each part counts once)."""
    seen: set[str] = set()
    total = 0
    for part in parts:
        key = _key(part)
        if key in seen:
            raise RuleError(f"armour {part}: listed twice")
        seen.add(key)
        total += armour_part(part)[1]
    return total


# --- morale tests from shooting ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoraleRow:
    size: tuple[int, int]
    """Unit sizes from..to, both included."""
    casualties: int


@dataclass(frozen=True, slots=True)
class Beyond:
    per_figures: int


@dataclass(frozen=True, slots=True)
class MoraleTable:
    rows: tuple[MoraleRow, ...]
    beyond: Beyond

    def __post_init__(self) -> None:
        last = -1
        for i, row in enumerate(self.rows):
            low, high = row.size
            if low != last + 1 or high < low:
                raise ValueError(f"rows[{i}].size {list(row.size)}: expected sizes from "
                                 f"{last + 1} up, with no gap or overlap")
            last = high
        if self.beyond.per_figures < 1:
            raise ValueError("beyond.per_figures: expected 1 or more")


def morale_table() -> MoraleTable:
    return load_table(MoraleTable, _file("morale.toml"))


def morale_casualties(unit_size: int) -> int:
    """Casualties from shooting that force a morale test for a unit of this size."""
    table = morale_table()
    for row in table.rows:
        if row.size[0] <= unit_size <= row.size[1]:
            return row.casualties
    return math.ceil(unit_size / table.beyond.per_figures)


# --- shooting ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Over:
    over: int


@dataclass(frozen=True, slots=True)
class Under:
    under: int


@dataclass(frozen=True, slots=True)
class ImpossibleOdds:
    below: int
    needed: int
    ka: int


@dataclass(frozen=True, slots=True)
class ShootingTable:
    mass: Over
    stand_and_shoot: Under
    impossible_odds: ImpossibleOdds
    modifiers: tuple[Modifier, ...]


def shooting_table() -> ShootingTable:
    return load_table(ShootingTable, _file("shooting.toml"))


# --- combat -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankBonus:
    figures: int
    """Figures a rank needs to count."""
    max: dict[str, int]
    """Highest rank bonus by formation."""

    def __post_init__(self) -> None:
        missing = [f for f in FORMATIONS if f not in self.max]
        if missing:
            raise ValueError(f"rank.max: no value for {', '.join(missing)}")


@dataclass(frozen=True, slots=True)
class PushShove:
    win: int


@dataclass(frozen=True, slots=True)
class Destroyed:
    when: dict[str, Condition] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CombatTable:
    rank: RankBonus
    bonuses: tuple[Modifier, ...]
    push_shove: PushShove
    stands: tuple[Modifier, ...]
    """A loser that fails its test stands when a row applies; the value is the winner's
    push & shove bonus."""
    destroyed: Destroyed


def combat_table() -> CombatTable:
    return load_table(CombatTable, _file("combat.toml"))
