"""What the round-long actions share: the actor parameter and the Missile Actions row
(movement, time, defence) they report."""

from __future__ import annotations

from tracker.rules.base import Figures, Params, param


class ActorParams(Params):
    actor: str = param("", "the combatant", kind="actor")


class StateFigures(Figures):
    """The Missile Actions row of the action taken with this weapon."""

    weapon: str
    movement: str
    time: str
    defence: str


def row_of(kind: str, action: str) -> dict[str, str]:
    """The figures a ``StateFigures`` takes from the Missile Actions table."""
    from ..tables import missile_action

    row = missile_action(kind, action)
    return {"weapon": kind, "movement": row.movement, "time": row.time, "defence": row.defence}
