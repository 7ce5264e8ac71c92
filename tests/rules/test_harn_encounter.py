"""HârnMaster missile state at the table: load, aim, span, shoot, throw, charge, abandon,
injuries, the round upkeep, Initiative Rating order, undo, and the sample saves."""

from __future__ import annotations

import pytest

from tests.conftest import load_sample
from tracker.core import history, turns
from tracker.rules.harn import RULESET, HarnCombatant, HarnEncounter, MissileWeapon
from tracker.session.commands import CommandError
from tracker.session.domains import out_of_place
from tracker.session.play import Never
from tracker.session.session import Session


def load_save(name: str) -> HarnEncounter:
    return load_sample(name, HarnEncounter)


def fresh(*combatants: HarnCombatant) -> Session:
    return Session(HarnEncounter(name="test", ruleset="harn", seed=5,
                                 combatants=list(combatants)))


def archer(**kw: object) -> HarnCombatant:
    base: dict[str, object] = dict(
        id="nolora", name="Nolora", initiative=76, archery=75,
        weapon=MissileWeapon(name="bow", kind="bow", br=40, draw=100, impact="d12+4",
                             impact_bonus=2),
    )
    base.update(kw)
    return HarnCombatant(**base)  # type: ignore[arg-type]


def crossbowman(**kw: object) -> HarnCombatant:
    base: dict[str, object] = dict(
        id="ulric", name="Ulric", initiative=50, archery=40, archery_sb=15,
        weapon=MissileWeapon(name="arbalest", kind="crossbow", br=60, span_rounds=2),
    )
    base.update(kw)
    return HarnCombatant(**base)  # type: ignore[arg-type]


def foe(**kw: object) -> HarnCombatant:
    base: dict[str, object] = dict(id="brigand", name="Brigand", side="brigands", initiative=60)
    base.update(kw)
    return HarnCombatant(**base)  # type: ignore[arg-type]


def who(s: Session, name: str) -> HarnCombatant:
    c = s.enc.find_combatant(name)
    assert isinstance(c, HarnCombatant)
    return c


# --- the sample saves -------------------------------------------------------------------


def test_volley_sample_replays_both_shots() -> None:
    enc = load_save("harn-nolora-volley.toml")
    shots = [e for e in enc.log if e.kind == "shoot"]
    assert len(shots) == 2
    first, second = shots
    assert [(r.role, r.value) for r in first.rolls] == [
        ("test", 25), ("count", 7), ("impact_ta", 2), ("zone", 14), ("impact", 6)]
    assert "impact d12+1 (d12+4 -3) = 7 (6+1)" in first.text  # "a final 7"
    assert "EML35" in first.text and "CS" in first.text and "Destrier" in first.text
    assert [(r.role, r.value) for r in second.rolls][:2] == [("test", 16), ("count", 14)]
    assert "MS" in second.text and "miss" in second.text
    assert (first.round, second.round) == (1, 2)
    horse = enc.find_combatant("Destrier")
    assert len(horse.wounds) == 1
    wound = horse.wounds[0]
    assert (wound.location, wound.kind, wound.level, wound.impact) == ("ZN14 flank", "S2p", 2, 7)
    assert "d12+1" in wound.note
    rebuilt, _ = history.replay(enc)
    assert history.state_of(rebuilt) == history.state_of(enc)


def test_volley_sample_reruns_from_its_start() -> None:
    """Undo the whole log, then run the shots again: the same state comes back."""
    saved = load_save("harn-nolora-volley.toml")
    enc = saved.model_copy(deep=True)
    while history.undo(enc) is not None:
        pass
    s = Session(enc)
    nolora = who(s, "Nolora")
    assert (nolora.loaded, nolora.in_hand, nolora.initiative) == (True, True, 76)
    numbering = "numbering='Brigand 1,Brigand 2,Brigand 3,Brigand 4,Brigand 5,Destrier,Destrier'"
    out = s.execute(f"shoot Nolora range=500 crosswind=1 targets=7 {numbering} "
                    "location=flank --dice test=25 count=7 impact_ta=2 zone=14 --roll-rest")
    assert out.resolution is not None and out.resolution.figures["struck_name"] == "Destrier"
    with pytest.raises(CommandError, match="not loaded"):
        s.execute(f"shoot Nolora range=500 crosswind=1 targets=7 {numbering} --dice test=16"
                  " --roll-rest")
    s.execute("injury Destrier level=S2p strike_impact=7")
    s.execute("load Nolora")
    s.execute("next round")
    out = s.execute(f"shoot Nolora range=500 crosswind=1 targets=7 {numbering} "
                    "--dice test=16 count=14 --roll-rest")
    assert out.resolution is not None and out.resolution.figures["result"] == "miss"
    horse = who(s, "Destrier")
    assert [(w.location, w.kind, w.impact) for w in horse.wounds] == [("ZN14 flank", "S2p", 7)]


