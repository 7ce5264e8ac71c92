"""Fantasy Warlord profile sheets: ranks for firing, weapons, the BFP chart, modifiers.

The sheet is TOML data the GM can edit (``profiles.toml`` beside this file is a sample
one; the ``profiles`` setting names another). Each race lists in ``printed`` the keys the
rules text prints; every other value is sample data, and the tracker says so next to it.
The sheet is read through :func:`tracker.core.tables.load_table`: validated on first use,
read again when it changes, no pydantic on the way to `tracker resolve`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tracker.core.tables import TableError, load_table
from tracker.core.words import possessive
from tracker.rules.errors import RuleError, find_named

from .numbers import parse_fraction

SAMPLE_SHEET = Path(__file__).with_name("profiles.toml")

RangeBand = Literal["short", "medium", "long"]

When = Literal[
    "", "target_moved_over", "firer_moved", "firer_trait", "target_trait", "target_mounted"
]


@dataclass(frozen=True, slots=True)
class Weapon:
    """One line of a race's Basic Firing Percentage (BFP) chart."""

    name: str
    short: float
    """Short range reaches this far (cm)."""
    medium: float
    long: float
    """The maximum range: a target beyond it cannot be fired on."""
    move_fire_loss: str = "0"
    """Fraction of normal movement foot figures lose when they move and fire."""
    bfp: dict[str, int] = field(default_factory=dict)
    """BFP in percent by the target's armour class."""

    def __post_init__(self) -> None:
        try:
            loss = parse_fraction(self.move_fire_loss, "move_fire_loss")
        except RuleError as exc:
            raise ValueError(str(exc)) from None
        if loss > 1:
            raise ValueError("move_fire_loss is at most 1 (the whole move)")

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


@dataclass(frozen=True, slots=True)
class FiringModifier:
    """A named firing modifier of a race's profile sheet: a row, applied by its ``when``."""

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


@dataclass(frozen=True, slots=True)
class RaceProfile:
    """A race's profile sheet, as far as missile fire needs it."""

    name: str
    move: float = 0
    """Normal move (cm)."""
    ranks_for_firing: int = 1
    weapons: dict[str, Weapon] = field(default_factory=dict)
    modifiers: tuple[FiringModifier, ...] = ()
    printed: tuple[str, ...] = ()
    """Keys whose values the rules text prints; the rest is sample data."""

    def __post_init__(self) -> None:
        if self.ranks_for_firing < 0:
            raise ValueError("ranks_for_firing must not be negative")

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
        return find_named(
            self.modifiers, key, lambda m: m.key,
            lambda have: f"{self.name} have no firing modifier '{key}' (modifiers: {have})")


@dataclass(frozen=True, slots=True)
class ProfileSheet:
    """Every race's profile: the armour classes and each race's missile data."""

    schema: int = 1
    armour: dict[str, str] = field(default_factory=dict)
    races: dict[str, RaceProfile] = field(default_factory=dict)

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
            raise RuleError(f"{possessive(profile.name)} {w.name} has no BFP against {armour} "
                            "on the sheet")
        return w.bfp[armour], profile.source(f"weapons.{weapon}.bfp.{armour}")


def load_sheet(path: str | Path | None = "") -> ProfileSheet:
    """The profile sheet at ``path`` (empty: the shipped sample); read again when it changes."""
    p = Path(path).expanduser() if path else SAMPLE_SHEET
    try:
        return load_table(ProfileSheet, p)
    except TableError as exc:
        if exc.key == "" and "cannot read" in exc.expected:
            raise RuleError(f"profile sheet {p} cannot be read") from None
        where = f"{exc.key}: " if exc.key else ""
        raise RuleError(f"profile sheet {p}: {where}{exc.expected}") from None
