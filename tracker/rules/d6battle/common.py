"""Shared d6battle arithmetic: d6 scores needed, per-die chances, binomial kills,
morale/command test dice.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import lru_cache

from tracker.core.dice import Dice
from tracker.rules.base import RuleError

# A die that must show at least this to succeed can never succeed.
NEVER = 7


def score_needed(bonus: int, floor: int = 1) -> int:
    """The d6 score that makes d6 + bonus >= 7; ``floor`` 2 when a natural 1 fails."""
    return max(floor, 7 - bonus)


def kill_needed(durability: int, ka: int, floor: int = 1) -> int:
    """The d6 score that makes d6 + KA >= D."""
    return max(floor, durability - ka)


def chance(needed: int) -> Fraction:
    """Chance that a d6 shows ``needed`` or more."""
    if needed > 6:
        return Fraction(0)
    return Fraction(7 - max(1, needed), 6)


def count_at_least(values: list[int], needed: int) -> int:
    return sum(1 for v in values if v >= needed)


def binomial(n: int, p: float, cap: int | None = None) -> list[float]:
    """P(k successes) for k = 0..n (or 0..cap, the tail folded into cap)."""
    n = max(0, n)
    if p <= 0:
        dist = [1.0] + [0.0] * n
    elif p >= 1:
        dist = [0.0] * n + [1.0]
    else:
        q = 1.0 - p
        dist = [math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]
    if cap is not None and cap < n:
        cap = max(0, cap)
        dist = dist[:cap] + [sum(dist[cap:])]
    return dist


_DICE = re.compile(r"^(\d+)d(\d+)$")


def parse_test_dice(spec: str) -> tuple[int, int]:
    m = _DICE.match(spec.strip().lower())
    if not m:
        raise RuleError(f"test dice '{spec}': expected NdS like 2d6")
    return int(m[1]), int(m[2])


def roll_test(dice: Dice, role: str, spec: str) -> tuple[int, list[int]]:
    """Roll a morale or command test die (``2d6``): its total and the dice."""
    count, sides = parse_test_dice(spec)
    values = dice.roll_many(role, sides, count)
    return sum(values), values


@lru_cache(maxsize=64)
def _totals(spec: str) -> tuple[float, ...]:
    count, sides = parse_test_dice(spec)
    dist = [1.0]
    for _ in range(count):
        nxt = [0.0] * (len(dist) + sides)
        for total, p in enumerate(dist):
            for face in range(1, sides + 1):
                nxt[total + face] += p / sides
        dist = nxt
    return tuple(dist)


def pass_chance(spec: str, target: int) -> float:
    """Chance that the test dice roll ``target`` or less."""
    dist = _totals(spec)
    if target < 0:
        return 0.0
    return float(sum(dist[: target + 1]))