def test_point_blank_sample() -> None:
    enc = load_save("harn-nolora-point-blank.toml")
    shot = enc.log[-1]
    assert "Direct PB" in shot.text and "EML85" in shot.text and "45 CS" in shot.text
    assert [r.role for r in shot.rolls] == ["test", "zone", "zone", "zone", "impact"]
    assert all(r.sides == 6 for r in shot.rolls[1:4]) and shot.rolls[4].sides == 12
    sentry = enc.find_combatant("Sentry")
    assert len(sentry.wounds) == 1 and sentry.wounds[0].location.startswith("ZN")


def test_order_is_by_initiative_rating() -> None:
    enc = load_save("harn-nolora-volley.toml")
    assert RULESET.order_stat == "initiative"
    order = turns.acting_order(enc, RULESET.order_stat)
    assert order[0] == "nolora"
    assert {enc.find_combatant(i).initiative for i in order[1:]} == {60}


# --- fill from the encounter ------------------------------------------------------------


def test_fill_draws_skill_weapon_and_state() -> None:
    s = fresh(archer(loaded=True, moved=True, fatigue=5, impairment=5),
              foe(movement="evading", dodge=3, tar=2, zones=12))
    p = s.action_params_raw(RULESET.action("shoot"), {"actor": "Nolora", "at": "Brigand",
                                                      "range": "30"}, complete=True).as_dict()
    assert (p["ml"], p["br"], p["weapon"], p["base_impact"], p["impact_bonus"]) == (
        75, 40, "bow", "d12+4", 2)
    assert (p["shooter_moving"], p["aimed"], p["trauma"]) == (True, False, 10)
    assert (p["target"], p["dodge"], p["tar"], p["zones"]) == ("evading", 3, 2, 12)
    out = s.execute("shoot Nolora Brigand range=30 --dice test=20 zone=3 --roll-rest")
    assert out.resolution is not None
    f = out.resolution.figures
    # 75 - 15 evading - 10 moving shooter - 10 trauma + 10 TAR2 = 50
    assert f["eml"] == 50 and f["precision"] is False


def test_given_values_beat_the_encounter() -> None:
    s = fresh(archer(loaded=True, moved=True), foe(movement="moving"))
    out = s.execute("shoot Nolora Brigand range=30 ml=60 shooter_moving=no target=still "
                    "--dice test=99 --roll-rest")
    assert out.resolution is not None and out.resolution.figures["eml"] == 60


def test_range_is_remembered_for_the_next_shot() -> None:
    s = fresh(archer(loaded=True, in_hand=True), foe())
    s.execute("shoot Nolora Brigand range=70 --dice test=99 --roll-rest")
    assert [(n.id, n.feet) for n in who(s, "Nolora").ranges] == [("brigand", 70)]
    s.execute("load Nolora")
    s.execute("next round")
    out = s.execute("shoot Nolora Brigand --dice test=99 --roll-rest")
    assert out.resolution is not None
    assert out.resolution.figures["range"] == 70
    assert out.resolution.figures["attack_type"] == "volley2"


