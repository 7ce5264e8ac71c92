"""HârnMaster missile sequence, headless: the worked examples of pp. 163-164, range bands,
modifiers, clamping, spoiling, mishaps, every result branch and the odds."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.cli import main as cli_main
from tracker.core.dice import Dice, DiceError
from tracker.rules import get
from tracker.rules.base import RuleError
from tracker.rules.harn.attack_odds import success_odds
from tracker.rules.harn.plan import plan_attack
from tracker.rules.harn.results import success_level

RULES = get("harn")
MISSILE = RULES.action("missile")


def params(action: str = "missile", **given: Any) -> dict[str, Any]:
    """Parse as `tracker resolve` does: text values, settings filled with their defaults."""
    act = RULES.action(action)
    raw = {k: v if isinstance(v, str) else _text(v) for k, v in given.items()}
    for s in RULES.settings:
        if s.name not in raw and any(p.name == s.name for p in act.params):
            raw[s.name] = str(s.default)
    return act.parse_params(raw)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def resolve(action: str = "missile", dice: dict[str, list[int]] | None = None, **given: Any):
    d = Dice.from_spec(dice or {}, seed=7, roll_rest=True)
    res = RULES.action(action).resolve(params(action, **given), d)
    d.check_all_used()
    return res


def mods(**given: Any) -> dict[str, int]:
    plan = plan_attack(params(**given))
    return dict(plan.modifiers)


# --- the worked examples --------------------------------------------------------------


def test_direct_missile_example_nolora_point_blank() -> None:
    """Archery ML75, point blank (+10), still target, aim ZN1: EML85, roll 45 CS: a base
    impact strike, a Precision TA and one TA of choice taken as Precision: three d6 ZD."""
    res = resolve(
        ml=75, range=20, br=40, target="still", zone_aim=1, ta="precision",
        dice={"test": [45], "zone": [4, 2, 6]},
    )
    f = res.figures
    assert f["attack_type"] == "direct-pb"
    assert f["eml"] == 85
    assert f["success"] == "CS"
    assert f["result"] == "strike" and f["hit"] == "target"
    assert f["precision"] is True
    assert f["free_ta"] == 1
    assert f["precision_ta"] == 2
    assert f["zone_die"] == "d6"
    assert f["zone_rolls"] == [4, 2, 6]
    assert f["zone_numbers"] == [4, 2, 6]
    assert f["zone"] == 2  # the attacker keeps the ZN nearest the aim by default
    assert f["impact_mod"] == 2
    assert f["struck"] is None and f["impact_ta"] is False and f["mishap"] is None
    assert {"name": "Direct PB", "value": 10} in f["modifiers"]


def test_the_dice_step_names_the_precision_ta_of_a_critical_success_in_words() -> None:
    """Nolora's point-blank shot: with a 45 in (CS at EML85) the Precision TA is certain,
    and the odds as the dice land call it so, not by its figure's name."""
    from tracker.rules.stage_odds import outcome_odds

    p = params(ml=75, range=20, br=40, target="still", zone_aim=1, ta="precision")
    flags: dict[str, float] = {}
    outcome_odds(MISSILE, p, {"test": [45]}, flags=flags, labels=MISSILE.odds(p))
    assert flags["a precision TA"] == 1.0
    assert "precision" not in flags


def test_issue_command_line_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("resolve harn missile ml=75 range=20 br=40 target=still --dice test=45 --roll-rest"
            " --json")
    assert cli_main(argv.split()) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("attack_type", "eml", "success", "result", "zone_die", "impact_mod",
                "precision", "free_ta", "struck", "impact_ta", "mishap"):
        assert key in data
    assert (data["attack_type"], data["eml"], data["success"]) == ("direct-pb", 85, "CS")
    assert (data["result"], data["zone_die"], data["impact_mod"]) == ("strike", "d6", 2)
    assert (data["precision"], data["free_ta"], data["struck"]) == (True, 1, None)
    assert (data["impact_ta"], data["mishap"]) == (False, None)
    assert len([r for r in data["rolls"] if r["role"] == "zone"]) == 3


