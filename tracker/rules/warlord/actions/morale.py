"""``morale``: the GM records a morale test taken from the morale rules (the fire rules
only say when one is due: after every casualty of phase eight is removed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, RuleError, param

from ..sequence import MORALE_PHASE, morale_tests_due
from ..units import find_unit
from .order import fill_name

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

FAILED = "failed morale test"


class MoraleParams(Params):
    actor: str = param(help="unit", kind="actor")
    result: str = param("passed", "what the test gave", choices=("passed", "failed"))
    note: str = param("", "what follows, in the morale rules' words")
    actor_name: str | None = param(None, "unit's name for the log (from the encounter)",
                                   name_of="actor")


class MoraleFigures(Figures):
    result: str


class Morale(Action[MoraleParams]):
    name = "morale"
    help = "Record a morale test the GM took from the morale rules (clears the flag)"
    phases = (MORALE_PHASE,)
    marker = "tested"

    def resolve(self, p: MoraleParams, dice: Dice) -> Resolution:
        text = f"{p.actor_name or p.actor} {p.result} its morale test"
        if p.note:
            text += f": {p.note}"
        return Resolution("morale", p.result, text, MoraleFigures(result=p.result),
                          rolls=dice.rolls)

    def unavailable(self, enc: Encounter, who: Any) -> list[str]:
        """A unit that owes a test: only units that lost figures in the missile fire."""
        if who is not None and not who.morale_test:
            return [f"{who.name} owes no morale test (only units that lost figures in the"
                    " missile fire test)"]
        if who is None and not morale_tests_due(enc):
            return ["no unit owes a morale test: none lost figures in the missile fire"]
        return []

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        """The unit's name; a unit tests only where its losses made a test owed."""
        if given.get("actor") and not find_unit(enc, given["actor"]).morale_test:
            name = find_unit(enc, given["actor"]).name
            raise RuleError(f"{name} owes no morale test (only units that lost figures in"
                            " the missile fire test)")
        return fill_name(enc, given)

    def apply(self, enc: Encounter, p: MoraleParams, res: Resolution, tx: Transaction) -> None:
        unit = find_unit(enc, p.actor)
        tx.set(["units", unit.id, "morale_test"], False)
        if p.result == "failed" and FAILED not in unit.conditions:
            tx.add(["units", unit.id, "conditions"], FAILED)


MORALE = Morale()
