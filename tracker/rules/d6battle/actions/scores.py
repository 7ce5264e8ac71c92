"""The d6 arithmetic every d6battle roll shares: the score a die needs, counting the dice
that make it, and the morale and command test dice (a setting, read as dice notation)."""

from __future__ import annotations

from fractions import Fraction

from tracker.core.dice import Dice, DiceError, Notation, parse_notation
from tracker.rules.base import Figures, Stage
from tracker.rules.errors import RuleError

TARGET = 7
"""d6 + ability (or save) + modifiers >= 7 succeeds: to hit, to save."""
NEVER = 7
"""A die that must show at least this can never succeed."""


def score_needed(bonus: int, floor: int = 1) -> int:
    """The d6 score that makes d6 + bonus >= 7; ``floor`` 2 when a natural 1 fails."""
    return max(floor, TARGET - bonus)


def kill_needed(durability: int, ka: int, floor: int = 1) -> int:
    """The d6 score that makes d6 + KA >= D."""
    return max(floor, durability - ka)


def floor_of(natural_one: str) -> int:
    """The lowest score that may save or kill: 2 when a natural 1 fails every roll."""
    return 2 if natural_one == "all" else 1


def kill_chance(needed: int, save_needed: int, kill_needed: int) -> Fraction:
    """Chance that one die hits, is not saved and kills (a score above 6 never succeeds).
    The odds of whole pools are in ``tracker.core.odds``; this one product serves the mean
    kills a resolution reports without loading them."""
    return _d6(needed) * (1 - _d6(save_needed)) * _d6(kill_needed)


def _d6(needed: int) -> Fraction:
    return Fraction(7 - max(1, needed), 6) if needed <= 6 else Fraction(0)


def count_at_least(values: list[int], needed: int) -> int:
    return sum(1 for v in values if v >= needed)


def score_text(needed: int) -> str:
    return "none" if needed > 6 else f"{needed}+"


def read_test_dice(spec: str) -> Notation:
    """A morale or command test die as the setting names it (``2d6``)."""
    try:
        n = parse_notation(spec, what="test dice")
    except DiceError:
        n = None
    if n is None or not n.plain:
        raise RuleError(f"test dice '{spec}': expected NdS like 2d6")
    return n


def total_kinds(n: Notation, under: int) -> tuple[int, ...]:
    """The faces of a test's dice by kind where no total can change the test (every
    total passes, or none does): one kind, so the tracker rolls them; elsewhere none
    (the test reads the total)."""
    if under >= n.count * n.sides:
        return (1,) * n.sides
    if under < n.count:
        return (0,) * n.sides
    return ()


def roll_test(dice: Dice, role: str, spec: str, under: int) -> tuple[int, list[int]]:
    """Roll a morale or command test (passes on a total of ``under`` or less): its total
    and the dice."""
    n = read_test_dice(spec)
    values = dice.roll_many(role, n.sides, n.count, why=f"{spec} <= {under}",
                            classes=total_kinds(n, under))
    return sum(values), values


class Tested(Figures):
    """A morale or command test as rolled."""

    passed: bool
    roll: int
    dice: list[int]


def test_stage(role: str, against: str, label: str) -> Stage:
    """The dice of a morale or command test: the ``<role>_dice`` setting's, passing on a
    total at or under the value ``against`` names."""
    return Stage(role, "2d6", f"the {role}_dice setting (2d6 unless changed); passes on a "
                 f"total <= {against}", label=label)


def take_test(dice: Dice, role: str, spec: str, value: int) -> tuple[Tested, str]:
    """A test of ``spec`` dice at ``value`` or less: what it rolled, and the roll in words
    ("2d6 3+4=7")."""
    total, values = roll_test(dice, role, spec, value)
    shown = f"{spec} {'+'.join(map(str, values))}={total}"
    return Tested(passed=total <= value, roll=total, dice=values), shown
