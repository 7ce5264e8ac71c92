"""Exact odds for every ruleset, on icepool: counts of successes, sums of dice, contests,
chains (hit, then save, then stands lost) and tests against a total.

A distribution of a count is a list of probabilities indexed by the count (``dist[k]``
is the chance of exactly ``k``); a signed one (a margin of success) is a dict. Chances
are computed exactly (icepool works in whole-number weights) and handed out as floats.
Resolvers never import this module: ``tracker resolve`` stays light, and the odds load
when a dialog or the journal first asks for them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement

import icepool

from tracker.core.dice import MOST_DICE

Chance = Fraction | float
Dist = list[float]


MOST_SUMMED = 200
"""The most dice whose totals are worked out (icepool adds them one at a time, in a
recursion as deep as the dice, and in time that grows with their square): past it, the
odds are not given, and the dice are still rolled."""


def _counted(n: int, most: int = MOST_DICE) -> int:
    """``n`` dice, where odds are worked out for so many (ValueError past ``most``; past
    :data:`~tracker.core.dice.MOST_DICE` their rolls are refused too)."""
    if n > most:
        raise ValueError(f"{n} dice at once: odds are worked out for at most {most}")
    return n


def chance(p: Chance) -> Fraction:
    """A chance as an exact fraction (floats like 2/3 are read back to the fraction)."""
    if isinstance(p, Fraction):
        return p
    return Fraction(p).limit_denominator(1_000_000)


def _floats(die: icepool.Die, top: int) -> Dist:
    """The chances of outcomes 0..top of a die of counts."""
    total = die.denominator()
    out = [0.0] * (top + 1)
    for outcome, weight in die.items():
        out[int(outcome)] = weight / total
    return out


@lru_cache(maxsize=1024)
def _binomial(n: int, p: Fraction) -> tuple[float, ...]:
    if p <= 0:
        return (1.0,) + (0.0,) * n
    if p >= 1:
        return (0.0,) * n + (1.0,)
    # The weights icepool's ``n @ coin`` gives, C(n, k) a^k b^(n-k) over den^n, in whole
    # numbers: the same floats, but icepool takes 20-30 ms for 60 dice and a third of a
    # second for 200, this well under a millisecond (bench/binomial.py, bench/RESULTS.md).
    a, b, whole = p.numerator, p.denominator - p.numerator, p.denominator**n
    return tuple(math.comb(n, k) * a**k * b ** (n - k) / whole for k in range(n + 1))


def binomial(n: int, p: Chance) -> Dist:
    """Chance of exactly k of ``n`` independent tries succeeding, k = 0..n."""
    return list(_binomial(max(0, _counted(n)), chance(p)))


def at_least_one_in(sides: int, need: int) -> Fraction:
    """Chance that one die of ``sides`` shows ``need`` or more (0 above the die)."""
    if need > sides:
        return Fraction(0)
    return Fraction(sides - max(1, need) + 1, sides)


def successes(n: int, sides: int, need: int) -> Dist:
    """Successes of ``n`` dice that succeed at ``need`` or more."""
    return binomial(n, at_least_one_in(sides, need))


@lru_cache(maxsize=256)
def _sum(n: int, sides: int) -> tuple[float, ...]:
    if n <= 0:
        return (1.0,)
    total = n @ icepool.Die(range(1, sides + 1))
    return tuple(_floats(total, n * sides))


def dice_sum(n: int, sides: int) -> Dist:
    """Chance of each total of ``n`` dice of ``sides`` (index = total; 0 for no dice)."""
    return list(_sum(_counted(n, MOST_SUMMED), sides))


def ways_sum(n: int, faces: int) -> list[int]:
    """Ways ``n`` dice of faces 1..``faces`` make each total (index = total)."""
    if _counted(n, MOST_SUMMED) <= 0:
        return [1]
    die = n @ icepool.Die(range(1, faces + 1))
    out = [0] * (n * faces + 1)
    for outcome, weight in die.items():
        out[int(outcome)] = int(weight)
    return out


def at_most(dist: Sequence[float], k: int) -> float:
    """Chance of ``k`` or less."""
    if k < 0:
        return 0.0
    return _unit(sum(dist[: k + 1]))


def at_least(dist: Sequence[float], k: int) -> float:
    """Chance of ``k`` or more."""
    return _unit(sum(dist[max(0, k) :]))


def _unit(p: float) -> float:
    """A sum of chances kept within 0..1 (float rounding can step just past either end)."""
    return min(1.0, max(0.0, float(p)))


def difference(a: Sequence[float], b: Sequence[float]) -> dict[int, float]:
    """The distribution of A - B for independent counts (a contest of two pools)."""
    out: dict[int, float] = {}
    for i, pa in enumerate(a):
        if not pa:
            continue
        for j, pb in enumerate(b):
            if pb:
                out[i - j] = out.get(i - j, 0.0) + pa * pb
    return out


def mapped(dist: Sequence[float], f: Callable[[int], int], size: int) -> Dist:
    """The distribution of ``f(count)``, as a list of at most ``size`` outcomes: those
    past the last that can come are left off (a unit of a million stands loses at most
    as many as there are dice)."""
    out: dict[int, float] = {}
    for k, pk in enumerate(dist):
        if pk:
            out[f(k)] = out.get(f(k), 0.0) + pk
    return [out.get(i, 0.0) for i in range(min(size, max(out, default=0) + 1))]


def chain(n: int, steps: Sequence[Chance]) -> Dist:
    """``n`` dice that must pass each step in turn (hit, then fail to be saved ...)."""
    p = Fraction(1)
    for step in steps:
        p *= chance(step)
    return binomial(n, p)


def total(dist: Sequence[float]) -> float:
    return float(sum(dist))


def mean(dist: Sequence[float]) -> float:
    return float(sum(k * p for k, p in enumerate(dist)))


def multisets(sides: int, n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each set of faces ``n`` dice of ``sides`` can show (lowest first), with how many
    of the sides**n orders show it: a walk over the ways dice fall, each set once."""
    whole = math.factorial(n)
    for faces in combinations_with_replacement(range(1, sides + 1), n):
        ways = whole
        for c in Counter(faces).values():
            ways //= math.factorial(c)
        yield faces, ways


def multiset_count(sides: int, n: int) -> int:
    """How many sets of faces :func:`multisets` walks."""
    return math.comb(n + sides - 1, sides - 1)


def kinds(sizes: Sequence[int], n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each way ``n`` dice fall into kinds of faces (``sizes[i]`` faces of kind i), as
    how many dice of each kind, with how many of the sides**n orders of faces give it:
    the multinomial of the counts times each kind's faces to the power of its count."""
    m = len(sizes)
    if m == 0:
        return
    whole = math.factorial(n)

    def split(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == m - 1:
            yield (left,)
            return
        for k in range(left + 1):
            for rest in split(i + 1, left - k):
                yield (k, *rest)

    for counts in split(0, n):
        ways = whole
        for size, k in zip(sizes, counts, strict=True):
            ways = ways // math.factorial(k) * size**k
        yield counts, ways
