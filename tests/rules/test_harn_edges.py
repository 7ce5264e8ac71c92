"""HârnMaster's missile sequence at its edges: what each missile action allows of movement
(the Missile Actions table), who acts when (the higher Initiative Rating first, in its
own turn), injuries as the GM's record, the strike impact's dice asked for, and the
states the actions start ending where the text says."""

from __future__ import annotations

import pytest

from tracker.core.dice import Dice, NeedDice
from tracker.rules.harn import RULESET, HarnCombatant, HarnEncounter, MissileWeapon
from tracker.session.commands import CommandError
from tracker.session.session import Session

from .test_harn_encounter import who as c

BOW = MissileWeapon(name="bow", kind="bow", br=40, draw=100, impact="d12+4")


def table(*combatants: HarnCombatant) -> Session:
    return Session(HarnEncounter(name="edges", ruleset="harn", seed=5,
                                 combatants=list(combatants)))


def made(base: dict[str, object], kw: dict[str, object]) -> HarnCombatant:
    return HarnCombatant(**{**base, **kw})  # type: ignore[arg-type]


def nolora(**kw: object) -> HarnCombatant:
    return made(dict(id="nolora", name="Nolora", initiative=76, archery=75, pull=200,
                     weapon=BOW), kw)


def brigand(**kw: object) -> HarnCombatant:
    return made(dict(id="brigand", name="Brigand", side="brigands", initiative=60,
                     archery=50, weapon=BOW), kw)


def ulric(**kw: object) -> HarnCombatant:
    return made(dict(id="ulric", name="Ulric", initiative=90, archery=40,
                     weapon=MissileWeapon(name="arbalest", kind="crossbow", br=60,
                                          span_rounds=4)), kw)


def effects(s: Session, name: str) -> list[str]:
    return [e.name for e in c(s, name).effects]


# --- what each missile action allows of movement ------------------------------------------


@pytest.mark.parametrize("action", ["load", "aim"])
def test_a_combatant_who_moved_may_not_take_an_action_that_allows_no_movement(
        action: str) -> None:
    s = table(nolora(loaded=action == "aim", moved=True), brigand())
    with pytest.raises(CommandError, match=f"Nolora moved this round: {action} allows no "
                                           "movement"):
        s.execute(action + " Nolora")
    assert len(s.enc.log) == 0


def test_a_thrower_who_moved_charges_but_does_not_throw() -> None:
    javelin = MissileWeapon(name="javelin", kind="thrown", br=20)
    s = table(nolora(weapon=javelin, throwing=60, moved=True), brigand())
    with pytest.raises(CommandError, match="throw allows no movement"):
        s.execute("throw Nolora Brigand range=10 --dice test=99 --roll-rest")
    out = s.execute("charge Nolora Brigand range=10 --dice test=99 --roll-rest")
    assert out.resolution is not None
    assert (out.resolution.figures["movement"], out.resolution.figures["time"]) == (
        "half move", "1 turn")
    assert c(s, "Nolora").movement == "moving"  # a charging target is a moving one


def test_a_shot_allows_half_a_move_before_or_after_it_with_the_penalty_either_way() -> None:
    s = table(nolora(loaded=True), brigand())
    out = s.execute("shoot Nolora Brigand range=30 shooter_moving=yes --dice test=99 "
                    "--roll-rest")
    assert out.resolution is not None
    f = out.resolution.figures
    assert {"name": "moving shooter", "value": -10} in f["modifiers"]
    assert (f["movement"], f["time"], f["defence"]) == ("half move", "1 turn", "any")
    assert c(s, "Nolora").moved  # the move after the shot is the one the penalty paid for


def test_a_move_after_a_shot_taken_standing_is_refused() -> None:
    s = table(nolora(loaded=True), brigand())
    s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    with pytest.raises(CommandError, match="whether movement is before or after the shot"):
        s.execute("status Nolora moved=yes")
    assert not c(s, "Nolora").moved


def test_a_move_after_an_action_that_allows_none_is_refused_until_it_is_abandoned() -> None:
    s = table(nolora(loaded=True), brigand())
    s.execute("aim Nolora")
    with pytest.raises(CommandError, match="took aim this round, which allows no movement"):
        s.execute("status Nolora moved=yes")
    s.execute("abandon Nolora")
    s.execute("status Nolora moved=yes")
    assert c(s, "Nolora").moved


