"""Shared pieces of the edc ruleset: d10 success counting, botches, TN rules, exact odds.

A die succeeds when it shows its target number (TN) or more; a roll botches (fumbles)
when it has no successes and two or more 1s. TNs above 10 follow the ``tn_above_ten``
setting: ``cap`` (only a 10 succeeds) or ``impossible`` (no die can succeed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Param, RuleError

if TYPE_CHECKING:
    from tracker.core.model import Encounter

CP = "CP"
"""The Combat Pool's name on a fighter."""
MP = "MP"
"""The Missile Pool's name on a fighter."""

TN_RULES = ("cap", "impossible")

TN_ABOVE_TEN = Param(
    "tn_above_ten",
    "choice",
    "cap",
    "TN over 10: cap (a 10 succeeds) or impossible",
    choices=TN_RULES,
)


def effective_tn(tn: int, rule: str = "cap") -> int:
    """The TN a d10 must reach; 11 means no die can succeed."""
    if tn > 10:
        return 10 if rule == "cap" else 11
    return max(tn, 1)


def roll_d10s(dice: Dice, role: str, count: int) -> list[int]:
    """``count`` d10s for ``role`` (an entered 0 reads 10)."""
    if count < 0:
        raise RuleError(f"{role}: cannot roll {count} dice")
    return [dice.roll(role, 10, zero_is_ten=True) for _ in range(count)]


def count_successes(values: Iterable[int], tn: int, rule: str = "cap") -> int:
    need = effective_tn(tn, rule)
    return sum(1 for v in values if v >= need)


def is_botch(values: list[int], successes: int) -> bool:
    """No successes and at least two 1s."""
    return successes == 0 and values.count(1) >= 2


def p_success(tn: int, rule: str = "cap") -> float:
    need = effective_tn(tn, rule)
    return max(0, 11 - need) / 10


def binomial(n: int, p: float) -> list[float]:
    """P(k successes) for k = 0..n, by repeated convolution (exact in floating point)."""
    dist = [1.0]
    for _ in range(n):
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def difference(a: list[float], b: list[float]) -> dict[int, float]:
    """Distribution of A - B for independent A, B given as lists indexed by value."""
    out: dict[int, float] = {}
    for i, pa in enumerate(a):
        if pa == 0:
            continue
        for j, pb in enumerate(b):
            if pb:
                out[i - j] = out.get(i - j, 0.0) + pa * pb
    return out


def botch_chance(n: int, tn: int, rule: str = "cap") -> float:
    """P(no successes and two or more 1s) for ``n`` d10s."""
    if n < 2:
        return 0.0
    need = effective_tn(tn, rule)
    fail = min(need - 1, 10) / 10  # a die that fails
    if need <= 1:
        return 0.0
    other = fail - 0.1  # fails and is not a 1
    # all dice fail, minus those with zero or one 1
    return fail**n - other**n - n * 0.1 * other ** (n - 1)


def success_odds(n: int, tn: int, rule: str = "cap") -> list[tuple[str, float]]:
    """Odds of a simple terrain-style roll: botch, failure, success."""
    p0 = binomial(n, p_success(tn, rule))[0]
    b = botch_chance(n, tn, rule)
    return [("botch", b), ("failure", p0 - b), ("success", 1 - p0)]


def missing(params: dict[str, Any], name: str) -> bool:
    return name not in params or params[name] is None


def combatant_or_none(enc: Encounter, name: Any) -> Any:
    if not name:
        return None
    return enc.find_combatant(str(name))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s" if not word.endswith("s") else f"{n} {word}"


def successes_word(n: int) -> str:
    return f"{n} success" if n == 1 else f"{n} successes"
