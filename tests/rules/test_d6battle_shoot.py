"""d6battle shooting: to hit, every modifier, impossible odds, weapon table, special rules,
armour saves with AP, kill thresholds and the morale table, with dice entered by role."""

from __future__ import annotations

import pytest

from tracker.core.dice import Dice, DiceError
from tracker.rules import get
from tracker.rules.base import RuleError
from tracker.rules.d6battle.actions import shoot_odds as shooting
from tracker.rules.d6battle.tables import armour_save, morale_casualties, weapon_table

RS = get("d6battle")
SHOOT = RS.action("shoot")
WEAPONS = weapon_table().weapons


def params(**raw: object) -> dict:
    text = {k: str(v) for k, v in raw.items()}
    for s in RS.settings:
        if s.name not in text and any(p.name == s.name for p in SHOOT.params):
            text[s.name] = str(s.default)
    return SHOOT.parse_params(text)


def shoot(dice: dict[str, list[int]] | None = None, **raw: object) -> dict:
    d = Dice.from_spec(dice or {}, seed=1, roll_rest=True)
    res = SHOOT.resolve(params(**raw), d)
    d.check_all_used()
    out = res.as_json()
    out["_text"] = res.text
    return out


BASE = {"figures": 1, "sa": 3, "weapon": "bow", "durability": 6}


# --- the issue's worked example ---------------------------------------------------------


def test_issue_example_crossbow_at_long_range() -> None:
    out = shoot(
        {"hit": [1, 4, 5, 6, 6], "save": [6, 2, 5], "kill": [2, 5]},
        figures=5, sa=3, weapon="crossbow", range="long", save=2, durability=6,
    )
    assert (out["hits"], out["saved"], out["kills"]) == (3, 1, 1)
    assert (out["ka"], out["ap"], out["needed"]) == (3, 1, 5)
    assert out["save_needed"] == 6  # 6 + 2 - 1 = 7
    assert out["kill_needed"] == 3
    assert "morale_test" not in out


# --- to hit -----------------------------------------------------------------------------


@pytest.mark.parametrize(("sa", "needed"), [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2)])
def test_d6_plus_sa_seven_hits(sa: int, needed: int) -> None:
    below = shoot({"hit": [needed - 1]}, **{**BASE, "sa": sa}) if needed > 2 else None
    at = shoot({"hit": [needed], "kill": [6]}, **{**BASE, "sa": sa})
    assert at["needed"] == needed and at["hits"] == 1
    if below is not None:
        assert below["hits"] == 0


def test_natural_one_always_misses() -> None:
    out = shoot({"hit": [1, 1, 2]}, **{**BASE, "figures": 3, "sa": 9, "durability": 20})
    assert out["needed"] == 2
    assert out["hits"] == 1


@pytest.mark.parametrize(
    ("extra", "label"),
    [
        ({"skirmishers": 1}, "skirmishers -1"),
        ({"chargers": "yes"}, "chargers -1"),
        ({"range": "long"}, "long range -1"),
        ({"fire": "moving"}, "moving -1"),
        ({"terrain": "yes"}, "target in terrain -1"),
        ({"fire": "stand"}, "chargers -1"),
        ({"fire": "flee"}, "chargers -1"),
    ],
)
def test_each_modifier_is_minus_one(extra: dict, label: str) -> None:
    out = shoot({"hit": [4]}, **{**BASE, "sa": 4, **extra})
    assert out["sa_modified"] == 3
    assert out["modifiers"] == [label]
    assert out["needed"] == 4
    assert out["hits"] == 1


def test_each_skirmish_formation_in_line_of_fire_counts() -> None:
    out = shoot({"hit": [5]}, **{**BASE, "sa": 5, "skirmishers": 2})
    assert out["sa_modified"] == 3 and out["needed"] == 4
    assert out["modifiers"] == ["skirmishers x2 -2"]


def test_modifiers_are_cumulative() -> None:
    out = shoot(
        {"hit": [6], "kill": [6]},
        **{**BASE, "sa": 6, "range": "long", "fire": "moving", "terrain": "yes",
           "skirmishers": 1},
    )
    assert out["sa_modified"] == 2 and out["needed"] == 5
    assert not out["impossible_odds"]


