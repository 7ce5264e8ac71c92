"""plain's actions by their rules, with dice entered by role, and their odds checked
against icepool worked out here, apart from the tracker's own."""

from __future__ import annotations

import re
from fractions import Fraction

import icepool
import pytest

from tracker import rules
from tracker.core.dice import Dice, DiceError, NeedDice
from tracker.rules.base import RuleError

PLAIN = rules.get("plain")
ATTACK = PLAIN.action("attack")
SAVE = PLAIN.action("save")
INITIATIVE = PLAIN.action("initiative")


def resolve(action, dice: dict[str, list[int]], **raw: str):  # type: ignore[no-untyped-def]
    return action.resolve(action.parse_params(raw), Dice(entered=dice, mode="strict"))


def odds(action, **raw: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return dict(action.odds(action.parse_params(raw)))


def chance(die: icepool.Die, *, at_least: int) -> Fraction:
    return Fraction(die.probability(">=", at_least))


# --- attack --------------------------------------------------------------------------------


def test_bonus_5_against_ac_15_hits_55_percent_and_the_odds_agree_with_icepool():
    got = odds(ATTACK, bonus="5", defence="15", damage="1d8+3", hp="7", target="Goblin")
    hit = chance(icepool.d20 + 5, at_least=15)  # a 1 at +5 makes 6: a miss anyway
    assert hit == Fraction(11, 20)
    crit = Fraction(1, 20)
    down_hit = chance(icepool.d8 + 3, at_least=7)
    down_crit = chance(2 @ icepool.d8 + 3, at_least=7)  # a critical hit rolls its dice twice
    assert got["miss"] == pytest.approx(float(1 - hit))
    assert got["hit"] + got["hit: Goblin down"] + got["critical hit"] \
        + got["critical hit: Goblin down"] == pytest.approx(0.55)
    assert got["hit: Goblin down"] == pytest.approx(float((hit - crit) * down_hit))
    assert got["critical hit: Goblin down"] == pytest.approx(float(crit * down_crit))
    assert sum(got.values()) == pytest.approx(1)
    summary = ATTACK.summary(ATTACK.parse_params(
        {"bonus": "5", "defence": "15", "damage": "1d8+3", "hp": "7", "target": "Goblin"}))
    assert summary.startswith("hit 55.0% (critical 5.0%) · damage 1d8+3 4-11, mean 7.5")


def test_a_hit_with_entered_dice_rolls_the_damage_and_says_the_target_is_down():
    res = resolve(ATTACK, {"attack": [14], "damage": [6]}, actor="Aria", target="Goblin",
                  bonus="5", defence="15", damage="1d8+3", hp="7")
    assert (res.outcome, res.figures["total"], res.figures["damage"]) == ("hit", 19, 9)
    assert res.figures["drops"]
    assert res.text == ("Aria attacks Goblin: 14+5 = 19 vs AC 15: hit, 9 damage (1d8+3: 6+3);"
                        " Goblin is down")


def test_a_miss_asks_for_no_damage_dice():
    res = resolve(ATTACK, {"attack": [9]}, bonus="5", defence="15", damage="1d8+3")
    assert res.outcome == "miss" and res.figures["damage_dice"] == []
    with pytest.raises(DiceError, match="not used"):
        dice = Dice(entered={"attack": [9], "damage": [4]}, mode="strict")
        ATTACK.resolve(ATTACK.parse_params({"bonus": "5", "defence": "15", "damage": "1d6"}),
                       dice)
        dice.check_all_used()


@pytest.mark.parametrize(("die", "setting", "outcome"), [
    (20, {}, "critical hit"),                       # a 20 always hits, and is critical
    (20, {"natural_20": "no"}, "miss"),
    (1, {}, "miss"),
    (1, {"natural_1": "no"}, "hit"),
])
def test_natural_20_and_1_are_settings(die, setting, outcome):
    bonus = "-10" if die == 20 else "30"
    dice = {"attack": [die], "damage": [3, 3] if outcome.startswith("critical") else [3]}
    res = resolve(ATTACK, dice if outcome != "miss" else {"attack": [die]}, bonus=bonus,
                  defence="25", damage="1d6", **setting)
    assert res.outcome == outcome


def test_a_total_equal_to_the_defence_hits_unless_the_setting_says_beat_it():
    assert resolve(ATTACK, {"attack": [10], "damage": [2]}, bonus="5", defence="15",
                   damage="1d6").outcome == "hit"
    assert resolve(ATTACK, {"attack": [10]}, bonus="5", defence="15", damage="1d6",
                   equal_succeeds="no").outcome == "miss"


@pytest.mark.parametrize(("how", "dice", "damage"), [
    ("dice", [3, 5], 3 + 5 + 3),      # the damage dice rolled twice
    ("max", [3], 8 + 3 + 3),          # the dice at their most, plus the roll
    ("total", [3], 2 * (3 + 3)),      # the whole doubled
    ("none", [3], 3 + 3),
])
def test_a_critical_hit_s_damage_is_a_setting(how, dice, damage):
    res = resolve(ATTACK, {"attack": [20], "damage": dice}, bonus="5", defence="15",
                  damage="1d8+3", crit_damage=how)
    assert res.outcome == "critical hit" and res.figures["damage"] == damage


def test_a_lower_crit_makes_19_critical_where_it_hits():
    res = resolve(ATTACK, {"attack": [19], "damage": [1, 1]}, bonus="5", defence="15",
                  damage="1d8", crit="19")
    assert res.outcome == "critical hit"
    # 19 + 0 misses AC 25: no critical hit without a hit
    assert resolve(ATTACK, {"attack": [19]}, bonus="0", defence="25", damage="1d8",
                   crit="19").outcome == "miss"


def test_advantage_keeps_the_higher_die_and_disadvantage_the_lower():
    high = resolve(ATTACK, {"attack": [3, 17], "damage": [2]}, bonus="4", defence="15",
                   damage="1d6", roll="advantage")
    low = resolve(ATTACK, {"attack": [3, 17]}, bonus="4", defence="15", damage="1d6",
                  roll="disadvantage")
    assert (high.figures["die"], high.outcome) == (17, "hit")
    assert (low.figures["die"], low.outcome) == (3, "miss")
    got = odds(ATTACK, bonus="4", defence="15", damage="1d6", roll="advantage")
    assert 1 - got["miss"] == pytest.approx(
        float(chance(icepool.d20.highest(2, 1) + 4, at_least=15)))


def test_the_damage_stage_is_asked_after_the_attack_die_with_its_count():
    params = ATTACK.parse_params({"bonus": "5", "defence": "15", "damage": "2d6+1"})
    with pytest.raises(NeedDice) as first:
        ATTACK.resolve(params, Dice(mode="ask"))
    assert (first.value.request.role, first.value.request.count) == ("attack", 1)
    with pytest.raises(NeedDice) as then:
        ATTACK.resolve(params, Dice(entered={"attack": [12]}, mode="ask"))
    assert (then.value.request.role, then.value.request.count, then.value.request.sides) \
        == ("damage", 2, 6)


@pytest.mark.parametrize(("raw", "message"), [
    ({"bonus": "5", "damage": "1d8"}, "has no ac: give defence="),
    ({"defence": "15", "damage": "1d8+x"}, "damage=1d8+x: expected dice"),
    ({"defence": "15", "damage": "4d6kh3"}, "damage=4d6kh3: expected dice"),
    ({"defence": "15"}, "give damage="),
    ({"defence": "15", "damage": "1d6", "crit": "1"}, "crit=1: must be at least 2"),
    ({"defence": "15", "damage": "1d6", "crit": "21"}, "crit=21: must be at most 20"),
    ({"defence": "15", "damage": "1d6", "roll": "twice"}, "roll=twice: expected one of"),
])
def test_bad_attack_values_are_refused_in_one_line(raw, message):
    with pytest.raises(RuleError, match=re.escape(message)):
        ATTACK.resolve(ATTACK.parse_params(raw), Dice(mode="strict"))


# --- save ----------------------------------------------------------------------------------


def test_a_save_for_three_targets_with_half_damage():
    res = resolve(SAVE, {"save": [12, 5, 15], "damage": [6, 5, 4, 3, 6, 2, 1, 2]},
                  targets="Goblin 1,Goblin 2,Orc", dc="13", bonus="2", damage="8d6",
                  hp="7,7,15")
    each = {s["name"]: (s["total"], s["saved"], s["damage"], s["drops"])
            for s in res.figures["saves"]}
    assert res.figures["damage"] == 29
    assert each == {"Goblin 1": (14, True, 14, True), "Goblin 2": (7, False, 29, True),
                    "Orc": (17, True, 14, False)}
    assert res.outcome == "2 down"


def test_half_damage_rounds_as_the_setting_says():
    for rounds, half in (("down", 3), ("up", 4)):
        res = resolve(SAVE, {"save": [20], "damage": [4, 3]}, targets="Orc", dc="10",
                      damage="2d6", half_rounds=rounds)
        assert res.figures["saves"][0]["damage"] == half


def test_no_damage_is_rolled_when_no_one_takes_any():
    res = resolve(SAVE, {"save": [18, 19]}, targets="A,B", dc="10", damage="8d6", half="no")
    assert res.figures["damage_dice"] == [] and res.outcome == "0 fail"


def test_each_target_may_have_its_own_bonus_and_a_failed_save_names_a_condition():
    res = resolve(SAVE, {"save": [10, 10]}, targets="A,B", dc="12", bonus="1,2",
                  condition="poisoned")
    assert [s["saved"] for s in res.figures["saves"]] == [False, True]
    assert res.text.endswith("now poisoned: A")
    with pytest.raises(RuleError, match="one for all, or one for each of the 2 targets"):
        resolve(SAVE, {"save": [10, 10]}, targets="A,B", dc="12", bonus="1,2,3")


def test_save_odds_agree_with_icepool():
    got = odds(SAVE, targets="A,B,C", dc="15", bonus="2,4,0")
    saves = [chance(icepool.d20 + b, at_least=15) for b in (2, 4, 0)]
    none_fail = saves[0] * saves[1] * saves[2]
    all_fail = (1 - saves[0]) * (1 - saves[1]) * (1 - saves[2])
    assert got["0 fail"] == pytest.approx(float(none_fail))
    assert got["3 fail"] == pytest.approx(float(all_fail))
    assert sum(got.values()) == pytest.approx(1)


def test_save_odds_of_going_down_sum_the_one_damage_roll_over_everyone():
    got = odds(SAVE, targets="A,B", dc="15", bonus="0", damage="2d6", hp="7,20")
    fail = 1 - chance(icepool.d20, at_least=15)
    dmg = 2 @ icepool.d6
    # A goes down on a failed save with 7+, or on a save with 14+ (half of 2d6 never is)
    expected_one = fail * chance(dmg, at_least=7)
    assert got["1 down"] == pytest.approx(float(expected_one))
    assert got["2 down"] == 0


# --- initiative ----------------------------------------------------------------------------


def test_initiative_asks_each_one_s_die_in_turn_and_adds_the_bonus():
    params = INITIATIVE.parse_params({"who": "Aria,Tam", "bonuses": "1,4", "dice": "d20"})
    with pytest.raises(NeedDice) as asked:
        INITIATIVE.resolve(params, Dice(entered={"initiative": [9]}, mode="ask"))
    assert asked.value.request.why == "Tam +4"
    res = INITIATIVE.resolve(params, Dice(entered={"initiative": [9, 17]}, mode="strict"))
    assert [(r["name"], r["total"]) for r in res.figures["totals"]] == [("Aria", 10),
                                                                      ("Tam", 21)]


def test_initiative_dice_that_roll_nothing_are_refused():
    params = INITIATIVE.parse_params({"who": "Aria", "dice": "x"})
    with pytest.raises(RuleError, match="initiative_dice"):
        INITIATIVE.resolve(params, Dice(mode="strict"))


def test_the_yes_no_figures_of_a_save_are_named_in_words_in_its_odds():
    """The save the GM makes on two goblins (1 and 7 hp, DC 13, 2d6 halved on a save):
    one save made or more is 1 - 0.6 x 0.6, and the 1 hp goblin is down whatever falls.
    The dice step names them in words, not by their figures' names."""
    from tracker.rules.stage_odds import outcome_odds
    from tracker.ui.screens.dice_odds import odds_lines

    params = SAVE.parse_params({"targets": "Goblin 2,Goblin 4", "dc": "13", "damage": "2d6",
                                "hp": "1,7"})
    flags: dict[str, float] = {}
    outcome_odds(SAVE, params, {}, flags=flags, labels=SAVE.odds(params))
    assert flags == pytest.approx({"a save made": 0.64, "down": 1.0})
    # Goblin 2 fails on a 5: only Goblin 4's save (40%) is left to say; the down ones
    # are said by the odds themselves (1 down, 2 down)
    text = odds_lines(SAVE, params, {"save": [5]}, lambda: False, {}, lambda _: None)
    assert text is not None
    assert text.splitlines()[-1] == "and: a save made 40.0%"
