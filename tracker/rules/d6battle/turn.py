"""The start of a new d6battle turn: shooting casualty counts and movement flags start
again; queued morale tests and fleeing units are named for the log."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """New turn: shooting casualty counts and movement flags start again."""
    from .model import D6Unit

    lines = []
    for unit in enc.units:
        path: list[str | int] = ["units", unit.id]
        if unit.casualties_turn:
            tx.set([*path, "casualties_turn"], 0)
        if isinstance(unit, D6Unit) and unit.moved:
            tx.set([*path, "moved"], False)
    queued = [u.name for u in enc.units if u.morale_test and u.active]
    if queued:
        lines.append("Morale tests still queued: " + ", ".join(queued))
    fleeing = [u.name for u in enc.units if isinstance(u, D6Unit) and u.flee and not u.removed]
    if fleeing:
        lines.append("Fleeing: " + ", ".join(fleeing))
    return lines
