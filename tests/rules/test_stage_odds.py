"""The odds while the dice land: the stage's successes and the action's outcomes."""

from fractions import Fraction

import pytest

from tracker.core.dice import Request
from tracker.rules.stage_odds import TooMany, outcome_odds, stage_line
from tracker.rules.warmaster.actions.driveback import DRIVEBACK
from tracker.rules.warmaster.actions.shoot import SHOOT, ShootParams


def test_stage_line_counts_what_the_dice_left_can_still_give():
    req = Request(0, "hit", 6, 4, need=5)
    # one die in (a 5); three left at 5+ (1/3 each): at least two more is 7/27
    line = stage_line(req, [5])
    assert line.startswith("3 dice left on 5+ (1 of 1 so far): 1+ 70.4% · 2+ 25.9% · 3 3.7%")
    assert stage_line(req, [5, 1, 6, 2]) == "all in: 2 of 4 at 5+"
    assert stage_line(Request(0, "drive", 6, 2), [3]) == "1 die left"
    assert stage_line(Request(0, "test", 100, 1, under=85), []) == (
        "1 die left on ≤ 85: 1 85.0%")


def params(**kw):
    base = dict(attacks=3, armour=4, hits_per_stand=3, stands=3, leftover=0)
    return ShootParams(**{**base, **kw})


def test_outcomes_given_the_dice_so_far_are_exact():
    p = params()
    # three hits in; saves 4+: a stand goes only if all three saves fail (1/8),
    # no unsaved hits if all three are saved (1/8)
    odds = dict(outcome_odds(SHOOT, p, {"hit": [4, 5, 6]}))
    assert odds == pytest.approx({"stands removed": 1 / 8, "hit": 6 / 8, "no hits": 1 / 8})
    # two saves in, one failed: the third decides between a hit and nothing lost
    assert dict(outcome_odds(SHOOT, p, {"hit": [4, 5, 6], "save": [1, 6]})) == pytest.approx(
        {"hit": 1.0})


def test_outcomes_before_any_die_match_the_actions_own_odds():
    p = params()
    walked = dict(outcome_odds(SHOOT, p, {}))
    # a hit on 4+ then a failed save on 1-3: each die takes a hit through with 1/4
    through = [Fraction(27, 64), Fraction(27, 64), Fraction(9, 64), Fraction(1, 64)]
    assert walked["no hits"] == pytest.approx(float(through[0]))
    assert walked["stands removed"] == pytest.approx(float(through[3]))


def test_too_many_ways_left_is_said_not_guessed():
    # a drive back reads the faces themselves (their sum, and any 6): twelve dice fall
    # in 6,188 sets of faces
    many = DRIVEBACK.parse_params({"hits": "12", "pace": "20"})
    with pytest.raises(TooMany):
        outcome_odds(DRIVEBACK, many, {}, budget=100)
    with pytest.raises(TooMany):
        outcome_odds(SHOOT, params(attacks=40, hits_per_stand=None, stands=None), {},
                     budget=100)
    with pytest.raises(TooMany):
        outcome_odds(SHOOT, params(), {"hit": [4]}, stale=lambda: True)