def test_cli_refuses_out_of_range_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_main("resolve harn missile ml=75 range=161 br=40".split())
    err = capsys.readouterr().err.strip()
    assert code != 0
    assert "out of range" in err and "\n" not in err


VOLLEY = dict(
    ml=75, range=500, br=200, crosswind=1, target="still", targets=7, zones=20,
    numbering="Brigand 1,Brigand 2,Brigand 3,Brigand 4,Brigand 5,Destrier,Destrier",
    base_impact="d12+4",
)


def test_volley_example_first_shot_strikes_the_horse() -> None:
    """Volley 3 (-20), light crosswind (-20), still targets: EML35; 25 CS, volley precision
    d10 7 against count 7 strikes the horse; d10 2, no Impact TA; ZD d20 14."""
    res = resolve(dice={"test": [25], "count": [7], "impact_ta": [2], "zone": [14]}, **VOLLEY)
    f = res.figures
    assert f["attack_type"] == "volley3"
    assert f["eml"] == 35
    mods = {m["name"]: m["value"] for m in f["modifiers"]}
    assert mods["Volley 3"] == -20 and mods["crosswind 1 (Volley)"] == -20
    assert f["success"] == "CS" and f["precision"] is True
    assert f["count_die"] == "d10" and f["target_count"] == 7
    assert f["result"] == "strike" and f["hit"] == "area"
    assert f["struck"] == 7 and f["struck_name"] == "Destrier"
    assert f["impact_ta"] is False and f["impact_roll"] == 2
    assert f["zone_die"] == "d20" and f["zone"] == 14
    assert f["impact_mod"] == -3 and f["impact"] == "d12+1"
    assert f["free_ta"] == 0 and f["mishap"] is None


def test_volley_example_second_shot_misses() -> None:
    """Same EML35: 16 is a potential strike (MS); d20 14 against count 7 misses."""
    res = resolve(dice={"test": [16], "count": [14], "impact_ta": [5]}, **VOLLEY)
    f = res.figures
    assert f["success"] == "MS" and f["precision"] is False
    assert f["count_die"] == "d20"
    assert f["result"] == "miss" and f["struck"] is None
    assert f["impact_ta"] is False  # moot on a miss
    assert f["zone"] is None


# --- range bands ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("range_ft", "band"),
    [(0, "direct-pb"), (20, "direct-pb"), (21, "direct"), (40, "direct"), (41, "volley2"),
     (80, "volley2"), (81, "volley3"), (120, "volley3"), (121, "volley4"), (160, "volley4")],
)
def test_band_edges(range_ft: int, band: str) -> None:
    assert plan_attack(params(ml=50, range=range_ft, br=40)).band.attack_type == band


def test_beyond_four_br_is_refused() -> None:
    with pytest.raises(RuleError, match="out of range"):
        plan_attack(params(ml=50, range=161, br=40))


def test_odd_base_range_half_is_exact() -> None:
    assert plan_attack(params(ml=50, range=12, br=25)).band.attack_type == "direct-pb"
    assert plan_attack(params(ml=50, range=13, br=25)).band.attack_type == "direct"


def test_wet_string_halves_br_for_bows_and_crossbows_only() -> None:
    assert plan_attack(params(ml=50, range=20, br=40, wet=True)).band.attack_type == "direct"
    xbow = plan_attack(params(ml=50, range=41, br=40, weapon="crossbow", wet=True))
    assert xbow.band.attack_type == "volley3" and xbow.br == Fraction(20)
    sling = plan_attack(params(ml=50, range=20, br=40, weapon="sling", wet=True))
    assert sling.band.attack_type == "direct-pb"


