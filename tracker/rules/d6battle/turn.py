"""Units in flight in the d6battle turn: a failed morale test from shooting, or a rout,
makes a unit flee in the resolution phase."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.startup import lazy

if TYPE_CHECKING:
    from tracker.core.model import Encounter
    from tracker.rules.d6battle import model
else:  # imported on first use (tracker.startup): `tracker resolve` needs no models
    model = lazy("tracker.rules.d6battle.model")


def flees(u: Any) -> bool:
    """A unit in flight (a failed morale test from shooting, or a rout) still on the
    table."""
    return bool(getattr(u, "flee", "")) and not u.removed


def fleeing(enc: Encounter) -> list[str]:
    """The names of the units in flight."""
    return [u.name for u in enc.units if flees(u)]
