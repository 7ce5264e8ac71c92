"""edc: the exchange of blows, pressing (Roland's press), initiative, hesitation, odds."""

from __future__ import annotations

import pytest

from tests.conftest import load_sample
from tests.rules.edc_helpers import resolve, run
from tracker import rules
from tracker.core import history
from tracker.core.dice import Dice
from tracker.rules.base import RuleError
from tracker.rules.edc import EdcCombatant, EdcEncounter
from tracker.rules.edc.chances import mos_odds

EDC = rules.get("edc")


# --- the headless interface of the issue ------------------------------------------------------


def test_issue_example_exchange():
    res = resolve("exchange", {"attack": [9, 8, 7, 6, 2, 1], "defense": [8, 7, 6]},
                  attack_dice=6, atn=6, defense_dice=3, dtn=6)
    f = res.as_json()
    assert f["attack_successes"] == 4
    assert f["defense_successes"] == 3
    assert f["mos"] == 1
    assert f["winner"] == "attacker"
    assert f["initiative"] == "attacker"
    assert f["attack_botch"] is False and f["defense_botch"] is False
    assert "press_feet" not in f


def test_roland_press():
    """Roland: 6-die chop, 4 successes; 6-die press, 5 successes; the guard parries with
    3 successes and does not press: Press MoS 1 + 5 = 6 -> pushed back 6 feet."""
    res = resolve(
        "exchange",
        {"attack": [9, 8, 7, 6, 2, 3], "defense": [8, 7, 6, 1], "press": [9, 5, 4, 3, 3, 1]},
        attack_dice=6, atn=6, defense_dice=4, dtn=6, press_dice=6,
    )
    f = res.figures
    assert (f["attack_successes"], f["defense_successes"], f["mos"]) == (4, 3, 1)
    assert f["press_successes"] == 5
    assert f["press_total"] == 6
    assert f["defense_press_total"] == 0
    assert f["press_feet"] == 6
    assert f["press_by"] == "attacker"
    # the guard stood 2 ft inside and had to go back 5: 6 ft carries him 4 ft past the exit
    assert f["press_feet"] - 2 == 4
    assert "6 ft" in res.text


def test_roland_helmet_withstands_blow():
    res = resolve(
        "exchange",
        {"attack": [9, 8, 7, 6, 2, 3], "defense": [8, 7, 6, 1], "press": [9, 5, 4, 3, 3, 1]},
        attack_dice=6, atn=6, defense_dice=4, dtn=6, press_dice=6, location="head",
        weapon_damage=1, toughness=0, armour=2,
    )
    assert res.figures["hit"] and res.figures["wound_level"] == 0
    assert "no wound" in res.text


def test_press_tn_default_three_and_defender_press_four():
    res = resolve("exchange", {"attack": [5], "defense": [5], "press": [3, 2],
                               "defense_press": [4, 3, 3]},
                  attack_dice=1, atn=6, defense_dice=1, dtn=6, press_dice=2,
                  defense_press_dice=3)
    f = res.figures
    assert f["mos"] == 0
    assert f["press_successes"] == 1  # 3 meets TN 3, 2 does not
    assert f["defense_press_successes"] == 1  # only the 4 meets TN 4
    assert f["press_feet"] == 0 and f["press_by"] == "none"


def test_defender_wins_press_with_mos():
    res = resolve("exchange", {"attack": [2, 3], "defense": [9, 9, 9], "press": [3]},
                  attack_dice=2, atn=6, defense_dice=3, dtn=6, press_dice=1)
    f = res.figures
    assert f["mos"] == -3 and f["winner"] == "defender" and f["initiative"] == "defender"
    assert f["press_total"] == 1 and f["defense_press_total"] == 3
    assert f["press_by"] == "defender" and f["press_feet"] == 2


def test_tie_goes_to_attacker_without_a_hit():
    res = resolve("exchange", {"attack": [7, 2], "defense": [7, 3]},
                  attack_dice=2, atn=7, defense_dice=2, dtn=7)
    f = res.figures
    assert f["mos"] == 0 and f["winner"] == "attacker" and f["initiative"] == "attacker"
    assert f["hit"] is False and res.outcome == "tie"
    assert f["drive_feet"] == 0


def test_botches_and_fumble_penalty():
    res = resolve("exchange", {"attack": [1, 1, 4, 5, 2], "defense": [1, 2, 3]},
                  attack_dice=5, atn=6, defense_dice=3, dtn=6)
    f = res.figures
    assert f["attack_botch"] is True and f["attack_fumble_penalty"] == 2
    assert f["defense_botch"] is False  # a single 1 is no botch
    assert f["mos"] == 0


def test_zero_is_ten_and_zero_dice():
    res = resolve("exchange", {"attack": [0]}, attack_dice=1, atn=10, dtn=6)
    assert res.figures["attack_successes"] == 1 and res.figures["defense_successes"] == 0
    res = resolve("exchange", {}, attack_dice=0, atn=6, dtn=6)
    assert res.figures["mos"] == 0 and not res.figures["attack_botch"]


