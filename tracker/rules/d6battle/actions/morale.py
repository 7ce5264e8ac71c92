"""``morale``: a unit's morale test, queued by casualties from shooting (d6battle).

The test passes on a roll of the morale dice (a setting: the die is not printed) at or
under the unit's Morale (Mo); a unit that fails flees in the resolution phase. Shooting
effects are resolved unit by unit in the Shoot phase, morale tests among them: a unit
tests where shooting forced a test (the setting ``morale_retest`` says when that is),
and only then, so the action declares no ``once_per`` but refuses a unit that owes no
test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import Resolution, param, setting_param

from ..later import model
from ..settings import MORALE_DICE
from .check import UnitTest, UnitTestParams
from .scores import Tested, test_stage
from .who import owes_morale_test, unit_named

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class MoraleParams(UnitTestParams):
    actor: str = param("", "unit taking the test (roster name)", kind="actor")
    mo: int = param(help="the unit's Morale (Mo)", ge=0)
    morale_dice: str = setting_param(MORALE_DICE)


class MoraleFigures(Tested):
    mo: int
    morale_dice: str


class Morale(UnitTest[MoraleParams]):
    name = "morale"
    help = "a unit's morale test (queued by shooting casualties): roll <= Mo or flee"
    phases = ("shoot",)
    stages = (test_stage("morale", "Mo", "for morale"),)
    detail = ("figures: passed, roll, dice, mo, morale_dice. A failed unit flees in the "
              "resolution phase (shown as routed in the roster).")
    failed = "failed, flees"
    said = "morale test"
    failure = ("failed", "failed, flees in the resolution phase")

    def against(self, p: MoraleParams) -> tuple[str, int]:
        return p.morale_dice, p.mo

    def unavailable(self, enc: Encounter, who: Any) -> list[str]:
        """A unit that owes a test: only shooting casualties force one."""
        if who is not None and not getattr(who, "morale_test", False):
            return [f"{who.name} owes no morale test (shooting casualties force one)"]
        if who is None and not any(u.morale_test and u.active for u in enc.units):
            return ["no unit owes a morale test: no shooting casualties forced one"]
        return []

    def can_act(self, who: Any) -> bool:
        return bool(getattr(who, "morale_test", False))  # a unit shooting forced to test

    def versus(self, p: MoraleParams) -> str:
        return f"Mo {p.mo}"

    def figures(self, p: MoraleParams, tested: Tested) -> Tested:
        return MoraleFigures(**tested.as_json(), mo=p.mo, morale_dice=p.morale_dice)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        unit = unit_named(enc, given, "actor")
        owes_morale_test(unit)
        if "mo" in given:
            return {}
        return {"mo": unit.mo} if isinstance(unit, model.D6Unit) else {}

    def follow(self, enc: Encounter, unit: Any, res: Resolution, tx: Transaction) -> None:
        """Clear the queued test; a failed unit flees in the resolution phase."""
        path: list[str | int] = ["units", unit.id]
        tx.set([*path, "morale_test"], False)
        if not res.figures["passed"]:
            tx.set([*path, "routed"], True)
            if isinstance(unit, model.D6Unit):
                tx.set([*path, "flee"], "morale")


MORALE = Morale()
