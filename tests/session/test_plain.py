"""plain through the command language: hit points taken and healed, down and back, attacks
and saves applied, initiative from the table's dice, monsters by the dozen, the bestiary,
and another side's health in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.core import history
from tracker.rules.plain.model import PlainEncounter
from tracker.session.language import CommandError
from tracker.session.session import Session


def table(path: Path | None = None) -> Session:
    """Aria (24 hp, 5 temporary), Tam and a goblin, in the order Aria, Goblin, Tam."""
    s = Session(PlainEncounter(name="Ford", ruleset="plain", seed=5, gm_side="foes"), path)
    for line in ("add combatant Aria hp=24 temp_hp=5 ac=17 initiative=15 init_bonus=1",
                 "add combatant Tam hp=18 ac=14 initiative=8 init_bonus=4",
                 "add combatant Goblin side=foes hp=7 ac=15 initiative=12 init_bonus=2 "
                 'attack="+4 1d6+2"'):
        s.execute(line)
    return s


def hp(s: Session, name: str) -> tuple[int | None, int, bool]:
    who = s.enc.find_combatant(name)
    return who.hp, who.temp_hp, who.out  # type: ignore[attr-defined]


def test_damage_takes_temporary_points_first():
    s = table()
    out = s.execute("damage Aria 8")
    assert out.message == "Aria: 8 damage (5 temp), 24 → 21 hp"
    assert hp(s, "Aria") == (21, 0, False)


def test_heal_stops_at_the_maximum():
    s = table()
    s.execute("damage Tam 5")
    assert s.execute("heal Tam 10").message == "Tam: healed 5 of 10, 13 → 18 hp (its maximum)"
    assert hp(s, "Tam") == (18, 0, False)


def test_down_at_0_skipped_in_the_order_and_back_with_undo():
    s = table()
    assert s.play.order() == ["aria", "goblin", "tam"]
    out = s.execute("damage Goblin 9")
    assert out.message == "Goblin: 9 damage, 7 → 0 hp: down"
    assert hp(s, "Goblin") == (0, 0, True)
    assert s.play.order() == ["aria", "tam"]
    s.execute("undo")
    assert hp(s, "Goblin") == (7, 0, False)
    assert s.play.order() == ["aria", "goblin", "tam"]
    s.execute("redo")
    assert s.execute("heal Goblin 2").message == "Goblin: healed 2, 0 → 2 hp: back up"
    assert s.play.order() == ["aria", "goblin", "tam"]


def test_one_who_goes_down_on_their_turn_passes_it_on():
    s = table()
    s.execute("next")  # the goblin's turn
    out = s.execute("damage Goblin 7")
    assert s.play.current() == "tam" and out.message.startswith("Goblin: 7 damage")


def test_several_targets_at_once_and_names_of_several_words_need_no_quotes():
    s = table()
    s.execute("add combatant Goblin count=2 side=foes hp=7")
    out = s.execute("damage goblin 1 goblin 2 Tam 4")
    assert out.message == ("Goblin 1: 4 damage, 7 → 3 hp; Goblin 2: 4 damage, 7 → 3 hp; "
                           "Tam: 4 damage, 18 → 14 hp")
    assert len(s.enc.log) == 5  # one change, undone in one step
    s.execute("undo")
    assert [hp(s, n)[0] for n in ("Goblin 1", "Goblin 2", "Tam")] == [7, 7, 18]


@pytest.mark.parametrize(("line", "message"), [
    ("damage Nobody 3", "no combatant named 'Nobody'"),
    ("damage Aria 0", "damage 0: the amount must be 1 to 9999"),
    ("heal Aria", "heal NAME N"),
    ("add combatant Ogre hp=-1", "hp=-1: must be at least 0"),
    ("add combatant Ogre max_hp=0", "max_hp=0: must be at least 1"),
    ("add combatant Ogre temp_hp=-2", "temp_hp=-2: must be at least 0"),
    ("add combatant Ogre hp=30 max_hp=20", "hp=30: must be at most max_hp (20)"),
    ("set Aria hp=25", "hp=25: must be at most max_hp (24)"),
    ("add combatant Ogre count=0", "count=0: must be 1 to 50"),
    ("add combatant Ogre count=51", "count=51: must be 1 to 50"),
    ("add combatant Ogre init_bonus=31", "init_bonus=31: must be -20 to 30"),
    ("add combatant Ogre ac=101", "ac=101: must be 0 to 100 (or none)"),
    ("attack Aria Aria damage=1d6", "target=Aria"),
    ("save Goblin dc=15 bonus=2,51", "bonus=51: "),
    ("add combatant Ogre attack=huge", "attack=huge: expected a bonus and damage dice"),
    ("add combatant Ogre defences=ac,w-ll", "'w-ll' is not a defence name"),
    ("attack Aria Goblin damage=1d6 crit=1", "crit=1: must be at least 2"),
    ("save Goblin dc=0", "dc=0: must be at least 1"),
    # a name that is no one's: before, the attack was logged with no one hurt
    ("attack Aria Gobbo defence=15 --dice attack=15 damage=6", "no combatant named 'Gobbo'"),
    ("attack Ariadne Goblin", "no combatant named 'Ariadne'"),
    ("save Goblin,Orc dc=12", "no combatant named 'Orc'"),
])
def test_bad_values_are_refused_in_one_line_naming_the_value(line, message):
    s = table()
    before = history.state_of(s.enc)
    with pytest.raises(CommandError) as caught:
        s.execute(line)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert history.state_of(s.enc) == before


def test_a_combatant_without_hit_points_says_how_to_give_them():
    s = table()
    s.execute("add combatant Ghost")
    with pytest.raises(CommandError, match="Ghost has no hit points yet: set Ghost hp=N"):
        s.execute("damage Ghost 3")


def test_an_attack_with_entered_dice_takes_the_target_s_defence_and_applies_the_damage():
    s = table()
    s.execute("next")  # the goblin acts
    out = s.execute("attack Goblin Tam --dice attack=10 damage=5")
    assert out.message == "Goblin attacks Tam: 10+4 = 14 vs AC 14: hit, 7 damage (1d6+2: 5+2)"
    assert hp(s, "Tam") == (11, 0, False)
    record = s.enc.log[-1].resolved
    assert record is not None and record.happened == "hit"
    assert record.params["defence"] == 14 and record.params["hp"] == 18


def test_an_attack_that_drops_the_target_takes_it_out_of_the_order():
    s = table()
    s.execute("attack Aria Goblin bonus=5 damage=1d8+3 advantage --dice attack=2,14 damage=6")
    assert hp(s, "Goblin") == (0, 0, True)
    assert s.enc.log[-1].resolved.happened == "hit: Goblin down"  # type: ignore[union-attr]
    assert s.play.order() == ["aria", "tam"] and s.play.current() == "aria"


def test_a_save_for_three_targets_applies_half_and_full_damage():
    s = table()
    s.execute("add combatant Goblin count=2 side=foes hp=7")
    out = s.execute("save goblin 1 goblin 2 Tam dc=13 bonus=2 damage=2d6 "
                    "--dice save=12,5,15 damage=4,4")
    assert out.message == ("Save DC 13: Goblin 1 14 saves, Goblin 2 7 fails, Tam 17 saves; "
                           "2d6 (4+4) = 8 damage: Goblin 1 4, Goblin 2 8 (down), Tam 4")
    assert [hp(s, n)[0] for n in ("Goblin 1", "Goblin 2", "Tam")] == [3, 0, 14]


def test_initiative_from_the_table_s_dice_orders_the_fight_and_the_highest_starts():
    s = table()
    out = s.execute("initiative --dice initiative=3,11,10")
    assert out.message == "Initiative: Aria 4 (3+1), Tam 15 (11+4), Goblin 12 (10+2)"
    assert s.play.order() == ["tam", "goblin", "aria"] and s.play.current() == "tam"


@pytest.mark.parametrize(("rule", "order"), [
    ("bonus", ["tam", "goblin", "aria"]),    # +4, +2, +1
    ("name", ["aria", "goblin", "tam"]),
    ("players", ["tam", "aria", "goblin"]),  # the GM's side last, then the bonus
])
def test_ties_are_broken_by_the_named_rule(rule, order):
    s = table()
    s.execute(f"setting initiative_ties={rule}")
    s.execute("initiative --dice initiative=11,8,10")  # 12 each
    assert s.play.order() == order


def test_initiative_each_round_takes_the_dice_given_to_next():
    s = table()
    s.execute("setting initiative_each_round=yes")
    asked = s.execute("next round")  # owed as the round begins: no die rolled unasked
    assert asked.pending is not None and not asked.changed
    assert asked.message.startswith("round 2 cannot begin yet: initiative (Aria: d20+1; "
                                    "Tam: d20+4; Goblin: d20+2)")
    assert s.enc.position.round == 1
    out = s.execute("next round --dice initiative=1,2,20")
    assert "Initiative: Aria 2 (1+1), Tam 6 (2+4), Goblin 22 (20+2)" in out.message
    assert s.play.current() == "goblin"


def test_a_round_begun_without_initiative_keeps_the_order_and_says_so():
    s = table()
    s.execute("setting initiative_each_round=yes")
    out = s.execute("next round force")
    assert "initiative skipped by the GM (Aria: d20+1; Tam: d20+4; Goblin: d20+2)" in out.message
    assert [c.initiative for c in s.enc.combatants] == [15, 8, 12]


def test_a_group_acting_together_rolls_once():
    s = table()
    s.execute("add combatant Wolf count=3 side=foes")
    s.execute("setting group_initiative=group")
    out = s.execute("initiative --dice initiative=5,5,5,9")
    assert "Wolf (group) 11 (9+2)" in out.message
    assert {c.initiative for c in s.enc.combatants if c.group == "Wolf"} == {11}


def test_monsters_by_the_dozen_from_the_bestiary():
    s = table()
    out = s.execute("add combatant Goblin count=6 init_bonus=3")
    names = [c.name for c in s.enc.combatants if c.name.startswith("Goblin ")]
    assert names == [f"Goblin {n}" for n in range(1, 7)]
    assert out.message.startswith("Goblin 1 to 6 join (combatant, foes); from the bestiary:")
    assert "init_bonus=3" not in out.message and "init_bonus=2" not in out.message  # typed: stands
    first = s.enc.find_combatant("Goblin 1")
    assert (first.hp, first.ac, first.init_bonus, first.attack, first.group) == (  # type: ignore[attr-defined]
        7, 15, 3, "+4 1d6+2", "Goblin")
    s.execute("add combatant Goblin count=2")
    assert s.enc.combatants[-1].name == "Goblin 8"


def test_a_bestiary_beside_the_save_comes_first_and_one_that_does_not_read_is_said(tmp_path):
    save = tmp_path / "ford.toml"
    (tmp_path / "bestiary.toml").write_text('[Goblin]\nhp = 12\nac = 16\nside = "cave"\n')
    s = table(save)
    s.execute("add combatant Goblin")
    assert (s.enc.combatants[-1].hp, s.enc.combatants[-1].side) == (12, "cave")  # type: ignore[attr-defined]
    (tmp_path / "bestiary.toml").write_text("[Goblin\n")
    out = s.execute("add combatant Orc")
    assert "bestiary.toml skipped: not valid TOML" in out.message
    assert s.enc.combatants[-1].hp == 15  # type: ignore[attr-defined]  # the shipped one's


def test_removing_a_wound_has_a_name_that_says_so():
    s = table()
    s.execute("wound Aria 'left arm' level=2")
    assert s.execute("wound Aria remove=1").message == "Aria: wound to left arm healed"
    with pytest.raises(CommandError, match="remove=1: Aria has no wounds"):
        s.execute("wound Aria remove=1")


def test_another_side_s_health_reaches_the_players_in_words():
    s = table()
    s.execute("add combatant Orc side=foes hp=15")
    s.execute("damage Goblin 3")
    s.execute("damage Orc 8")
    view = s.player_view("party")
    words = {c.name: c.conditions for c in view.combatants if c.side == "foes"}
    assert words == {"Goblin": ["hurt"], "Orc": ["bloodied"]}
    assert all(c.hp is None for c in view.combatants if c.side == "foes")  # type: ignore[attr-defined]
    assert view.find_combatant("Aria").hp == 24  # type: ignore[attr-defined]
    assert [e.text for e in view.log][-2:] == ["Goblin: hurt", "Orc: bloodied"]
    s.execute("damage Orc 9")
    assert s.player_view("party").log[-1].text == "Orc: down"
    s.execute("setting player_health=numbers")
    assert s.player_view("party").find_combatant("Orc").hp == 0  # type: ignore[attr-defined]


def test_roll_takes_the_table_s_dice_without_a_role():
    s = table()
    assert s.execute("roll d20+3 --dice 14").message == "Roll d20+3: [14] = 17"
    assert s.enc.log[-1].rolls[0].source == "entered"
