"""``hesitation``: a fighter who hesitated (threw no marker) or was surprised rolls Reflex
against TN 7 + the ambusher's surprise successes - the target's own (edc). A success may
defend only (an automatic white marker); none leaves him frozen for an exchange. Either
lasts until that exchange ends (``hesitation``): a hesitating fighter's attack is refused,
a frozen one's every action.

The text sets no limit on how often it is rolled (once per surprise or hesitation), so
none is declared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Resolution, param

from ..common import d10s, from_actor, successes_word, tn_rule
from .check import CheckFigures, CheckParams, PassFail

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

BASE_TN = 7


class HesitationParams(CheckParams):
    """The parameters of ``hesitation``."""

    actor: str = param("", "the fighter who hesitated or was surprised", kind="actor")
    reflex: int = param(help="Reflex dice", ge=0)
    ambusher_successes: int = param(0, "ambusher's surprise successes", ge=0)
    target_successes: int = param(0, "target's surprise successes", ge=0)
    tn_above_ten: str = tn_rule()

    @property
    def tn(self) -> int:
        return max(BASE_TN + self.ambusher_successes - self.target_successes, 1)


class HesitationFigures(CheckFigures):
    can_defend: bool


class Hesitation(PassFail[HesitationParams]):
    name = "hesitation"
    help = ("Hesitation: Reflex vs TN 7 + ambusher's surprise successes - target's; "
            "a success may defend only, none is frozen for an exchange")
    stages = (d10s("reflex", "Reflex dice", "to shake off the surprise", lambda p: p.reflex),)
    detail = ("figures: tn, successes, can_defend. A fighter who throws no marker "
              "hesitates: defend only for one exchange.")
    failed = "frozen"
    passed = "may defend (white)"

    def tn(self, p: HesitationParams) -> int:
        return p.tn

    def resolve(self, p: HesitationParams, dice: Dice) -> Resolution:
        tn, who = p.tn, self.named(p)
        succ = self.roll(p, dice).successes
        if succ:
            text = f"{who}: Reflex {p.reflex} vs TN {tn}: {successes_word(succ)}, may defend"
            outcome = "defend"
        else:
            text = f"{who}: Reflex {p.reflex} vs TN {tn}: no success, frozen for an exchange"
            outcome = "frozen"
        f = HesitationFigures(tn=tn, successes=succ, can_defend=bool(succ))
        return Resolution("hesitation", outcome, text, f, dice.rolls)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return from_actor(enc, given, reflex="reflex")

    def follow(self, enc: Encounter, c: Any, res: Resolution, tx: Transaction) -> None:
        f = res.figures_as(HesitationFigures)
        tx.set(["combatants", c.id, "marker"], "white" if f.can_defend else "hesitating")
        tx.set(["combatants", c.id, "hesitation"], "defend only" if f.can_defend else "frozen")
        tx.set(["combatants", c.id, "holds_initiative"], False)


HESITATION = Hesitation()
