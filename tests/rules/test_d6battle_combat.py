"""d6battle close combat: to hit, saves, kills, every combat bonus, draws, the combat
morale test at Mo - result and each branch of the combat results, with dice by role."""

from __future__ import annotations

import pytest

from tracker.core.dice import Dice
from tracker.rules import get
from tracker.rules.base import RuleError
from tracker.rules.d6battle.actions.combat import COMBAT as combat

RS = get("d6battle")
COMBAT = RS.action("combat")


def params(**raw: object) -> dict:
    text = {k: str(v) for k, v in raw.items()}
    for s in RS.settings:
        if s.name not in text and any(p.name == s.name for p in COMBAT.params):
            text[s.name] = str(s.default)
    return COMBAT.parse_params(text)


def resolve(dice: dict[str, list[int]] | None = None, **raw: object) -> dict:
    d = Dice.from_spec(dice or {}, seed=1, roll_rest=True)
    res = COMBAT.resolve(params(**raw), d)
    d.check_all_used()
    out = res.as_json()
    out["_text"] = res.text
    return out


SIDE = {"ca": 3, "ka": 3, "durability": 4}


def fight(kills_a: int, kills_b: int, size_a: int = 10, size_b: int = 10,
          morale: list[int] | None = None, **extra: object) -> dict:
    """A combat where A kills ``kills_a`` figures of B and B ``kills_b`` of A."""
    raw: dict[str, object] = {"figures_a": kills_a, "figures_b": kills_b,
                              "size_a": size_a, "size_b": size_b}
    for x in "ab":
        for k, v in SIDE.items():
            raw[f"{k}_{x}"] = v
    raw.update(extra)
    dice = {"hit_a": [6] * kills_a, "kill_a": [6] * kills_a,
            "hit_b": [6] * kills_b, "kill_b": [6] * kills_b}
    if morale is not None:
        dice["morale"] = morale
    return resolve(dice, **raw)


# --- to hit, saves, kills ---------------------------------------------------------------


def test_to_hit_saves_and_kills_each_side() -> None:
    out = resolve(
        {"hit_a": [1, 3, 4, 6], "save_b": [5, 4], "kill_a": [3],
         "hit_b": [6, 2, 1], "kill_b": [1]},
        figures_a=4, ca_a=3, ka_a=3, ap_a=1, save_a=0, durability_a=5,
        figures_b=3, ca_b=4, ka_b=4, save_b=3, durability_b=6,
    )
    # A: 4+ to hit -> 2 hits; B saves on 7 - (3 - 1) = 5+ -> 1 saved; 3+ kills -> 1
    assert (out["needed_a"], out["hits_a"], out["saved_b"], out["kills_a"]) == (4, 2, 1, 1)
    # B: 3+ to hit -> 1 hit (the 1 misses); no armour; 1+ kills (1 + 4 >= 5)
    assert (out["needed_b"], out["hits_b"], out["saved_a"], out["kills_b"]) == (3, 1, 0, 1)
    assert out["score_a"] == out["score_b"] == 1
    assert out["result"] == 0 and out["loser"] is None
    assert out["outcome"] == "draw" and out["loser_outcome"] == "fights on"


def test_natural_one_misses_in_combat() -> None:
    out = resolve({"hit_a": [1, 2], "kill_a": [6], "hit_b": []},
                  figures_a=2, ca_a=8, ka_a=3, durability_a=4,
                  figures_b=0, ca_b=3, ka_b=3, durability_b=4, size_b=5)
    assert out["needed_a"] == 2 and out["hits_a"] == 1


def test_armour_parts_in_combat() -> None:
    out = resolve({"hit_a": [6], "save_b": [3]}, figures_a=1, ca_a=3, ka_a=3, durability_a=4,
                  figures_b=0, size_b=5, ca_b=3, ka_b=3, durability_b=4,
                  armour_b="shield,heavy-armor")
    assert out["saved_b"] == 0  # save 3: 4+
    out = resolve({"hit_a": [6], "save_b": [4]}, figures_a=1, ca_a=3, ka_a=3, durability_a=4,
                  figures_b=0, size_b=5, ca_b=3, ka_b=3, durability_b=4,
                  armour_b="shield,heavy-armor")
    assert out["saved_b"] == 1


def test_ca_below_one_cannot_hit_and_rolls_nothing() -> None:
    out = resolve(figures_a=3, ca_a=0, ka_a=3, durability_a=4,
                  figures_b=0, size_b=5, ca_b=3, ka_b=3, durability_b=4)
    assert out["hits_a"] == 0 and out["needed_a"] is None and out["rolls"] == []


