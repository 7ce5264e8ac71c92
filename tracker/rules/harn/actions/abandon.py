"""``abandon``: an aware combatant abandons this round's load, aim or span (the actions
that induce the Ignore defence) in order to defend normally."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Resolution, RuleError, param

from .lookup import need
from .state import ActorParams

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class AbandonParams(ActorParams):
    what: str = param("", "the action abandoned (filled)")


class AbandonFigures(Figures):
    abandoned: str


class Abandon(Action[AbandonParams]):
    name = "abandon"
    help = "Abandon this round's load, aim or span to defend normally"
    params_model = AbandonParams

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        from ..tables import abandonable

        c = need(enc, given.get("actor"))
        if c.acted_round != enc.position.round or c.last_action not in abandonable():
            raise RuleError(f"{c.name} has no load, aim or span under way this round to abandon")
        return {"what": c.last_action}

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
        if what == "load":
            tx.set(base + ["loaded"], False)
        elif what == "aim":
            tx.set(base + ["aimed_round"], None)
        elif what == "span":
            if c.spanned:
                rounds = c.weapon.span_rounds if c.weapon is not None else 1
                tx.set(base + ["spanned"], False)
                tx.set(base + ["span_progress"], max(0, rounds - 1))
            else:
                tx.set(base + ["span_progress"], max(0, c.span_progress - 1))
        tx.set(base + ["last_action"], "defend")


ABANDON = Abandon()
