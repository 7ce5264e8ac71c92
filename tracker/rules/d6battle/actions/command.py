"""``command``: the command test of a unit charged in the flank (d6battle).

"If charged in the flank take a command test. Disordered if failed." Neither the die nor
the value is printed: the die is the setting ``command_dice`` and the value the unit's
``command``; the test passes on a roll at or under it. The text places it under Combat;
a unit tests once for each flank charge on it, which is no limit per turn or phase, so
the action declares no ``once_per``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import Resolution, param, setting_param

from ..later import model
from ..settings import COMMAND_DICE
from .check import UnitTest, UnitTestParams
from .scores import Tested, test_stage

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class CommandParams(UnitTestParams):
    actor: str = param("", "unit charged in the flank (roster name)", kind="actor")
    command: int = param(help="command value tested against (not printed)", ge=0)
    command_dice: str = setting_param(COMMAND_DICE)


class CommandFigures(Tested):
    command: int
    command_dice: str
    disordered: bool


class CommandTest(UnitTest[CommandParams]):
    name = "command"
    help = "command test of a unit charged in the flank: disordered if failed"
    phases = ("combat",)
    stages = (test_stage("command", "value", "for the command test"),)
    detail = "figures: passed, roll, dice, command, command_dice, disordered."
    failed = "disordered"
    said = "charged in the flank, command test"
    failure = ("disordered", "failed, disordered")

    def against(self, p: CommandParams) -> tuple[str, int]:
        return p.command_dice, p.command

    def versus(self, p: CommandParams) -> str:
        return str(p.command)

    def figures(self, p: CommandParams, tested: Tested) -> Tested:
        return CommandFigures(**tested.as_json(), command=p.command, command_dice=p.command_dice,
                              disordered=not tested.passed)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        if not given.get("actor") or "command" in given:
            return {}
        unit = enc.find_unit(str(given["actor"]))
        return {"command": unit.command} if isinstance(unit, model.D6Unit) and unit.command else {}

    def follow(self, enc: Encounter, unit: Any, res: Resolution, tx: Transaction) -> None:
        if res.figures["disordered"] and isinstance(unit, model.D6Unit):
            tx.set(["units", unit.id, "disordered"], True)


COMMAND = CommandTest()