# --- bonuses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "bonus"),
    [
        ({"ranks_a": 1}, 1),
        ({"ranks_a": 2}, 2),
        ({"ranks_a": 4}, 2),  # regular infantry: max +2
        ({"ranks_a": 4, "formation_a": "light"}, 1),  # light infantry: max +1
        ({"ranks_a": 3, "formation_a": "drilled"}, 2),
        ({"ranks_a": 3, "formation_a": "drilled", "drilled_rank_bonus": "no"}, 0),
        ({"ranks_a": 3, "formation_a": "skirmish"}, 0),
        ({"ranks_a": 3, "kind_a": "cavalry"}, 0),  # cavalry: impact bonus only
        ({"ranks_a": 3, "disordered_a": "yes"}, 0),
        ({"ranks_a": 3, "terrain_a": "yes"}, 0),
        ({"ranks_a": 2, "rank_bonus_ranks": "behind_front"}, 1),
        ({"ranks_a": 1, "rank_bonus_ranks": "behind_front"}, 0),
        ({"charge_a": "yes"}, 1),
        ({"charge_a": "yes", "kind_a": "cavalry"}, 1),
        ({"charge_a": "counter"}, 0),  # bonus lost when counter charging
        ({"charge_a": "yes", "disordered_a": "yes"}, 0),  # lost if charger disordered
        ({"charge_a": "yes", "charge_b": "counter"}, 1),
        ({"charge_a": "yes", "charge_b": "counter", "countercharge_cancels": "yes"}, 0),
        ({"charge_a": "yes", "formation_a": "skirmish", "formation_b": "skirmish"}, 1),
        ({"charge_a": "yes", "formation_a": "skirmish"}, 0),  # skirmishers on battle line
        ({"charge_a": "yes", "formation_a": "skirmish", "formation_b": "skirmish",
          "facing_a": "flank"}, 0),
        ({"facing_a": "flank"}, 1),
        ({"facing_a": "rear"}, 2),
        ({"facing_a": "flank", "formation_a": "skirmish"}, 0),
        ({"facing_a": "rear", "kind_a": "cavalry"}, 2),
        ({"push_a": 1}, 1),
        ({"push_a": 2}, 2),
        ({"bonus_a": 1}, 1),
        ({"ranks_a": 2, "charge_a": "yes", "facing_a": "rear", "push_a": 1}, 6),
        ({"ranks_a": 2, "charge_a": "yes", "min_size_a": 11}, 0),  # below min size at end
        ({"ranks_a": 2, "charge_a": "yes", "min_size_a": 10}, 3),
    ],
)
def test_combat_bonuses(extra: dict, bonus: int) -> None:
    out = fight(0, 0, **extra)
    assert out["bonus_a"] == bonus
    assert out["score_a"] == bonus and out["bonus_b"] == 0


def test_min_size_counts_figures_left_at_the_end_of_the_combat() -> None:
    # A has 10, loses 2: 8 left, below a minimum of 9, so its push & shove is lost
    out = fight(2, 2, push_a=1, min_size_a=9)
    assert out["left_a"] == 8 and out["bonus_a"] == 0 and out["outcome"] == "draw"
    out = fight(2, 2, push_a=1, min_size_a=8)
    assert out["bonus_a"] == 1 and out["loser"] == "b"


def test_score_is_kills_plus_bonuses() -> None:
    out = fight(3, 1, ranks_b=2, mo_b=7)
    assert out["score_a"] == 3 and out["score_b"] == 3 and out["result"] == 0
    assert out["morale_roll"] is None and "draw" in out["_text"]


# --- the combat morale test -------------------------------------------------------------


def test_loser_passes_at_mo_less_result_and_stands() -> None:
    out = fight(3, 1, mo_b=7, morale=[2, 3])  # result 2: 5 <= 7 - 2
    assert (out["winner"], out["loser"], out["result"]) == ("a", "b", 2)
    assert out["morale_needed"] == 5 and out["morale_roll"] == 5 and out["morale_passed"]
    assert out["loser_outcome"] == "stands" and out["push_shove"] == 1


def test_loser_fails_one_over_mo_less_result() -> None:
    out = fight(3, 1, mo_b=7, morale=[3, 3])
    assert out["morale_passed"] is False and out["loser_outcome"] == "routs"
    assert out["morale"] == "failed" and out["push_shove"] == 0


