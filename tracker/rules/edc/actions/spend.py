"""``spend``: spend pool dice on anything else, an activation cost or a maneuver (edc).
A GM's tool with no dice; the limit is the dice left in the pool, not a count of uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, RuleError, param

from ..common import CP, MP, combatant_or_none
from ..pools import spend

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class SpendParams(Params):
    """The parameters of ``spend``."""

    actor: str = param("", "who spends", kind="actor")
    dice: int = param(help="dice spent", ge=0)
    pool: str = param(CP.lower(), "which pool", choices=(CP.lower(), MP.lower()))
    what: str = param("", "what for")


class SpendFigures(Figures):
    """What ``spend`` reports (the ``--json`` keys)."""

    dice: int
    pool: str


class Spend(Action[SpendParams]):
    name = "spend"
    help = "Spend pool dice on anything else (an activation cost, a maneuver)"
    detail = "figures: dice, pool"

    def resolve(self, p: SpendParams, dice: Dice) -> Resolution:
        who = p.actor or "fighter"
        what = f" on {p.what}" if p.what else ""
        pool = p.pool.upper()
        text = f"{who} spends {p.dice} {pool}{what}"
        return Resolution("spend", "spent", text, SpendFigures(dice=p.dice, pool=pool),
                          dice.rolls)

    def apply(self, enc: Encounter, p: SpendParams, res: Resolution, tx: Transaction) -> None:
        c = combatant_or_none(enc, p.actor)
        if c is None:
            raise RuleError("spend: name the fighter")
        spend(c, p.dice, tx, p.what or "this", p.pool.upper())


SPEND = Spend()
