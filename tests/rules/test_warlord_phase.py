"""Fantasy Warlord phase eight in an encounter: fire orders, held casualties, end of phase."""

from __future__ import annotations

import pytest

from tests.conftest import load_sample
from tracker.core import history
from tracker.core.dice import Dice
from tracker.core.model import Position
from tracker.rules import get
from tracker.rules.base import RuleError
from tracker.rules.warlord import WarlordEncounter, WarlordUnit
from tracker.session.commands import CommandError, parse
from tracker.session.session import Session

RULES = get("warlord")


def battle() -> WarlordEncounter:
    """The text's wood elves and orcs, Morgab's goblins, human longbowmen, a melee, in
    phase eight (missile fire)."""
    return WarlordEncounter(
        name="test",
        ruleset="warlord",
        position=Position(phase=RULES.phases.index("missile fire (8)")),
        units=[
            WarlordUnit(
                id="elves",
                name="Wood elf guards",
                side="elves",
                race="wood_elf",
                weapon="elf_bow",
                armour_class="leather",
                traits=["huntmasters"],
                strength=10,
                strength_start=10,
                ranks=2,
                files=5,
                orders="fire",
                morale_class="B",
            ),
            WarlordUnit(
                id="bows",
                name="Human longbowmen",
                side="elves",
                race="human",
                weapon="long_bow",
                armour_class="leather",
                strength=15,
                strength_start=15,
                ranks=3,
                files=5,
                orders="fire",
                morale_class="C",
            ),
            WarlordUnit(
                id="orcs",
                name="Orc warband",
                side="orcs",
                race="orc",
                armour_class="chainmail",
                strength=20,
                strength_start=20,
                ranks=2,
                files=10,
                moved_cm=12,
                orders="advance",
                morale_class="C",
            ),
            WarlordUnit(
                id="gobs",
                name="Goblin archers",
                side="orcs",
                race="goblin",
                weapon="short_bow",
                armour_class="chainmail",
                strength=12,
                strength_start=12,
                ranks=1,
                files=12,
                pace=20,
                orders="advance and fire",
                morale_class="D",
            ),
            WarlordUnit(
                id="wolves",
                name="Wolf riders",
                side="orcs",
                race="goblin",
                armour_class="leather",
                strength=6,
                strength_start=6,
                mounted=True,
                kind="cavalry",
                morale_class="D",
            ),
            WarlordUnit(
                id="melee",
                name="Orc brawlers",
                side="orcs",
                race="orc",
                armour_class="none",
                strength=8,
                strength_start=8,
                engaged=True,
            ),
        ],
    )


def unit(enc, uid) -> WarlordUnit:
    return next(u for u in enc.units if u.id == uid)


def run(s: Session, line: str):
    return s.execute(line)


# --- firing -----------------------------------------------------------------------------


def test_elves_volley_is_held_on_the_orcs_and_the_counter_comes_off():
    enc = battle()
    s = Session(enc)
    out = run(s, "fire elves orcs range=medium --dice d100=23")
    assert out.resolution.figures["kills"] == 1
    assert out.resolution.figures["mfp"] == 24  # -1 moved, +3 huntmasters, +2x2 ranks
    assert "Wood elf guards fire on Orc warband" in out.message
    orcs, elves = unit(enc, "orcs"), unit(enc, "elves")
    assert (orcs.strength, orcs.held_casualties, orcs.morale_test) == (20, 1, False)
    assert (elves.figures_fired, elves.fire_targets, elves.fired, elves.orders) == (
        10,
        ["orcs"],
        True,
        "",
    )


def test_odds_before_rolling_from_the_encounter():
    enc = battle()
    s = Session(enc)
    action = RULES.action("fire")
    params = s.action_params(action, parse("fire elves orcs range=short"))
    assert params["figures"] == 10 and params["armour"] == "chainmail"
    assert dict(action.odds(params)) == pytest.approx({"2 killed": 0.6, "3 killed": 0.4})


def test_ranks_for_firing_limit_the_figures():
    enc = battle()
    s = Session(enc)
    # three ranks of five, humans fire two ranks: ten figures
    with pytest.raises(CommandError, match="only 10 figures"):
        run(s, "fire bows gobs figures=11 range=short --dice d100=1")
    out = run(s, "fire bows gobs range=long --dice d100=1")
    assert out.resolution.figures["figures"] == 10


