"""Fantasy Warlord units: a core ``Unit`` with its profile, weapon, armour and fire state.

``strength`` counts figures; ``orders`` holds the fire order counter ("fire",
"advance and fire" ...); ``held_casualties`` are figures killed in phase eight and not yet
removed (all missile fire is simultaneous).
"""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import Field, ValidationInfo, model_validator

from tracker.core.domains import Domain, at_most
from tracker.core.model import Count, Encounter, Unit


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

    def has_fire_order(self) -> bool:
        return "fire" in self.orders.lower() and not self.fired


class WarlordEncounter(Encounter):
    """An encounter whose units are Fantasy Warlord units."""

    units: list[WarlordUnit] = Field(default_factory=list)  # type: ignore[assignment]
