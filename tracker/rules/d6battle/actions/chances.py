"""Chances the d6battle odds share, on ``tracker.core.odds``: the kills of a pool of dice
that must hit, not be saved and kill, and passing a morale or command test. Imported by
the actions' ``odds`` only, so that resolving stays light."""

from __future__ import annotations

from functools import lru_cache

from tracker.core import odds

from .scores import read_test_dice


def kills(dice: int, needed: int, save_needed: int, kill_needed: int,
          cap: int | None = None) -> list[float]:
    """Chance of each number of kills of ``dice`` dice (a score above 6 never succeeds),
    the kills capped at ``cap`` figures."""
    steps = [odds.at_least_one_in(6, needed), 1 - odds.at_least_one_in(6, save_needed),
             odds.at_least_one_in(6, kill_needed)]
    dist = odds.chain(dice, steps)
    if cap is None or cap >= dice:
        return dist
    top = max(0, cap)
    return odds.mapped(dist, lambda k: min(k, top), top + 1)


@lru_cache(maxsize=64)
def _totals(spec: str) -> tuple[float, ...]:
    n = read_test_dice(spec)
    return tuple(odds.dice_sum(n.count, n.sides))


def pass_chance(spec: str, target: int) -> float:
    """Chance that the test dice (``2d6``) roll ``target`` or less."""
    return odds.at_most(_totals(spec), target)


def pass_or_fail(spec: str, value: int, failed: str) -> list[tuple[str, float]]:
    """The odds of a morale or command test: passed, or what failing it does."""
    chance = pass_chance(spec, value)
    return [("passed", chance), (failed, 1 - chance)]
