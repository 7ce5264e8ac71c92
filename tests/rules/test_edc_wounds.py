"""edc: the damage table, wounds entered by hand, Blood Loss, Knockdown and Knockout."""

from __future__ import annotations

import pytest

from tests.rules.edc_helpers import resolve, run
from tracker import rules
from tracker.core import history
from tracker.rules.base import RuleError
from tracker.rules.edc import EdcCombatant, EdcEncounter
from tracker.rules.edc.damage import damage_table as load_table
from tracker.rules.edc.damage import lookup

EDC = rules.get("edc")


def one() -> EdcEncounter:
    c = EdcCombatant(id="ferro", name="Augustus Ferro", reflex=5, proficiency=5, toughness=3,
                     knockdown=3, armour=2)
    return EdcEncounter(name="deck", combatants=[c])


def test_example_table_is_complete():
    table = load_table()
    for kind in ("cutting", "puncture", "blunt"):
        for loc in ("head", "neck", "chest", "abdomen", "arm", "leg"):
            for key in ("shock", "pain", "blood_loss", "knockdown", "knockout", "note"):
                assert len(table[kind][loc][key]) == 5, (kind, loc, key)
    assert set(table["missile_location"]) == {str(n) for n in range(2, 13)}
    assert lookup("", "generic", "anywhere", 3).shock == 6


def test_lookup_levels_and_errors():
    assert lookup("", "cutting", "arm", 0).shock == 0
    assert lookup("", "cutting", "Arm", 3).pain == 4
    with pytest.raises(RuleError, match="locations"):
        lookup("", "cutting", "tail", 2)


def test_custom_table(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[cutting.arm]\nshock = [1,2,3,4,5]\npain = [0,0,1,1,2]\n'
                    'blood_loss = [9,9,9,9,9]\n')
    row = lookup(str(path), "cutting", "arm", 4)
    assert (row.shock, row.pain, row.blood_loss, row.knockdown) == (4, 1, 9, False)
    with pytest.raises(RuleError, match="damage table"):
        lookup(str(tmp_path / "none.toml"), "cutting", "arm", 1)


def test_hit_by_hand_applies_shock_and_undo():
    enc = one()
    before = history.state_of(enc)
    res = run(enc, "hit", target="Ferro", location="leg", level=3, shock=12, pain=3,
              blood_loss=4, mos=2)
    ferro = enc.combatants[0]
    assert res.figures["cp_now"] == 0 and res.figures["spill"] == 2
    # CP driven below 0 calls TN 2 x MoS = 4; a leg blow of level 3 calls TN = Shock 12:
    # one roll at the harder TN
    assert res.figures["knockdown_tn"] == 12
    assert ferro.combat_pool.left == 0 and ferro.shock_spill == 2 and ferro.pain == 3
    assert ferro.wounds[0].blood_loss == 4
    history.undo(enc)
    assert history.state_of(enc) == before


def test_hit_from_table():
    res = resolve("hit", location="chest", level=2, damage_type="puncture")
    assert (res.figures["shock"], res.figures["pain"], res.figures["blood_loss"]) == (3, 2, 5)
    assert res.figures["knockdown_tn"] == 0 and not res.figures["knockout_roll"]
    res = resolve("hit", location="head", level=3, damage_type="blunt")
    assert res.figures["knockout_roll"] is True


def test_bloodloss_action():
    res = resolve("bloodloss", {"toughness": [5, 4, 2]}, toughness=3, tn=6)
    assert res.figures["health_lost"] == 1
    res = resolve("bloodloss", {"toughness": [6, 4, 2]}, toughness=3, tn=6)
    assert res.figures["health_lost"] == 0
    res = resolve("bloodloss", toughness=3, tn=0)
    assert res.outcome == "not bleeding"
    act = EDC.action("bloodloss")
    odds = dict(act.odds(act.parse_params({"toughness": "1", "tn": "6"})))
    assert odds["loses 1 Health"] == pytest.approx(0.5)


def test_bloodloss_fill_from_wounds():
    enc = one()
    run(enc, "hit", target="Ferro", location="arm", level=1, shock=0, pain=0, blood_loss=4)
    run(enc, "hit", target="Ferro", location="leg", level=1, shock=0, pain=0, blood_loss=2)
    res = run(enc, "bloodloss", {"toughness": [1, 2, 3]}, actor="Ferro")
    assert res.figures["tn"] == 6 and enc.combatants[0].health == 4


def test_knockdown_tns():
    assert resolve("knockdown", {"knockdown": [9]}, dice=1, mos=3).figures["tn"] == 6
    assert resolve("knockdown", {"knockdown": [9]}, dice=1, mos=3, blunt="yes").figures["tn"] == 9
    assert resolve("knockdown", {"knockdown": [9]}, dice=1, shock=5).figures["tn"] == 5
    assert resolve("knockdown", {"knockdown": [9]}, dice=1, fumble_dice=4).figures["tn"] == 4
    with pytest.raises(RuleError):
        resolve("knockdown", dice=1)
    # TN 12 from MoS 6: capped at 10 by default, impossible on request
    assert resolve("knockdown", {"knockdown": [10]}, dice=1, mos=6).figures["knocked_down"] is False
    res = resolve("knockdown", {"knockdown": [10]}, dice=1, mos=6, tn_above_ten="impossible")
    assert res.figures["knocked_down"] is True


def test_knockdown_apply_prone():
    enc = one()
    run(enc, "knockdown", {"knockdown": [2, 3, 4]}, actor="Ferro", mos=3)
    assert enc.combatants[0].prone is True


def test_knockout_tn_and_outcomes():
    res = resolve("knockout", {"knockout": [7]}, dice=1)
    assert res.figures["tn"] == 7 and res.outcome == "conscious"
    assert resolve("knockout", {"knockout": [7]}, dice=1, armour=5).figures["tn"] == 5
    assert resolve("knockout", {"knockout": [7]}, dice=1, armour=2).figures["tn"] == 7
    assert resolve("knockout", {"knockout": [7]}, dice=1, armour=2,
                   knockout_tn="ten_minus_armour").figures["tn"] == 8
    res = resolve("knockout", {"knockout": [3, 4], "out": [6]}, dice=2)
    assert res.outcome == "out" and res.figures["seconds_out"] == 6
    res = resolve("knockout", {"knockout": [1, 1], "out": [3]}, dice=2)
    assert res.outcome == "out long" and res.figures["seconds_out"] == 1800


def test_knockout_apply_effect():
    enc = one()
    run(enc, "knockout", {"knockout": [1, 2, 3], "out": [5]}, actor="Ferro")
    eff = enc.combatants[0].effects[0]
    assert eff.name == "unconscious" and eff.ends is not None and eff.ends.round == 1 + 3


def test_wound_to_unknown_location_is_refused():
    with pytest.raises(RuleError):
        resolve("hit", location="wing", level=2)