def test_b_can_win_and_a_tests() -> None:
    out = fight(0, 1, mo_a=6, morale=[6, 6])
    assert out["winner"] == "b" and out["loser"] == "a" and out["outcome"] == "b_wins"
    assert out["morale_needed"] == 5 and out["loser_outcome"] == "routs"


def test_morale_not_rolled_without_mo() -> None:
    out = fight(2, 1)
    assert out["loser"] == "b" and out["loser_outcome"] == "must test"
    assert "Mo - 1" in out["_text"]


def test_morale_dice_setting() -> None:
    out = fight(2, 1, mo_b=4, morale=[3], morale_dice="1d6")
    assert out["morale_roll"] == 3 and out["morale_passed"]


def test_loser_wiped_out_is_destroyed_without_a_test() -> None:
    out = fight(5, 0, size_b=5, mo_b=7)
    assert out["left_b"] == 0 and out["loser_outcome"] == "destroyed"
    assert out["morale_roll"] is None


# --- failed tests: result of 1 ------------------------------------------------------------

FAIL = [6, 6]


def test_result_one_routs() -> None:
    out = fight(2, 1, size_a=10, size_b=10, mo_b=7, morale=FAIL)
    assert out["result"] == 1 and out["loser_outcome"] == "routs"


def test_result_one_regular_that_outnumbered_stands_winner_push_two() -> None:
    out = fight(2, 1, size_a=10, size_b=14, mo_b=7, morale=FAIL)
    assert out["left_b"] == 12 and out["left_a"] == 9
    assert out["loser_outcome"] == "stands" and out["push_shove"] == 2


def test_result_one_regular_outnumbering_two_to_one_no_extra_push() -> None:
    out = fight(2, 1, size_a=10, size_b=20, mo_b=7, morale=FAIL)  # 18 vs 9
    assert out["loser_outcome"] == "stands" and out["push_shove"] == 1


def test_result_one_any_drilled_battle_formation_stands_even_outnumbered() -> None:
    out = fight(2, 1, size_a=20, size_b=6, mo_b=7, morale=FAIL, formation_b="drilled")
    assert out["loser_outcome"] == "stands" and out["push_shove"] == 2


@pytest.mark.parametrize("formation", ["light", "skirmish"])
def test_result_one_light_or_skirmish_outnumbering_routs(formation: str) -> None:
    out = fight(2, 1, size_a=10, size_b=14, mo_b=7, morale=FAIL, formation_b=formation)
    assert out["loser_outcome"] == "routs"


def test_result_one_equal_numbers_is_not_outnumbering() -> None:
    out = fight(2, 1, size_a=11, size_b=12, mo_b=7, morale=FAIL)  # 10 vs 10 left
    assert out["loser_outcome"] == "routs"


def test_outnumber_setting_start_counts_figures_before_kills() -> None:
    out = fight(2, 1, size_a=11, size_b=12, mo_b=7, morale=FAIL, outnumber_when="start")
    assert out["loser_outcome"] == "stands"


# --- failed tests: result of 2 ------------------------------------------------------------


def test_result_two_regular_outnumbering_less_than_two_to_one_routs() -> None:
    out = fight(3, 1, size_a=10, size_b=15, mo_b=7, morale=FAIL)  # 12 vs 9
    assert out["result"] == 2 and out["loser_outcome"] == "routs"


def test_result_two_regular_outnumbering_two_to_one_stands_push_two() -> None:
    out = fight(3, 1, size_a=10, size_b=21, mo_b=7, morale=FAIL)  # 18 vs 9
    assert out["loser_outcome"] == "stands" and out["push_shove"] == 2


def test_result_two_drilled_that_outnumbered_stands() -> None:
    out = fight(3, 1, size_a=10, size_b=13, mo_b=7, morale=FAIL, formation_b="drilled")
    assert out["loser_outcome"] == "stands" and out["push_shove"] == 2


def test_result_two_drilled_not_outnumbering_routs() -> None:
    out = fight(3, 1, size_a=10, size_b=12, mo_b=7, morale=FAIL, formation_b="drilled")
    assert out["left_b"] == 9 and out["loser_outcome"] == "routs"


def test_result_two_surrounded_routs_unless_setting_any() -> None:
    out = fight(3, 1, mo_b=7, morale=FAIL, facings_b=2)
    assert out["loser_outcome"] == "routs"
    out = fight(3, 1, mo_b=7, morale=FAIL, facings_b=2, rout_destroyed="any")
    assert out["loser_outcome"] == "destroyed"


# --- failed tests: result of 3+ -----------------------------------------------------------


