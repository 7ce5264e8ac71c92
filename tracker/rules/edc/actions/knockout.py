"""``knockout``: a Knockout roll (edc), against TN 7 or 10 - Armour Rating (setting
``knockout_tn``): a failure is 1d10 seconds unconscious, a fumble 1d10 x 10 minutes.
Rolled whenever a blow calls for it: no limit is declared."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.core.lifetimes import since
from tracker.rules.base import Odds, Resolution, param
from tracker.startup import lazy

from ..common import Check, d10s, from_actor, tn_rule
from ..later import chances
from ..settings import KNOCKOUT_TN
from .check import CheckFigures, CheckParams, PassFail

if TYPE_CHECKING:
    from tracker.core import model
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
else:  # imported on first use (tracker.startup): `tracker resolve` needs no models
    model = lazy("tracker.core.model")

BASE_TN = 7
ARMOUR_FROM = 10
"""The other reading of the base TN: 10 - Armour Rating."""
ROUND_SECONDS = 2


def knockout_tn(armour: int, rule: str) -> int:
    if armour <= 0 or rule == "seven":
        return BASE_TN
    if rule == "ten_minus_armour":
        return ARMOUR_FROM - armour
    return min(BASE_TN, ARMOUR_FROM - armour)


class KnockoutParams(CheckParams):
    """The parameters of ``knockout``."""

    actor: str = param("", "who was struck", kind="actor")
    dice: int = param(help="dice rolled (default: Toughness)", ge=0)
    armour: int = param(0, "armour rating (AR) at the blow", ge=0)
    tn: int = param(0, "TN set by the GM (0: 7 or 10 - AR)", ge=0)
    knockout_tn: str = param(help="TN rule: lower of 7 and 10-AR, seven, or ten_minus_armour",
                             choices=KNOCKOUT_TN.choices, setting=KNOCKOUT_TN)
    tn_above_ten: str = tn_rule()

    @property
    def roll_tn(self) -> int:
        return self.tn if self.tn > 0 else knockout_tn(self.armour, self.knockout_tn)


class KnockoutFigures(CheckFigures):
    botch: bool
    seconds_out: int
    """0: conscious."""


class Knockout(PassFail[KnockoutParams]):
    name = "knockout"
    help = ("Knockout roll vs TN 7 (or 10 - armour): failure 1d10 seconds out, "
            "a fumble 1d10 x 10 minutes")
    stages = (
        d10s("knockout", "the knockout roll", "to stay conscious", lambda p: p.dice),
        d10s("out", "seconds (or x 10 minutes on a fumble) out", "for the time out"),
    )
    detail = ("figures: tn, successes, botch, seconds_out (0: conscious). "
              "Applied as an 'unconscious' effect for the rounds it lasts (a round is 2 "
              "seconds).")
    failed = "out 1d10 seconds"
    passed = "stays conscious"
    outcomes = ("out", "conscious")
    outcome_labels = {"conscious": passed, "out": failed, "out long": "out 1d10 x 10 minutes"}

    def tn(self, p: KnockoutParams) -> int:
        return p.roll_tn

    def head(self, p: KnockoutParams) -> str:
        return f"{self.named(p)}: Knockout roll {p.dice} vs TN {p.roll_tn}"

    def figures(self, p: KnockoutParams, rolled: Check) -> KnockoutFigures:
        return KnockoutFigures(tn=p.roll_tn, successes=rolled.successes, botch=rolled.botch,
                               seconds_out=0)

    def result(self, p: KnockoutParams, rolled: Check, text: str, dice: Dice) -> Resolution:
        if rolled.successes:
            return super().result(p, rolled, text, dice)
        f = self.figures(p, rolled)
        who = self.named(p)
        why = f"{who}: x 10 minutes out" if rolled.botch else f"{who}: seconds out"
        d = dice.roll_many("out", 10, 1, why=why, zero_is_ten=True)[0]
        if rolled.botch:
            f.seconds_out = d * 600
            text += f", fumble: out for {d * 10} minutes"
            return Resolution("knockout", "out long", text, f, dice.rolls)
        f.seconds_out = d
        text += f", out for {d} seconds"
        return Resolution("knockout", "out", text, f, dice.rolls)

    def odds(self, p: KnockoutParams) -> Odds:
        botch, fail, ok = chances.success_odds(p.dice, p.roll_tn, p.tn_above_ten)
        return [("out 1d10 x 10 minutes", botch[1]), (self.failed, fail[1]),
                (self.passed, ok[1])]

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return from_actor(enc, given, dice="toughness", armour="armour")

    def follow(self, enc: Encounter, c: Any, res: Resolution, tx: Transaction) -> None:
        secs = res.figures_as(KnockoutFigures).seconds_out
        if not secs:
            return
        rounds = -(-secs // ROUND_SECONDS)
        effect = model.Effect(name="unconscious",
                        ends=model.Ends(at="end", of="round", round=enc.position.round + rounds),
                        since=since(enc.position), note=f"knocked out for {secs} seconds")
        tx.add(["combatants", c.id, "effects"], effect)


KNOCKOUT = Knockout()
