"""``command``: the command test of a unit charged in the flank (d6battle).

"If charged in the flank take a command test. Disordered if failed." Neither the die nor
the value is printed: the die is the setting ``command_dice`` and the value the unit's
``command``; the test passes on a roll at or under it. The text places it under Combat;
a unit tests once for each flank charge on it, which is no limit per turn or phase, so
the action declares no ``once_per``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution, RuleError, Stage
from tracker.rules.base import param as p_

from ..settings import COMMAND_DICE
from .scores import roll_test

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class CommandParams(Params):
    actor: str = p_("", "unit charged in the flank (roster name)", kind="actor")
    command: int = p_(help="command value tested against (not printed)")
    command_dice: str = p_(help=COMMAND_DICE.help, setting=COMMAND_DICE,
                           choices=COMMAND_DICE.choices)


class CommandFigures(Figures):
    passed: bool
    roll: int
    dice: list[int]
    command: int
    command_dice: str
    disordered: bool


class Command(Action[CommandParams]):
    name = "command"
    help = "command test of a unit charged in the flank: disordered if failed"
    params_model = CommandParams
    phases = ("combat",)
    stages = (Stage("command", "2d6", "the command_dice setting (2d6 unless changed); passes"
                    " on a total <= value", label="for the command test"),)
    detail = "figures: passed, roll, dice, command, command_dice, disordered."

    def resolve(self, p: CommandParams, dice: Dice) -> Resolution:
        total, values = roll_test(dice, "command", p.command_dice, p.command)
        passed = total <= p.command
        name = p.actor or "The unit"
        shown = "+".join(map(str, values))
        text = (f"{name} charged in the flank, command test: {p.command_dice} {shown}={total}"
                f" vs {p.command}: ")
        text += "passed" if passed else "failed, disordered"
        f = CommandFigures(passed=passed, roll=total, dice=values, command=p.command,
                           command_dice=p.command_dice, disordered=not passed)
        return Resolution("command", "passed" if passed else "disordered", text, f,
                          list(dice.rolls))

    def odds(self, p: CommandParams) -> Odds:
        from .chances import pass_chance

        chance = pass_chance(p.command_dice, p.command)
        return [("passed", chance), ("disordered", 1 - chance)]

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        from ..model import D6Unit

        if not given.get("actor") or "command" in given:
            return {}
        unit = enc.find_unit(str(given["actor"]))
        return {"command": unit.command} if isinstance(unit, D6Unit) and unit.command else {}

    def apply(self, enc: Encounter, p: CommandParams, res: Resolution, tx: Transaction) -> None:
        from ..model import D6Unit

        if not p.actor:
            raise RuleError("command: name the unit that tests")
        unit = enc.find_unit(p.actor)
        if res.figures["disordered"] and isinstance(unit, D6Unit):
            tx.set(["units", unit.id, "disordered"], True)


COMMAND = Command()
