"""edc: terrain rolls (Alan's leap onto the bench and his rival's opposed roll, the deck
fight TNs), difficult fighting conditions and multiple opponents."""

from __future__ import annotations

import pytest

from tests.rules.edc_helpers import resolve, run
from tracker import rules
from tracker.core import history
from tracker.rules.base import RuleError
from tracker.rules.edc import EdcCombatant, EdcEncounter
from tracker.rules.edc.tables import opponents_tns, terrain_tn

EDC = rules.get("edc")


def feasthall() -> EdcEncounter:
    alan = EdcCombatant(id="alan", name="Alan Thorton", reflex=6, proficiency=6)
    rival = EdcCombatant(id="rival", name="Rival", reflex=5, proficiency=6, side="foes")
    return EdcEncounter(name="feasthall", combatants=[alan, rival])


def test_alan_leaps_onto_the_bench():
    """TN 4, 2 dice: one success is enough; higher footing +2 CP each round."""
    res = resolve("terrain", {"terrain": [5, 2]}, dice=2, tn=4, gain="higher_footing")
    assert res.figures["successes"] == 1 and res.figures["success"] is True
    enc = feasthall()
    run(enc, "terrain", {"terrain": [5, 2]}, actor="Alan", dice=2, tn=4, gain="higher_footing")
    alan = enc.combatants[0]
    assert alan.footing == "higher" and alan.combat_pool.spent == 2
    from tracker.rules.edc import combat_pool

    assert combat_pool(alan, enc)[0] == 14


def test_rival_opposes_and_cancels():
    """The rival spends 3 CP and scores 2 successes to Alan's 1: the leap is matched."""
    enc = feasthall()
    res = run(enc, "terrain", {"terrain": [5, 2], "oppose": [4, 9, 1]}, actor="Alan",
              opponent="Rival", dice=2, tn=4, oppose_dice=3, gain="higher_footing")
    f = res.figures
    assert (f["successes"], f["opposed_successes"]) == (1, 2)
    assert f["cancelled"] is True and f["success"] is False
    alan, rival = enc.combatants
    assert alan.footing == "level"
    assert alan.combat_pool.spent == 2 and rival.combat_pool.spent == 3
    history.undo(enc)
    assert rival.combat_pool.spent == 0


def test_opposed_tie_goes_to_the_actor():
    res = resolve("terrain", {"terrain": [5, 2], "oppose": [4, 1]}, dice=2, tn=4, oppose_dice=2)
    assert res.figures["success"] is True


def test_alan_failure_and_botch_consequences():
    enc = feasthall()
    run(enc, "terrain", {"terrain": [3, 2]}, actor="Alan", dice=2, tn=4,
        failure_effect="half_dice")
    alan = enc.combatants[0]
    assert alan.combat_pool.left == 12 - 2 - 1
    run(enc, "terrain", {"terrain": [1, 1]}, actor="Alan", dice=2, tn=4, botch_effect="prone")
    assert alan.prone is True
    assert alan.combat_pool.left == (9 - 2) - (9 - 2) // 2


def test_deck_fight_tns():
    """Slippery + hurried/attacking = 8 for Alan; slippery + normal/defending = 6 for Ferro."""
    assert terrain_tn("slippery", "attacking") == 8
    assert terrain_tn("slippery", "hurried") == 8
    assert terrain_tn("icy", "defending") == 6
    assert terrain_tn("slippery", "normal") == 6
    res = resolve("terrain", {"terrain": [8, 7, 2]}, dice=3, terrain="slippery",
                  movement="attacking", failure_effect="half_cp", botch_effect="prone")
    assert res.figures["tn"] == 8 and res.figures["success"]
    res = resolve("terrain", {"terrain": [5, 2, 3]}, dice=3, terrain="slippery",
                  movement="defending", failure_effect="half_cp")
    assert res.figures["tn"] == 6 and res.outcome == "failure"


def test_terrain_table_edges():
    assert terrain_tn("narrow", "standing") == 1
    assert terrain_tn("icy", "sprinting") == 10
    assert terrain_tn("pressing", "attacking") == 3
    assert terrain_tn("pressing", "defending") == 4
    with pytest.raises(RuleError):
        terrain_tn("limited_room", "cautious")
    with pytest.raises(RuleError):
        resolve("terrain", {}, dice=1)


def test_terrain_odds():
    act = EDC.action("terrain")
    p = act.parse_params({"dice": "2", "tn": "6"})
    odds = dict(act.odds(p))
    assert sum(odds.values()) == pytest.approx(1)
    assert odds["success"] == pytest.approx(1 - 0.5**2)
    assert odds["botch"] == pytest.approx(0.01)
    p = act.parse_params({"dice": "2", "tn": "4", "oppose_dice": "3"})
    assert sum(q for _, q in act.odds(p)) == pytest.approx(1)


def test_one_opposing_die_never_cancels_a_success():
    """Cancelling takes more successes than the roll's, and a success it must have: one
    opposing die can only match it. The chance is none, not a rounding below zero."""
    act = EDC.action("terrain")
    odds = dict(act.odds(act.parse_params({"dice": "5", "tn": "3", "oppose_dice": "1"})))
    assert odds["cancelled"] == 0
    assert all(q >= 0 for q in odds.values())


def test_deck_fight_difficult_conditions_applied():
    enc = feasthall()
    run(enc, "terrain", {"terrain": [2, 3, 4, 5]}, actor="Rival", dice=4, terrain="slippery",
        movement="defending", failure_effect="half_cp")
    rival = enc.combatants[1]
    assert rival.combat_pool.left == (11 - 4) - (11 - 4) // 2


# --- multiple opponents ----------------------------------------------------------------------


def test_multiple_opponents_table():
    assert opponents_tns(2, "lone_first") == (6, 5)
    assert opponents_tns(5, "lone_first") == (8, 6)
    assert opponents_tns(6, "lone_first") == (9, 7)
    assert opponents_tns(12, "lone_second") == (8, 10)
    with pytest.raises(RuleError):
        opponents_tns(1, "lone_first")


def test_outnumbered_beats_all_and_chooses():
    res = resolve("opponents", {"lone": [9, 8, 3], "opponent": [9, 2, 2]},
                  dice=3, opponent_dice="1,2,0")
    f = res.figures
    assert f["tn"] == 8 and f["opponents_tn"] == 6
    assert f["successes"] == 2 and f["opponent_successes"] == [1, 0, 0]
    assert f["may_choose"] and f["may_decline"] == []


def test_opponent_with_more_may_decline():
    res = resolve("opponents", {"lone": [9, 2], "opponent": [6, 6, 1]},
                  dice=2, opponent_dice="2,1")
    assert res.figures["may_decline"] == [1] and not res.figures["may_choose"]


def test_outnumbered_botch_faces_three_or_four():
    res = resolve("opponents", {"lone": [1, 1]}, dice=2, opponents=5)
    assert res.figures["botch"] and res.figures["max_faced"] == 3
    res = resolve("opponents", {"lone": [1, 1]}, dice=2, opponents=5, small_foes="yes")
    assert res.figures["max_faced"] == 4