def test_a_range_to_one_who_leaves_is_not_inherited_by_a_newcomer_of_the_same_name() -> None:
    s = fresh(archer(loaded=True, in_hand=True), foe())
    s.execute("shoot Nolora Brigand range=70 --dice test=99 --roll-rest")
    s.execute("remove Brigand")
    assert who(s, "Nolora").ranges == []
    s.execute("add combatant Brigand side=brigands initiative=60")  # the id brigand again
    assert s.enc.find_combatant("Brigand").id == "brigand"
    s.execute("load Nolora")
    s.execute("next round")
    with pytest.raises(CommandError, match="range"):  # measured anew, not the old 70 feet
        s.execute("shoot Nolora Brigand --dice test=99 --roll-rest")
    for _ in range(4):  # the round, the load, the newcomer, and the first Brigand's leaving
        s.execute("undo")
    assert [(n.id, n.feet) for n in who(s, "Nolora").ranges] == [("brigand", 70)]


def test_a_hand_edited_range_to_no_one_is_named_by_the_check() -> None:
    s = fresh(archer(loaded=True, in_hand=True), foe())
    s.execute("shoot Nolora Brigand range=70 --dice test=99 --roll-rest")
    assert out_of_place(s.enc, s.ruleset) == []
    who(s, "Nolora").ranges[0].id = "ghost"
    assert out_of_place(s.enc, s.ruleset) == [
        "Nolora: ranges id=ghost: must be the id of another combatant (brigand)"]


def test_settings_reach_the_resolver() -> None:
    s = fresh(archer(loaded=True), foe())
    s.execute("setting crosswind_direct=above_one")
    out = s.execute("shoot Nolora Brigand range=30 crosswind=3 --dice test=99 --roll-rest")
    assert out.resolution is not None and out.resolution.figures["eml"] == 55


# --- bows and slings: load, aim, shoot --------------------------------------------------


def test_bow_sequence_load_aim_shoot() -> None:
    s = fresh(archer(pull=180), foe())
    with pytest.raises(CommandError, match="not loaded"):
        s.execute("shoot Nolora Brigand range=30 --dice test=10 --roll-rest")
    s.execute("load Nolora")
    assert who(s, "Nolora").loaded
    with pytest.raises(CommandError, match="already acted this round"):
        s.execute("aim Nolora")
    s.execute("next round")
    s.execute("aim Nolora")
    assert aims(s, "Nolora") == [("aimed", 2), ("aiming", 2)]
    s.execute("next round")
    out = s.execute("shoot Nolora Brigand range=30 --dice test=40 zone=1,2 --roll-rest")
    assert out.resolution is not None
    assert {"name": "aim", "value": 10} in out.resolution.figures["modifiers"]
    n = who(s, "Nolora")
    assert (n.loaded, aims(s, "Nolora"), n.acted_round, n.last_action) == (
        False, [], 3, "shoot")
    assert len(who(s, "Brigand").wounds) == 1


def aims(s: Session, name: str) -> list[tuple[str, int]]:
    return [(e.name, e.since[0]) for e in who(s, name).effects if e.since is not None]


def test_aim_lapses_after_a_round() -> None:
    s = fresh(archer(pull=180, loaded=True), foe())
    s.execute("aim Nolora")
    s.execute("next round")
    assert aims(s, "Nolora") == [("aimed", 1)]  # aiming ended as her next turn began
    out = s.execute("next round")
    assert "Nolora: aimed ended" in out.message
    assert aims(s, "Nolora") == []
    out = s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    assert out.resolution is not None
    assert all(m["name"] != "aim" for m in out.resolution.figures["modifiers"])


def test_bow_aim_needs_pull_over_draw_by_75() -> None:
    s = fresh(archer(pull=170, loaded=True))
    with pytest.raises(CommandError, match="Pull exceeds Draw by 75 \\(Pull 170, Draw 100\\)"):
        s.execute("aim Nolora")
    s.execute("set Nolora pull=175")
    s.execute("aim Nolora")


def test_aim_needs_a_loaded_bow_unless_set_otherwise() -> None:
    s = fresh(archer(pull=200))
    with pytest.raises(CommandError, match="load before aiming"):
        s.execute("aim Nolora")
    s.execute("setting aim_needs_load=no")
    s.execute("aim Nolora")


def test_sling_has_no_aim_action() -> None:
    slinger = archer(weapon=MissileWeapon(name="sling", kind="sling", br=30), slings=50,
                     loaded=True)
    s = fresh(slinger)
    with pytest.raises(CommandError, match="sling has no Aim"):
        s.execute("aim Nolora")