def test_split_fire_each_figure_once_then_the_counter_comes_off():
    enc = battle()
    s = Session(enc)
    run(s, "fire bows gobs figures=6 range=short --dice d100=99")
    bows = unit(enc, "bows")
    assert (bows.figures_fired, bows.fired, bows.orders) == (6, False, "fire")
    with pytest.raises(CommandError, match="only 4 figures"):
        run(s, "fire bows orcs figures=5 range=short")
    run(s, "fire bows orcs range=short --dice d100=99")  # the four left
    bows = unit(enc, "bows")
    assert (bows.figures_fired, bows.fire_targets, bows.fired) == (10, ["gobs", "orcs"], True)
    with pytest.raises(CommandError, match="already fired"):
        run(s, "fire bows orcs figures=1 range=short")


def test_up_to_three_targets():
    enc = battle()
    enc.units.append(
        WarlordUnit(
            id="trolls",
            name="Trolls",
            side="orcs",
            race="orc",
            armour_class="plate",
            strength=3,
            strength_start=3,
        )
    )
    s = Session(enc)
    for target in ("orcs", "gobs", "wolves"):
        run(s, f"fire bows {target} figures=2 range=long done=no --seed 3")
    with pytest.raises(CommandError, match="three targets"):
        run(s, "fire bows trolls figures=2 range=long")
    run(s, "fire bows orcs figures=2 range=long done=yes --seed 3")  # a target already chosen
    assert unit(enc, "bows").fired


def test_refusals_say_why():
    enc = battle()
    s = Session(enc)
    with pytest.raises(CommandError, match="locked in combat"):
        run(s, "fire elves melee range=short")
    with pytest.raises(CommandError, match="no fire order"):
        run(s, "fire orcs elves bfp=10 range=short figures=1")
    with pytest.raises(CommandError, match="no missile weapon"):
        run(s, "setting require_fire_order=no")
        run(s, "fire orcs elves range=short")
    with pytest.raises(CommandError, match="itself"):
        run(s, "fire elves elves range=short")
    unit(enc, "gobs").charged = True
    with pytest.raises(CommandError, match="charged"):
        run(s, "fire gobs elves range=short")


def test_valid_targets_for_the_roster():
    from tracker.rules.warlord import valid_targets

    enc = battle()
    rows = valid_targets(enc, unit(enc, "elves"))
    assert [u.id for u, why in rows if why is None] == ["orcs", "gobs", "wolves"]
    assert rows[-1][0].id == "melee" and "locked in combat" in rows[-1][1]


def test_a_race_may_not_fire_a_weapon_off_its_chart():
    enc = battle()
    unit(enc, "gobs").weapon = "crossbow"
    with pytest.raises(CommandError, match="may not use it"):
        Session(enc).execute("fire gobs elves range=short")


def test_fire_is_simultaneous_units_hit_still_fire_with_every_figure():
    enc = battle()
    s = Session(enc)
    run(s, "fire elves gobs range=short named=none mods=22")  # (18 + 22) x 10 = 400%
    gobs = unit(enc, "gobs")
    assert (gobs.strength, gobs.held_casualties) == (12, 4)
    out = run(s, "fire gobs elves range=short --dice d100=100")
    assert out.resolution.figures["figures"] == 12


def test_kills_stop_at_the_figures_still_standing():
    enc = battle()
    s = Session(enc)
    run(s, "fire elves wolves range=short mods=100 --seed 1")  # far over 600%
    assert unit(enc, "wolves").held_casualties == 6
    with pytest.raises(CommandError, match="already killed"):
        run(s, "fire bows wolves range=short")


# --- end of the phase -------------------------------------------------------------------


def fire_all(s: Session) -> None:
    run(s, "fire elves orcs range=medium --dice d100=23")
    run(s, "fire bows gobs range=short --dice d100=50")  # 10 x 12% = 120%: 1 + 20% -> 1
    run(s, "fire gobs bows range=medium --dice d100=1")  # 12 x 10% / 2 = 60%: 0 + 60 -> 1


def test_endphase_waits_for_every_fire_order():
    enc = battle()
    s = Session(enc)
    run(s, "fire elves orcs range=medium --dice d100=23")
    with pytest.raises(CommandError, match="still to fire: Human longbowmen, Goblin archers"):
        run(s, "endphase")