@pytest.mark.parametrize(
    ("range_ft", "modifier", "zd", "impact"),
    [(10, 10, 6, 2), (30, 0, 8, 0), (60, 0, 10, -2), (100, -20, 10, -3), (150, -40, 10, -4)],
)
def test_range_table(range_ft: int, modifier: int, zd: int, impact: int) -> None:
    plan = plan_attack(params(ml=50, range=range_ft, br=40))
    assert (plan.band.modifier, plan.zone_die, plan.impact_mod) == (modifier, zd, impact)
    assert plan.eml_adjusted == 50 + modifier


# --- modifiers ------------------------------------------------------------------------


def test_target_movement() -> None:
    assert mods(ml=50, range=30, br=40, target="still")["still target"] == 0
    assert mods(ml=50, range=30, br=40, target="moving")["moving target"] == -10
    evading = mods(ml=50, range=30, br=40, target="evading", dodge=4)
    assert evading["evading target (Dodge 4 x 5)"] == -20


def test_moving_volley_area_is_minus_ten_once() -> None:
    assert mods(ml=50, range=60, br=40, target="moving")["moving target area"] == -10
    both = plan_attack(params(ml=50, range=60, br=40, target="moving", area_moving=True))
    assert both.eml_adjusted == 40
    assert plan_attack(params(ml=50, range=60, br=40, area_moving=True)).eml_adjusted == 40


def test_moving_shooter_spares_throwers() -> None:
    assert mods(ml=50, range=30, br=40, shooter_moving=True)["moving shooter"] == -10
    thrown = plan_attack(params(ml=50, range=30, br=40, weapon="thrown", shooter_moving=True))
    assert thrown.eml_adjusted == 50


@pytest.mark.parametrize(
    ("force", "rule", "band_range", "expected"),
    [(1, "per_force", 30, 0), (2, "per_force", 30, -20), (4, "per_force", 30, -40),
     (2, "above_one", 30, -10), (4, "above_one", 30, -30), (1, "per_force", 60, -20),
     (2, "per_force", 60, -40), (4, "per_force", 100, -80)],
)
def test_crosswind(force: int, rule: str, band_range: int, expected: int) -> None:
    plan = plan_attack(
        params(ml=50, range=band_range, br=40, crosswind=force, crosswind_direct=rule)
    )
    assert plan.eml_adjusted - 50 - plan.band.modifier == expected


def test_massive_target_direct_only() -> None:
    assert mods(ml=50, range=30, br=40, tar=3)["massive target TAR3"] == 15
    assert mods(ml=50, range=10, br=40, tar=2)["massive target TAR2"] == 10
    assert mods(ml=50, range=30, br=40, tar=3, massive_target="above_one")[
        "massive target TAR3"] == 10
    assert plan_attack(params(ml=50, range=60, br=40, tar=3)).eml_adjusted == 50
    assert plan_attack(params(ml=50, range=30, br=40, tar=1)).eml_adjusted == 50


def test_thrown_object_heft_and_trauma() -> None:
    base = dict(ml=50, range=30, br=40, weapon="thrown")
    assert mods(**base, object="object")["thrown object"] == -10
    assert mods(**base, object="oblong")["thrown object (oblong)"] == -20
    assert mods(**base, heft=15)["heft"] == -15
    assert mods(ml=50, range=30, br=40, trauma=12)["trauma"] == -12
    with pytest.raises(RuleError, match="heft"):
        plan_attack(params(ml=50, range=30, br=40, heft=10))
    with pytest.raises(RuleError, match="object"):
        plan_attack(params(ml=50, range=30, br=40, object="oblong"))


def test_overhead_restriction() -> None:
    assert mods(ml=50, range=30, br=40, overhead=4)["overhead 4 ft"] == -20
    assert plan_attack(params(ml=50, range=10, br=40, overhead=4)).eml_adjusted == 60
    assert plan_attack(params(ml=50, range=30, br=40, overhead=5)).eml_adjusted == 50
    sling = plan_attack(params(ml=50, range=30, br=40, overhead=4, weapon="sling"))
    assert sling.eml_adjusted == 50
    with pytest.raises(RuleError, match="under 10 ft forbids Volley"):
        plan_attack(params(ml=50, range=41, br=40, overhead=9))
    assert plan_attack(params(ml=50, range=41, br=40, overhead=10)).band.volley


