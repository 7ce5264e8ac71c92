"""edc: mounted combat (ride-by, staying in the saddle, gaits) and the Missile Pool
(preparation, firing, evading, aim and the 2d6 hit location, the MP upkeep)."""

from __future__ import annotations

import pytest

from tests.rules.edc_helpers import resolve, run
from tracker import rules
from tracker.core import history
from tracker.core.dice import Dice
from tracker.core.history import Transaction
from tracker.rules.base import RuleError
from tracker.rules.edc import EdcCombatant, EdcEncounter, start_round
from tracker.session.commands import CommandError
from tracker.session.session import Session

EDC = rules.get("edc")


def upkeep(enc: EdcEncounter) -> list[str]:
    tx = Transaction(enc)
    with tx:
        lines = start_round(enc, tx, Dice(seed=5))
        tx.commit("; ".join(lines), kind="next")
    return lines


# --- mounted ---------------------------------------------------------------------------------


def test_ride_by_success_one_exchange():
    res = resolve("ride_by", {"ride": [8, 2, 3], "oppose": [7]}, dice=3, gait="gallop",
                  oppose_dice=1, move=12)
    f = res.figures
    assert f["success"] and f["exchanges"] == 1 and f["yards_after"] == 18


def test_ride_by_opponent_wins_two_exchanges():
    res = resolve("ride_by", {"ride": [8, 2], "oppose": [7, 9]}, dice=2, oppose_dice=2)
    assert res.figures["exchanges"] == 2 and not res.figures["unhorsed"]


def test_ride_by_botch_topples_rider():
    enc = EdcEncounter(name="field", combatants=[
        EdcCombatant(id="k", name="Knight", mounted=True, gait="canter", agility=2, ride=1)])
    res = run(enc, "ride_by", {"ride": [1, 1, 4]}, actor="Knight")
    assert res.figures["unhorsed"]
    k = enc.combatants[0]
    assert not k.mounted and k.prone and k.gait == "stand"
    history.undo(enc)
    assert k.mounted and k.gait == "canter"


def test_ride_by_needs_canter_or_gallop():
    with pytest.raises(RuleError, match="canter or gallop"):
        resolve("ride_by", dice=3, gait="trot")


def test_ride_by_two_riders_choose():
    res = resolve("ride_by", {"ride": [8, 8], "oppose": [8]}, dice=2, oppose_dice=1,
                  both_mounted="yes")
    assert res.figures["chooser"] == "rider"


def test_ride_by_odds_sum():
    act = EDC.action("ride_by")
    odds = act.odds(act.parse_params({"dice": "4", "oppose_dice": "3"}))
    assert sum(q for _, q in odds) == pytest.approx(1)


def test_unhorse_mos_takes_dice():
    res = resolve("unhorse", {"ride": [7]}, dice=4, mos=3)
    assert res.figures["dice_rolled"] == 1 and not res.figures["unhorsed"]
    res = resolve("unhorse", {}, dice=2, mos=3)
    assert res.figures["dice_rolled"] == 0 and res.figures["unhorsed"]
    assert res.figures["fall_feet"] == 10


def test_mounted_defender_hit_calls_ride_check():
    res = resolve("exchange", {"attack": [9, 9]}, attack_dice=2, atn=6, dtn=6,
                  defender_mounted="yes", location="leg")
    assert res.figures["ride_check_penalty"] == 2 and "ride check" in res.text


def test_ride_gaits():
    res = resolve("ride", maneuver="accelerate", gait="trot", skilled="yes")
    assert not res.figures["check"] and res.figures["gait_after"] == "canter"
    res = resolve("ride", {"ride": [7]}, maneuver="accelerate2", gait="walk", dice=1)
    assert res.figures["gait_after"] == "canter" and res.figures["tn"] == 7
    res = resolve("ride", {"ride": [10, 9]}, maneuver="decelerate", gait="gallop", dice=2,
                  engaged="yes")
    assert res.figures["tn"] == 10 and res.figures["gait_after"] == "canter"
    res = resolve("ride", {"ride": [6]}, maneuver="wheel", gait="canter", dice=1)
    assert not res.figures["success"] and res.figures["gait_after"] == "canter"
    res = resolve("ride", {"ride": [2]}, maneuver="accelerate", gait="trot", dice=1,
                  skilled="no")
    assert res.figures["check"] and not res.figures["success"]


# --- missile --------------------------------------------------------------------------------


def archer() -> EdcEncounter:
    a = EdcCombatant(id="nell", name="Nell", reflex=6, aim=3, missile_proficiency=5)
    t = EdcCombatant(id="brute", name="Brute", side="foes", reflex=4, proficiency=4)
    return EdcEncounter(name="range", combatants=[a, t])