def test_free_load_with_projectile_in_hand() -> None:
    s = fresh(archer(in_hand=True, loaded=True), foe())
    s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    out = s.execute("load Nolora")
    assert "free action" in out.message
    n = who(s, "Nolora")
    assert n.loaded and n.last_action == "shoot"
    with pytest.raises(CommandError, match="already loaded"):
        s.execute("load Nolora")


def test_status_sets_movement_and_in_hand() -> None:
    s = fresh(archer(), foe())
    s.execute("status Brigand movement=moving")
    s.execute("status Nolora moved=yes in_hand=yes")
    assert who(s, "Brigand").movement == "moving"
    n = who(s, "Nolora")
    assert (n.moved, n.in_hand) == (True, True)
    s.execute("next round")
    assert who(s, "Nolora").moved is False
    with pytest.raises(CommandError, match="give movement"):
        s.execute("status Nolora")


# --- crossbows: span, load, shoot -------------------------------------------------------


def test_crossbow_span_with_spanner_then_load_then_shoot() -> None:
    s = fresh(crossbowman(), foe(initiative=40))
    with pytest.raises(CommandError, match="not loaded \\(span it, then load a bolt\\)"):
        s.execute("shoot Ulric Brigand range=30 --dice test=10 --roll-rest")
    with pytest.raises(CommandError, match="not spanned"):
        s.execute("load Ulric")
    out = s.execute("span Ulric")
    assert "round 1 of 2" in out.message
    assert (who(s, "Ulric").span_progress, who(s, "Ulric").spanned) == (1, False)
    with pytest.raises(CommandError, match="already acted this round"):
        s.execute("span Ulric")
    s.execute("next round")
    out = s.execute("span Ulric")
    assert "spanned, load a bolt next" in out.message
    u = who(s, "Ulric")
    assert (u.spanned, u.span_progress) == (True, 0)
    with pytest.raises(CommandError, match="not loaded \\(load a bolt\\)"):
        s.execute("shoot Ulric Brigand range=30 --dice test=10 --roll-rest")
    s.execute("next round")
    s.execute("load Ulric")
    s.execute("next round")
    out = s.execute("shoot Ulric Brigand range=30 --dice test=44 --roll-rest")
    assert out.resolution is not None
    f = out.resolution.figures
    assert (f["ml"], f["skill"], f["eml"], f["success"]) == (45, "Archery SB15 x 3", 55, "MS")
    u = who(s, "Ulric")
    assert (u.loaded, u.spanned, u.span_progress) == (False, False, 0)


def test_span_progress_lost_when_the_setting_says_so() -> None:
    s = fresh(crossbowman())
    s.execute("setting span_progress_kept=no")
    s.execute("span Ulric")
    s.execute("next round")
    assert who(s, "Ulric").span_progress == 1  # spanned last round: kept
    out = s.execute("next round")
    assert "progress lost" in out.message and who(s, "Ulric").span_progress == 0


def test_only_crossbows_span_and_force_cannot_give_a_bow_a_crossbow() -> None:
    """force=yes passes a rule's limit (once a round, a move this round), not what a bow
    is: a bow spanned is a value no save may hold, so the span is refused, forced or not,
    without the offer to force it, and nothing changes."""
    s = fresh(archer())
    for line in ("span Nolora", "span Nolora force=yes"):
        with pytest.raises(CommandError) as refused:
            s.execute(line)
        assert str(refused.value) == "Nolora's weapon is a bow: only a crossbow is spanned"
    nolora = who(s, "Nolora")
    assert (nolora.spanned, nolora.span_progress, len(s.enc.log)) == (False, 0, 0)


def test_a_change_the_rules_write_outside_a_domain_is_refused_whole(monkeypatch) -> None:
    """Whatever an action writes is held to the domains of what it touched before it is
    committed: were span's rules to miss the bow (its check taken away here), the bow
    spanned would be refused, naming the value, and nothing kept."""
    from tracker.rules.harn.actions import span

    monkeypatch.setattr(span, "weapon_kind", lambda c, given: "crossbow")
    s = fresh(archer())
    with pytest.raises(CommandError) as refused:
        s.execute("span Nolora")
    assert str(refused.value) == ("Nolora: spanned=yes: only a crossbow is spanned; "
                                  "nothing changed")
    assert (who(s, "Nolora").spanned, len(s.enc.log)) == (False, 0)


