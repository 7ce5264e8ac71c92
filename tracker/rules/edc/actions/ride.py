"""``ride``: change gait or turn (edc). In a round without a combat exchange a skilled rider
accelerates or decelerates one step, or makes a quarter-turn, without a check; two steps,
three steps down, wheeling about, an unskilled rider or one engaged in combat need an
AG/Ride check (engaged: the TN rises, setting ``engaged_ride_tn_bonus``). Gaits and
maneuvers are in ``tables.toml``.

"In any round ... a rider may perform one of the following actions": once per round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution, param

from ..common import GAITS, MANEUVERS, check, combatant_or_none, d10s, successes_word, tn_rule
from ..later import chances, tables
from ..settings import ENGAGED_RIDE_TN_BONUS
from .mounted import fill_rider, ride_tn_param
from .own import OwnAction

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class RideParams(Params):
    """The parameters of ``ride``."""

    actor: str = param("", "the rider", kind="actor")
    maneuver: str = param(help="what the rider does", choices=MANEUVERS)
    gait: str = param("stand", "gait now", choices=GAITS)
    dice: int = param(0, "Agility + Ride dice", ge=0)
    skilled: bool = param(True, "a skilled rider")
    engaged: bool = param(False, "engaged in combat this round (TN raised)")
    ride_tn: int = ride_tn_param()
    engaged_ride_tn_bonus: int = param(help="TN increase when engaged", ge=0,
                                       setting=ENGAGED_RIDE_TN_BONUS)
    tn_above_ten: str = tn_rule()

    @property
    def needs_check(self) -> bool:
        return self.engaged or not self.skilled or not tables.maneuver(self.maneuver).free

    @property
    def check_tn(self) -> int:
        return self.ride_tn + (self.engaged_ride_tn_bonus if self.engaged else 0)


class RideFigures(Figures):
    """What ``ride`` reports (the ``--json`` keys)."""
    flag_words = {"check": "a Ride check"}

    check: bool
    tn: int
    successes: int
    success: bool
    gait_after: str


class Ride(OwnAction, Action[RideParams]):
    name = "ride"
    help = ("Change gait or turn: a skilled rider out of combat accelerates, decelerates or "
            "quarter-turns without a check; two steps, wheeling or being engaged need AG/Ride")
    once_per = "round"
    stages = (d10s("ride", "AG/Ride dice", "for the maneuver",
                   lambda p: p.dice if p.needs_check else 0),)
    detail = ("figures: check, tn, successes, success, gait_after. Gaits: walk (1/2 Move, "
              "counts as standing), trot (1x), canter (2x), gallop (3x).")
    outcome_labels = {"done": "done without a check"}

    def resolve(self, p: RideParams, dice: Dice) -> Resolution:
        rider = p.actor or "rider"
        m = p.maneuver
        after = tables.gait_after(p.gait, m)
        needs_check, tn = p.needs_check, p.check_tn
        f = RideFigures(check=needs_check, tn=tn if needs_check else 0, successes=0,
                        success=True, gait_after=after)
        if not needs_check:
            text = f"{rider}: {m.replace('_', ' ')} without a check, now at a {after}"
            return Resolution("ride", "done", text, f, dice.rolls)
        succ = check(dice, "ride", p.dice, tn, p.tn_above_ten, why=rider).successes
        ok = succ > 0
        f.successes, f.success, f.gait_after = succ, ok, after if ok else p.gait
        text = f"{rider}: {m.replace('_', ' ')}, AG/Ride {p.dice} vs TN {tn}: "
        text += successes_word(succ) + (f", now at a {after}" if ok
                                        else f", stays at a {p.gait}")
        return Resolution("ride", "success" if ok else "failure", text, f, dice.rolls)

    def odds(self, p: RideParams) -> Odds:
        if not p.needs_check:
            return [("done without a check", 1.0)]
        return chances.pass_fail(p.dice, p.check_tn, p.tn_above_ten, "failure", "success")

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        out = fill_rider(enc, given, gait="gait")
        c = combatant_or_none(enc, given.get("actor"))
        if c is not None and given.get("skilled") is None:
            out["skilled"] = c.ride > 0
        return out

    def apply(self, enc: Encounter, p: RideParams, res: Resolution, tx: Transaction) -> None:
        c = combatant_or_none(enc, p.actor)
        f = res.figures_as(RideFigures)
        if c is not None:
            tx.set(["combatants", c.id, "gait"], f.gait_after)


RIDE = Ride()
