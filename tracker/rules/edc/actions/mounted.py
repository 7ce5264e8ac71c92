"""Shared by the mounted actions (``ride_by``, ``unhorse``, ``ride``): the AG/Ride dice
(Agility + Ride) and a rider's fall.

Mounted modifiers are kept on the fighter: +2 CP height against ground opponents
(``mount_height``, it varies with the horse), the leg-armour penalty cancelled (enter
it in ``cp_modifier``), barding as an activation cost for evasions (``defense_cost`` of
the exchange), +4 CP to swivel and strike to the rear (``attack_cost``). The text does not
give the TN of AG/Ride checks (setting ``ride_tn``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import param

from ..common import combatant_or_none, missing
from ..settings import RIDE_TN

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from ..model import EdcCombatant

FALL_FEET = 10
"""A rider knocked from the saddle takes damage as from a 10 ft fall."""


def ride_tn_param() -> Any:
    return param(help="AG/Ride TN", ge=1, setting=RIDE_TN)


def fill_rider(enc: Encounter, given: dict[str, Any], **more: str) -> dict[str, Any]:
    """The rider's AG/Ride dice, and ``more`` parameters read from his fields."""
    c = combatant_or_none(enc, given.get("actor"))
    out: dict[str, Any] = {}
    if c is None:
        return out
    if missing(given, "dice"):
        out["dice"] = c.agility + c.ride
    for key, attr in more.items():
        if missing(given, key):
            out[key] = getattr(c, attr)
    return out


def unhorse_rider(c: EdcCombatant, tx: Transaction) -> None:
    """The rider falls: off the horse, on the ground, no longer riding at any gait."""
    tx.set(["combatants", c.id, "mounted"], False)
    tx.set(["combatants", c.id, "prone"], True)
    tx.set(["combatants", c.id, "gait"], "stand")