def test_aim_bonus_and_its_limits() -> None:
    assert mods(ml=50, range=30, br=40, aimed=True)["aim"] == 10
    with pytest.raises(RuleError, match="sling has no Aim"):
        plan_attack(params(ml=50, range=30, br=40, aimed=True, weapon="sling"))
    with pytest.raises(RuleError, match="Pull exceeds Draw by 75"):
        plan_attack(params(ml=50, range=30, br=40, aimed=True, pull=174, draw=100))
    assert plan_attack(params(ml=50, range=30, br=40, aimed=True, pull=175, draw=100))


def test_modifiers_sum() -> None:
    plan = plan_attack(params(
        ml=80, range=30, br=40, target="evading", dodge=3, shooter_moving=True, aimed=True,
        crosswind=2, tar=2, trauma=5,
    ))
    # 80 - 15 (evading) - 10 (moving shooter) - 20 (crosswind 2) - 5 (trauma) + 10 + 10
    assert plan.eml_adjusted == 50
    assert plan.eml_adjusted == plan.ml + sum(v for _, v in plan.modifiers)


def test_crossbow_may_use_archery_sb_times_three() -> None:
    plan = plan_attack(params(ml=40, sb=20, range=30, br=40, weapon="crossbow"))
    assert (plan.ml, plan.skill) == (60, "Archery SB20 x 3")
    plan = plan_attack(params(ml=70, sb=20, range=30, br=40, weapon="crossbow"))
    assert (plan.ml, plan.skill) == (70, "Archery ML")
    assert plan_attack(params(sb=15, range=30, br=40, weapon="crossbow")).ml == 45
    # SB x 3 is for crossbows only
    assert plan_attack(params(ml=40, sb=20, range=30, br=40)).ml == 40


def test_missing_inputs_are_refused() -> None:
    with pytest.raises(RuleError, match="ml= is required"):
        plan_attack(params(range=30, br=40))
    with pytest.raises(RuleError, match="range= is required"):
        plan_attack(params(ml=50, br=40))
    with pytest.raises(RuleError, match="br= is required"):
        plan_attack(params(ml=50, range=30))


# --- the test: clamping, spoiling, criticals ------------------------------------------


def test_eml_clamps_to_95_and_5() -> None:
    f = resolve(ml=100, range=10, br=40, dice={"test": [95], "zone": [1, 1]}).figures
    assert (f["eml_adjusted"], f["eml"], f["success"]) == (110, 95, "CS")
    assert resolve(ml=100, range=10, br=40, dice={"test": [96]}).figures["success"] == "MF"
    low = resolve(ml=10, range=30, br=40, target="moving", dice={"test": [5], "zone": [3]})
    assert (low.figures["eml_adjusted"], low.figures["eml"]) == (0, 5)
    assert low.figures["success"] == "CS"
    assert resolve(ml=10, range=30, br=40, target="moving",
                   dice={"test": [4], "zone": [3]}).figures["success"] == "MS"


def test_eml_minus_39_is_not_spoiled() -> None:
    f = resolve(ml=11, range=150, br=40, target="moving", dice={"test": [5], "count": [1],
                "impact_ta": [1], "zone": [1]}).figures
    assert (f["eml_adjusted"], f["spoiled"], f["success"]) == (-39, False, "CS")


@pytest.mark.parametrize(
    ("roll", "success", "mishap"), [(3, "MF", None), (5, "CF", "stumble"), (50, "CF", "fumble")]
)
def test_spoiled_attack_fails(roll: int, success: str, mishap: str | None) -> None:
    res = resolve(ml=10, range=150, br=40, target="moving", dice={"test": [roll]})
    f = res.figures
    assert (f["eml_adjusted"], f["spoiled"]) == (-40, True)
    assert (f["success"], f["result"], f["mishap"]) == (success, "spoiled", mishap)
    assert len(res.rolls) == 1


