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

from tracker.rules.base import Resolution, param

from ..common import Check, d10s, from_actor, successes_word, tn_rule
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
    flag_words = {"can_defend": "may defend"}
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
    outcomes = ("frozen", "defend")

    def tn(self, p: HesitationParams) -> int:
        return p.tn

    def head(self, p: HesitationParams) -> str:
        return f"{self.named(p)}: Reflex {p.reflex} vs TN {p.tn}"

    def tally(self, successes: int) -> str:
        return successes_word(successes) if successes else "no success"

    def follows(self, p: HesitationParams, passed: bool) -> str:
        return ", may defend" if passed else ", frozen for an exchange"

    def figures(self, p: HesitationParams, rolled: Check) -> HesitationFigures:
        return HesitationFigures(tn=p.tn, successes=rolled.successes,
                                 can_defend=rolled.successes > 0)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return from_actor(enc, given, reflex="reflex")

    def follow(self, enc: Encounter, c: Any, res: Resolution, tx: Transaction) -> None:
        f = res.figures_as(HesitationFigures)
        tx.set(["combatants", c.id, "marker"], "white" if f.can_defend else "hesitating")
        tx.set(["combatants", c.id, "hesitation"], "defend only" if f.can_defend else "frozen")
        tx.set(["combatants", c.id, "holds_initiative"], False)


HESITATION = Hesitation()
