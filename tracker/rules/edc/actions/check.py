"""A pass/fail check of edc: a fighter's d10s against a TN, passed on one success (a botch
fails too). Its roll, its text, its outcome and its odds are here; the words of the text,
the figures and what a pass or a failure leads to are each check's own (frozen, knocked
down, unhorsed, a Health lost)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution

from ..common import Check, check, combatant_or_none, successes_word
from ..later import chances

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class CheckParams(Params):
    """The parameters every check carries; each check declares them among its own, in the
    order its form asks them."""

    if TYPE_CHECKING:
        actor: str
        tn_above_ten: str


class CheckFigures(Figures):
    """What a check reports (the ``--json`` keys): the TN, the successes, what followed."""

    tn: int
    successes: int


C = TypeVar("C", bound=CheckParams)


class PassFail(Action[C]):
    """A check: the dice of its one stage against its TN. Its text is ``head``, the
    successes and ``follows``; its outcome is one of ``outcomes``; ``follow`` writes what a
    resolution leads to for the fighter who rolled."""

    failed: ClassVar[str]
    """The odds label of a failure ("knocked down")."""
    passed: ClassVar[str]
    """The odds label of a pass ("stays up")."""
    who: ClassVar[str] = "fighter"
    """The word for the one who rolls where the actor is not named."""
    outcomes: ClassVar[tuple[str, str]]
    """The outcome of a failure and of a pass ("down", "up")."""

    def rolled(self, p: C) -> int:
        """The dice rolled, as the check's stage counts them."""
        count = self.stages[0].count
        return (count(p) or 0) if count is not None else 0

    def tn(self, p: C) -> int:
        raise NotImplementedError

    def named(self, p: C) -> str:
        return p.actor or self.who

    def roll(self, p: C, dice: Dice) -> Check:
        """The stage's dice against the TN: the successes, and whether they botched."""
        return check(dice, self.stages[0].role, self.rolled(p), self.tn(p), p.tn_above_ten,
                     why=self.named(p))

    def head(self, p: C) -> str:
        """The words before the successes: who rolls what against what."""
        raise NotImplementedError

    def tally(self, successes: int) -> str:
        """The successes as the text says them."""
        return successes_word(successes)

    def follows(self, p: C, passed: bool) -> str:
        """The words after the successes: what a pass or a failure leads to."""
        return f", {self.passed if passed else self.failed}"

    def figures(self, p: C, rolled: Check) -> Figures:
        """The figures of a resolution."""
        raise NotImplementedError

    def resolve(self, p: C, dice: Dice) -> Resolution:
        rolled = self.roll(p, dice)
        return self.result(p, rolled, f"{self.head(p)}: {self.tally(rolled.successes)}", dice)

    def result(self, p: C, rolled: Check, text: str, dice: Dice) -> Resolution:
        """The resolution of the dice rolled, ``text`` saying them so far: a pass or a
        failure and the words it follows with."""
        passed = rolled.successes > 0
        failure, success = self.outcomes
        return Resolution(self.name, success if passed else failure,
                          text + self.follows(p, passed), self.figures(p, rolled), dice.rolls)

    def odds(self, p: C) -> Odds:
        return chances.pass_fail(self.rolled(p), self.tn(p), p.tn_above_ten, self.failed,
                                 self.passed)

    def apply(self, enc: Encounter, p: C, res: Resolution, tx: Transaction) -> None:
        c = combatant_or_none(enc, p.actor)
        if c is not None:
            self.follow(enc, c, res, tx)

    def follow(self, enc: Encounter, c: Any, res: Resolution, tx: Transaction) -> None:
        """What the resolution leads to for the fighter ``c`` who rolled."""
