"""The Warmaster unit and encounter models (the rest of the ruleset needs no pydantic).

Each field declares its domain (:class:`~tracker.core.domains.Domain`): armour 3 to 6 or
none, Hits at least 1, attacks and pace not below 0 or 1, the troop type one of those
Table 1 and the paces by type read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from tracker.core.domains import Domain, at_most
from tracker.core.model import Encounter, Scalar, Unit

from .domains import ARMOUR, KINDS
from .settings import PACES

Position = Literal["open", "defended", "fortified"]
Count = Annotated[int, Domain(ge=0)]


class WarmasterUnit(Unit):
    """A Warmaster unit: ``strength`` counts stands, ``hits_per_stand`` is its Hits value."""

    table_fields: ClassVar[tuple[str, ...]] = (
        "kind", "close_attacks", "shoot_attacks", "armour", "hits_per_stand", "pace",
    )
    """What the add form asks first: the fields a GM fills in at the table."""

    kind: Annotated[str, Domain(choices=KINDS)] = "infantry"
    close_attacks: Count = 0
    shoot_attacks: Count = 0
    """Attacks read close/shooting (3/1): the shooting value is dice per stand."""
    armour: Annotated[int | None, ARMOUR] = None
    """Armour save: succeeds on this score or more on a d6 (None: no armour)."""
    hits_per_stand: Annotated[int, Domain(ge=1)] = 1
    pace: Annotated[int | None, Domain(ge=1)] = None
    """Full pace in cm: a drive back longer than this routs the unit (None: not known
    yet; a drive back asks for it)."""
    hits: Count = 0
    """Hits taken this phase, for its drive back."""
    leftover_hits: Count = 0
    """Hits short of a whole stand, discarded at the end of the phase."""
    carried_hits: Count = 0
    """Hits carried into the first round of combat (shooting at chargers)."""
    confused: bool = False
    driven_back: Count = 0
    position: Position = "open"
    exposed: Count = 0
    """Stands outside its defended/fortified position: shot at 4+ and removed first."""
    shot: bool = False
    """Has shot in this Shooting phase."""
    shot_by: list[str] = Field(default_factory=list)
    """Units that shot at it this phase: it is driven back away from the closest of them."""
    drive_back_done: bool = False
    """Its drive back for this phase is already resolved."""

    @field_validator("armour", mode="before")
    @classmethod
    def _zero_is_none(cls, value: Any) -> Any:
        """Armour 0, as a profile or the GM writes it, is no armour."""
        return None if value in (0, "0") else value

    @model_validator(mode="after")
    def _within_the_unit(self, info: ValidationInfo) -> WarmasterUnit:
        """No more stands outside its position than it has; odd hits short of a stand
        ("once a unit has taken a number of hits equal to its Hits value, remove a
        stand")."""
        at_most(info, self, "exposed", "strength", self.strength, "the stands it has")
        at_most(info, self, "leftover_hits", "hits_per_stand", self.hits_per_stand - 1,
                "odd hits stay short of its Hits value")
        return self

    @property
    def attacks(self) -> str:
        return f"{self.close_attacks}/{self.shoot_attacks}"

    @classmethod
    def arrive(cls, data: dict[str, Any], settings: Mapping[str, Scalar]) -> list[str]:
        """A unit without a pace takes its type's (the ``pace_<type>`` settings); a
        machine's or another unit's pace is its own, and is asked for."""
        if data.get("pace") is not None:
            return []
        kind = str(data.get("kind", cls.model_fields["kind"].default))
        setting = PACES.get(kind)
        if setting is None:
            return [f"pace ({kind}: set it before a drive back)"]
        pace = int(setting.among(settings))
        if pace < 1:
            return [f"pace ({setting.name} is {pace}: set it before a drive back)"]
        data["pace"] = pace
        return []


class WarmasterEncounter(Encounter):
    units: list[WarmasterUnit] = Field(default_factory=list)  # type: ignore[assignment]
