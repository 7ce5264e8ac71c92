"""The Warmaster unit and encounter models (the rest of the ruleset needs no pydantic)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from tracker.core.model import Encounter, Unit

Position = Literal["open", "defended", "fortified"]


class WarmasterUnit(Unit):
    """A Warmaster unit: ``strength`` counts stands, ``hits_per_stand`` is its Hits value."""

    table_fields: ClassVar[tuple[str, ...]] = (
        "kind", "close_attacks", "shoot_attacks", "armour", "hits_per_stand", "pace",
    )
    """What the add form asks first: the fields a GM fills in at the table."""

    close_attacks: int = 0
    shoot_attacks: int = 0
    """Attacks read close/shooting (3/1): the shooting value is dice per stand."""
    armour: int | None = None
    """Armour save: succeeds on this score or more on a d6 (None: no armour)."""
    hits_per_stand: int = 1
    pace: int = 0
    """Full pace in cm: a drive back longer than this routs the unit."""
    hits: int = 0
    """Hits taken this phase, for its drive back."""
    leftover_hits: int = 0
    """Hits short of a whole stand, discarded at the end of the phase."""
    carried_hits: int = 0
    """Hits carried into the first round of combat (shooting at chargers)."""
    confused: bool = False
    driven_back: int = 0
    position: Position = "open"
    exposed: int = 0
    """Stands outside its defended/fortified position: shot at 4+ and removed first."""
    shot: bool = False
    """Has shot in this Shooting phase."""
    shot_by: list[str] = Field(default_factory=list)
    """Units that shot at it this phase: it is driven back away from the closest of them."""
    drive_back_done: bool = False
    """Its drive back for this phase is already resolved."""

    @property
    def attacks(self) -> str:
        return f"{self.close_attacks}/{self.shoot_attacks}"


class WarmasterEncounter(Encounter):
    units: list[WarmasterUnit] = Field(default_factory=list)  # type: ignore[assignment]
