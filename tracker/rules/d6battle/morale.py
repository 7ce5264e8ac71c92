"""d6battle morale tests (a failed test from shooting flees in the resolution phase) and
command tests (a unit charged in the flank is disordered if it fails).

Neither die is printed: both are settings (default 2d6, the test passes on a roll <= Mo
or the command value).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import Dice
from tracker.rules.base import (
    DieRole,
    FunctionAction,
    Odds,
    Param,
    ParamDict,
    Resolution,
    RuleError,
)

from .common import pass_chance, roll_test
from .settings import setting_param

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter



def _test(params: ParamDict, dice: Dice, *, role: str, value_name: str, spec_name: str):
    spec = str(params[spec_name])
    value = int(params[value_name])
    total, values = roll_test(dice, role, spec)
    return spec, value, total, values, total <= value


def resolve_morale(params: ParamDict, dice: Dice) -> Resolution:
    spec, mo, total, values, passed = _test(
        params, dice, role="morale", value_name="mo", spec_name="morale_dice"
    )
    name = params.get("actor") or "The unit"
    shown = "+".join(map(str, values))
    text = f"{name} morale test: {spec} {shown}={total} vs Mo {mo}: "
    text += "passed" if passed else "failed, flees in the resolution phase"
    figures = {"passed": passed, "roll": total, "dice": values, "mo": mo, "morale_dice": spec}
    return Resolution("morale", "passed" if passed else "failed", text, figures, list(dice.rolls))


def odds_morale(params: ParamDict) -> Odds:
    p = pass_chance(str(params["morale_dice"]), int(params["mo"]))
    return [("passed", p), ("failed, flees", 1 - p)]


def fill_morale(enc: Encounter, params: ParamDict) -> ParamDict:
    from tracker.rules.d6battle.model import D6Unit

    out = dict(params)
    if out.get("actor"):
        unit = enc.find_unit(str(out["actor"]))
        if isinstance(unit, D6Unit):
            out.setdefault("mo", unit.mo)
    return out


def apply_morale(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    """Clear the queued test; a failed unit flees in the resolution phase."""
    from tracker.rules.d6battle.model import D6Unit

    if not params.get("actor"):
        raise RuleError("morale: name the unit that tests")
    unit = enc.find_unit(str(params["actor"]))
    path: list[str | int] = ["units", unit.id]
    tx.set([*path, "morale_test"], False)
    if not res.figures["passed"]:
        tx.set([*path, "routed"], True)
        if isinstance(unit, D6Unit):
            tx.set([*path, "flee"], "morale")


MORALE = FunctionAction(
    name="morale",
    help="a unit's morale test (queued by shooting casualties): roll <= Mo or flee",
    params=[
        Param("actor", "actor", "", "unit taking the test (roster name)"),
        Param("mo", "int", help="the unit's Morale (Mo)"),
        setting_param("morale_dice"),
    ],
    roles=[DieRole("morale", "2d6", "the morale_dice setting; passes on a total <= Mo")],
    resolve=resolve_morale,
    odds=odds_morale,
    fill=fill_morale,
    apply=apply_morale,
    detail="figures: passed, roll, dice, mo, morale_dice. A failed unit flees in the "
    "resolution phase (shown as routed in the roster).",
)


def resolve_command(params: ParamDict, dice: Dice) -> Resolution:
    spec, value, total, values, passed = _test(
        params, dice, role="command", value_name="command", spec_name="command_dice"
    )
    name = params.get("actor") or "The unit"
    shown = "+".join(map(str, values))
    text = f"{name} charged in the flank, command test: {spec} {shown}={total} vs {value}: "
    text += "passed" if passed else "failed, disordered"
    figures = {"passed": passed, "roll": total, "dice": values, "command": value,
               "command_dice": spec, "disordered": not passed}
    return Resolution(
        "command", "passed" if passed else "disordered", text, figures, list(dice.rolls)
    )


def odds_command(params: ParamDict) -> Odds:
    p = pass_chance(str(params["command_dice"]), int(params["command"]))
    return [("passed", p), ("disordered", 1 - p)]


def fill_command(enc: Encounter, params: ParamDict) -> ParamDict:
    from tracker.rules.d6battle.model import D6Unit

    out = dict(params)
    if out.get("actor"):
        unit = enc.find_unit(str(out["actor"]))
        if isinstance(unit, D6Unit) and unit.command:
            out.setdefault("command", unit.command)
    return out


def apply_command(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    from tracker.rules.d6battle.model import D6Unit

    if not params.get("actor"):
        raise RuleError("command: name the unit that tests")
    unit = enc.find_unit(str(params["actor"]))
    if res.figures["disordered"] and isinstance(unit, D6Unit):
        tx.set(["units", unit.id, "disordered"], True)


COMMAND = FunctionAction(
    name="command",
    help="command test of a unit charged in the flank: disordered if failed",
    params=[
        Param("actor", "actor", "", "unit charged in the flank (roster name)"),
        Param("command", "int", help="command value tested against (not printed)"),
        setting_param("command_dice"),
    ],
    roles=[DieRole("command", "2d6", "the command_dice setting; passes on a total <= value")],
    resolve=resolve_command,
    odds=odds_command,
    fill=fill_command,
    apply=apply_command,
    detail="figures: passed, roll, dice, command, command_dice, disordered.",
)
