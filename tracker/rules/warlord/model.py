"""Fantasy Warlord units: a core ``Unit`` with its profile, weapon, armour and fire state.

``strength`` counts figures; ``orders`` holds the fire order counter ("fire",
"advance and fire" ...); ``held_casualties`` are figures killed in phase eight and not yet
removed (all missile fire is simultaneous).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar

from pydantic import Field, ValidationInfo, model_validator

from tracker.core.domains import Domain, at_most, checks, settings_of
from tracker.core.model import Count, Encounter, Unit
from tracker.core.words import possessive
from tracker.rules.errors import RuleError

from . import profiles


class WarlordUnit(Unit):
    """A Fantasy Warlord unit of figures."""

    table_fields: ClassVar[tuple[str, ...]] = (
        "race", "weapon", "armour_class", "mounted", "morale_class", "pace", "ranks",
        "files", "orders",
    )
    """What the add form asks first: the fields a GM fills in at the table."""

    race: str = ""
    """Key of the race's profile on the profile sheet (wood_elf, orc ...)."""
    weapon: str = ""
    """Missile weapon, a line of the race's BFP chart ("" for none)."""
    armour_class: str = "none"
    """Armour class, a column of the BFP chart (chainmail ...)."""
    mounted: bool = False
    traits: list[str] = Field(default_factory=list)
    """What firing modifiers look for: "huntmasters", "skirmishers" ..."""
    morale_class: str = ""
    """Morale class for the morale test thresholds (a setting)."""
    pace: Count = 0
    """Normal move in cm (for ``movefire``; 0: the race's)."""
    moved_cm: Annotated[float, Domain(ge=0)] = 0
    """Distance moved this turn (cm): "target moved over 10 cm" and the like."""
    charged: bool = False
    """Charged this turn: may not fire."""
    fired: bool = False
    """Has completed its fire this phase (fire order counter taken off)."""
    figures_fired: Count = 0
    """Figures that have fired this phase: each figure fires once."""
    fire_targets: list[str] = Field(default_factory=list)
    """Ids of the units fired on this phase (at most three)."""
    held_casualties: Count = 0
    """Figures killed this phase, removed when every unit has fired."""

    @model_validator(mode="after")
    def _within_the_unit(self, info: ValidationInfo) -> WarlordUnit:
        """No more held casualties than figures standing; no more figures fired than it
        had ("each figure may only fire once per turn")."""
        at_most(info, self, "held_casualties", "strength", self.strength,
                "the figures it has")
        at_most(info, self, "figures_fired", "strength_start", self.strength_start,
                "each figure fires once a turn")
        return self

    by_setting: ClassVar[Mapping[str, tuple[str, ...]]] = {"profiles": ("race", "weapon",
                                                                        "armour_class")}

    @model_validator(mode="after")
    def _on_the_sheet(self, info: ValidationInfo) -> WarlordUnit:
        """The race, its weapon and the armour class are lines of the profile sheet the
        encounter's ``profiles`` setting names, checked where one of them comes in (a
        race the sheet lacks would be refused only when the unit fires)."""
        settings = settings_of(info)
        if settings is None or not checks(info, *SHEET_FIELDS):
            return self
        try:
            sheet = profiles.load_sheet(str(settings.get("profiles") or ""))
        except RuleError:  # a sheet that does not read is said where it is read
            return self
        for name, problem in on_sheet(self, sheet):
            if checks(info, name):
                raise ValueError(problem)
            given = next(f for f in SHEET_FIELDS if checks(info, f))  # race=orc, not weapon
            raise ValueError(f"{given}={getattr(self, given)}: {problem}; set {name} with it")
        return self

    def has_fire_order(self) -> bool:
        return "fire" in self.orders.lower() and not self.fired


SHEET_FIELDS = WarlordUnit.by_setting["profiles"]
"""The fields that name lines of the profile sheet."""


def on_sheet(unit: WarlordUnit, sheet: profiles.ProfileSheet) -> list[tuple[str, str]]:
    """What of ``unit`` the profile ``sheet`` has no line for: each field, and a refusal's
    words for it."""
    out = []
    if unit.armour_class and unit.armour_class not in sheet.armour:
        out.append(("armour_class", f"armour_class={unit.armour_class}: not on the profile "
                    f"sheet (armour: {', '.join(sheet.armour)})"))
    if not unit.race:
        return out
    try:
        race = sheet.race(unit.race)
    except RuleError:
        return [("race", f"race={unit.race}: not on the profile sheet (races: "
                 f"{', '.join(sheet.races)})"), *out]
    if unit.weapon and unit.weapon not in race.weapons:
        out.insert(0, ("weapon", f"weapon={unit.weapon}: not on {possessive(race.name)} chart "
                       f"of the profile sheet (weapons: {', '.join(race.weapons) or 'none'})"))
    return out


class WarlordEncounter(Encounter):
    """An encounter whose units are Fantasy Warlord units."""

    units: list[WarlordUnit] = Field(default_factory=list)  # type: ignore[assignment]
