"""Units in flight in the d6battle turn: a failed morale test from shooting, or a rout,
makes a unit flee in the resolution phase."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def flees(u: Any) -> bool:
    """A unit in flight (a failed morale test from shooting, or a rout) still on the
    table."""
    return bool(getattr(u, "flee", "")) and not u.removed


def fleeing(enc: Encounter) -> list[str]:
    """The names of the units in flight."""
    return [u.name for u in enc.units if flees(u)]