@pytest.mark.parametrize("formation", ["regular", "drilled"])
def test_result_three_routs_whatever_the_numbers(formation: str) -> None:
    out = fight(4, 1, size_a=10, size_b=40, mo_b=9, morale=FAIL, formation_b=formation)
    assert out["result"] == 3 and out["loser_outcome"] == "routs"


def test_result_three_engaged_on_two_facings_destroyed() -> None:
    out = fight(4, 1, mo_b=9, morale=FAIL, facings_b=2)
    assert out["loser_outcome"] == "destroyed" and "destroyed" in out["_text"]


def test_result_three_passed_test_stands() -> None:
    out = fight(4, 1, mo_b=9, morale=[3, 3], facings_b=2)
    assert out["morale_needed"] == 6 and out["loser_outcome"] == "stands"


def test_big_result_makes_the_test_impossible() -> None:
    out = fight(9, 0, size_b=20, mo_b=7, morale=[1, 1])
    assert out["morale_needed"] == -2 and out["morale_passed"] is False


def test_figures_more_than_size_refused() -> None:
    with pytest.raises(RuleError):
        fight(5, 0, size_a=4)


# --- odds -------------------------------------------------------------------------------


def test_odds_sum_to_one() -> None:
    p = params(figures_a=6, ca_a=3, ka_a=3, durability_a=4, mo_a=7,
               figures_b=6, ca_b=3, ka_b=3, durability_b=4, mo_b=7, ranks_a=2)
    rows = combat.odds(p)
    assert sum(pr for _, pr in rows) == pytest.approx(1)
    labels = [label for label, _ in rows]
    assert any(label.startswith("A wins") for label in labels)


def test_odds_hand_computed_one_figure_each() -> None:
    # each side: 1 figure, 4+ to hit (1/2), KA 3 vs D 4 kills on any roll: 1/2 a kill
    p = params(figures_a=1, ca_a=3, ka_a=3, durability_a=4, size_a=5,
               figures_b=1, ca_b=3, ka_b=3, durability_b=4, size_b=5, mo_b=7, mo_a=7)
    rows = {label.split(" (")[0]: pr for label, pr in combat.odds(p)}
    assert combat.odds(p)[0][0] == "A wins, B stands"
    assert combat.summary(p) == "mean kills A 0.50, B 0.50"
    assert rows["draw, fight on"] == pytest.approx(0.5)
    stands = 15 / 36  # 2d6 <= 6
    assert rows["A wins, B stands"] == pytest.approx(0.25 * stands)
    assert rows["A wins, B routs"] == pytest.approx(0.25 * (1 - stands))
    assert rows["B wins, A routs"] == pytest.approx(0.25 * (1 - stands))


def test_odds_for_thirty_figures_a_side() -> None:
    """Thirty figures a side: the rows sum to one (how long they take is measured by
    bench/binomial.py, never here)."""
    p = params(figures_a=30, ca_a=3, ka_a=3, durability_a=4, mo_a=7, ranks_a=3,
               figures_b=30, ca_b=4, ka_b=3, durability_b=4, mo_b=7, facings_b=2)
    rows = combat.odds(p)
    assert sum(pr for _, pr in rows) == pytest.approx(1)
    # A hits on 4+ and B on 3+, no saves, every hit kills (KA 3 vs D 4)
    assert combat.summary(p) == "mean kills A 15.00, B 20.00"
    # B, engaged on two facings, is destroyed when it routs on a result of 3+
    assert "A wins, B destroyed" in [label for label, _ in rows]


def test_the_odds_as_the_dice_land_name_the_winner_and_the_loser_in_words() -> None:
    from tracker.rules.stage_odds import outcome_odds

    p = params(figures_a=1, ca_a=3, ka_a=3, durability_a=4, size_a=5,
               figures_b=1, ca_b=3, ka_b=3, durability_b=4, size_b=5, mo_b=7, mo_a=7)
    prior = combat.odds(p)
    walked = outcome_odds(combat, p, {}, labels=prior)
    # every way the dice fall comes to one of the labels of the odds before any die
    assert {label for label, _ in walked} <= {label for label, _ in prior}
    assert not any("_wins" in label for label, _ in walked)
    # A hits (4+) and kills (any), B misses: A wins by 1; B's Mo 7 - 1 = 6, 2d6 3+3 passes
    res = COMBAT.resolve(p, Dice.from_spec({"hit_a": [4], "kill_a": [1], "hit_b": [1],
                                            "morale": [3, 3]}, seed=1))
    assert COMBAT.happened(p, res, prior) == "A wins, B stands"
