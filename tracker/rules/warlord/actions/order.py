"""``order``: a unit's orders for the turn; a fire order puts the fire order counter on it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, param

from ..sequence import BEFORE_FIRE
from ..units import find_unit

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class OrderParams(Params):
    actor: str = param(help="unit", kind="actor")
    orders: str = param("fire", "orders, e.g. fire, advance and fire, none")
    actor_name: str | None = param(None, "unit's name for the log (from the encounter)",
                                   name_of="actor")


class OrderFigures(Figures):
    orders: str


def fill_name(enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
    """The unit's name for the log, from the encounter."""
    if given.get("actor") and "actor_name" not in given:
        return {"actor_name": find_unit(enc, given["actor"]).name}
    return {}


class Order(Action[OrderParams]):
    name = "order"
    help = "Give a unit its orders; a fire order puts the fire order counter on it"
    phases = (BEFORE_FIRE,)
    """Orders come before missile fire: a unit that has fired may not be given a fire
    order again in the same turn (each figure fires once per turn)."""

    def resolve(self, p: OrderParams, dice: Dice) -> Resolution:
        orders = p.orders.strip()
        text = f"{p.actor_name or p.actor}: orders {orders or 'none'}"
        return Resolution("order", "ordered", text, OrderFigures(orders=orders),
                          rolls=dice.rolls)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_name(enc, given)

    def apply(self, enc: Encounter, p: OrderParams, res: Resolution, tx: Transaction) -> None:
        unit = find_unit(enc, p.actor)
        f = res.figures_as(OrderFigures)
        tx.set(["units", unit.id, "orders"], f.orders)


ORDER = Order()
