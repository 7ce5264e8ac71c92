"""The Warmaster unit and encounter models (the rest of the ruleset needs no pydantic)."""

from __future__ import annotations

from pydantic import Field

from tracker.core.model import Encounter, Unit


class WarmasterUnit(Unit):
    """A Warmaster unit: ``strength`` counts stands, ``hits_per_stand`` is its Hits value."""

    exposed: int = 0
    """Stands outside its defended/fortified position: shot at 4+ and removed first."""
    shot: bool = False
    """Has shot in this Shooting phase."""
    shot_by: list[str] = Field(default_factory=list)
    """Units that shot at it this phase: it is driven back away from the closest of them."""
    drive_back_done: bool = False
    """Its drive back for this phase is already resolved."""


class WarmasterEncounter(Encounter):
    units: list[WarmasterUnit] = Field(default_factory=list)  # type: ignore[assignment]
