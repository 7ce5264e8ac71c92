"""The start of a new d6battle turn: shooting casualty counts and movement flags start
again; queued morale tests and fleeing units are named for the log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.startup import lazy

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.d6battle import model
else:  # imported on first use (tracker.startup): `tracker resolve` needs no models
    model = lazy("tracker.rules.d6battle.model")


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """New turn: shooting casualty counts and movement flags start again."""
    lines = []
    for unit in enc.units:
        path: list[str | int] = ["units", unit.id]
        if unit.casualties_turn:
            tx.set([*path, "casualties_turn"], 0)
        if isinstance(unit, model.D6Unit) and unit.moved:
            tx.set([*path, "moved"], False)
    queued = [u.name for u in enc.units if u.morale_test and u.active]
    if queued:
        lines.append("Morale tests still queued: " + ", ".join(queued))
    if names := fleeing(enc):
        lines.append("Fleeing: " + ", ".join(names))
    return lines


def flees(u: Any) -> bool:
    """A unit in flight (a failed morale test from shooting, or a rout) still on the
    table."""
    return bool(getattr(u, "flee", "")) and not u.removed


def fleeing(enc: Encounter) -> list[str]:
    """The names of the units in flight."""
    return [u.name for u in enc.units if flees(u)]
