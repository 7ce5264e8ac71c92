"""The binomial of core/odds.py, worked out in whole numbers, is icepool's ``n @ coin``."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.binomial import icepool_binomial
from tracker.core import odds


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 70), num=st.integers(1, 215), den=st.sampled_from([6, 36, 216, 1296]))
def test_binomial_gives_the_same_floats_as_icepool(n: int, num: int, den: int) -> None:
    p = Fraction(min(num, den - 1), den)
    assert tuple(odds.binomial(n, p)) == icepool_binomial(n, p)


def test_binomial_edges() -> None:
    assert odds.binomial(3, 0) == [1.0, 0.0, 0.0, 0.0]
    assert odds.binomial(3, 1) == [0.0, 0.0, 0.0, 1.0]
    assert odds.binomial(0, Fraction(1, 2)) == [1.0]
    assert odds.binomial(2, Fraction(1, 2)) == [0.25, 0.5, 0.25]
