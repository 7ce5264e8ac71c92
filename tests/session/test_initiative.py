"""Initiative from the table's dice in every ruleset that rolls it (plain, harn): owed
as the fight begins (its first advance) and as each round begins where the ruleset says
so, asked for with ``next`` (``--dice initiative=...``, ``--roll-rest``), never rolled
unasked; ``next force`` begins without it and the log says so; ties by the ruleset's
named setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.rules.harn import HarnCombatant, HarnEncounter
from tracker.rules.plain.model import PlainEncounter
from tracker.session.opening import load, new_encounter
from tracker.session.session import Session

SAVES = Path(__file__).parents[2] / "saves"


def plain_fight() -> Session:
    """A new plain fight, not yet begun: Aria, Tam and a goblin."""
    s = Session(PlainEncounter(name="Ford", ruleset="plain", seed=5, gm_side="foes",
                               under_way=False))
    for line in ("add combatant Aria hp=24 initiative=15 init_bonus=1",
                 "add combatant Tam hp=18 initiative=8 init_bonus=4",
                 "add combatant Goblin side=foes hp=7 initiative=12 init_bonus=2"):
        s.execute(line)
    return s


def harn_fight(**settings: str | int | bool) -> Session:
    """A new harn fight, not yet begun: Nolora (IR 76), Brigand (IR 60, +5), Ulric (IR 90)."""
    people = [HarnCombatant(id="nolora", name="Nolora", initiative=76),
              HarnCombatant(id="brigand", name="Brigand", side="brigands", initiative=60,
                            stats={"init_bonus": 5}),
              HarnCombatant(id="ulric", name="Ulric", initiative=90)]
    return Session(HarnEncounter(name="Point", ruleset="harn", seed=5, combatants=people,
                                 settings=dict(settings), under_way=False))


# --- the fight begins ----------------------------------------------------------------------


def test_the_first_next_of_a_plain_fight_asks_everyone_s_initiative_and_rolls_none():
    s = plain_fight()
    asked = s.execute("next")
    assert asked.pending is not None and not asked.changed
    assert asked.message.startswith("round 1 cannot begin yet: initiative (Aria: d20+1; "
                                    "Tam: d20+4; Goblin: d20+2)")
    assert [c.initiative for c in s.enc.combatants] == [15, 8, 12]
    assert not s.enc.under_way


def test_the_dice_given_begin_the_fight_and_the_highest_acts_first():
    s = plain_fight()
    out = s.execute("next --dice initiative=3,17,9")
    assert out.message == ("Round 1 begins, Tam first; "
                           "Initiative: Aria 4 (3+1), Tam 21 (17+4), Goblin 11 (9+2)")
    assert s.play.current() == "tam" and s.enc.position.round == 1
    assert [r.source for r in s.enc.log[-1].rolls] == ["entered"] * 3
    assert s.execute("next").message == "Turn: Goblin"  # under way: n moves on as ever
    assert s.execute("next").message == "Turn: Aria"


def test_next_force_begins_the_fight_without_initiative_and_says_so():
    s = plain_fight()
    out = s.execute("next force")
    assert out.message == ("Round 1 begins, Aria first; initiative skipped by the GM "
                           "(Aria: d20+1; Tam: d20+4; Goblin: d20+2)")
    assert [c.initiative for c in s.enc.combatants] == [15, 8, 12]
    assert s.execute("next").message == "Turn: Goblin"


def test_initiative_taken_by_hand_before_the_first_next_begins_the_fight():
    s = plain_fight()
    s.execute("initiative --dice initiative=1,20,5")
    assert s.enc.under_way and s.play.current() == "tam"
    assert s.execute("next").message == "Turn: Goblin"


def test_undo_takes_the_beginning_back_and_the_first_next_asks_again():
    s = plain_fight()
    s.execute("next --roll-rest")
    assert all(r.source == "rolled" for r in s.enc.log[-1].rolls)
    s.execute("undo")
    assert not s.enc.under_way
    assert s.execute("next").pending is not None


def test_a_new_encounter_has_not_begun_and_a_save_that_does_not_say_is_under_way(tmp_path):
    path = new_encounter("Cave", "plain", tmp_path / "cave.toml")
    assert not load(path).under_way
    assert load(SAVES / "plain-goblin-ambush.toml").under_way


def test_without_initiative_dice_the_first_next_moves_on_as_ever():
    s = plain_fight()
    s.execute("setting initiative_dice=")
    assert s.execute("next").message == "Turn: Goblin"
    assert s.enc.under_way


# --- harn: initiative rolled anew each round ----------------------------------------------


def test_harn_without_initiative_dice_asks_nothing_and_ir_orders():
    s = harn_fight()
    assert s.execute("next").message == "Turn: Nolora"
    out = s.execute("next round")
    assert "Initiative" not in out.message and s.play.current() == "ulric"


def test_harn_asks_each_one_s_die_as_the_fight_begins():
    s = harn_fight(initiative_dice="d100")
    asked = s.execute("next")
    assert asked.pending is not None
    assert asked.message.startswith("round 1 cannot begin yet: initiative (Nolora: d100; "
                                    "Brigand: d100+5; Ulric: d100)")
    out = s.execute("next --dice initiative=40,50,12")
    assert out.message == ("Round 1 begins, Brigand first; "
                           "Initiative: Nolora 40 (40+0), Brigand 55 (50+5), Ulric 12 (12+0)")
    assert s.play.order() == ["brigand", "nolora", "ulric"]
    assert [c.initiative for c in s.enc.combatants] == [76, 60, 90]  # the IR is kept


def test_harn_each_round_owes_initiative_again_and_the_tracker_rolls_none_unasked():
    s = harn_fight(initiative_dice="d100")
    s.execute("next --dice initiative=40,50,12")
    before = [c.rolled_initiative for c in s.enc.combatants]
    asked = s.execute("next round")
    assert asked.pending is not None and not asked.changed
    assert asked.message.startswith("round 2 cannot begin yet: initiative")
    assert [c.rolled_initiative for c in s.enc.combatants] == before
    out = s.execute("next round --dice initiative=90,10,30")
    assert "Round 2, Nolora first" in out.message
    assert "Initiative: Nolora 90 (90+0), Brigand 15 (10+5), Ulric 30 (30+0)" in out.message
    assert s.play.order() == ["nolora", "ulric", "brigand"]


def test_harn_next_force_keeps_last_round_s_order_and_says_so():
    s = harn_fight(initiative_dice="d100")
    s.execute("next --dice initiative=40,50,12")
    out = s.execute("next round force")
    assert "initiative skipped by the GM (Nolora: d100; Brigand: d100+5; Ulric: d100)" \
        in out.message
    assert s.play.order() == ["brigand", "nolora", "ulric"]


@pytest.mark.parametrize(("rule", "order"), [("name", ["brigand", "nolora", "ulric"]),
                                             ("listed", ["nolora", "brigand", "ulric"])])
def test_harn_equal_rolls_go_as_initiative_ties_says(rule, order):
    s = harn_fight(initiative_dice="d100", initiative_ties=rule)
    s.execute("next --dice initiative=50,45,3")  # Nolora 50, Brigand 50
    assert s.play.order() == order
