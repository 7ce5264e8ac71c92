"""``ride_by``: a ride-by attack (edc). At a canter or gallop the rider makes an AG/Ride
check (a terrain roll on Agility + Ride): success limits the round to one exchange, a
failure (the opponent wins the terrain roll) gives the usual two, a botch topples the
rider. Two riders going different ways make opposed Ride checks; the winner chooses one
or two exchanges. The horse moves half its gait's move in yards after the exchange(s).

It settles how many exchanges the round has: once per round, before its first exchange.
A success marks the rider and his opponent (``single_exchange``) until the round ends: an
exchange between them in the second exchange is refused. Between two riders the winner's
choice is the GM's to mark (``set NAME single_exchange=yes``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Omit, Params, Resolution, RuleError, param

from ..common import GAITS, check, combatant_or_none, d10s, successes_word, tn_rule
from ..later import chances, tables
from ..pools import spend
from .mounted import fill_rider, ride_tn_param, unhorse_rider
from .own import OwnAction

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class RideByParams(Params):
    """The parameters of ``ride_by``."""

    actor: str = param("", "the rider", kind="actor")
    target: str = param("", "the opponent (spends CP to oppose)", kind="target",
                        unlike="actor")
    dice: int = param(help="Agility + Ride dice", ge=0)
    gait: str = param("canter", "the mount's gait", choices=GAITS)
    move: int = param(10, "the mount's Move", ge=0)
    oppose_dice: int = param(0, "opponent's terrain roll dice (CP, or AG/Ride)", ge=0)
    oppose_tn: int = param(0, "opponent's TN (0: the same)", ge=0)
    both_mounted: bool = param(False, "two riders going different ways: opposed "
                               "Ride checks, the winner chooses 1 or 2 exchanges")
    ride_tn: int = ride_tn_param()
    tn_above_ten: str = tn_rule()


class RideByFigures(Figures):
    """What ``ride_by`` reports (the ``--json`` keys)."""

    successes: int
    opposed_successes: int
    botch: bool
    success: bool
    exchanges: int
    """1 or 2; 0 when two riders (see chooser)."""
    unhorsed: bool
    yards_after: float
    chooser: Omit[str] = None


class RideBy(OwnAction, Action[RideByParams]):
    name = "ride_by"
    attacks = True
    help = ("Ride-by attack: AG/Ride check at a canter or gallop; success limits the round to "
            "one exchange, failure gives two, a botch topples the rider")
    phases = ("exchange 1",)
    once_per = "round"
    stages = (
        d10s("ride", "rider's AG/Ride dice", "for the ride-by", lambda p: p.dice),
        d10s("oppose", "opponent's dice", "to oppose it", lambda p: p.oppose_dice),
    )
    detail = ("figures: successes, opposed_successes, botch, success, exchanges (1 or 2; 0 "
              "when two riders: see chooser), unhorsed, yards_after (half the gait's move, in "
              "yards), chooser (two riders).")

    def resolve(self, p: RideByParams, dice: Dice) -> Resolution:
        if p.gait not in tables.tables().ride.ride_by:
            raise RuleError(f"ride_by: the mount must canter or gallop (it is at {p.gait})")
        rule, tn = p.tn_above_ten, p.ride_tn
        rider = p.actor or "rider"
        succ, botch = check(dice, "ride", p.dice, tn, rule, why=rider)
        otn = p.oppose_tn or tn
        osucc = check(dice, "oppose", p.oppose_dice, otn, rule,
                      why=p.target or "opponent").successes
        success = succ > 0 and succ >= osucc
        yards = p.move * tables.gait(p.gait).move / 2
        f = RideByFigures(successes=succ, opposed_successes=osucc, botch=botch,
                          success=success and not botch,
                          exchanges=1 if success and not botch else 2, unhorsed=botch,
                          yards_after=yards)
        text = f"{rider}: ride-by at a {p.gait}, AG/Ride {p.dice} vs TN {tn}: "
        text += successes_word(succ)
        if p.oppose_dice:
            text += f" against {successes_word(osucc)}"
        if p.both_mounted:
            f.chooser = "rider" if succ >= osucc else "opponent"
            f.exchanges = 0
            text += (f"; {'the rider' if succ >= osucc else 'the other rider'} chooses 1 or 2"
                     " exchanges")
            outcome = "chooses"
        elif botch:
            text += "; botch: the rider topples from the horse"
            outcome = "unhorsed"
        elif success:
            text += "; one exchange, then the horse carries the rider past"
            outcome = "one exchange"
        else:
            text += "; two exchanges before the horse carries the rider past"
            outcome = "two exchanges"
        text += f" ({yards:g} yards on)"
        return Resolution("ride_by", outcome, text, f, dice.rolls)

    def odds(self, p: RideByParams) -> Odds:
        rule, tn = p.tn_above_ten, p.ride_tn
        botch = chances.success_odds(p.dice, tn, rule)[0][1]
        win = chances.opposed_win(p.dice, tn, p.oppose_dice, p.oppose_tn or tn, rule)
        return [("unhorsed (botch)", botch), ("two exchanges", 1 - botch - win),
                ("one exchange", win)]

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_rider(enc, given, gait="gait", move="mount_move")

    def happened(self, p: RideByParams, res: Resolution, odds: Odds) -> str:
        """The rider's check as its odds weigh it: a botch, won (one exchange) or lost;
        between two riders the winner of the check chooses instead."""
        f = res.figures_as(RideByFigures)
        if f.unhorsed:
            return "unhorsed (botch)"
        return "one exchange" if f.success else "two exchanges"

    def apply(self, enc: Encounter, p: RideByParams, res: Resolution,
              tx: Transaction) -> None:
        c = combatant_or_none(enc, p.actor)
        o = combatant_or_none(enc, p.target)
        f = res.figures_as(RideByFigures)
        if o is not None and p.oppose_dice and not p.both_mounted:
            spend(o, p.oppose_dice, tx, "opposing the ride-by")
        if c is not None and f.unhorsed:
            unhorse_rider(c, tx)
        if f.exchanges == 1:  # until the round ends: no second exchange between them
            for who in (c, o):
                if who is not None:
                    tx.set(["combatants", who.id, "single_exchange"], True)


RIDE_BY = RideBy()
