"""``injury``: the GM enters the injury level of a wound a strike left, from the Injury
Sequence table (not printed in the Missile Sequence); default: the first wound still
owed its level (owed as the round of the strike ends), else the last. A GM's
record against the strike, not the wounded combatant's action: it spends no one's
missile action and is taken in anyone's turn (the level may also be given with the
attack, ``injury=``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, RuleError, param

from ..injuries import PENDING, InjuryCode, first_owed, injury_level
from .lookup import combatant_or_none, need

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class InjuryParams(Params):
    who: str = param("", "the combatant wounded", kind="target")
    level: InjuryCode = param("", "injury level from your table, e.g. S2p (level 1 to 5)")
    wound: int | None = param(None, "wound number (1 = first)", ge=1)
    strike_impact: int | None = param(None, "strike impact", ge=0)


class InjuryFigures(Figures):
    level: int
    """The level number (S2p: 2)."""
    injury: str
    """The injury code as entered (S2p)."""
    wound: int | None
    strike_impact: int | None


class Injury(Action[InjuryParams]):
    name = "injury"
    help = "Enter the injury level of a wound from your table (default: the one owed)"

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        c = need(enc, given.get("who"), "who")
        if not c.wounds:
            raise RuleError(f"{c.name} has no wound to set an injury level on")
        n = given.get("wound") or first_owed(list(c.wounds)) or len(c.wounds)
        if not 1 <= n <= len(c.wounds):
            raise RuleError(f"wound={n}: {c.name} has wounds 1..{len(c.wounds)}")
        return {"wound": n}

    def refusals(self, enc: Encounter, p: Any) -> list[str]:
        """No wound to set a level on (the one named, or anyone where no one is named):
        the action list greys it, before any form."""
        who = combatant_or_none(enc, p.get("who"))
        if who is not None:
            return [] if who.wounds else [f"{who.name} has no wound to set an injury level on"]
        if any(c.wounds for c in enc.combatants):
            return []
        return ["no one has a wound to set an injury level on"]

    def resolve(self, p: InjuryParams, dice: Dice) -> Resolution:
        if not p.level:
            raise RuleError("injury: level= is required (e.g. S2p)")
        who = p.who or "combatant"
        f = InjuryFigures(level=injury_level(p.level), injury=p.level, wound=p.wound,
                          strike_impact=p.strike_impact)
        text = f"{who}: injury level {p.level}"
        if p.strike_impact is not None:
            text += f" (impact {p.strike_impact})"
        return Resolution(self.name, "injury", text, f, dice.rolls)

    def apply(self, enc: Encounter, p: InjuryParams, res: Resolution, tx: Transaction) -> None:
        c = need(enc, p.who, "who")
        i = (p.wound or len(c.wounds)) - 1
        base: list[str | int] = ["combatants", c.id, "wounds", i]
        tx.set(base + ["level"], res.figures["level"])
        tx.set(base + ["kind"], res.figures["injury"])
        if res.figures["strike_impact"] is not None:
            tx.set(base + ["impact"], res.figures["strike_impact"])
        note = c.wounds[i].note.replace(PENDING, "")
        tx.set(base + ["note"], note)


INJURY = Injury()
