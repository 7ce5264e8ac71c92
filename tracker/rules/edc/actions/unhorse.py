"""``unhorse``: struck while mounted (edc), the rider makes an AG/Ride check with the
attack's margin of success taken off the dice; a failure knocks him from the saddle
(damage as from a 10 ft fall). Rolled whenever a mounted rider is struck: no limit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import Figures, Resolution, param

from ..common import Check, d10s, tn_rule
from .check import CheckParams, PassFail
from .mounted import FALL_FEET, fill_rider, ride_tn_param, unhorse_rider

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class UnhorseParams(CheckParams):
    """The parameters of ``unhorse``."""

    actor: str = param("", "the rider struck", kind="actor")
    dice: int = param(help="Agility + Ride dice", ge=0)
    mos: int = param(help="the attack's MoS", ge=0)
    ride_tn: int = ride_tn_param()
    tn_above_ten: str = tn_rule()

    @property
    def rolled(self) -> int:
        return max(self.dice - self.mos, 0)


class UnhorseFigures(Figures):
    """What ``unhorse`` reports (the ``--json`` keys)."""

    dice_rolled: int
    successes: int
    unhorsed: bool
    fall_feet: int


class Unhorse(PassFail[UnhorseParams]):
    name = "unhorse"
    help = ("Struck while mounted: AG/Ride check with the attack's MoS taken off the dice; "
            "failure knocks the rider from the saddle (damage as a 10 ft fall)")
    stages = (d10s("ride", "AG/Ride dice", "to stay in the saddle", lambda p: p.rolled),)
    detail = "figures: dice_rolled, successes, unhorsed, fall_feet"
    failed = "knocked from the saddle"
    passed = "stays mounted"
    outcome_labels = {"unhorsed": failed, "mounted": passed}
    outcomes = ("unhorsed", "mounted")
    who = "rider"

    def tn(self, p: UnhorseParams) -> int:
        return p.ride_tn

    def head(self, p: UnhorseParams) -> str:
        return (f"{self.named(p)} struck (MoS {p.mos}): AG/Ride {p.dice} - {p.mos} = "
                f"{p.rolled} dice vs TN {p.ride_tn}")

    def follows(self, p: UnhorseParams, passed: bool) -> str:
        return "; stays mounted" if passed else (
            f"; knocked from the saddle (take a {FALL_FEET} ft fall)")

    def figures(self, p: UnhorseParams, rolled: Check) -> UnhorseFigures:
        off = rolled.successes == 0
        return UnhorseFigures(dice_rolled=p.rolled, successes=rolled.successes, unhorsed=off,
                              fall_feet=FALL_FEET if off else 0)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_rider(enc, given)

    def follow(self, enc: Encounter, c: Any, res: Resolution, tx: Transaction) -> None:
        if res.figures_as(UnhorseFigures).unhorsed:
            unhorse_rider(c, tx)


UNHORSE = Unhorse()