def test_the_attack_says_its_row_before_the_dice() -> None:
    s = table(nolora(loaded=True), brigand())
    shoot = RULESET.action("shoot")
    p = s.action_params_raw(shoot, {"actor": "Nolora", "at": "Brigand", "range": "30"},
                            complete=True)
    assert (shoot.summary(p) or "").startswith("shoot: half move, 1 turn, defence any; Direct")


# --- who acts: the higher Initiative Rating first, each in its own turn -------------------


def test_the_higher_initiative_rating_acts_first_and_no_one_out_of_turn() -> None:
    s = table(brigand(loaded=True), nolora(loaded=True))
    assert s.play.order() == ["nolora", "brigand"]
    with pytest.raises(CommandError, match="it is Nolora's turn: Brigand cannot shoot now"):
        s.execute("shoot Brigand Nolora range=30 --dice test=99 --roll-rest")
    assert len(s.enc.log) == 0
    s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    s.execute("next")
    s.execute("shoot Brigand Nolora range=30 --dice test=99 --roll-rest")


def test_the_gm_may_force_an_action_out_of_turn_and_the_log_says_so() -> None:
    s = table(brigand(loaded=True), nolora(loaded=True))
    out = s.execute("shoot Brigand Nolora range=30 force=yes --dice test=99 --roll-rest")
    assert "forced by the GM: it is Nolora's turn" in out.message


def test_equal_initiative_ratings_follow_the_named_setting() -> None:
    s = table(nolora(id="zed", name="Zed", initiative=60), brigand(initiative=60))
    assert s.play.order() == ["brigand", "zed"]  # initiative_ties=name, the default
    s.execute("setting initiative_ties=listed")
    assert s.play.order() == ["zed", "brigand"]
    assert "initiative_ties" in {x.name for x in RULESET.settings}


# --- recording an injury is the GM's record, not the victim's action -----------------------


def test_an_injury_spends_no_action_of_the_wounded() -> None:
    s = table(nolora(loaded=True), brigand(loaded=True))
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    s.execute("injury Brigand level=S2")  # in Nolora's turn: the GM's record
    assert [a.actor for a in s.enc.acted] == ["nolora"]
    assert s.enc.log[-1].actor == ""
    s.execute("next")
    out = s.execute("shoot Brigand Nolora range=30 --dice test=99 --roll-rest")
    assert out.resolution is not None and out.resolution.figures["roll"] == 99


# --- the strike impact: its dice asked for like the others ---------------------------------


def test_the_strike_impact_dice_are_entered_by_role() -> None:
    s = table(nolora(loaded=True), brigand())
    out = s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    assert out.resolution is not None
    f = out.resolution.figures
    assert (f["impact"], f["impact_rolls"], f["strike_impact"]) == ("d12+4", [5], 9)
    assert c(s, "Brigand").wounds[0].impact == 9
    assert [r.role for r in s.enc.log[-1].rolls] == ["test", "zone", "zone", "impact"]


def test_the_strike_impact_is_a_stage_the_dice_step_asks_for() -> None:
    s = table(nolora(loaded=True), brigand())
    shoot = RULESET.action("shoot")
    p = s.action_params_raw(shoot, {"actor": "Nolora", "at": "Brigand", "range": "30"},
                            complete=True)
    dice = Dice.from_answers({"test": [(41, "entered")], "zone": [(6, "entered"),
                                                                  (3, "entered")]})
    with pytest.raises(NeedDice) as need:
        shoot.resolve(p, dice)
    assert (need.value.request.role, need.value.request.sides,
            need.value.request.count) == ("impact", 12, 1)


def test_a_miss_asks_for_no_impact() -> None:
    s = table(nolora(loaded=True), brigand())
    with pytest.raises(CommandError, match="impact"):
        s.execute("shoot Nolora Brigand range=30 --dice test=99 impact=5")


# --- aim, the Ignore defence and spanning: states with a lifetime --------------------------


def test_an_aim_unused_by_the_next_round_ends_and_the_log_says_so() -> None:
    s = table(nolora(loaded=True), brigand())
    s.execute("aim Nolora")
    assert effects(s, "Nolora") == ["aimed", "aiming"]
    s.execute("next")  # the brigand's turn: Nolora still ignores defence
    assert "aiming" in effects(s, "Nolora")
    line = s.execute("next").message  # round 2, Nolora's turn begins
    assert "Nolora: aiming ended" in line and effects(s, "Nolora") == ["aimed"]
    s.execute("next")
    line = s.execute("next").message  # round 2 ends unused
    assert "Nolora: aimed ended" in line and effects(s, "Nolora") == []