def test_endphase_removes_held_casualties_together_and_flags_morale():
    enc = battle()
    s = Session(enc)
    fire_all(s)
    assert [unit(enc, u).held_casualties for u in ("orcs", "gobs", "bows")] == [1, 1, 1]
    before = history.state_of(enc)
    out = run(s, "endphase")
    assert out.resolution.figures["casualties"] == 3
    assert sorted(out.resolution.figures["morale_tests"]) == [
        "Goblin archers", "Human longbowmen", "Orc warband"]
    for uid, strength in (("orcs", 19), ("gobs", 11), ("bows", 14)):
        u = unit(enc, uid)
        assert (u.strength, u.held_casualties, u.casualties_turn, u.casualties_total) == (
            strength,
            0,
            1,
            1,
        )
        assert u.morale_test
    # each figure fires once per turn: what the elves fired stays to the end of the turn
    elves = unit(enc, "elves")
    assert (elves.fired, elves.figures_fired, elves.fire_targets, elves.morale_test) == (
        True,
        10,
        ["orcs"],
        False,
    )
    history.undo(enc)
    assert history.state_of(enc) == before


def test_endphase_force_forfeits_fire_orders():
    enc = battle()
    s = Session(enc)
    run(s, "fire elves orcs range=medium --dice d100=23")
    out = run(s, "endphase force=yes")
    assert out.resolution.figures["forfeit"] == ["Human longbowmen", "Goblin archers"]
    assert unit(enc, "bows").orders == "" and unit(enc, "gobs").orders == ""
    assert "did not fire: Human longbowmen, Goblin archers" in out.message


def test_holdfire_takes_the_counter_off():
    enc = battle()
    s = Session(enc)
    run(s, "holdfire bows")
    run(s, "holdfire gobs")
    run(s, "fire elves orcs range=medium --dice d100=23")
    out = run(s, "endphase")
    assert out.resolution.figures["morale_tests"] == ["Orc warband"]


def test_a_unit_wiped_out_is_removed_and_takes_no_test():
    enc = battle()
    s = Session(enc)
    run(s, "fire elves wolves range=short mods=100 --seed 1")
    out = run(s, "endphase force=yes")
    wolves = unit(enc, "wolves")
    assert (wolves.strength, wolves.removed, wolves.morale_test) == (0, True, False)
    assert out.resolution.figures["removed"][0]["wiped_out"]


def test_morale_class_thresholds_setting():
    enc = battle()
    s = Session(enc)
    run(s, "setting morale_test_when=class_threshold morale_thresholds=B:5,C:10,D:8")
    fire_all(s)
    out = run(s, "endphase")
    # orcs C lose 1/20 = 5% < 10; goblins D lose 1/12 = 8 1/3% >= 8; bows C 1/15 < 10
    assert out.resolution.figures["morale_tests"] == ["Goblin archers"]


def test_endphase_headless_with_a_missing_class():
    action = RULES.action("endphase")
    params = action.parse_params(
        {
            "held": "orcs:1:20:X,gobs:2:12:D",
            "morale_test_when": "class_threshold",
            "morale_thresholds": "D:50",
        }
    )
    res = action.resolve(params, Dice())
    assert res.figures["morale_tests"] == ["orcs"]
    assert "no threshold for class 'X'" in res.text
    with pytest.raises(RuleError, match="CLASS:PERCENT"):
        action.resolve(params.replace(morale_thresholds="D50"), Dice())
    with pytest.raises(RuleError, match="UNIT:KILLED:STRENGTH"):
        action.resolve(params.replace(held=("orcs:1",)), Dice())


def test_morale_result_clears_the_flag():
    enc = battle()
    s = Session(enc)
    fire_all(s)
    run(s, "next phase")  # every unit has fired: the casualties go, the tests are owed
    run(s, "morale orcs result=passed")
    run(s, "morale gobs result=failed")
    assert not unit(enc, "orcs").morale_test and not unit(enc, "gobs").morale_test
    assert "failed morale test" in unit(enc, "gobs").conditions


def test_every_step_undoes_exactly():
    enc = battle()
    enc.position.phase = 0  # before missile fire
    s = Session(enc)
    states = [history.state_of(enc)]
    for line in (
        "order orcs orders=fire",
        "movefire gobs terrain=1/2 moved=5",
        "next phase",
        "fire elves orcs range=medium --dice d100=23",
        "fire bows gobs range=short --dice d100=50",
        "fire gobs bows range=medium --dice d100=1",
        "holdfire orcs",
        "endphase",
        "next phase",
        "morale gobs result=failed",
    ):
        run(s, line)
        states.append(history.state_of(enc))
    for expected in reversed(states[:-1]):
        history.undo(enc)
        assert history.state_of(enc) == expected
    work, _ = history.replay(enc)
    assert history.state_of(work) == history.state_of(enc)