def test_chargers_modifier_counts_once_when_standing_and_shooting() -> None:
    out = shoot({"hit": [6]}, **{**BASE, "sa": 4, "fire": "stand", "chargers": "yes",
                                 "durability": 20})
    assert out["sa_modified"] == 3


# --- impossible odds --------------------------------------------------------------------


def test_impossible_odds_hits_on_six_only_and_ka_minus_one() -> None:
    out = shoot(
        {"hit": [5, 6], "kill": [3]},
        **{**BASE, "figures": 2, "sa": 1, "range": "long", "durability": 6},
    )
    assert out["sa_modified"] == 0
    assert out["impossible_odds"] is True
    assert out["needed"] == 6 and out["hits"] == 1
    assert out["ka"] == 2  # bow long KA 3, less 1
    assert out["kill_needed"] == 4 and out["kills"] == 0


def test_sa_one_after_modifiers_is_not_impossible_odds() -> None:
    out = shoot({"hit": [6], "kill": [3]}, **{**BASE, "sa": 2, "range": "long"})
    assert out["sa_modified"] == 1 and out["needed"] == 6
    assert out["impossible_odds"] is False
    assert out["ka"] == 3 and out["kills"] == 1


def test_impossible_odds_far_below_one_still_hits_on_six() -> None:
    out = shoot({"hit": [6, 5], "kill": [6]},
                **{**BASE, "figures": 2, "sa": -3, "skirmishers": 3})
    assert out["needed"] == 6 and out["hits"] == 1 and out["ka"] == 2


# --- weapon table -----------------------------------------------------------------------

TABLE = {
    # weapon: (effective KA, AP), (long KA, AP) or None for NA
    "javelins": ((3, 0), None),
    "darts": ((2, 0), None),
    "stones": ((1, 0), None),
    "slings": ((3, 0), (3, 0)),
    "shortbow": ((3, 0), (3, 0)),
    "bow": ((3, 0), (3, 0)),
    "longbow": ((3, 1), (3, 0)),
    "staff-sling": ((3, 1), (3, 0)),
    "handgun": ((4, 2), (3, 1)),
    "light-crossbow": ((3, 1), (3, 0)),
    "crossbow": ((4, 1), (3, 1)),
}
RANGES = {
    "javelins": (8, None), "darts": (8, None), "stones": (8, None), "slings": (9, 18),
    "shortbow": (10, 20), "bow": (12, 24), "longbow": (15, 30), "staff-sling": (12, 24),
    "handgun": (12, 24), "light-crossbow": (12, 24), "crossbow": (15, 30),
}


def test_table_has_every_weapon() -> None:
    assert set(WEAPONS) == set(TABLE)


@pytest.mark.parametrize("name", sorted(TABLE))
@pytest.mark.parametrize("range_", ["effective", "long"])
def test_ka_and_ap_at_each_range(name: str, range_: str) -> None:
    expected = TABLE[name][0 if range_ == "effective" else 1]
    # slings shoot at ROF 1 (KA 3) when they moved
    fire = "moving" if name == "slings" else "stationary"
    raw = {**BASE, "weapon": name, "range": range_, "fire": fire, "figures": 0}
    if expected is None:
        with pytest.raises(RuleError, match="no long range"):
            shoot(**raw)
        return
    out = shoot(**raw)
    assert (out["ka"], out["ap"]) == expected


@pytest.mark.parametrize("name", sorted(RANGES))
def test_range_bands_from_distance(name: str) -> None:
    eff, long = RANGES[name]
    fire = "moving" if name == "slings" else "stationary"
    at_eff = shoot(**{**BASE, "weapon": name, "distance": eff, "figures": 0, "fire": fire})
    assert at_eff["range"] == "effective"
    if long is None:
        with pytest.raises(RuleError):
            shoot(**{**BASE, "weapon": name, "distance": eff + 0.5, "figures": 0})
        return
    over = shoot(**{**BASE, "weapon": name, "distance": eff + 0.5, "figures": 0, "fire": fire})
    assert over["range"] == "long" and "long range -1" in over["modifiers"]
    shoot(**{**BASE, "weapon": name, "distance": long, "figures": 0, "fire": fire})
    with pytest.raises(RuleError, match="out of range"):
        shoot(**{**BASE, "weapon": name, "distance": long + 0.5, "figures": 0})


