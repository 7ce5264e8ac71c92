"""The one odds module: exact distributions checked against counting by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest

from tracker.core import odds


def test_binomial_six_dice_at_four_plus_matches_counting() -> None:
    dist = odds.successes(6, 6, 4)
    for k in range(7):
        assert dist[k] == pytest.approx(comb(6, k) / 64)
    assert odds.total(dist) == pytest.approx(1.0)


def test_five_or_more_hits_of_six_at_four_plus_is_10_9_percent() -> None:
    # the luck ledger's hand calculation: 6 dice to hit at 4+, 5 hits
    dist = odds.successes(6, 6, 4)
    assert odds.at_least(dist, 5) == pytest.approx(7 / 64)
    assert round(odds.at_least(dist, 5) * 100, 1) == 10.9
    assert odds.mean(dist) == pytest.approx(3.0)


def test_need_above_the_die_never_succeeds_and_below_one_always() -> None:
    assert odds.successes(3, 6, 7) == [1.0, 0.0, 0.0, 0.0]
    assert odds.successes(2, 6, 1) == [0.0, 0.0, 1.0]
    assert odds.binomial(0, Fraction(1, 2)) == [1.0]


def test_dice_sum_two_dice_seven_is_one_in_six() -> None:
    dist = odds.dice_sum(2, 6)
    assert dist[7] == pytest.approx(1 / 6)
    assert dist[2] == pytest.approx(1 / 36) and dist[12] == pytest.approx(1 / 36)
    assert odds.dice_sum(0, 6) == [1.0]
    assert odds.ways_sum(2, 5)[10] == 1


def test_difference_of_two_pools_by_enumeration() -> None:
    a = odds.successes(2, 10, 7)
    b = odds.successes(1, 10, 6)
    got = odds.difference(a, b)
    want: dict[int, Fraction] = {}
    for x in itertools.product(range(1, 11), repeat=3):
        m = sum(v >= 7 for v in x[:2]) - (x[2] >= 6)
        want[m] = want.get(m, Fraction(0)) + Fraction(1, 1000)
    assert set(got) == set(want)
    for m in want:
        assert got[m] == pytest.approx(float(want[m]))


def test_a_chain_of_hits_then_unsaved_is_one_binomial() -> None:
    # 4 dice hitting at 4+, each hit saved on 4+: unsaved hits ~ Binomial(4, 1/4)
    unsaved = odds.chain(4, [Fraction(1, 2), Fraction(1, 2)])
    assert unsaved == pytest.approx(odds.binomial(4, Fraction(1, 4)))
    assert odds.chain(4, [Fraction(1, 2)]) == pytest.approx(odds.successes(4, 6, 4))


def test_floats_are_read_back_as_fractions() -> None:
    assert odds.chance(2 / 3) == Fraction(2, 3)
    assert odds.chance(0.15) == Fraction(3, 20)


def test_mapped_and_tails() -> None:
    dist = odds.successes(3, 6, 4)
    capped = odds.mapped(dist, lambda k: min(k, 1), 2)
    assert capped[0] == pytest.approx(1 / 8) and capped[1] == pytest.approx(7 / 8)
    assert odds.at_most(dist, -1) == 0.0
    assert odds.at_most(dist, 3) == pytest.approx(1.0)