def test_spoiled_attack_wasted_rolls_nothing() -> None:
    res = resolve(ml=10, range=150, br=40, target="moving", spoiled_attack="wasted")
    assert res.figures["result"] == "spoiled" and res.figures["success"] is None
    assert res.rolls == []
    d = Dice.from_spec({"test": [50]}, roll_rest=True)
    MISSILE.resolve(params(ml=10, range=150, br=40, target="moving",
                           spoiled_attack="wasted"), d)
    with pytest.raises(DiceError):
        d.check_all_used()


@pytest.mark.parametrize(
    ("roll", "mishap"), [(60, "fumble"), (55, "stumble"), (100, "fumble"), (0, "fumble")]
)
def test_critical_failure_is_a_mishap(roll: int, mishap: str) -> None:
    for rng in (30, 60):  # direct and volley alike
        res = resolve(ml=50, range=rng, br=40, dice={"test": [roll]})
        f = res.figures
        assert (f["success"], f["result"], f["mishap"]) == ("CF", "mishap", mishap)
        assert len(res.rolls) == 1  # the attack does not take place


# --- direct results -------------------------------------------------------------------


def test_direct_miss_strikes_nearby_creature() -> None:
    res = resolve(ml=50, range=30, br=40, targets=3,
                  dice={"test": [51], "count": [2], "impact_ta": [5], "zone": [7]})
    f = res.figures
    assert (f["success"], f["result"], f["hit"], f["struck"]) == ("MF", "strike", "nearby", 2)
    assert f["count_die"] == "d20" and f["impact_ta"] is True
    assert (f["zone_die"], f["zone"], f["zone_aim"]) == ("d10", 7, 1)


def test_direct_miss_impact_ta_on_zero() -> None:
    f = resolve(ml=50, range=30, br=40, targets=3, impact_bonus=2, base_impact="d8+2",
                dice={"test": [51], "count": [3], "impact_ta": [0], "zone": [0]}).figures
    assert f["impact_ta"] is True and f["impact_roll"] == 10 and f["zone"] == 10
    assert (f["impact_total"], f["impact"]) == (2, "d8+4")


def test_direct_miss_large_nearby_creature_rolls_its_zone_count() -> None:
    f = resolve(ml=50, range=30, br=40, targets=3, count_zones=[0, 20, 20],
                dice={"test": [51], "count": [2], "impact_ta": [1], "zone": [17]}).figures
    assert (f["zone_die"], f["zone"]) == ("d20", 17)


def test_direct_miss_count_misses() -> None:
    f = resolve(ml=50, range=30, br=40, targets=3,
                dice={"test": [51], "count": [4], "impact_ta": [5]}).figures
    assert (f["result"], f["struck"], f["impact_ta"]) == ("miss", None, False)


def test_direct_miss_without_nearby_targets_or_at_eml_5_rolls_no_count() -> None:
    res = resolve(ml=50, range=30, br=40, dice={"test": [51]})
    assert res.figures["result"] == "miss" and len(res.rolls) == 1
    res = resolve(ml=0, range=30, br=40, targets=5, dice={"test": [51]})
    assert res.figures["eml"] == 5 and len(res.rolls) == 1


def test_moving_target_gets_no_precision() -> None:
    f = resolve(ml=50, range=30, br=40, target="moving", dice={"test": [40], "zone": [2, 3]})
    assert (f := f.figures)["precision"] is False and f["free_ta"] == 1
    assert f["precision_ta"] == 1 and len(f["zone_rolls"]) == 2


def test_impact_ta_of_choice() -> None:
    f = resolve(ml=50, range=30, br=40, target="moving", ta="impact", impact_bonus=2,
                base_impact="d12+4", dice={"test": [40], "zone": [2]}).figures
    assert (f["impact_ta"], f["impact_tas"], f["precision_ta"]) == (True, 1, 0)
    assert (f["impact_total"], f["impact"]) == (2, "d12+6")
    f = resolve(ml=50, range=30, br=40, target="moving", ta_choice="impact",
                dice={"test": [40], "zone": [2]}).figures
    assert f["ta"] == ["impact"]