def test_a_shot_the_round_after_the_aim_takes_the_bonus_and_uses_it_up() -> None:
    s = table(nolora(loaded=True), brigand())
    s.execute("aim Nolora")
    s.execute("next round")
    out = s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    assert out.resolution is not None
    assert {"name": "aim", "value": 10} in out.resolution.figures["modifiers"]
    assert effects(s, "Nolora") == []


def test_an_aware_combatant_abandons_in_the_attackers_turn_to_defend_normally() -> None:
    s = table(nolora(loaded=True), brigand(loaded=True))
    s.execute("aim Nolora")
    s.execute("next")  # the brigand shoots at her: she abandons the aim to defend
    out = s.execute("abandon Nolora")
    assert "abandons the aim" in out.message
    assert effects(s, "Nolora") == []  # the aim's +10 goes with it
    s.execute("shoot Brigand Nolora range=30 --dice test=99 --roll-rest")
    with pytest.raises(CommandError, match="no load, aim or span under way"):
        s.execute("abandon Nolora")


def test_undo_brings_back_what_an_advance_ended() -> None:
    s = table(nolora(loaded=True), brigand())
    s.execute("aim Nolora")
    s.execute("next round")
    s.execute("next round")
    assert effects(s, "Nolora") == []
    s.execute("undo")
    assert effects(s, "Nolora") == ["aimed"]
    s.execute("undo")
    assert effects(s, "Nolora") == ["aimed", "aiming"]


def test_a_spanner_spans_across_rounds_one_round_at_a_time() -> None:
    s = table(ulric(), brigand())
    for rnd in (1, 2, 3):
        out = s.execute("span Ulric")
        assert f"round {rnd} of 4" in out.message
        assert c(s, "Ulric").span_progress == rnd and effects(s, "Ulric") == ["spanning"]
        with pytest.raises(CommandError, match="already acted this round"):
            s.execute("span Ulric")
        s.execute("next round")
    assert "spanned, load a bolt next" in s.execute("span Ulric").message
    assert (c(s, "Ulric").spanned, c(s, "Ulric").span_progress) == (True, 0)


def test_a_span_left_idle_for_a_round_loses_its_progress_when_the_setting_says_so() -> None:
    s = table(ulric(), brigand())
    s.execute("setting span_progress_kept=no")
    s.execute("span Ulric")
    s.execute("next round")
    s.execute("span Ulric")
    assert c(s, "Ulric").span_progress == 2
    s.execute("next round")  # round 2: no span
    line = s.execute("next round").message
    assert "Ulric stopped spanning: progress lost" in line
    assert c(s, "Ulric").span_progress == 0


def test_the_round_ends_the_half_move_and_the_round_action() -> None:
    s = table(nolora(loaded=True), brigand())
    s.execute("shoot Nolora Brigand range=30 shooter_moving=yes --dice test=99 --roll-rest")
    line = s.execute("next round").message
    assert "Nolora: half move over" in line
    assert "Nolora: missile action of the round over" in line
    n = c(s, "Nolora")
    assert (n.moved, n.last_action, n.acted_round) == (False, "", None)


def test_an_older_saves_aim_is_read_as_the_aim_effect() -> None:
    old = HarnCombatant.model_validate({"id": "n", "name": "N", "aimed_round": 3})
    assert [(e.name, e.since) for e in old.effects] == [("aimed", (3, 0, 0, 0))]
    assert old.aimed_round is None


# --- what the action list greys before any form -------------------------------------------


def sling(**kw: object) -> HarnCombatant:
    return made(dict(id="wat", name="Wat", initiative=40, slings=50,
                     weapon=MissileWeapon(name="sling", kind="sling", br=30)), kw)


def thrower(**kw: object) -> HarnCombatant:
    return made(dict(id="ada", name="Ada", initiative=30, throwing=60,
                     weapon=MissileWeapon(name="spear", kind="thrown", br=10)), kw)


def test_abandon_is_greyed_where_nothing_is_under_way_to_abandon() -> None:
    """Only the actions that induce the Ignore defence may be abandoned: with none under
    way the action list greys abandon with the reason, before any form."""
    s = table(nolora(loaded=True), brigand())
    abandon = RULESET.action("abandon")
    assert s.why_not(abandon, "nolora") == "Nolora has no load, aim or span under way to abandon"
    s.execute("aim Nolora")
    assert s.why_not(abandon, "nolora") == ""


