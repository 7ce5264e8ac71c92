"""``missile_prep``: start preparing a missile weapon (edc). Preparation takes the weapon's
rounds; it may be shortened by one round (to no less than one) by paying its MP cost (taken
from the proficiency refresh) and a Reflex test against the weapon's TN. The start-of-round
upkeep counts the rounds down and, when done, fills the Missile Pool (MP).

The text sets no limit on starting a preparation (it takes rounds of its own), so none is
declared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution, param

from ..common import check, combatant_or_none, d10s, from_actor, successes_word, tn_rule
from ..later import chances
from .own import OwnAction

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


def _rounds(n: int) -> str:
    return f"{n} round{'s' if n != 1 else ''}"


class MissilePrepParams(Params):
    """The parameters of ``missile_prep``."""

    actor: str = param("", "the shooter", kind="actor")
    rounds: int = param(help="the weapon's preparation time in rounds", ge=1)
    shorten: bool = param(False, "try to shorten it by a round")
    mp_cost: int = param(0, "the weapon's MP cost to shorten", ge=0)
    reflex: int = param(0, "Reflex dice", ge=0)
    reflex_tn: int = param(7, "the weapon's Reflex TN to shorten", ge=1)
    tn_above_ten: str = tn_rule()


class MissilePrepFigures(Figures):
    """What ``missile_prep`` reports (the ``--json`` keys)."""

    prep_rounds: int
    shortened: bool
    mp_cost: int
    successes: int


class MissilePrep(OwnAction, Action[MissilePrepParams]):
    name = "missile_prep"
    help = ("Start preparing a missile weapon (rounds); may shorten by 1 round (min 1) by "
            "paying MP (taken from the proficiency refresh) and a Reflex test")
    stages = (d10s("reflex", "Reflex test to shorten", "to shorten it",
                   lambda p: p.reflex if p.shorten else 0),)
    detail = ("figures: prep_rounds, shortened, mp_cost, successes. Each round's upkeep counts "
              "a round down; when done the MP gains proficiency dice (less the cost), ready to "
              "loose next round.")
    outcome_labels = {"preparing": "not shortened", "shortened": "shortened"}

    def resolve(self, p: MissilePrepParams, dice: Dice) -> Resolution:
        who = p.actor or "shooter"
        rounds = p.rounds
        f = MissilePrepFigures(prep_rounds=rounds, shortened=False, mp_cost=0, successes=0)
        text = f"{who} prepares to loose: {_rounds(rounds)}"
        if not p.shorten:
            return Resolution("missile_prep", "preparing", text, f, dice.rolls)
        succ = check(dice, "reflex", p.reflex, p.reflex_tn, p.tn_above_ten, why=who).successes
        ok = succ > 0 and rounds > 1
        f.successes, f.shortened, f.mp_cost = succ, ok, p.mp_cost
        f.prep_rounds = rounds - 1 if ok else rounds
        text += (
            f"; shortening for {p.mp_cost} MP, Reflex {p.reflex} vs TN {p.reflex_tn}: "
            f"{successes_word(succ)}, " + (_rounds(rounds - 1) if ok else "not shortened")
        )
        return Resolution("missile_prep", "shortened" if ok else "preparing", text, f,
                          dice.rolls)

    def odds(self, p: MissilePrepParams) -> Odds:
        if not p.shorten or p.rounds <= 1:
            return [("not shortened", 1.0)]
        return chances.pass_fail(p.reflex, p.reflex_tn, p.tn_above_ten, "not shortened",
                                 "shortened")

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return from_actor(enc, given, reflex="reflex")

    def apply(self, enc: Encounter, p: MissilePrepParams, res: Resolution,
              tx: Transaction) -> None:
        c = combatant_or_none(enc, p.actor)
        if c is None:
            return
        f = res.figures_as(MissilePrepFigures)
        path: list[str | int] = ["combatants", c.id]
        tx.set([*path, "preparing"], True)
        tx.set([*path, "missile_ready"], False)
        tx.set([*path, "missile_prep"], f.prep_rounds)
        tx.set([*path, "missile_prep_cost"], f.mp_cost)


MISSILE_PREP = MissilePrep()
