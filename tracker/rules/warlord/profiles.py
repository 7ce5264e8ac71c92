"""Fantasy Warlord profile sheets: ranks for firing, weapons, the BFP chart, modifiers.

The sheet is TOML data the GM can edit (``tracker/rules/data/warlord_profiles.toml`` ships
a sample one). Each race lists in ``printed`` the keys the rules text prints; every other
value is sample data, and the tracker says so next to it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Literal

import tomli
from pydantic import Field, ValidationError, field_validator

from tracker.core.model import Model
from tracker.rules.base import RuleError

SAMPLE_SHEET = Path(__file__).resolve().parent.parent / "data" / "warlord_profiles.toml"

RangeBand = Literal["short", "medium", "long"]
RANGE_DIVISOR: dict[str, int] = {"short": 1, "medium": 2, "long": 3}
"""Short range leaves the FFP as it is, medium halves it, long divides it by three."""

When = Literal[
    "", "target_moved_over", "firer_moved", "firer_trait", "target_trait", "target_mounted"
]


def parse_fraction(text: str | int | float, what: str) -> Fraction:
    """``"1/2"``, ``"0.5"`` or ``1`` as an exact fraction, or a RuleError naming ``what``."""
    try:
        value = Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        raise RuleError(f"{what}={text}: expected a fraction like 1/2") from None
    if value < 0:
        raise RuleError(f"{what}={text}: must not be negative")
    return value


class Weapon(Model):
    """One line of a race's Basic Firing Percentage (BFP) chart."""

    name: str
    short: float
    """Short range reaches this far (cm)."""
    medium: float
    long: float
    """The maximum range: a target beyond it cannot be fired on."""
    move_fire_loss: str = "0"
    """Fraction of normal movement foot figures lose when they move and fire."""
    bfp: dict[str, int] = Field(default_factory=dict)
    """BFP in percent by the target's armour class."""

    @field_validator("move_fire_loss")
    @classmethod
    def _loss_is_fraction(cls, v: str) -> str:
        loss = parse_fraction(v, "move_fire_loss")
        if loss > 1:
            raise ValueError("move_fire_loss is at most 1 (the whole move)")
        return v

    def band(self, distance: float) -> RangeBand:
        """The range band of a target ``distance`` cm away, or RuleError when out of range."""
        if distance < 0:
            raise RuleError(f"distance={distance:g}: must not be negative")
        if distance <= self.short:
            return "short"
        if distance <= self.medium:
            return "medium"
        if distance <= self.long:
            return "long"
        raise RuleError(
            f"target out of range: {distance:g} cm is beyond the {self.name}'s long range "
            f"of {self.long:g} cm"
        )


class FiringModifier(Model):
    """A named firing modifier of a race's profile sheet."""

    key: str
    name: str
    value: int
    per: Literal["", "target_rank"] = ""
    when: When = ""
    over: float = 0
    trait: str = ""

    def label(self, target_ranks: int = 1) -> tuple[str, int]:
        """The modifier as it applies: its name and its value in percent."""
        if self.per == "target_rank":
            total = self.value * target_ranks
            return f"{self.name} {self.value:+d}×{target_ranks}", total
        return self.name, self.value


class RaceProfile(Model):
    """A race's profile sheet, as far as missile fire needs it."""

    name: str
    move: float = 0
    """Normal move (cm)."""
    ranks_for_firing: int = Field(default=1, ge=0)
    weapons: dict[str, Weapon] = Field(default_factory=dict)
    modifiers: list[FiringModifier] = Field(default_factory=list)
    printed: list[str] = Field(default_factory=list)
    """Keys whose values the rules text prints; the rest is sample data."""

    def source(self, key: str) -> str:
        return "printed" if key in self.printed else "sample"

    def weapon(self, key: str) -> Weapon:
        try:
            return self.weapons[key]
        except KeyError:
            have = ", ".join(self.weapons) or "none"
            raise RuleError(
                f"{self.name} have no '{key}' on their BFP chart, so may not use it "
                f"(weapons: {have})"
            ) from None

    def modifier(self, key: str) -> FiringModifier:
        for m in self.modifiers:
            if m.key == key:
                return m
        have = ", ".join(m.key for m in self.modifiers) or "none"
        raise RuleError(f"{self.name} have no firing modifier '{key}' (modifiers: {have})")


class ProfileSheet(Model):
    """Every race's profile: the armour classes and each race's missile data."""

    schema_: int = Field(default=1, alias="schema")
    armour: dict[str, str] = Field(default_factory=dict)
    races: dict[str, RaceProfile] = Field(default_factory=dict)

    def race(self, key: str) -> RaceProfile:
        low = key.lower().replace(" ", "_")
        if low in self.races:
            return self.races[low]
        for r in self.races.values():
            if r.name.lower() == key.lower():
                return r
        raise RuleError(f"no race '{key}' on the profile sheet (races: {', '.join(self.races)})")

    def check_armour(self, key: str) -> str:
        if key not in self.armour:
            raise RuleError(
                f"no armour class '{key}' on the profile sheet (armour: {', '.join(self.armour)})"
            )
        return key

    def bfp(self, race: str, weapon: str, armour: str) -> tuple[int, str]:
        """The BFP of ``weapon`` against ``armour`` for ``race``, and "printed" or "sample"."""
        profile = self.race(race)
        w = profile.weapon(weapon)
        self.check_armour(armour)
        if armour not in w.bfp:
            raise RuleError(f"{profile.name}' {w.name} has no BFP against {armour} on the sheet")
        return w.bfp[armour], profile.source(f"weapons.{weapon}.bfp.{armour}")


_cache: dict[tuple[str, int], ProfileSheet] = {}


def load_sheet(path: str | Path = "") -> ProfileSheet:
    """The profile sheet at ``path`` (empty: the shipped sample); reread when it changes."""
    p = Path(path).expanduser() if path else SAMPLE_SHEET
    try:
        stamp = p.stat().st_mtime_ns
    except OSError:
        raise RuleError(f"profile sheet {p} cannot be read") from None
    key = (str(p), stamp)
    if key not in _cache:
        try:
            data = tomli.loads(p.read_text(encoding="utf-8"))
            _cache[key] = ProfileSheet.model_validate(data)
        except tomli.TOMLDecodeError as exc:
            raise RuleError(f"profile sheet {p}: {exc}") from None
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise RuleError(f"profile sheet {p}: {where}: {err['msg']}") from None
    return _cache[key]