def test_tn_above_ten():
    res = resolve("exchange", {"attack": [10, 9]}, attack_dice=2, atn=12, dtn=6)
    assert res.figures["attack_successes"] == 1
    res = resolve("exchange", {"attack": [10, 9]}, attack_dice=2, atn=12, dtn=6,
                  tn_above_ten="impossible")
    assert res.figures["attack_successes"] == 0


def test_wound_from_table_and_spill():
    res = resolve("exchange", {"attack": [9, 9, 9], "defense": [2]},
                  attack_dice=3, atn=6, defense_dice=1, dtn=6, location="arm",
                  defender_cp=4)
    f = res.figures
    assert f["mos"] == 3 and f["wound_level"] == 3
    # example table: cutting arm level 3 -> Shock 5, Pain 4, BL 5
    assert (f["shock"], f["pain"], f["blood_loss"]) == (5, 4, 5)
    # 4 CP less the 1 defence die = 3 left; 5 Shock: 3 now, 2 spill, CP < 0 -> knockdown 2 x 3
    assert f["cp_now"] == 0 and f["spill"] == 2 and f["knockdown_tn"] == 6


def test_blunt_knockdown_tn_triples_mos():
    res = resolve("exchange", {"attack": [9, 9], "defense": []},
                  attack_dice=2, atn=6, dtn=6, location="chest", damage_type="blunt",
                  defender_cp=1)
    assert res.figures["knockdown_tn"] == 6


# --- in the encounter --------------------------------------------------------------------------


def duel() -> EdcEncounter:
    roland = EdcCombatant(id="roland", name="Roland", reflex=6, proficiency=6, atn=6, dtn=6,
                          opponent="guard")
    guard = EdcCombatant(id="guard", name="Guard", side="foes", reflex=4, proficiency=5,
                         atn=7, dtn=6, armour=3, opponent="roland")
    return EdcEncounter(name="duel", combatants=[roland, guard])


def test_apply_spends_pools_sets_initiative_and_undo_restores():
    enc = duel()
    before = history.state_of(enc)
    res = run(enc, "exchange",
              {"attack": [9, 8, 7, 6, 2, 3], "defense": [8, 7, 6, 1], "press": [9, 5, 4, 3, 3, 1]},
              attacker="Roland", defender="Guard", attack_dice=6, defense_dice=4, press_dice=6)
    r, g = enc.combatants
    assert res.figures["press_feet"] == 6
    assert r.combat_pool.spent == 12 and r.combat_pool.left == 0
    assert g.combat_pool.spent == 4 and g.combat_pool.left == 5
    # the winner takes the initiative as the next exchange begins
    assert (r.next_initiative, g.next_initiative) == ("takes", "loses")
    history.undo(enc)
    assert history.state_of(enc) == before


def test_apply_refuses_more_dice_than_left():
    enc = duel()
    with pytest.raises(RuleError, match="Guard has 9 CP left"):
        run(enc, "exchange", {"attack": [1] * 3, "defense": [1] * 10}, attacker="Roland",
            defender="Guard", attack_dice=3, defense_dice=10)
    assert enc.combatants[1].combat_pool.spent == 0 and not enc.log


def test_posture_gives_free_dice_and_costs_then_neutral():
    enc = duel()
    enc.combatants[0].posture = "aggressive"
    enc.combatants[1].posture = "aggressive"
    run(enc, "exchange", {"attack": [9] * 6, "defense": [9] * 2}, attacker="Roland",
        defender="Guard", attack_dice=6, defense_dice=2)
    r, g = enc.combatants
    assert r.combat_pool.spent == 4  # 2 of the 6 dice come from the posture
    assert g.combat_pool.spent == 4  # 2 dice + 2 activation cost
    assert r.posture == g.posture == "neutral"


def test_fumble_in_first_exchange_cuts_cp_now_second_carries():
    enc = duel()
    run(enc, "exchange", {"attack": [1, 1, 2, 3], "defense": []}, attacker="Roland",
        defender="Guard", attack_dice=4)
    r = enc.combatants[0]
    assert r.combat_pool.size == 10 and r.combat_pool.left == 6
    enc.position.phase = 1
    run(enc, "exchange", {"attack": [1, 1, 2, 3], "defense": []}, attacker="Roland",
        defender="Guard", attack_dice=4)
    assert r.fumble_penalty == 2 and r.combat_pool.size == 10


def test_wound_applied_with_shock_and_reach_closed():
    enc = duel()
    r, g = enc.combatants
    r.reach, g.reach = 1, 3
    run(enc, "exchange", {"attack": [9, 9, 9, 9, 9, 9], "defense": [2]}, attacker="Roland",
        defender="Guard", attack_dice=6, defense_dice=1, location="arm", weapon_damage=1)
    # MoS 6 + 1 - Toughness 4 - AR 3 = level 0: no wound
    assert not g.wounds and not r.inside_reach
    run(enc, "exchange", {"attack": [9, 9, 9, 9, 9, 9], "defense": [2]}, attacker="Roland",
        defender="Guard", attack_dice=6, defense_dice=1, location="arm", wound_level=2)
    assert g.wounds[0].level == 2 and g.wounds[0].shock == 3
    assert g.combat_pool.left == 9 - 2 - 3
    assert r.inside_reach