def test_abandon_undoes_the_round_long_action() -> None:
    s = fresh(crossbowman(weapon=MissileWeapon(kind="crossbow", br=60, span_rounds=1)))
    with pytest.raises(CommandError, match="nothing|no load, aim or span"):
        s.execute("abandon Ulric")
    s.execute("span Ulric")
    assert who(s, "Ulric").spanned
    out = s.execute("abandon Ulric")
    assert "abandons the span" in out.message
    u = who(s, "Ulric")
    assert (u.spanned, u.span_progress, u.last_action) == (False, 0, "defend")


# --- thrown weapons ---------------------------------------------------------------------


def thrower() -> HarnCombatant:
    return HarnCombatant(
        id="bran", name="Bran", initiative=55, throwing=60,
        weapon=MissileWeapon(name="javelin", kind="thrown", br=20, heft=5, pb_zd=4),
    )


def test_throw_and_charge() -> None:
    s = fresh(thrower(), foe(initiative=40))
    with pytest.raises(CommandError, match="no Load action"):
        s.execute("load Bran")
    with pytest.raises(CommandError, match="use throw"):
        s.execute("shoot Bran Brigand range=10 --dice test=10 --roll-rest")
    out = s.execute("throw Bran Brigand range=10 --dice test=12 zone=3,1 --roll-rest")
    assert out.resolution is not None
    f = out.resolution.figures
    assert (f["eml"], f["zone_die"], f["impact_mod"]) == (65, "d4", 2)  # 60 + 10 PB - 5 heft
    s.execute("injury Brigand level=M1")  # the strike's level, owed as the round ends
    s.execute("next round")
    with pytest.raises(CommandError, match="at least 5 ft"):
        s.execute("charge Bran Brigand range=3")
    out = s.execute("charge Bran Brigand range=15 --dice test=99 --roll-rest")
    assert out.resolution is not None and out.resolution.figures["impact_mod"] == 1
    assert who(s, "Bran").moved is True


# --- injuries, undo, refusals -----------------------------------------------------------


def test_strike_records_a_wound_and_the_gm_enters_the_level() -> None:
    s = fresh(archer(loaded=True), foe())
    s.execute("shoot Nolora Brigand range=30 location=thigh --dice test=41 zone=6,3 --roll-rest")
    wound = who(s, "Brigand").wounds[0]
    assert wound.location == "ZN3 thigh" and wound.level == 0
    assert "GM to enter" in wound.note and "d12+4" in wound.note
    s.execute("injury Brigand level=S3 strike_impact=9")
    wound = who(s, "Brigand").wounds[0]
    assert (wound.kind, wound.level, wound.impact) == ("S3", 3, 9)
    assert "GM to enter" not in wound.note
    with pytest.raises(CommandError, match="no wound"):
        s.execute("injury Nolora level=S2")
    with pytest.raises(CommandError, match="wounds 1..1"):
        s.execute("injury Brigand level=S2 wound=2")


def test_shot_and_injury_undo_exactly() -> None:
    s = fresh(archer(loaded=True, in_hand=True), foe())
    before = history.state_of(s.enc)
    s.execute("shoot Nolora Brigand range=30 --dice test=41 zone=6,3 --roll-rest")
    s.execute("injury Brigand level=S2p strike_impact=7")
    s.execute("load Nolora")
    assert history.state_of(s.enc) != before
    for _ in range(3):
        history.undo(s.enc)
    assert history.state_of(s.enc) == before


def test_miss_leaves_no_wound_and_mishap_spends_the_shot() -> None:
    s = fresh(archer(loaded=True), foe())
    out = s.execute("shoot Nolora Brigand range=30 --dice test=90 --roll-rest")
    assert out.resolution is not None and out.resolution.figures["mishap"] == "fumble"
    assert who(s, "Brigand").wounds == []
    assert who(s, "Nolora").loaded is False


def test_volley_strike_without_numbering_records_no_wound() -> None:
    s = fresh(archer(loaded=True), foe())
    out = s.execute("shoot Nolora Brigand range=60 targets=3 --dice test=41 count=2 impact_ta=1"
                    " --roll-rest")
    assert out.resolution is not None and out.resolution.figures["struck"] == 2
    assert who(s, "Brigand").wounds == []