def test_range_long_contradicted_by_distance() -> None:
    with pytest.raises(RuleError, match="effective range"):
        shoot(**{**BASE, "range": "long", "distance": 10})


@pytest.mark.parametrize("name", ["Light-Crossbow", "LIGHT-CROSSBOW", "light-crossbow"])
def test_weapon_names_any_case(name: str) -> None:
    assert shoot(**{**BASE, "weapon": name, "figures": 0})["weapon"] == "Light Crossbow"


def test_unknown_weapon_refused() -> None:
    with pytest.raises(RuleError):
        shoot(**{**BASE, "weapon": "trebuchet"})


# --- special rules ----------------------------------------------------------------------


def test_slings_stationary_rof_two_at_ka_two() -> None:
    out = shoot({"hit": [4, 1, 5, 2], "kill": [4, 3]},
                **{**BASE, "weapon": "slings", "figures": 2})
    assert out["rof"] == 2 and out["shots"] == 4
    assert out["ka"] == 2 and out["hits"] == 2
    assert out["kill_needed"] == 4 and out["kills"] == 1


@pytest.mark.parametrize("fire", ["moving", "stand", "flee"])
def test_slings_rof_one_unless_stationary(fire: str) -> None:
    out = shoot({"hit": [6, 6], "kill": [3, 2]},
                **{**BASE, "weapon": "slings", "figures": 2, "sa": 5, "fire": fire})
    assert out["rof"] == 1 and out["shots"] == 2 and out["ka"] == 3
    assert out["kills"] == 1


def test_slings_at_long_range_stationary() -> None:
    out = shoot({"hit": [5, 5]}, **{**BASE, "weapon": "slings", "range": "long", "sa": 4,
                                    "durability": 20})
    assert out["rof"] == 2 and out["ka"] == 2 and out["needed"] == 4


@pytest.mark.parametrize("name", ["javelins", "darts", "stones"])
def test_thrown_weapons_no_negative_for_moving(name: str) -> None:
    out = shoot({"hit": [4]}, **{**BASE, "weapon": name, "fire": "moving", "durability": 20})
    assert out["sa_modified"] == 3 and out["modifiers"] == []


@pytest.mark.parametrize("name", ["javelins", "darts", "stones"])
def test_thrown_weapons_stand_and_shoot_only_under_five(name: str) -> None:
    out = shoot(**{**BASE, "weapon": name, "fire": "stand", "distance": 4.5, "figures": 0})
    assert out["modifiers"] == ["chargers -1"]
    with pytest.raises(RuleError, match="under 5"):
        shoot(**{**BASE, "weapon": name, "fire": "stand", "distance": 5, "figures": 0})


def test_bow_may_stand_and_shoot_at_any_range() -> None:
    """Only thrown weapons stand & shoot under 5"; a bow does at 11" and at 20" (long)."""
    near = shoot({"hit": [5]}, **{**BASE, "fire": "stand", "distance": 11})
    assert near["range"] == "effective" and near["modifiers"] == ["chargers -1"]
    assert (near["needed"], near["hits"]) == (5, 1)
    far = shoot({"hit": [6]}, **{**BASE, "fire": "stand", "distance": 20})
    assert far["range"] == "long" and far["modifiers"] == ["chargers -1", "long range -1"]
    assert (far["needed"], far["hits"]) == (6, 1)


@pytest.mark.parametrize("name", ["staff-sling", "handgun", "crossbow"])
def test_no_move_and_shoot(name: str) -> None:
    with pytest.raises(RuleError, match="no move & shoot"):
        shoot(**{**BASE, "weapon": name, "fire": "moving"})


@pytest.mark.parametrize("name", ["handgun", "crossbow"])
def test_no_shoot_and_flee_and_no_mass_fire(name: str) -> None:
    with pytest.raises(RuleError, match="no shoot & flee"):
        shoot(**{**BASE, "weapon": name, "fire": "flee"})
    with pytest.raises(RuleError, match="no mass fire"):
        shoot(**{**BASE, "weapon": name, "mass": "yes", "distance": 10})


@pytest.mark.parametrize("name", ["shortbow", "bow", "longbow"])
def test_bows_move_and_shoot_unless_the_setting_groups_them(name: str) -> None:
    out = shoot(**{**BASE, "weapon": name, "fire": "moving", "figures": 0})
    assert out["modifiers"] == ["moving -1"]
    with pytest.raises(RuleError, match="no move & shoot"):
        shoot(**{**BASE, "weapon": name, "fire": "moving", "bows_no_move_shoot": "yes"})


