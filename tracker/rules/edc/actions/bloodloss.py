"""``bloodloss``: Toughness against the Blood Loss TN (BL); a failure costs 1 Health (edc).

"At the beginning of each Round, all wounded characters must roll Toughness vs. their
current accumulated BL": once per round. The first exchange owes it as it begins, for
every wounded fighter (a start duty): `next` asks for its dice, as any action's; the
action is also for a roll the GM makes by hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Figures, Odds, Resolution, param

from ..common import Check, combatant_or_none, d10s, missing, tn_rule
from ..settings import BLOOD_LOSS_RAISE
from ..wounds import blood_loss_tn, lose_health
from .check import CheckParams, PassFail

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class BloodlossParams(CheckParams):
    """The parameters of ``bloodloss``."""

    actor: str = param("", "the wounded fighter", kind="actor")
    toughness: int = param(help="Toughness dice", ge=0)
    tn: int = param(help="Blood Loss TN (0: not bleeding)", ge=0)
    tn_above_ten: str = tn_rule()


class BloodlossFigures(Figures):
    """What ``bloodloss`` reports (the ``--json`` keys)."""

    successes: int
    health_lost: int
    """0 or 1."""
    tn: int


class Bloodloss(PassFail[BloodlossParams]):
    name = "bloodloss"
    help = ("Toughness vs the Blood Loss TN (BL); a failure costs 1 Health (owed by every "
            "wounded fighter as each round begins)")
    once_per = "round"
    stages = (d10s("toughness", "Toughness dice", "against blood loss",
                   lambda p: p.toughness if p.tn > 0 else 0),)
    detail = "figures: successes, health_lost (0 or 1), tn"
    failed = "loses 1 Health"
    passed = "holds"
    outcomes = ("failure", "success")
    outcome_labels = {"success": passed, "failure": failed}

    def tn(self, p: BloodlossParams) -> int:
        return p.tn

    def head(self, p: BloodlossParams) -> str:
        return f"{self.named(p)}: Toughness {p.toughness} vs BL {p.tn}"

    def figures(self, p: BloodlossParams, rolled: Check) -> BloodlossFigures:
        return BloodlossFigures(successes=rolled.successes,
                                health_lost=0 if rolled.successes else 1, tn=p.tn)

    def resolve(self, p: BloodlossParams, dice: Dice) -> Resolution:
        if p.tn <= 0:
            f = BloodlossFigures(successes=0, health_lost=0, tn=0)
            return Resolution("bloodloss", "not bleeding", f"{self.named(p)}: not bleeding", f,
                              dice.rolls)
        return super().resolve(p, dice)

    def odds(self, p: BloodlossParams) -> Odds:
        if p.tn <= 0:
            return [("not bleeding", 1.0)]
        return super().odds(p)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        c = combatant_or_none(enc, given.get("actor"))
        out: dict[str, Any] = {}
        if c is not None:
            if missing(given, "toughness"):
                out["toughness"] = c.toughness
            if missing(given, "tn"):
                out["tn"] = blood_loss_tn(c.wounds, str(BLOOD_LOSS_RAISE.of(enc)))
        return out

    def follow(self, enc: Encounter, c: Any, res: Resolution, tx: Transaction) -> None:
        f = res.figures_as(BloodlossFigures)
        if f.health_lost:
            lose_health(enc, c, tx, f.health_lost)


BLOODLOSS = Bloodloss()