def test_out_of_the_fight_cannot_act() -> None:
    s = fresh(archer(loaded=True, out=True), foe())
    with pytest.raises(CommandError, match="out of the fight"):
        s.execute("shoot Nolora Brigand range=30 --dice test=10 --roll-rest")


def test_one_action_a_round_can_be_switched_off() -> None:
    s = fresh(archer(in_hand=False), foe())
    s.execute("load Nolora")
    with pytest.raises(CommandError, match="already acted this round"):
        s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    s.execute("setting one_action_per_round=no")
    out = s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    assert out.resolution is not None and out.resolution.figures["roll"] == 99
    assert s.enc.log[-1].text.startswith("Nolora shoots at Brigand")
    n = who(s, "Nolora")
    assert (n.loaded, n.acted_round, n.last_action) == (False, 1, "shoot")


def test_describe_combatant() -> None:
    assert RULESET.describe_combatant is not None
    text = RULESET.describe_combatant(crossbowman(span_progress=1))
    assert text == "IR50, arbalest BR60, spanning 1/2, unloaded"
    text = RULESET.describe_combatant(archer(loaded=True, aimed_round=2, in_hand=True))
    assert text == "IR76, bow BR40, loaded, aimed r2, in hand"


def test_the_missile_state_refuses_before_the_form_and_the_gm_may_force_past_it() -> None:
    """An unloaded bow, a bow loaded already and a crossbow spanned already are refused
    where the action list asks (before any form: the list greys the action with the
    reason), and the GM may force past them as past any limit."""
    s = fresh(archer(loaded=False, in_hand=False), crossbowman(spanned=True), foe())
    shoot, load, span = (RULESET.action(n) for n in ("shoot", "load", "span"))
    assert s.why_not(shoot, "nolora") == "Nolora's bow is not loaded (load first)"
    assert s.why_not(load, "nolora") == ""
    assert s.why_not(span, "ulric") == "Ulric's crossbow is already spanned"
    # no crossbow to span is not a limit: the list says no force takes it
    never = s.why_not(span, "nolora")
    assert never == "Nolora's weapon is a bow: only a crossbow is spanned"
    assert isinstance(never, Never)
    assert not isinstance(s.why_not(shoot, "nolora"), Never)
    assert isinstance(s.why_not(RULESET.action("throw"), "nolora"), Never)
    with pytest.raises(CommandError, match="not loaded \\(load first\\); add force=yes"):
        s.execute("shoot Nolora Brigand range=30 --dice test=10 --roll-rest")
    out = s.execute("shoot Nolora Brigand range=30 force=yes --dice test=10 --roll-rest")
    assert out.resolution is not None
    assert "not loaded" in out.message  # the log says what was forced past
    s.execute("undo")
    s.execute("load Nolora")
    assert s.why_not(load, "nolora").endswith("already loaded")


def test_a_volley_at_one_creature_with_no_target_count_strikes_it() -> None:
    """With no target count given, a volley's count is the TAR of the one shot at (one
    for a man): the count that strikes is that creature, and its wound is recorded."""
    s = fresh(archer(loaded=True), foe())
    out = s.execute("shoot Nolora Brigand range=60 --dice test=41 count=1 impact_ta=1"
                    " --roll-rest")
    assert out.resolution is not None
    assert out.resolution.figures["target_count"] == 1
    assert out.resolution.figures["struck_name"] == "Brigand"
    assert len(who(s, "Brigand").wounds) == 1


def test_a_value_a_hand_edit_left_outside_its_domain_does_not_stop_other_changes() -> None:
    """A bow spanned by a hand edit (tracker check names it) is not the next change's
    doing: a note, an aim or a set of another field is taken, and setting it right is
    too."""
    s = fresh(archer(spanned=True, loaded=False), foe())
    s.execute("set Nolora initiative=12")
    s.execute("load Nolora")
    assert (who(s, "Nolora").initiative, who(s, "Nolora").loaded) == (12, True)
    s.execute("set Nolora spanned=no")
    assert who(s, "Nolora").spanned is False