def test_light_crossbow_mass_fire_only_stationary_not_as_charge_reaction() -> None:
    out = shoot(**{**BASE, "weapon": "light-crossbow", "mass": "yes", "distance": 9,
                   "figures": 0})
    assert out["range"] == "effective"
    with pytest.raises(RuleError, match="charge reaction"):
        shoot(**{**BASE, "weapon": "light-crossbow", "mass": "yes", "fire": "stand"})
    with pytest.raises(RuleError, match="stationary"):
        shoot(**{**BASE, "weapon": "light-crossbow", "mass": "yes", "fire": "moving"})


def test_mass_shooting_needs_over_eight_inches_frontal_and_stationary() -> None:
    shoot(**{**BASE, "mass": "yes", "distance": 8.5, "figures": 0})
    with pytest.raises(RuleError, match="over 8"):
        shoot(**{**BASE, "mass": "yes", "distance": 8})
    with pytest.raises(RuleError, match="frontal"):
        shoot(**{**BASE, "mass": "yes", "frontal": "no"})
    with pytest.raises(RuleError, match="stationary"):
        shoot(**{**BASE, "mass": "yes", "fire": "moving"})
    with pytest.raises(RuleError, match="stationary"):
        shoot(**{**BASE, "weapon": "slings", "mass": "yes", "fire": "flee"})


# --- armour saves -----------------------------------------------------------------------

ARMOUR = {
    "buckler": 1, "shield": 1, "large-shield": 2, "spara": 2, "pavise": 2,
    "light-armor": 1, "heavy-armor": 2, "partial-plate": 3, "cataphract": 3,
    "plate-armor": 4, "mounted": 1, "cloth-barding": 1, "half-barding": 1,
    "metal-barding": 1, "skirmisher": 1,
}


@pytest.mark.parametrize(("part", "value"), sorted(ARMOUR.items()))
def test_armour_table_values(part: str, value: int) -> None:
    assert armour_save([part]) == value


def test_armour_parts_sum_and_ap_reduces_the_save() -> None:
    # shield 1 + heavy armour 2 = 3; longbow at effective range AP 1 -> save 2: 5+
    raw = {**BASE, "weapon": "longbow", "armour": "shield,heavy-armour", "figures": 3,
           "sa": 5}
    out = shoot({"hit": [6, 6, 6], "save": [4, 5, 6], "kill": [6]}, **raw)
    assert out["save"] == 3 and out["ap"] == 1
    assert out["save_needed"] == 5 and out["saved"] == 2 and out["kills"] == 1


def test_same_armour_without_ap_saves_on_four() -> None:
    raw = {**BASE, "armour": "shield,heavy-armor", "figures": 1, "sa": 5}
    out = shoot({"hit": [6], "save": [4]}, **raw)
    assert out["save_needed"] == 4 and out["saved"] == 1


def test_biggest_armour_saves_on_anything() -> None:
    parts = "plate-armor,large-shield,mounted,metal-barding"
    out = shoot({"hit": [6], "save": [1]},
                **{**BASE, "weapon": "handgun", "armour": parts, "sa": 5})
    assert out["save"] == 8 and out["ap"] == 2
    assert out["save_needed"] == 1 and out["saved"] == 1


def test_natural_one_setting_all_fails_a_save_of_one() -> None:
    parts = "plate-armor,large-shield,mounted,metal-barding"
    out = shoot({"hit": [6], "save": [1], "kill": [6]},
                **{**BASE, "weapon": "handgun", "armour": parts, "sa": 5, "natural_one": "all"})
    assert out["save_needed"] == 2 and out["saved"] == 0 and out["kills"] == 1


def test_ap_cancelling_the_save_rolls_no_save() -> None:
    out = shoot({"hit": [6], "kill": [4]}, **{**BASE, "weapon": "crossbow", "save": 1,
                                             "sa": 5})
    assert out["save_needed"] is None and out["saved"] == 0 and out["kills"] == 1
    with pytest.raises(DiceError, match="not used"):
        shoot({"hit": [6], "save": [6], "kill": [4]},
              **{**BASE, "weapon": "crossbow", "save": 1, "sa": 5})