@pytest.mark.parametrize(("who", "action", "why"), [
    (thrower, "load", "Ada: thrown weapons have no Load action"),
    (sling, "aim", "aim: a sling has no Aim action"),
    (thrower, "shoot", "shoot: a thrown weapon is thrown (use throw or charge)"),
    (nolora, "throw", "throw: a bow is shot, not thrown (use shoot)"),
    (nolora, "charge", "charge: a bow is shot, not thrown (use shoot)"),
])
def test_an_action_the_weapon_has_no_row_for_is_greyed_before_the_form(
        who: object, action: str, why: str) -> None:
    """The Missile Actions table gives each weapon its actions: one it has no row for is
    greyed in the action list with the reason, not offered and refused after the form."""
    fighter = who(loaded=who is not thrower)  # type: ignore[operator]
    s = table(fighter, brigand())
    assert s.why_not(RULESET.action(action), fighter.id) == why


def test_a_bow_whose_draw_the_pull_does_not_exceed_by_75_is_greyed_for_aim() -> None:
    s = table(nolora(loaded=True, pull=150), brigand())
    assert s.why_not(RULESET.action("aim"), "nolora") == (
        "aim: a bow may be aimed only if Pull exceeds Draw by 75 (Pull 150, Draw 100)")


# --- the injury level: its domain, and a strike's level owed until the GM enters it --------


@pytest.mark.parametrize("typed", ["banana", "S", "S0", "S6p", "12"])
def test_an_injury_level_without_a_level_of_1_to_5_is_refused(typed: str) -> None:
    """An injury code names its level (S2p: level 2); the Injury Sequence's levels run 1 to
    5 (M1 to G5/K5): a code with no such level is refused, naming it, and nothing changes."""
    s = table(nolora(loaded=True), brigand())
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    before = c(s, "Brigand").wounds[0].model_copy()
    with pytest.raises(CommandError, match=f"level={typed}: .*1 to 5"):
        s.execute(f"injury Brigand level={typed}")
    assert c(s, "Brigand").wounds[0] == before
    s.execute("undo")
    with pytest.raises(CommandError, match=f"injury={typed}: .*1 to 5"):
        s.execute(f"shoot Nolora Brigand range=30 injury={typed} --dice test=41 zone=6,3 impact=5")
    assert c(s, "Brigand").wounds == []


def test_the_injury_level_of_a_strike_is_owed_as_the_round_ends() -> None:
    """A strike's injury level is the GM's to enter from the Injury Sequence: until it is,
    the wounded combatant's row says it is owed, and the round does not end without it
    (``next force`` leaves it undone, and the log says so)."""
    s = table(nolora(loaded=True), brigand())
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    assert s.play.markers()["brigand"] == ["injury level owed"]
    s.execute("next")
    out = s.execute("next")
    assert out.pending is not None and not out.changed
    assert "injury levels (Brigand: injury level owed)" in out.message
    assert s.enc.position.round == 1
    s.execute("injury Brigand level=S2p")
    assert c(s, "Brigand").wounds[0].level == 2 and "brigand" not in s.play.markers()
    assert s.execute("next").message.startswith("Round 2")


def test_the_round_not_the_turn_waits_for_the_injury_level() -> None:
    """The duty is owed as the round ends (HârnMaster has no phases): the turns go on, and
    it is the round that cannot end yet, as the stop says."""
    s = table(nolora(loaded=True), brigand())
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    assert s.execute("next").message == "Turn: Brigand"
    out = s.execute("next")
    assert out.message.startswith("round 1 cannot end yet: injury levels (Brigand: injury "
                                  "level owed); ")
    assert "turn" not in out.message.split(";")[0]


@pytest.mark.parametrize("line", ["next --roll-rest", "next round --roll-rest",
                                  "next --dice impact=5"])
def test_no_die_gives_the_injury_level_so_roll_rest_says_it_is_the_gm_s_to_enter(
        line: str) -> None:
    """The Injury Sequence is the GM's table: ``--roll-rest`` rolls nothing for it (it asked
    ``injury`` for a level it cannot have, "level= is required"), and the stop says who
    enters it, where, and that ``next force`` leaves it undone."""
    s = table(nolora(loaded=True), brigand())
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    s.execute("next")
    out = s.execute(line)
    assert out.pending is not None and not out.changed
    assert out.message == (
        "round 1 cannot end yet: injury levels (Brigand: injury level owed); the tracker "
        "rolls no injury level: the GM enters it from the Injury Sequence table; injury does "
        "it (n opens its dialog); next force leaves it undone")
    assert c(s, "Brigand").wounds[0].level == 0 and s.enc.position.round == 1