def test_missile_prep_and_upkeep_refresh():
    enc = archer()
    run(enc, "missile_prep", actor="Nell", rounds=2)
    nell = enc.combatants[0]
    assert nell.preparing and nell.missile_prep == 2
    upkeep(enc)
    assert nell.preparing and nell.missile_pool.size == 0
    upkeep(enc)
    assert not nell.preparing and nell.missile_ready and nell.missile_pool.size == 5
    upkeep(enc)  # did not fire: Aim dice, max Aim + proficiency
    assert nell.missile_pool.size == 8
    upkeep(enc)
    assert nell.missile_pool.size == 8


def test_missile_prep_shortened_costs_mp():
    enc = archer()
    res = run(enc, "missile_prep", {"reflex": [8, 1, 1, 1, 1, 1]}, actor="Nell", rounds=3,
              shorten="yes", mp_cost=2)
    assert res.figures["prep_rounds"] == 2 and res.figures["shortened"]
    upkeep(enc)
    upkeep(enc)
    assert enc.combatants[0].missile_pool.size == 3


def test_missile_prep_one_round_cannot_shorten():
    res = resolve("missile_prep", {"reflex": [9]}, rounds=1, shorten="yes", reflex=1)
    assert res.figures["prep_rounds"] == 1 and not res.figures["shortened"]


def test_missile_hit_aimed_location_and_wound():
    enc = archer()
    nell, brute = enc.combatants
    nell.missile_ready = True
    nell.pools[1].size = 8
    res = run(enc, "missile", {"missile": [9, 8, 2, 1, 5], "defense": [3, 4],
                               "location": [3, 4]},
              actor="Nell", target="Brute", dice=5, atn=6, aim_dice=2, aim_at=2,
              defense="evade_partial", defense_dice=2, wound_level=2)
    f = res.figures
    assert f["dtn"] == 7 and f["mos"] == 2 and f["hit"]
    assert f["location_roll"] == 7 and f["location_shift"] == -2
    assert f["location"] == "arm"  # 2d6 5 on the example chart
    assert nell.missile_pool.left == 1 and nell.fired and not nell.missile_ready
    assert brute.combat_pool.spent == 2 and brute.wounds[0].location == "arm"


def test_missile_evade_dtns_and_block():
    for defense, dtn in (("evade_full", 4), ("evade_partial", 7), ("duck", 9)):
        res = resolve("missile", {"missile": [2], "defense": [1]}, dice=1, atn=6,
                      defense=defense, defense_dice=1)
        assert res.figures["dtn"] == dtn
    with pytest.raises(RuleError, match="shield"):
        resolve("missile", {"missile": [2]}, dice=1, atn=6, defense="block", defense_dice=1)
    res = resolve("missile", {"missile": [9], "defense": [5]}, dice=1, atn=6,
                  defense="block", defense_dice=1, shield_dtn=5)
    assert res.outcome == "miss"


def test_missile_refuses_more_aim_than_aim():
    with pytest.raises(RuleError, match="aim dice"):
        resolve("missile", dice=1, atn=6, aim_dice=2, aim=1)


def test_missile_refuses_more_dice_than_mp():
    enc = archer()
    enc.combatants[0].missile_ready = True
    with pytest.raises(RuleError, match="MP left"):
        run(enc, "missile", actor="Nell", dice=3, atn=6)


def test_missile_odds():
    act = EDC.action("missile")
    p = act.parse_params({"dice": "1", "atn": "6", "defense": "evade_full",
                          "defense_dice": "1"})
    odds = dict(act.odds(p))
    assert sum(odds.values()) == pytest.approx(1)
    assert odds["hit, MoS 1"] == pytest.approx(0.5 * 0.3)


def test_no_aim_refresh_after_firing():
    enc = archer()
    nell = enc.combatants[0]
    nell.missile_ready = True
    nell.pools[1].size = 5
    run(enc, "missile", {"missile": [1, 2], "location": []}, actor="Nell", dice=2, atn=6)
    upkeep(enc)
    assert nell.missile_pool.size == 3 and not nell.fired


def test_a_shot_with_no_missile_ready_is_refused_before_the_form_and_may_be_forced():
    """A shooter with no missile ready and no MP shoots not (missile_prep first): said
    where the action list asks, and the GM may force past it."""
    s = Session(archer())
    missile = EDC.action("missile")
    assert s.why_not(missile, "nell") == "Nell has no missile ready (missile_prep first)"
    with pytest.raises(CommandError, match="missile_prep first"):
        s.execute("missile Nell Brute dice=0 atn=6")
    s.enc.combatants[0].missile_ready = True
    assert s.why_not(missile, "nell") == ""