def test_save_and_armour_together_refused() -> None:
    with pytest.raises(RuleError, match="not both"):
        shoot(**{**BASE, "save": 2, "armour": "shield"})


def test_armour_part_twice_refused() -> None:
    with pytest.raises(RuleError, match="twice"):
        armour_save(["shield", "Shield"])


# --- kill rolls -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ka_weapon", "durability", "die", "killed"),
    [
        ("bow", 6, 2, False),  # 2 + 3 = 5 < 6
        ("bow", 6, 3, True),  # 3 + 3 = 6
        ("handgun", 8, 3, False),  # 3 + 4 = 7 < 8
        ("handgun", 8, 4, True),
        ("handgun", 5, 1, True),  # 1 + 4 = 5: a 1 is no automatic failure by default
        ("stones", 7, 5, False),
        ("stones", 7, 6, True),
    ],
)
def test_kill_threshold(ka_weapon: str, durability: int, die: int, killed: bool) -> None:
    out = shoot({"hit": [6], "kill": [die]},
                **{**BASE, "weapon": ka_weapon, "durability": durability, "sa": 5})
    assert out["kills"] == int(killed)


def test_kill_impossible_rolls_no_kill_die() -> None:
    out = shoot({"hit": [6]}, **{**BASE, "weapon": "stones", "durability": 8, "sa": 5})
    assert out["hits"] == 1 and out["kills"] == 0 and out["kill_needed"] is None


def test_natural_one_all_fails_kill_roll() -> None:
    out = shoot({"hit": [6], "kill": [1]},
                **{**BASE, "weapon": "handgun", "durability": 5, "sa": 5, "natural_one": "all"})
    assert out["kills"] == 0


# --- morale tests from shooting ---------------------------------------------------------

ROWS = [(1, 1), (5, 1), (6, 2), (10, 2), (11, 3), (15, 3), (16, 4), (20, 4), (21, 5),
        (25, 5), (26, 6), (30, 6), (31, 7), (35, 7), (36, 8), (40, 8)]


@pytest.mark.parametrize(("size", "casualties"), ROWS)
def test_morale_table_rows(size: int, casualties: int) -> None:
    assert morale_casualties(size) == casualties
    one_kill = {"hit": [6], "kill": [6]}
    raw = {**BASE, "sa": 5, "unit_size": size}
    reach = shoot(one_kill, **raw, casualties_before=casualties - 1)
    assert reach["morale_test"] is True and reach["morale_casualties"] == casualties
    assert "morale test" in reach["_text"]
    if casualties > 1:
        short = shoot(one_kill, **raw, casualties_before=casualties - 2)
        assert short["morale_test"] is False


def test_morale_test_only_when_the_threshold_is_reached_not_again() -> None:
    out = shoot({"hit": [6], "kill": [6]}, **{**BASE, "sa": 5, "unit_size": 10,
                                             "casualties_before": 2})
    assert out["morale_test"] is False


def test_morale_retest_setting_tests_again_past_the_number() -> None:
    out = shoot({"hit": [6], "kill": [6]}, **{**BASE, "sa": 5, "unit_size": 10,
                                             "casualties_before": 2, "morale_retest": "yes"})
    assert out["morale_test"] is True
    out = shoot({"hit": [6], "kill": [1]}, **{**BASE, "sa": 5, "unit_size": 10,
                                             "casualties_before": 2, "morale_retest": "yes"})
    assert out["morale_test"] is False


def test_no_kills_no_morale_test() -> None:
    out = shoot({"hit": [2]}, **{**BASE, "unit_size": 5})
    assert out["morale_test"] is False and out["casualties"] == 0


def test_morale_table_past_forty_figures() -> None:
    assert morale_casualties(41) == 9 and morale_casualties(45) == 9
    assert morale_casualties(46) == 10


def test_kills_capped_at_the_figures_left() -> None:
    out = shoot({"hit": [6, 6, 6], "kill": [6, 6, 6]},
                **{**BASE, "figures": 3, "sa": 5, "unit_size": 5, "casualties_before": 4})
    assert out["kills"] == 1 and out["casualties"] == 5


def test_casualties_before_over_size_refused() -> None:
    with pytest.raises(RuleError):
        shoot(**{**BASE, "unit_size": 5, "casualties_before": 6})


