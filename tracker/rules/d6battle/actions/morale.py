"""``morale``: a unit's morale test, queued by casualties from shooting (d6battle).

The test passes on a roll of the morale dice (a setting: the die is not printed) at or
under the unit's Morale (Mo); a unit that fails flees in the resolution phase. Shooting
effects are resolved unit by unit in the Shoot phase, morale tests among them. How often
a unit may test is not a limit of the text: a unit tests each time shooting forces it
(the setting ``morale_retest`` says when that is), so the action declares no
``once_per``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution, RuleError, Stage
from tracker.rules.base import param as p_

from ..settings import MORALE_DICE
from .scores import roll_test

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class MoraleParams(Params):
    actor: str = p_("", "unit taking the test (roster name)", kind="actor")
    mo: int = p_(help="the unit's Morale (Mo)")
    morale_dice: str = p_(help=MORALE_DICE.help, setting=MORALE_DICE,
                          choices=MORALE_DICE.choices)


class MoraleFigures(Figures):
    passed: bool
    roll: int
    dice: list[int]
    mo: int
    morale_dice: str


class Morale(Action[MoraleParams]):
    name = "morale"
    help = "a unit's morale test (queued by shooting casualties): roll <= Mo or flee"
    params_model = MoraleParams
    phases = ("shoot",)
    stages = (Stage("morale", "2d6", "the morale_dice setting (2d6 unless changed); passes on"
                    " a total <= Mo", label="for morale"),)
    detail = ("figures: passed, roll, dice, mo, morale_dice. A failed unit flees in the "
              "resolution phase (shown as routed in the roster).")

    def resolve(self, p: MoraleParams, dice: Dice) -> Resolution:
        total, values = roll_test(dice, "morale", p.morale_dice, p.mo)
        passed = total <= p.mo
        name = p.actor or "The unit"
        shown = "+".join(map(str, values))
        text = f"{name} morale test: {p.morale_dice} {shown}={total} vs Mo {p.mo}: "
        text += "passed" if passed else "failed, flees in the resolution phase"
        f = MoraleFigures(passed=passed, roll=total, dice=values, mo=p.mo,
                          morale_dice=p.morale_dice)
        return Resolution("morale", "passed" if passed else "failed", text, f,
                          list(dice.rolls))

    def odds(self, p: MoraleParams) -> Odds:
        from .chances import pass_chance

        chance = pass_chance(p.morale_dice, p.mo)
        return [("passed", chance), ("failed, flees", 1 - chance)]

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        from ..model import D6Unit

        if not given.get("actor") or "mo" in given:
            return {}
        unit = enc.find_unit(str(given["actor"]))
        return {"mo": unit.mo} if isinstance(unit, D6Unit) else {}

    def apply(self, enc: Encounter, p: MoraleParams, res: Resolution, tx: Transaction) -> None:
        """Clear the queued test; a failed unit flees in the resolution phase."""
        from ..model import D6Unit

        if not p.actor:
            raise RuleError("morale: name the unit that tests")
        unit = enc.find_unit(p.actor)
        path: list[str | int] = ["units", unit.id]
        tx.set([*path, "morale_test"], False)
        if not res.figures["passed"]:
            tx.set([*path, "routed"], True)
            if isinstance(unit, D6Unit):
                tx.set([*path, "flee"], "morale")


MORALE = Morale()
