"""``holdfire``: the fire order counter comes off a unit that has finished firing (or will
not fire this phase)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, param

from ..sequence import FIRE_PHASE
from ..units import find_unit, warlord_units
from .order import fill_name

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class HoldFireParams(Params):
    actor: str = param(help="unit", kind="actor")
    actor_name: str | None = param(None, "unit's name for the log (from the encounter)",
                                   name_of="actor")


class HoldFireFigures(Figures):
    """Nothing to report beyond the log line."""


class HoldFire(Action[HoldFireParams]):
    name = "holdfire"
    help = "Take a unit's fire order counter off: it has finished firing (or will not fire)"
    phases = (FIRE_PHASE,)
    marker = "held fire"

    def resolve(self, p: HoldFireParams, dice: Dice) -> Resolution:
        text = f"{p.actor_name or p.actor} has finished firing: fire order counter removed"
        return Resolution("holdfire", "done", text, HoldFireFigures(), rolls=dice.rolls)

    def can_act(self, who: Any) -> bool:
        """A unit that still holds its fire order counter (the app offers it first)."""
        has_order = getattr(who, "has_fire_order", None)
        return has_order is None or bool(has_order())

    def unavailable(self, enc: Encounter, who: Any) -> list[str]:
        """A unit that still holds its fire order counter: the one to take off."""
        if who is not None:
            if not who.active:
                return [f"{who.name} is routed or removed"]
            if not who.has_fire_order():
                why = "has already fired" if who.fired else "holds no fire order"
                return [f"{who.name} {why}: there is no counter to take off"]
        elif not any(u.active and u.has_fire_order() for u in warlord_units(enc)):
            return ["no unit holds a fire order: there is no counter to take off"]
        return []

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_name(enc, given)

    def apply(self, enc: Encounter, p: HoldFireParams, res: Resolution,
              tx: Transaction) -> None:
        unit = find_unit(enc, p.actor)
        tx.set(["units", unit.id, "fired"], True)
        tx.set(["units", unit.id, "orders"], "")


HOLDFIRE = HoldFire()