# --- empty and edge cases ---------------------------------------------------------------


def test_zero_figures_roll_nothing() -> None:
    out = shoot(**{**BASE, "figures": 0})
    assert out["hits"] == 0 and out["rolls"] == [] and out["outcome"] == "no_hits"


def test_outcomes() -> None:
    assert shoot({"hit": [6], "save": [6]}, **{**BASE, "save": 3})["outcome"] == "all_saved"
    assert shoot({"hit": [6], "kill": [1]}, **BASE)["outcome"] == "no_kills"
    assert shoot({"hit": [6], "kill": [6]}, **BASE)["outcome"] == "kills"


def test_missing_required_param() -> None:
    with pytest.raises(RuleError, match="durability"):
        SHOOT.parse_params({"figures": "1", "sa": "3", "weapon": "bow"})


# --- odds -------------------------------------------------------------------------------


def rows_of(p: dict) -> dict[str, float]:
    """Odds by label, without the summary the first row carries."""
    return {label.split(" (")[0]: pr for label, pr in shooting.odds(p)}


def test_odds_sum_to_one_and_match_hand_count() -> None:
    # 2 shots, SA 3 (4+: 1/2), no save, KA 3 vs D 6 (3+: 2/3): p = 1/3 a shot
    first = shooting.odds(params(**{**BASE, "figures": 2}))[0][0]
    assert first == "0 kills"
    assert shooting.summary_text(params(**{**BASE, "figures": 2})) == "mean 0.67 kills"
    rows = rows_of(params(**{**BASE, "figures": 2}))
    assert rows["0 kills"] == pytest.approx(4 / 9)
    assert rows["1 kill"] == pytest.approx(4 / 9)
    assert rows["2 kills"] == pytest.approx(1 / 9)
    assert sum(rows.values()) == pytest.approx(1)


def test_odds_name_the_outcomes_that_force_a_morale_test() -> None:
    p = params(**{**BASE, "figures": 2, "unit_size": 10})
    # the figures known before any die stand apart from every outcome's label
    assert shooting.odds(p)[0][0] == "0 kills"
    assert shooting.summary_text(p) == "mean 0.67 kills; morale test 11.1%"
    rows = rows_of(p)
    assert rows["2 kills, morale test"] == pytest.approx(1 / 9)
    s = shooting.summary(p)
    assert s["expected_kills"] == pytest.approx(2 / 3)
    assert s["morale_test"] == pytest.approx(1 / 9)


def test_odds_of_the_issue_example() -> None:
    p = params(figures=5, sa=3, weapon="crossbow", range="long", save=2, durability=6)
    # hit 5+ (1/3), save fails 5/6, kill 3+ (2/3): 5/27 a shot
    s = shooting.summary(p)
    assert s["expected_kills"] == pytest.approx(5 * 5 / 27)
    assert sum(pr for _, pr in shooting.odds(p)) == pytest.approx(1)


def test_odds_group_big_pools_into_ten_rows_split_at_the_morale_number() -> None:
    p = params(**{**BASE, "figures": 30, "weapon": "slings", "sa": 4, "durability": 4,
                  "unit_size": 40})
    rows = shooting.odds(p)
    assert len(rows) <= 10
    assert sum(pr for _, pr in rows) == pytest.approx(1)
    labels = [label for label, _ in rows]
    assert any(label.startswith("8-") and "morale test" in label for label in labels)
    assert "morale test" not in labels[0].split(" (")[0]
    assert "mean 33.27 kills" in shooting.summary_text(p)


def test_odds_for_sixty_shots() -> None:
    """Sixty sling shots: the rows sum to one (how long they take is measured by
    bench/binomial.py, never here)."""
    p = params(**{**BASE, "figures": 30, "weapon": "slings", "unit_size": 40})
    rows = shooting.odds(p)
    assert sum(pr for _, pr in rows) == pytest.approx(1)


def test_odds_where_no_roll_kills_say_no_kills_whole() -> None:
    # KA 3 against D 10: a kill would need 7+ on a d6, so six shots kill nobody; the odds
    # say "0 kills", not a range up to the figures that could have been hit
    p = params(**{**BASE, "figures": 6, "durability": 10})
    assert shooting.summary_text(p) == "mean 0.00 kills"
    assert shooting.odds(p) == [("0 kills", 1.0)]
