"""d6battle tables as data: weapons (range, KA, AP, special rules), armour save values,
and the casualties that force a morale test from shooting.

The tables live in ``tracker/rules/data/d6battle_weapons.toml`` and
``d6battle_tables.toml``; they are read once, on import.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import tomli

from tracker.rules.base import RuleError

FORMATIONS: tuple[str, ...] = ("regular", "drilled", "light", "skirmish")

DATA = Path(__file__).resolve().parent.parent / "data"


@dataclass(frozen=True)
class Band:
    """One range band of a weapon: its reach in inches, KA and AP."""

    range: int
    ka: int
    ap: int


@dataclass(frozen=True)
class Weapon:
    """A line of the weapon table with its special rules."""

    key: str
    name: str
    effective: Band
    long: Band | None
    rof_stationary: int
    ka_rof2: int | None
    rules: frozenset[str]
    group_rules: frozenset[str]
    note: str

    def band(self, range_: str) -> Band:
        if range_ == "long":
            if self.long is None:
                raise RuleError(f"{self.name} has no long range (NA in the weapon table)")
            return self.long
        return self.effective

    def binds(self, rule: str, bows_no_move_shoot: bool = False) -> bool:
        """Whether a special rule binds this weapon (group rules only under the setting)."""
        return rule in self.rules or (bows_no_move_shoot and rule in self.group_rules)


def _band(raw: dict[str, int]) -> Band:
    return Band(int(raw["range"]), int(raw["ka"]), int(raw.get("ap", 0)))


def _load() -> tuple[dict[str, Weapon], dict[str, str], dict[str, tuple[str, int]], list]:
    with open(DATA / "d6battle_weapons.toml", "rb") as f:
        wdata = tomli.load(f)
    with open(DATA / "d6battle_tables.toml", "rb") as f:
        tdata = tomli.load(f)
    weapons: dict[str, Weapon] = {}
    for key, w in wdata["weapons"].items():
        weapons[key] = Weapon(
            key=key,
            name=w["name"],
            effective=_band(w["effective"]),
            long=_band(w["long"]) if "long" in w else None,
            rof_stationary=int(w.get("rof_stationary", 1)),
            ka_rof2=int(w["ka_rof2"]) if "ka_rof2" in w else None,
            rules=frozenset(w.get("rules", [])),
            group_rules=frozenset(w.get("group_rules", [])),
            note=w.get("note", ""),
        )
    armour = {k: (v["name"], int(v["value"])) for k, v in tdata["armour"].items()}
    morale = [
        (r["size"][0], r["size"][1], int(r["casualties"])) for r in tdata["morale_from_shooting"]
    ]
    return weapons, dict(wdata["rules"]), armour, morale


WEAPONS, SPECIAL_RULES, ARMOUR, MORALE_FROM_SHOOTING = _load()


def _key(name: str) -> str:
    key = re.sub(r"[\s_]+", "-", name.strip().lower())
    return key.replace("armour", "armor")


def weapon(name: str) -> Weapon:
    """The weapon table line for a name typed in any case (``light-crossbow``)."""
    key = _key(name)
    found = WEAPONS.get(key) or WEAPONS.get(key + "s")
    if found is None:
        raise RuleError(f"weapon={name}: not in the weapon table ({', '.join(WEAPONS)})")
    return found


def armour_part(name: str) -> tuple[str, int]:
    """An armour part's printed name and save value (``large-shield`` -> 2)."""
    key = _key(name)
    if key not in ARMOUR:
        raise RuleError(f"armour {name}: not in the armour table ({', '.join(ARMOUR)})")
    return ARMOUR[key]


def armour_save(parts: list[str]) -> int:
    """The save value: the sum of the armour parts (each part counts once)."""
    keys = [_key(p) for p in parts]
    seen: set[str] = set()
    total = 0
    for part, key in zip(parts, keys, strict=True):
        if key in seen:
            raise RuleError(f"armour {part}: listed twice")
        seen.add(key)
        total += armour_part(part)[1]
    return total


def morale_casualties(unit_size: int) -> int:
    """Casualties from shooting that force a morale test for a unit of this size."""
    for low, high, casualties in MORALE_FROM_SHOOTING:
        if low <= unit_size <= high:
            return casualties
    # Past the printed table: one more casualty per 5 figures, as its rows do.
    return math.ceil(unit_size / 5)
