"""d6battle at the edges of its procedure: who acts when (a unit's shooting resolved
before the next shoots, the two units of a combat fighting it once, a flank charge's
command test first, no routed unit acting), what the rules start ending where the
sequence says (and logging it), and no more dice than figures on every path."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAVES
from tracker.core import history
from tracker.core.dice import Dice, NeedDice
from tracker.rules.d6battle import RULESET, D6Unit
from tracker.session.commands import CommandError
from tracker.session.domains import out_of_place
from tracker.session.opening import load
from tracker.session.session import Session


@pytest.fixture
def s() -> Session:
    """The sample: round 2, the French combat phase."""
    return Session(load(SAVES / "d6battle-crossbow-duel.toml"))


def unit(s: Session, name: str) -> D6Unit:
    u = s.enc.find_unit(name)
    assert isinstance(u, D6Unit)
    return u


def go_to(s: Session, side: str, phase: str) -> None:
    for _ in range(2 * len(RULESET.phases) + 1):
        where = s.play.where()
        if (where.side, where.phase) == (side, phase):
            return
        s.execute("next phase force")
    raise AssertionError(f"no {phase} phase of {side}")


def refused(s: Session, line: str) -> str:
    before = history.state_of(s.enc)
    entries = len(s.enc.log)
    with pytest.raises(CommandError) as err:
        s.execute(line)
    assert history.state_of(s.enc) == before and len(s.enc.log) == entries
    message = str(err.value)
    assert "\n" not in message
    return message


# a volley of six kills on the Foot Sergeants (18 figures: 4 casualties force a test)
VOLLEY = "shoot Longbowmen Foot --dice hit=6,6,6,6,6,6 save=1,1,1,1,1,1"


# --- "Resolve the effect before moving to your next unit" ------------------------------------


def test_a_morale_test_owed_from_shooting_blocks_the_next_units_shot(s: Session) -> None:
    go_to(s, "English", "shoot")
    s.execute(VOLLEY)
    said = refused(s, 'shoot Billmen "French Knights" weapon=javelins sa=3 --dice hit=1')
    assert said == ("morale tests first (Foot Sergeants: morale test): the rules resolve it "
                    "before the next shoot; add force=yes to take it anyway")
    s.execute("morale Foot --dice morale=3,3")
    out = s.execute('shoot Billmen "French Knights" weapon=javelins sa=3 --dice '
                    "hit=1,1,1,1,1,1")
    assert "forced" not in out.message


def test_forcing_the_next_shot_past_an_owed_test_is_logged(s: Session) -> None:
    go_to(s, "English", "shoot")
    s.execute(VOLLEY)
    out = s.execute('shoot Billmen "French Knights" weapon=javelins sa=3 force=yes --dice '
                    "hit=1,1,1,1,1,1")
    assert out.message.endswith("(forced by the GM: morale tests first (Foot Sergeants: "
                                "morale test): the rules resolve it before the next shoot)")
    assert s.enc.log[-1].resolved is not None
    assert s.enc.log[-1].resolved.forced.startswith("morale tests first")


def test_a_morale_test_skipped_by_force_ends_with_the_shoot_phase(s: Session) -> None:
    go_to(s, "English", "shoot")
    s.execute(VOLLEY)
    line = s.execute("next force").message
    assert line.startswith("morale tests skipped by the GM (Foot Sergeants: morale test); "
                           "Phase: combat")
    assert "Foot Sergeants: morale test not taken" in line
    assert not unit(s, "Foot Sergeants").morale_test
    s.execute("undo")
    assert unit(s, "Foot Sergeants").morale_test


def test_a_morale_test_is_taken_only_where_shooting_forced_one(s: Session) -> None:
    go_to(s, "English", "shoot")
    assert refused(s, "morale Billmen --dice morale=2,2") == (
        "Billmen owes no morale test (shooting casualties force one)")


# --- "Roll 1d6 per figure firing" / "Roll 1d6 per figure fighting" --------------------------


def test_no_more_dice_than_figures_on_every_path(s: Session) -> None:
    go_to(s, "English", "shoot")
    assert refused(s, "shoot Longbowmen Foot figures=13") == (
        "figures=13: Longbowmen has only 12 figures")
    # the dice step takes one die a figure firing (the front rank of 6), no more
    assert refused(s, "shoot Longbowmen Foot --dice hit=6,6,6,6,6,6,6 save=1,1,1,1,1,1") == (
        "entered dice not used: hit=6 (hit takes 6 dice here)")
    go_to(s, "English", "combat")
    assert refused(s, "combat Billmen Foot figures_a=19") == (
        "figures_a=19: Billmen has only 18 figures")
    assert refused(s, "combat Billmen Foot figures_b=19") == (
        "figures_b=19: Foot Sergeants has only 18 figures")


def test_a_save_no_die_can_fail_is_rolled_by_the_tracker_and_said(s: Session) -> None:
    """The French Knights save 7 (plate, shield, mounted, barding): 1+ against a longbow."""
    go_to(s, "English", "shoot")
    out = s.execute('shoot Longbowmen "French Knights" --dice hit=6,6,6,6,6,6')
    assert "6 saved (1+)" in out.message and "(no die can change it)" in out.message
    assert [r.source for r in s.enc.log[-1].rolls if r.role == "save"] == ["rolled"] * 6


# --- who acts in a combat ---------------------------------------------------------------------


def test_the_two_units_of_a_combat_fight_it_once_a_phase(s: Session) -> None:
    # all miss: the Billmen's rank bonus (+2) wins, the Knights hold
    s.execute('combat "French Knights" Billmen --dice hit_a=1,1,1,1 hit_b=1,1,1,1,1,1 '
              "morale=1,1")
    said = refused(s, 'combat Billmen "French Knights" --dice hit_a=1,1,1,1,1,1 hit_b=1,1,1,1')
    assert said.startswith("Billmen has already fought this phase")
    # a unit engaged by a second enemy fights that combat too
    s.execute("combat Foot Billmen --dice hit_a=1,1,1,1,1,1 hit_b=1,1,1,1,1,1 morale=1,1")


def test_a_routed_unit_neither_shoots_nor_fights(s: Session) -> None:
    assert refused(s, "combat Genoese Billmen") == (
        "Genoese Crossbowmen has routed: it does not fight")
    go_to(s, "French", "shoot")
    s.execute("next round force")
    assert refused(s, "shoot Genoese Billmen") == (
        "Genoese Crossbowmen has routed: it does not shoot")


def test_a_unit_charged_in_the_flank_takes_its_command_test_first(s: Session) -> None:
    charge = ('combat "French Knights" Billmen charge_a=yes facing_a=flank '
              "--dice hit_a=1,1,1,1 hit_b=1,1,1,1,1,1 morale=1,1")
    assert refused(s, charge) == ("Billmen was charged in the flank: its command test comes "
                                  "first (command Billmen)")
    s.execute("command Billmen --dice command=6,6")  # failed: disordered
    s.execute(charge)
    resolved = s.enc.log[-1].resolved
    assert resolved is not None and resolved.params["disordered_b"] is True


def test_the_side_with_strategic_advantage_is_named_as_the_combat_phase_begins(
        s: Session) -> None:
    go_to(s, "English", "shoot")
    assert s.execute("next").message.endswith(
        "Strategic Advantage: English selects the order of the combats")
    s.execute("setting strategic_advantage=French")
    go_to(s, "French", "shoot")
    assert s.execute("next").message.endswith(
        "Strategic Advantage: French selects the order of the combats")


# --- what the rules start ends where the sequence says ----------------------------------------


def test_shooting_casualties_count_for_morale_until_the_shoot_phase_ends(s: Session) -> None:
    go_to(s, "English", "shoot")
    s.execute("shoot Longbowmen Foot figures=2 --dice hit=6,6 save=1,1")
    assert unit(s, "Foot Sergeants").casualties_turn == 2
    line = s.execute("next").message
    assert "Foot Sergeants: shooting casualties no longer count for morale" in line
    assert unit(s, "Foot Sergeants").casualties_turn == 0


def test_having_moved_ends_with_the_units_own_sides_turn(s: Session) -> None:
    go_to(s, "English", "shoot")
    s.execute("set Longbowmen moved=yes")
    s.execute("set Genoese moved=yes")  # a French unit: its own turn is over already
    go_to(s, "English", "resolution")
    line = s.execute("next").message  # the English turn ends
    assert "Longbowmen: no longer counts as moved" in line
    assert not unit(s, "Longbowmen").moved
    assert unit(s, "Genoese Crossbowmen").moved
    go_to(s, "French", "resolution")
    assert "Genoese Crossbowmen: no longer counts as moved" in s.execute("next").message


def test_a_flight_ends_with_the_resolution_phase_and_the_unit_stays_routed(s: Session) -> None:
    go_to(s, "English", "shoot")
    s.execute(VOLLEY)
    s.execute("morale Foot --dice morale=6,6")
    assert unit(s, "Foot Sergeants").flee == "morale"
    go_to(s, "English", "resolution")
    assert s.enc.log[-1].text.endswith("flee now (move them): Foot Sergeants")
    line = s.execute("next").message
    assert "Foot Sergeants fled (routed: the text has no rally)" in line
    sergeants = unit(s, "Foot Sergeants")
    assert sergeants.flee == "" and sergeants.routed


def test_a_rout_in_combat_flees_in_the_resolution_phase_too(s: Session) -> None:
    # the Knights' 4 dice hit (no save, KA 4 vs D 4 kills on any die); the Billmen miss
    # and fail their test
    s.execute('combat "French Knights" Billmen --dice hit_a=6,6,6,6 hit_b=1,1,1,1,1,1 '
              "morale=6,6")
    billmen = unit(s, "Billmen")
    assert billmen.routed and billmen.flee == "rout"
    assert s.execute("next").message.endswith("flee now (move them): Billmen")
    assert "Billmen fled" in s.execute("next").message


def knights_win(s: Session) -> None:
    """The French Knights beat the Billmen, who hold: push & shove +1 to the Knights."""
    s.execute('combat "French Knights" Billmen --dice hit_a=6,6,6,6 hit_b=1,1,1,1,1,1 '
              "morale=1,1")


def test_push_and_shove_lasts_into_the_next_round_of_combat_and_no_further(s: Session) -> None:
    """"Side that won combat receives a +1 in the next round of combat": won in the
    French combat phase, it is there in the English one, and ends with it."""
    knights_win(s)
    assert unit(s, "French Knights").push_shove == 1
    line = s.execute("next").message  # the French combat phase ends: not the next round
    assert "push & shove" not in line and unit(s, "French Knights").push_shove == 1
    go_to(s, "English", "combat")
    assert unit(s, "French Knights").push_shove == 1
    line = s.execute("next").message  # the next round of combat is over, the bonus unused
    assert "French Knights: push & shove bonus lost (its next round of combat is over)" in line
    knights = unit(s, "French Knights")
    assert knights.push_shove == 0 and knights.push_shove_since is None
    s.execute("undo")
    assert unit(s, "French Knights").push_shove == 1


def test_push_and_shove_counts_in_the_next_combat_and_is_spent_there(s: Session) -> None:
    knights_win(s)
    go_to(s, "English", "combat")
    out = s.execute('combat "French Knights" Billmen --dice hit_a=1,1,1,1 hit_b=1,1,1,1,1,1 '
                    "morale=1,1")
    assert out.resolution is not None
    assert "push & shove +1" in out.resolution.figures["bonuses_a"]
    # the Billmen's rank bonus (+2) wins by 1: the Knights' bonus is spent, theirs is new
    assert unit(s, "French Knights").push_shove == 0
    assert unit(s, "Billmen").push_shove == 1


@pytest.mark.parametrize(("setting", "ends_in"), [
    ("combat", "French combat"), ("turn", "English resolution"), ("kept", None)])
def test_disorder_ends_where_the_setting_says(s: Session, setting: str,
                                              ends_in: str | None) -> None:
    s.execute(f"setting disorder_ends={setting}")
    s.execute("command Billmen --dice command=6,6")  # failed: disordered
    assert unit(s, "Billmen").disordered
    lines = []
    for _ in range(5):  # the French combat and resolution, the English shoot ... resolution
        where = s.play.where()
        lines.append((f"{where.side} {where.phase}", s.execute("next force").message))
    ended = [at for at, line in lines if "Billmen: no longer disordered" in line]
    assert ended == ([ends_in] if ends_in else [])
    assert unit(s, "Billmen").disordered is (ends_in is None)


def test_the_settings_name_where_the_text_is_silent() -> None:
    names = {s.name for s in RULESET.settings}
    assert {"disorder_ends", "strategic_advantage"} <= names


# --- the sample obeys the rules and holds no state past its end --------------------------------


def test_the_sample_holds_nothing_past_its_end() -> None:
    enc = load(SAVES / "d6battle-crossbow-duel.toml")
    for u in enc.units:
        assert isinstance(u, D6Unit)
        # round 2, the French combat phase: no shoot phase, no flight under way
        assert (u.morale_test, u.casualties_turn, u.flee, u.moved) == (False, 0, "", False)


def test_the_sample_replays_with_the_new_ends(tmp_path: Path) -> None:
    enc = load(SAVES / "d6battle-crossbow-duel.toml")
    rebuilt, _ = history.replay(enc)
    assert history.state_of(rebuilt) == history.state_of(enc)


def test_the_winner_whose_enemy_routs_is_no_longer_engaged(s: Session) -> None:
    s.execute('combat "French Knights" Billmen --dice hit_a=6,6,6,6 hit_b=1,1,1,1,1,1 '
              "morale=6,6")
    assert unit(s, "Billmen").routed and not unit(s, "French Knights").engaged
    # a winner still fighting another combat of this phase stays engaged
    s.execute("undo")
    s.execute('combat "French Knights" Men-at-Arms --dice hit_a=1,1,1,1 hit_b=1,1,1,1,1')
    s.execute('combat "French Knights" Billmen --dice hit_a=6,6,6,6 hit_b=1,1,1,1,1,1 '
              "morale=6,6")
    assert unit(s, "French Knights").engaged



# --- a stage no die can change is rolled by the tracker, and said ---------------------------


def stages(action: str, **raw: object) -> dict[str, bool]:
    """Each stage the action asks for (by role, the last of a role kept): whether no die
    of it can change what it decides."""
    act = RULESET.action(action)
    dice = Dice(seed=1)
    act.resolve(act.parse_params({k: str(v) for k, v in raw.items()}), dice)
    return {req.role: req.certain for req in dice.requests}


def test_a_test_no_total_can_change_is_not_asked() -> None:
    # 2d6 <= Mo: Mo 12 passes on any roll, Mo 1 fails on any; Mo 7 is the dice's
    assert stages("morale", mo=12) == {"morale": True}
    assert stages("morale", mo=1) == {"morale": True}
    assert stages("morale", mo=7) == {"morale": False}
    assert stages("command", command=12) == {"command": True}
    assert stages("command", command=0, command_dice="3d6") == {"command": True}
    assert stages("command", command=3, command_dice="3d6") == {"command": False}


def test_a_combat_losers_test_no_total_can_change_is_not_asked() -> None:
    side = {"figures_a": 4, "ca_a": 3, "ka_a": 3, "durability_a": 4,
            "figures_b": 4, "ca_b": 3, "ka_b": 3, "durability_b": 4}
    # B (8 figures, 4 fighting) loses 4 to 0 on Mo 3: its test, 2d6 <= -1, is no roll
    d = Dice(entered={"hit_a": [6] * 4, "kill_a": [6] * 4, "hit_b": [1] * 4}, mode="ask")
    combat = RULESET.action("combat")
    with pytest.raises(NeedDice) as asked:
        combat.resolve(combat.parse_params({k: str(v) for k, v in
                                            {**side, "size_b": 8, "mo_b": 3}.items()}), d)
    assert asked.value.request.role == "morale" and asked.value.request.certain


# --- a setting that names a side names one the encounter has ----------------------------------

def test_strategic_advantage_names_a_side_of_the_encounter(s: Session) -> None:
    message = refused(s, "setting strategic_advantage=Burgundians")
    assert message == ("strategic_advantage=Burgundians: name French or English, or leave "
                       "it empty")
    assert s.execute("setting strategic_advantage=english").message == (
        "Setting: strategic_advantage = English")
    assert s.enc.settings["strategic_advantage"] == "English"
    s.execute("setting strategic_advantage=")
    assert s.enc.settings["strategic_advantage"] == ""


def test_a_hand_edited_strategic_advantage_naming_no_side_fails_the_check(s: Session) -> None:
    assert out_of_place(s.enc, s.ruleset) == []
    s.enc.settings["strategic_advantage"] = "Burgundians"
    assert out_of_place(s.enc, s.ruleset) == [
        "settings.strategic_advantage=Burgundians: name French or English, or leave it "
        "empty"]
    s.enc.settings["strategic_advantage"] = "english"
    assert out_of_place(s.enc, s.ruleset) == [
        "settings.strategic_advantage=english: the side is spelled English"]
