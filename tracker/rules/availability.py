"""What an action needs before its form: someone to act on (an enemy unit in play).

Each ruleset's ``Action.unavailable`` says, from the encounter and who acts alone, why
the action cannot be taken now; these are the checks several rulesets share."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tracker.core.model import Encounter, Unit


def in_play(unit: Any) -> bool:
    """Still on the table: not routed, not removed."""
    return not (getattr(unit, "routed", False) or getattr(unit, "removed", False))


def no_enemy(enc: Encounter, who: Any, side: str | None, verb: str,
             target: Callable[[Unit], bool] = in_play) -> list[str]:
    """Why no one can be ``verb`` (shoot at, fire on): no unit of another side than the
    actor's (``side`` where no one acts yet: the side that acts in this phase) is in play
    and a ``target`` for it. Empty where one is, or where no side is known."""
    mine = who.side if who is not None else side
    if mine is None or any(u.side != mine and target(u) for u in enc.units):
        return []
    if who is not None:
        return [f"no enemy unit is in play for {who.name} to {verb}"]
    return [f"{mine} has no enemy unit in play to {verb}"]
