"""``abandon``: an aware combatant abandons the load, aim or span it is taking (the actions
that induce the Ignore defence, until the start of its next turn) in order to defend
normally. Not an action of its own turn: it is taken when it is attacked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Resolution, RuleError, param

from ..effects import AIMED, IGNORING, end, ignoring
from .lookup import combatant_or_none, need
from .state import ActorParams

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from ..model import HarnCombatant


class AbandonParams(ActorParams):
    what: str = param("", "the action abandoned (filled)")


class AbandonFigures(Figures):
    abandoned: str


class Abandon(Action[AbandonParams]):
    name = "abandon"
    help = "Abandon the load, aim or span under way to defend normally"
    marker = "abandoned"

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        c = need(enc, given.get("actor"))
        problems = nothing_under_way(c)
        if problems:  # nothing to abandon: no force takes it
            raise RuleError(problems[0])
        return {"what": ignoring(c)}

    def refusals(self, enc: Encounter, p: AbandonParams) -> list[str]:
        """Nothing under way to abandon: the action list greys it, before any form."""
        c = combatant_or_none(enc, p.get("actor"))
        return nothing_under_way(c) if c is not None else []

    def resolve(self, p: AbandonParams, dice: Dice) -> Resolution:
        what = p.what or "action"
        who = p.actor or "combatant"
        text = f"{who} abandons the {what} to defend normally"
        return Resolution(self.name, "abandoned", text, AbandonFigures(abandoned=what),
                          dice.rolls)

    def apply(self, enc: Encounter, p: AbandonParams, res: Resolution, tx: Transaction) -> None:
        c = need(enc, p.actor)
        base: list[str | int] = ["combatants", c.id]
        what = res.figures["abandoned"]
        end(c, {IGNORING[what], AIMED} if what == "aim" else {IGNORING[what]}, tx)
        if what == "load":
            tx.set(base + ["loaded"], False)
        elif what == "span":
            if c.spanned:
                rounds = c.weapon.span_rounds if c.weapon is not None else 1
                tx.set(base + ["spanned"], False)
                tx.set(base + ["span_progress"], max(0, rounds - 1))
            else:
                tx.set(base + ["span_progress"], max(0, c.span_progress - 1))
        if c.last_action == what:  # taken this round: the round's action is now defence
            tx.set(base + ["last_action"], "defend")


def nothing_under_way(c: HarnCombatant) -> list[str]:
    """A combatant with no load, aim or span under way has nothing to abandon."""
    return [] if ignoring(c) else [f"{c.name} has no load, aim or span under way to abandon"]


ABANDON = Abandon()