# --- odds ------------------------------------------------------------------------------------


def test_odds_sum_to_one_and_hand_case():
    act = EDC.action("exchange")
    p = act.parse_params({"attack_dice": "1", "atn": "6", "defense_dice": "1", "dtn": "6"})
    odds = dict(act.odds(p))
    assert sum(odds.values()) == pytest.approx(1)
    # one die each at TN 6: p = 0.5 -> MoS 1: .25, 0: .5, -1: .25
    assert odds["MoS 1: hit"] == pytest.approx(0.25)
    assert odds["MoS -1: defender wins"] == pytest.approx(0.25)


def test_odds_for_30_vs_30_sum_to_one_and_keep_the_mean():
    """How long they take is bench/run.py's (edc exchange, 30d10 vs 30d10), not a test's."""
    act = EDC.action("exchange")
    p = act.parse_params({"attack_dice": "30", "atn": "6", "defense_dice": "30", "dtn": "7"})
    odds = act.odds(p)
    assert sum(q for _, q in odds) == pytest.approx(1)
    dist = mos_odds(30, 6, 30, 7)
    mean = sum(m * q for m, q in dist.items())
    assert mean == pytest.approx(30 * 0.5 - 30 * 0.4)


# --- initiative and hesitation -------------------------------------------------------------------


def test_both_red_most_successes_first():
    res = resolve("initiative", {"a": [9, 8, 2], "b": [9, 1, 1]},
                  a_reflex=3, a_atn=6, b_reflex=3, b_atn=6)
    assert res.figures["first"] == "a"


def test_both_red_tie_by_reflex_with_thrust_then_simultaneous():
    res = resolve("initiative", {"a": [9, 2], "b": [9, 2]},
                  a_reflex=2, a_atn=6, b_reflex=2, b_atn=6, b_thrust="yes")
    assert res.figures["first"] == "b" and "Reflex" in res.figures["reason"]
    res = resolve("initiative", {"a": [9, 2], "b": [9, 2]},
                  a_reflex=2, a_atn=6, b_reflex=2, b_atn=6)
    assert res.figures["first"] == "simultaneous"


def test_both_red_length_penalty_removes_dice():
    res = resolve("initiative", {"a": [9], "b": [2, 2, 2]},
                  a_reflex=3, a_atn=6, a_penalty=2, b_reflex=3, b_atn=6)
    assert res.figures["a_successes"] == 1 and res.figures["first"] == "a"
    odds = EDC.action("initiative").odds(EDC.action("initiative").parse_params(
        {"a_reflex": "3", "a_atn": "6", "b_reflex": "3", "b_atn": "6"}))
    assert sum(q for _, q in odds) == pytest.approx(1)


def test_hesitation_tn_and_results():
    res = resolve("hesitation", {"reflex": [8, 3]}, reflex=2, ambusher_successes=2,
                  target_successes=1)
    assert res.figures["tn"] == 8 and res.figures["can_defend"]
    res = resolve("hesitation", {"reflex": [6, 3]}, reflex=2)
    assert res.figures["tn"] == 7 and res.outcome == "frozen"


def test_hesitation_apply_sets_marker():
    enc = duel()
    run(enc, "hesitation", {"reflex": [1, 1, 1, 1]}, actor="Guard")
    assert enc.combatants[1].marker == "hesitating"


# --- the sample save ---------------------------------------------------------------------------


def test_sample_save_replays_roland_press():
    enc = load_sample("edc-roland-press.toml", EdcEncounter)
    rebuilt, _ = history.replay(enc)
    assert history.state_of(rebuilt) == history.state_of(enc)
    press = [e for e in enc.log if e.kind == "exchange"][-1]
    assert "press 6 vs 0" in press.text and "6 ft" in press.text
    roland = enc.find_combatant("Roland")
    assert roland.combat_pool.spent == 12 and roland.holds_initiative
    # undo the closing note and the press: Roland has his full CP again
    history.undo(enc)
    history.undo(enc)
    assert roland.combat_pool.spent == 0 and roland.combat_pool.size == 12
    assert "Dim -1" in roland.combat_pool.breakdown
    # and the press replays from the log's entered dice exactly
    act = EDC.action("exchange")
    res = act.resolve(
        act.parse_params({"attack_dice": "6", "atn": "6", "defense_dice": "4", "dtn": "6",
                          "press_dice": "6"}),
        Dice.from_spec({r.role: [] for r in press.rolls} | {
            role: [r.value for r in press.rolls if r.role == role]
            for role in {r.role for r in press.rolls}
        }),
    )
    assert res.figures["press_feet"] == 6
