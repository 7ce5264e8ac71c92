"""How the resolve dialog words the odds."""

from __future__ import annotations

from tracker.ui.screens.resolve import odds_text, percent


def test_a_possible_outcome_never_reads_as_zero_or_certain():
    assert percent(0.0002) == "<0.1%"
    assert percent(0.9998) == ">99.9%"
    assert (percent(0.0), percent(1.0), percent(0.644)) == ("0.0%", "100.0%", "64.4%")


def test_outcomes_keep_their_order_and_impossible_ones_are_left_out():
    odds = [("wins", 0.7), ("destroyed", 0.0), ("draw", 0.2999), ("routs", 0.0001)]
    assert odds_text(odds) == "wins 70.0% · draw 30.0% · routs <0.1%"
    assert odds_text(odds, limit=1) == "wins 70.0% · …"