def test_marginal_success_on_still_target() -> None:
    f = resolve(ml=50, range=30, br=40, dice={"test": [41], "zone": [1, 8]}).figures
    assert (f["success"], f["precision"], f["free_ta"], f["precision_ta"]) == ("MS", True, 0, 1)
    assert f["zone_die"] == "d8" and f["zone"] == 1


def test_steps_beyond_cs_add_tas() -> None:
    f = resolve(ml=50, range=30, br=40, steps=2, ta="precision,impact",
                dice={"test": [50], "zone": [5, 6, 7]}).figures
    assert (f["free_ta"], f["ta"]) == (3, ["precision", "impact", "precision"])
    assert (f["precision_ta"], f["impact_tas"]) == (3, 1)
    assert len(f["zone_rolls"]) == 4


def test_zone_aim_counts_up() -> None:
    """The text: a d6 ZD aimed at ZN3 counts 3 to 8; a roll of 4 is a ZN6 strike."""
    f = resolve(ml=50, range=10, br=40, target="moving", zone_aim=3, ta="impact",
                dice={"test": [41], "zone": [4]}).figures
    assert (f["zone_die"], f["zone"]) == ("d6", 6)


@pytest.mark.parametrize(
    ("pick", "zone"), [("lowest", 3), ("highest", 6), ("first", 5), ("2", 6)]
)
def test_zone_pick(pick: str, zone: int) -> None:
    f = resolve(ml=50, range=10, br=40, zone_aim=3, zone_pick=pick,
                dice={"test": [40], "zone": [3, 4, 1]}).figures
    assert f["zone_numbers"] == [5, 6, 3]
    assert f["zone"] == zone


@pytest.mark.parametrize(("how", "zone"), [("cap", 10), ("wrap", 3), ("open", 13)])
def test_zone_overflow(how: str, zone: int) -> None:
    f = resolve(ml=60, range=30, br=40, target="moving", zone_aim=8, zone_overflow=how,
                dice={"test": [41], "zone": [6]}).figures
    assert f["zone"] == zone


def test_zone_aim_beyond_the_body_is_refused() -> None:
    with pytest.raises(RuleError, match="ZN11"):
        plan_attack(params(ml=50, range=30, br=40, zone_aim=11))
    assert plan_attack(params(ml=50, range=30, br=40, zone_aim=11, zones=20))


def test_thrown_point_blank_zone_die() -> None:
    plan = plan_attack(params(ml=50, range=5, br=20, weapon="thrown"))
    assert plan.zone_die == 6
    plan = plan_attack(params(ml=50, range=5, br=20, weapon="thrown", thrown_pb_zd=4))
    assert plan.zone_die == 4
    assert plan_attack(params(ml=50, range=5, br=20, thrown_pb_zd=4)).zone_die == 6


# --- volley results -------------------------------------------------------------------


def test_volley_precision_extra_d10_per_step() -> None:
    f = resolve(ml=50, range=60, br=40, targets=4, steps=1,
                dice={"test": [45], "count": [9, 3], "impact_ta": [4], "zone": [2]}).figures
    assert (f["count_die"], f["count_rolls"], f["struck"]) == ("2d10", [9, 3], 3)
    f = resolve(ml=50, range=60, br=40, targets=4, steps=1, count_pick="first",
                dice={"test": [45], "count": [9, 3], "impact_ta": [4]}).figures
    assert (f["result"], f["struck"]) == ("miss", None)


