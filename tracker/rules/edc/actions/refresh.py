"""``refresh``: refresh a fighter's Combat Pool (CP) now, or everyone's (edc): after a pause
or break, or a change of footing, lighting or posture the GM wants counted at once. The
round's own refresh is the start-of-round upkeep; this is the GM's tool, with no limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, param

from ..common import combatant_or_none
from ..later import model
from ..pools import refresh

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class RefreshParams(Params):
    """The parameters of ``refresh``."""

    actor: str = param("", "whose CP (empty: everyone)", kind="actor")


class RefreshFigures(Figures):
    """No figures: the CP breakdown shows each term."""


class Refresh(Action[RefreshParams]):
    name = "refresh"
    help = ("Refresh a fighter's CP now (everyone's if no name): after a break, or a change "
            "of footing, lighting or posture the GM wants counted at once")
    detail = "The CP breakdown shows each term."

    def resolve(self, p: RefreshParams, dice: Dice) -> Resolution:
        who = f"{p.actor}'s CP" if p.actor else "Every fighter's CP"
        return Resolution("refresh", "refreshed", f"{who} refreshed", RefreshFigures(),
                          dice.rolls)

    def apply(self, enc: Encounter, p: RefreshParams, res: Resolution, tx: Transaction) -> None:
        c = combatant_or_none(enc, p.actor)
        targets = [c] if c is not None else [x for x in enc.combatants if not x.out]
        for x in targets:
            if isinstance(x, model.EdcCombatant):
                refresh(enc, x, tx)


REFRESH = Refresh()
