"""Exact odds of edc rolls, on the one odds module (``tracker.core.odds``): successes of a
pool of d10s, botches, contests (margin of success, MoS) and opposed terrain rolls.

Imported only by the actions' ``odds`` methods, so ``tracker resolve`` stays light.
"""

from __future__ import annotations

from fractions import Fraction

from tracker.core import odds

from .common import effective_tn

Odds = list[tuple[str, float]]


def p_success(tn: int, rule: str = "cap") -> Fraction:
    """Chance that one d10 reaches ``tn``."""
    return odds.at_least_one_in(10, effective_tn(tn, rule))


def pool(n: int, tn: int, rule: str = "cap") -> list[float]:
    """Successes of ``n`` d10s against ``tn`` (index = successes)."""
    return odds.binomial(n, p_success(tn, rule))


def botch_chance(n: int, tn: int, rule: str = "cap") -> float:
    """No successes and two or more 1s among ``n`` d10s: every die fails, and of the failing
    dice (each a 1 with chance 1 in TN - 1) two or more show 1."""
    need = effective_tn(tn, rule)
    if n < 2 or need <= 1:
        return 0.0
    ones = odds.binomial(n, Fraction(1, need - 1))
    return pool(n, tn, rule)[0] * odds.at_least(ones, 2)


def success_odds(n: int, tn: int, rule: str = "cap") -> Odds:
    """Odds of a simple terrain-style roll: botch, failure, success."""
    p0 = pool(n, tn, rule)[0]
    b = botch_chance(n, tn, rule)
    return [("botch", b), ("failure", p0 - b), ("success", 1 - p0)]


def pass_fail(n: int, tn: int, rule: str, failed: str, passed: str) -> Odds:
    """Odds of a roll that one success passes (a botch counts as a failure)."""
    botch, fail, ok = success_odds(n, tn, rule)
    return [(failed, botch[1] + fail[1]), (passed, ok[1])]


def mos_odds(na: int, atn: int, nd: int, dtn: int, rule: str = "cap") -> dict[int, float]:
    """Exact distribution of the MoS of a contest (attacker's successes - defender's)."""
    return odds.difference(pool(na, atn, rule), pool(nd, dtn, rule))


def opposed_win(n: int, tn: int, oppose: int, oppose_tn: int, rule: str = "cap") -> float:
    """Chance of one success or more and at least as many as the opponent (a tie goes to
    the one who acts)."""
    mine = pool(n, tn, rule)
    theirs = pool(oppose, oppose_tn, rule)
    return sum(q * odds.at_most(theirs, k) for k, q in enumerate(mine) if k > 0)