@pytest.mark.parametrize(
    ("pick", "expected"), [("lowest", 1 - 0.6**3), ("highest", 0.4**3), ("first", 0.4)]
)
def test_volley_precision_odds_follow_the_kept_die(pick: str, expected: float) -> None:
    odds = dict(MISSILE.odds(params(ml=50, range=60, br=40, targets=4, steps=2,
                                    count_pick=pick)))
    assert odds["CS: strike"] == pytest.approx(0.10 * expected)
    cs = [p for p in [[a, b, c] for a in range(1, 11) for b in range(1, 11)
                      for c in range(1, 11)]]
    kept = {"lowest": min, "highest": max, "first": lambda v: v[0]}[pick]
    assert sum(kept(v) <= 4 for v in cs) / 1000 == pytest.approx(expected)


def test_volley_default_target_count_is_the_targets_tar() -> None:
    assert plan_attack(params(ml=50, range=60, br=40)).targets == 1
    assert plan_attack(params(ml=50, range=60, br=40, tar=3)).targets == 3
    assert plan_attack(params(ml=50, range=30, br=40, tar=3)).targets == 0


def test_volley_deviation_into_occupied_area() -> None:
    f = resolve(ml=50, range=60, br=40, deviation_targets=[0, 0, 4, 0, 0, 0, 0, 0],
                dice={"test": [51], "deviation": [3], "count": [2], "impact_ta": [5],
                      "zone": [6]}).figures
    assert (f["success"], f["deviation"], f["target_count"]) == ("MF", 3, 4)
    assert (f["result"], f["hit"], f["struck"], f["impact_ta"]) == (
        "strike", "deviation", 2, True)
    assert f["zone_die"] == "d10"


def test_volley_deviation_into_empty_area() -> None:
    res = resolve(ml=50, range=60, br=40, deviation_targets=[3],
                  dice={"test": [51], "deviation": [8], "count": [4], "impact_ta": [1]})
    assert res.figures["result"] == "miss" and res.figures["target_count"] == 3
    res = resolve(ml=50, range=60, br=40, dice={"test": [51], "deviation": [8]})
    assert res.figures["result"] == "miss" and len(res.rolls) == 2


def test_volley_at_eml_5_lands_harmlessly() -> None:
    res = resolve(ml=0, range=60, br=40, deviation_targets=[5], dice={"test": [51]})
    assert res.figures["result"] == "miss" and res.figures["deviation"] is None
    assert "harmlessly" in res.text


# --- throws and charges ---------------------------------------------------------------


@pytest.mark.parametrize(("range_ft", "impact"), [(5, 3), (20, 1), (40, -2), (60, -3)])
def test_charging_throw_impact(range_ft: int, impact: int) -> None:
    res = resolve("charge", ml=50, range=range_ft, br=20, dice={"test": [51]})
    assert res.figures["impact_mod"] == impact and res.figures["weapon"] == "thrown"


def test_charging_throw_limits() -> None:
    with pytest.raises(RuleError, match="at least 5 ft"):
        resolve("charge", ml=50, range=4, br=20)
    with pytest.raises(RuleError, match="Volley 4"):
        resolve("charge", ml=50, range=70, br=20)
    with pytest.raises(RuleError, match="use shoot"):
        resolve("charge", ml=50, range=10, br=20, weapon="bow")
    with pytest.raises(RuleError, match="only a thrown weapon"):
        resolve(ml=50, range=10, br=20, charge=True)


def test_shoot_and_throw_keep_to_their_weapons() -> None:
    with pytest.raises(RuleError, match="use throw"):
        resolve("shoot", ml=50, range=10, br=20, weapon="thrown")
    with pytest.raises(RuleError, match="use shoot"):
        resolve("throw", ml=50, range=10, br=20, weapon="sling")
    assert resolve("throw", ml=50, range=10, br=20, dice={"test": [51]}).figures[
        "weapon"] == "thrown"
    assert "throws" in resolve("throw", ml=50, range=10, br=20, dice={"test": [51]}).text


# --- odds -----------------------------------------------------------------------------


def test_success_odds_by_hand() -> None:
    s = success_odds(37)
    assert s == {"CS": Fraction(7, 100), "MS": Fraction(30, 100), "MF": Fraction(50, 100),
                 "CF0": Fraction(7, 100), "CF5": Fraction(6, 100)}
    assert sum(s.values()) == 1