def test_a_new_turn_starts_movement_charges_and_fire_afresh():
    enc = battle()
    s = Session(enc)
    run(s, "movefire gobs terrain=1/2 moved=5 force=yes")
    run(s, "fire elves orcs range=medium --dice d100=23")
    run(s, "next round force")
    orcs, elves, gobs = unit(enc, "orcs"), unit(enc, "elves"), unit(enc, "gobs")
    assert gobs.moved_cm == 0 and elves.figures_fired == 0 and elves.fire_targets == []
    assert not elves.fired
    # the held casualty was removed as phase eight ended, never dropped silently
    assert (orcs.held_casualties, orcs.strength) == (0, 19)
    assert RULES.start_round is None


# --- moving and firing ------------------------------------------------------------------


def movefire(**raw):
    action = RULES.action("movefire")
    return action.resolve(action.parse_params({k: str(v) for k, v in raw.items()}), Dice())


def test_morgabs_goblins_advance_and_fire_through_scrub():
    # 20 cm, half lost to fire their short bows = 10 cm, half again in scrub = 5 cm
    res = movefire(race="goblin", weapon="short_bow", terrain="1/2")
    assert (res.figures["move"], res.figures["after_fire"], res.figures["allowance"]) == (20, 10, 5)
    res = movefire(move=20, loss="1/2")
    assert res.figures["allowance"] == 10


def test_mounted_move_a_whole_move_and_fire_but_never_charge_and_fire():
    assert movefire(move=30, mounted="yes", loss="1/2").figures["allowance"] == 30
    with pytest.raises(RuleError, match="charge and fire"):
        movefire(move=30, mounted="yes", charge="yes")


def test_moved_beyond_the_allowance_is_refused_and_moved_is_recorded():
    enc = battle()
    enc.position.phase = 0  # before missile fire
    s = Session(enc)
    with pytest.raises(CommandError, match="only 5 cm"):
        run(s, "movefire gobs terrain=1/2 moved=6")
    run(s, "movefire gobs terrain=1/2 moved=5")
    assert unit(enc, "gobs").moved_cm == 5
    run(s, "next phase")
    # firer moved: the goblins' "unit firing moved" modifier now applies by itself
    out = run(s, "fire gobs elves range=short --dice d100=1")
    assert any(
        m["name"].startswith("Unit firing moved") for m in out.resolution.figures["modifiers"]
    )


def test_thirds_of_a_move_are_kept_exact():
    res = movefire(move=20, loss="1/3")
    assert res.figures["allowance_exact"] == "40/3"
    assert "13 1/3 cm" in res.text


# --- the sample battle ------------------------------------------------------------------


def test_sample_battle_replays_the_text_example_and_ends_the_phase():
    enc = load_sample("warlord-wood-elves.toml", WarlordEncounter)
    work, replayed = history.replay(enc)
    assert history.state_of(work) == history.state_of(enc)
    assert "d100 23 misses" in replayed[-1].text and "MFP 24%" in replayed[-1].text
    assert unit(enc, "orc-warband").held_casualties == 1
    assert unit(enc, "morgab-goblin-archers").moved_cm == 5
    s = Session(enc)
    run(s, "fire human orc range=long --dice d100=1")
    run(s, "fire morgab wood range=medium --dice d100=1")
    out = run(s, "endphase")
    assert unit(enc, "orc-warband").strength <= 19
    assert "Orc warband" in out.resolution.figures["morale_tests"]


def test_a_unit_that_may_not_fire_is_greyed_before_the_form_and_may_be_forced():
    """What refuses a unit's fire as it stands (no fire order, charged, fired) is said
    where the action list asks, before any form, and the GM may force past it."""
    enc = battle()
    s = Session(enc)
    fire = s.ruleset.action("fire")
    assert s.why_not(fire, "orcs") == "Orc warband has no fire order (advance)"
    assert s.why_not(fire, "bows") == ""
    unit(enc, "gobs").charged = True
    run(s, "setting require_fire_order=no")
    assert s.why_not(fire, "gobs").endswith("charged this turn and cannot fire")
    out = run(s, "fire gobs elves range=short figures=1 force=yes --dice d100=99")
    assert "charged this turn" in out.message  # the log says what was forced past
