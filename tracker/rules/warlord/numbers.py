"""Percentages and fractions as the Fantasy Warlord GM reads them: exact, then rounded
only where a die is rolled against them."""

from __future__ import annotations

import math
from fractions import Fraction

from tracker.rules.errors import RuleError

ROUNDINGS = ("down", "nearest", "up")
"""How the remainder of the FFP is rounded to the whole percent the d100 is rolled against."""


def show(value: Fraction) -> str:
    """A fraction as the GM reads it: ``120``, ``83 1/3``, ``-2/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    whole = math.trunc(value)
    rest = abs(value - whole)
    if whole == 0:
        return f"{'-' if value < 0 else ''}{rest.numerator}/{rest.denominator}"
    return f"{whole} {rest.numerator}/{rest.denominator}"


def json_number(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else float(value)


def round_remainder(remainder: Fraction, rounding: str) -> int:
    """The percentage the d100 is rolled against: the remainder rounded as the setting says."""
    if rounding == "down":
        return math.floor(remainder)
    if rounding == "up":
        return math.ceil(remainder)
    if rounding == "nearest":
        return math.floor(remainder + Fraction(1, 2))  # halves go up
    raise RuleError(f"remainder_rounding={rounding}: expected one of {', '.join(ROUNDINGS)}")


def parse_fraction(text: str | int | float, what: str) -> Fraction:
    """``"1/2"``, ``"0.5"`` or ``1`` as an exact fraction, or a RuleError naming ``what``."""
    try:
        value = Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        raise RuleError(f"{what}={text}: expected a fraction like 1/2") from None
    if value < 0:
        raise RuleError(f"{what}={text}: must not be negative")
    return value