def test_odds_nolora_point_blank_by_hand() -> None:
    odds = dict(MISSILE.odds(params(ml=75, range=20, br=40)))
    assert odds == pytest.approx(
        {"CS: strike": 0.17, "MS: strike": 0.68, "MF: miss": 0.12, "CF0: fumble": 0.02,
         "CF5: stumble": 0.01}
    )


def test_odds_volley_example_by_hand() -> None:
    odds = dict(MISSILE.odds(params(**VOLLEY)))
    assert odds["CS: strike"] == pytest.approx(0.07 * 0.7)
    assert odds["MS: strike"] == pytest.approx(0.28 * 7 / 20)
    assert sum(odds.values()) == pytest.approx(1)


def _tally(p: dict[str, Any]) -> Counter[str]:
    """Every d100 face and every count face resolved, as labels the odds use; a d10 count
    die (volley precision) reads faces 11-20 as 1-10 so each face weighs the same."""
    plan = plan_attack(p)
    tally: Counter[str] = Counter()
    for roll in range(1, 101):
        for face in range(1, 21):
            cs = success_level(roll, plan.eml, plan.spoiled) == "CS"
            value = (face - 1) % 10 + 1 if cs and plan.volley else face
            d = Dice.from_spec({"test": [roll], "count": [value], "deviation": [1]}, seed=1,
                                roll_rest=True)
            f = MISSILE.resolve(p, d).figures
            level = f["success"]
            if level == "CF":
                label = "CF0: fumble" if f["mishap"] == "fumble" else "CF5: stumble"
            elif f["result"] == "spoiled":
                label = "MF: spoiled"
            elif f["result"] == "strike":
                label = {"nearby": "MF: nearby strike", "deviation": "MF: deviation strike"}.get(
                    f["hit"], f"{level}: strike")
            else:
                label = f"{level}: miss"
            tally[label] += 1
    return tally


@pytest.mark.parametrize(
    "given",
    [dict(ml=62, range=30, br=40, targets=4),
     dict(ml=55, range=60, br=40, targets=6, deviation_targets=[3]),
     dict(ml=55, range=60, br=40, targets=13, deviation_targets=[25]),
     dict(ml=5, range=150, br=40, target="moving", targets=2)],
)
def test_odds_match_enumeration(given: dict[str, Any]) -> None:
    p = params(**given)
    tally = _tally(p)
    odds = dict(MISSILE.odds(p))
    assert set(odds) == {label for label, n in tally.items() if n}
    for label, prob in odds.items():
        assert prob == pytest.approx(tally[label] / 2000), label


@settings(max_examples=150, deadline=None)
@given(
    ml=st.integers(0, 150),
    range_ft=st.integers(0, 160),
    targets=st.integers(0, 25),
    steps=st.integers(0, 3),
    dev=st.lists(st.integers(0, 25), min_size=8, max_size=8),
    target=st.sampled_from(["still", "moving", "evading"]),
    spoil=st.sampled_from(["fails", "wasted"]),
)
def test_odds_sum_to_one(ml: int, range_ft: int, targets: int, steps: int, dev: list[int],
                         target: str, spoil: str) -> None:
    p = params(ml=ml, range=range_ft, br=40, targets=targets, steps=steps,
               deviation_targets=dev, target=target, dodge=9, spoiled_attack=spoil)
    odds = MISSILE.odds(p)
    assert sum(prob for _, prob in odds) == pytest.approx(1)
    assert all(0 < prob <= 1 for _, prob in odds)


def test_odds_of_a_large_volley_sum_to_one() -> None:
    """Twenty in the area, three steps beyond CS, every adjacent area occupied: the odds
    still sum to one, each end between nothing and certain."""
    odds = MISSILE.odds(params(ml=75, range=150, br=40, targets=20, steps=3,
                               deviation_targets=[9] * 8))
    assert sum(prob for _, prob in odds) == pytest.approx(1)
    assert all(0 < prob <= 1 for _, prob in odds)
