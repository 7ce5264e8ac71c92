"""A unit's morale or command test (d6battle): the dice a setting names, passed on a total
at or under a value of the unit. The roll and its odds are here; what a failure leads to
(disordered, fleeing) is each test's own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from tracker.core.dice import Dice
from tracker.rules.base import Action, Odds, Params, Resolution, RuleError

from ..later import chances
from .scores import Tested, take_test

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class UnitTestParams(Params):
    """The parameter every test carries; each test declares it among its own."""

    if TYPE_CHECKING:
        actor: str


T = TypeVar("T", bound=UnitTestParams)


class UnitTest(Action[T]):
    """A test: its stage's dice against the value ``against`` names, told in the log as
    "<unit> <said>: <roll> vs <versus>: passed" or the failure's words; ``follow`` writes
    what a resolution leads to for the unit that tested."""

    failed: ClassVar[str]
    """The odds label of a failure ("disordered")."""
    said: ClassVar[str]
    """What the log calls the test after the unit's name ("morale test")."""
    failure: ClassVar[tuple[str, str]]
    """A failure's outcome and its words in the log ("failed", "failed, flees ...")."""

    def against(self, p: T) -> tuple[str, int]:
        """The test's dice (notation) and the value a total passes at or under."""
        raise NotImplementedError

    def versus(self, p: T) -> str:
        """The value tested against, in the log's words ("Mo 7")."""
        raise NotImplementedError

    def figures(self, p: T, tested: Tested) -> Tested:
        """The test's figures: the roll and what the test adds to it."""
        raise NotImplementedError

    def take(self, p: T, dice: Dice) -> tuple[Tested, str]:
        """What the test rolled, and the roll in words ("2d6 3+4=7")."""
        return take_test(dice, self.stages[0].role, *self.against(p))

    def resolve(self, p: T, dice: Dice) -> Resolution:
        tested, shown = self.take(p, dice)
        outcome, words = ("passed", "passed") if tested.passed else self.failure
        text = f"{p.actor or 'The unit'} {self.said}: {shown} vs {self.versus(p)}: {words}"
        return Resolution(self.name, outcome, text, self.figures(p, tested), list(dice.rolls))

    def odds(self, p: T) -> Odds:
        return chances.pass_or_fail(*self.against(p), self.failed)

    def apply(self, enc: Encounter, p: T, res: Resolution, tx: Transaction) -> None:
        if not p.actor:
            raise RuleError(f"{self.name}: name the unit that tests")
        self.follow(enc, enc.find_unit(p.actor), res, tx)

    def follow(self, enc: Encounter, unit: Any, res: Resolution, tx: Transaction) -> None:
        """What the resolution leads to for the unit that tested."""
