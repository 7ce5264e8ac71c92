"""``knockdown``: a Knockdown roll (edc). The TN is 2 x the attacker's MoS (3 x with a blunt
weapon) when a blow drives the CP below 0, the Shock for a head or leg blow that calls for
it, or the dice spent on a fumbled roll. Rolled whenever a blow or fumble calls for it: no
limit is declared."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Resolution, RuleError, param

from ..common import Check, d10s, from_actor, tn_rule
from .check import CheckFigures, CheckParams, PassFail

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class KnockdownParams(CheckParams):
    """The parameters of ``knockdown``."""

    actor: str = param("", "who may fall", kind="actor")
    dice: int = param(help="Knockdown dice", ge=0)
    mos: int = param(0, "attacker's MoS", ge=0)
    blunt: bool = param(False, "blunt weapon (TN 3 x MoS)")
    shock: int = param(0, "head or leg blow: TN = Shock", ge=0)
    fumble_dice: int = param(0, "fumble: TN = dice spent on it", ge=0)
    tn: int = param(0, "TN set by the GM (0: from the above)", ge=0)
    tn_above_ten: str = tn_rule()

    def knockdown_tn(self) -> tuple[int, str]:
        """The TN and why."""
        if self.tn > 0:
            return self.tn, "as set"
        if self.fumble_dice > 0:
            return self.fumble_dice, f"fumble of {self.fumble_dice} dice"
        if self.shock > 0:
            return self.shock, f"head or leg blow, Shock {self.shock}"
        mult = 3 if self.blunt else 2
        return mult * self.mos, f"{mult} x MoS {self.mos}"


class KnockdownFigures(CheckFigures):
    knocked_down: bool


class Knockdown(PassFail[KnockdownParams]):
    name = "knockdown"
    help = ("Knockdown roll: TN 2 x attacker's MoS (3 x blunt), Shock for a head or leg blow, "
            "or the dice of a fumble")
    stages = (d10s("knockdown", "Knockdown dice", "to stay on his feet", lambda p: p.dice),)
    detail = ("figures: tn, successes, knocked_down. A fighter knocked down is prone "
              "(half CP at each refresh) until the GM sets prone=no.")
    failed = "knocked down"
    passed = "stays up"
    outcomes = ("down", "up")

    def tn(self, p: KnockdownParams) -> int:
        return p.knockdown_tn()[0]

    def head(self, p: KnockdownParams) -> str:
        tn, why = p.knockdown_tn()
        return f"{self.named(p)}: Knockdown {p.dice} vs TN {tn} ({why})"

    def figures(self, p: KnockdownParams, rolled: Check) -> KnockdownFigures:
        return KnockdownFigures(tn=self.tn(p), successes=rolled.successes,
                                knocked_down=rolled.successes == 0)

    def resolve(self, p: KnockdownParams, dice: Dice) -> Resolution:
        if self.tn(p) <= 0:
            raise RuleError("knockdown: give mos=, shock=, fumble_dice= or tn=")
        return super().resolve(p, dice)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return from_actor(enc, given, dice="knockdown")

    def follow(self, enc: Encounter, c: Any, res: Resolution, tx: Transaction) -> None:
        if res.figures_as(KnockdownFigures).knocked_down:
            tx.set(["combatants", c.id, "prone"], True)


KNOCKDOWN = Knockdown()