def test_the_action_list_greys_injury_while_no_one_has_a_wound() -> None:
    """``injury`` sets the level of a wound: with none in the fight the list greys it with
    the reason (it offered it, and its form then said "has no wound")."""
    s = table(nolora(loaded=True), brigand())
    injury = s.ruleset.action("injury")
    assert s.why_not(injury, None) == "no one has a wound to set an injury level on"
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    assert s.why_not(injury, None) == ""
    with pytest.raises(CommandError, match="Nolora has no wound to set an injury level on"):
        s.execute("injury Nolora level=S2")


def test_an_injury_level_left_undone_is_logged_and_not_owed_again() -> None:
    s = table(nolora(loaded=True), brigand())
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    line = s.execute("next round force").message
    assert "injury levels skipped by the GM (Brigand: injury level owed)" in line
    assert s.enc.position.round == 2 and "brigand" not in s.play.markers()
    s.execute("next round")  # owed in the round of the strike only


def test_the_injury_dialog_takes_the_wound_still_owed_its_level() -> None:
    s = table(nolora(loaded=True), brigand(), made(dict(id="ada", name="Ada", initiative=10),
                                                   {}))
    s.execute("wound Brigand arm level=3 kind=S3")
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 impact=5")
    s.execute("wound Brigand leg level=1 kind=M1")
    s.execute("injury Brigand level=G4")
    levels = [w.level for w in c(s, "Brigand").wounds]
    assert levels == [3, 4, 1]


# --- the domains of the attack's numbers ---------------------------------------------------


@pytest.mark.parametrize(("typed", "said"), [
    ("impact_bonus=-5", "impact_bonus=-5: must be at least 0"),
    ("deviation_targets=-3", "deviation_targets=-3: must be at least 0"),
    ("count_zones=-2", "count_zones=-2: must be at least 0"),
])
def test_a_negative_impact_bonus_target_count_or_zone_count_is_refused(
        typed: str, said: str) -> None:
    """The projectile's Impact TA bonus adds to the impact, a target count counts creatures
    and a body has zones: none of them is below 0, and a volley's deviation into an area
    of -3 targets or an Impact TA that takes 5 off is refused before any die."""
    s = table(nolora(loaded=True), brigand())
    with pytest.raises(CommandError, match=said):
        s.execute(f"shoot Nolora Brigand range=200 {typed} --dice test=37 deviation=3")
    assert s.enc.log == []


def test_a_weapon_value_outside_its_domain_is_named_by_check() -> None:
    """A save read as it was (a hand edit) is checked as ``tracker check`` does: the
    weapon's Impact TA bonus, like its Base Range, is never below 0."""
    from tracker.session.domains import out_of_domain

    weapon = BOW.model_copy(update={"impact_bonus": -4})
    enc = HarnEncounter(name="edited", ruleset="harn", combatants=[nolora(weapon=weapon)])
    assert out_of_domain(enc) == ["Nolora: weapon.impact_bonus=-4: must be at least 0"]


def test_set_changes_a_field_of_the_weapon_within_its_domain() -> None:
    """``set NAME weapon.br=180`` changes the weapon's Base Range (it was kept as a stat
    named ``weapon.br``, and the weapon stayed as it was); a value outside the field's
    domain is refused in one line and nothing changes."""
    s = table(nolora(loaded=True), brigand())
    s.execute("set Nolora weapon.br=180 weapon.impact_bonus=2")
    n = c(s, "Nolora")
    assert n.weapon is not None and (n.weapon.br, n.weapon.impact_bonus) == (180, 2)
    assert n.stats == {}
    for typed, said in (("weapon.br=-4", "weapon.br=-4: must be at least 0"),
                        ("weapon.span_rounds=3", "weapon.span_rounds=3: must be one of"),
                        ("weapon.reach=2", "weapon has no field 'reach'")):
        with pytest.raises(CommandError, match=said):
            s.execute(f"set Nolora {typed}")
    assert c(s, "Nolora") == n
    s.execute("set Brigand weapon.kind=sling")  # a weapon of its own, from the defaults
    assert c(s, "Brigand").weapon.kind == "sling"  # type: ignore[union-attr]
