"""d6battle on an encounter: fill from the roster, casualties applied, morale tests queued
and resolved, combat results, routs, command tests, undo, the new turn, the sample save.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.conftest import load_sample
from tracker.core import history
from tracker.rules.d6battle import RULESET, D6Encounter, D6Unit
from tracker.rules.d6battle.actions.combat_fill import ranks_of_six
from tracker.session.commands import CommandError
from tracker.session.session import Session


@pytest.fixture
def enc() -> D6Encounter:
    return load_sample("d6battle-crossbow-duel.toml", D6Encounter)


@pytest.fixture
def session(enc: D6Encounter) -> Session:
    return Session(enc)


def to_shoot_phase(s: Session, side: str = "English") -> None:
    """Move on to ``side``'s Shoot phase: the side whose turn it is shoots (the sample
    stands in the French turn's Combat phase)."""
    for _ in range(2 * len(RULESET.phases)):
        where = s.play.where()
        if (where.phase, where.side) == ("shoot", side):
            return
        s.execute("next phase")
    raise AssertionError(f"no Shoot phase of {side}")


def unit(s: Session, name: str) -> D6Unit:
    u = s.enc.find_unit(name)
    assert isinstance(u, D6Unit)
    return u


# --- the sample battle ------------------------------------------------------------------


def test_sample_loads_and_replays(enc: D6Encounter) -> None:
    assert enc.ruleset == "d6battle"
    assert RULESET.phases[enc.position.phase] == "combat"
    work, replayed = history.replay(enc)
    assert len(replayed) == 10
    assert history.state_of(work) == history.state_of(enc)


def test_sample_history_is_the_issue_volley_then_a_rout(enc: D6Encounter) -> None:
    first = enc.log[0]
    assert "3 hits, 1 saved" in first.text and "1 killed" in first.text
    assert [r.value for r in first.rolls if r.role == "hit"] == [1, 4, 5, 6, 6]
    mam = enc.find_unit("Men-at-Arms")
    # the sample stands in round 2: this turn's casualties start again
    assert (mam.strength, mam.casualties_turn, mam.casualties_total) == (5, 0, 1)
    genoese = enc.find_unit("Genoese Crossbowmen")
    assert isinstance(genoese, D6Unit)
    # failed its morale test, fled in the English resolution phase: routed, no longer fleeing
    assert genoese.strength == 7 and genoese.routed and genoese.flee == ""
    assert not genoese.morale_test
    assert enc.log[8].text.endswith("Genoese Crossbowmen fled (routed: the text has no rally)")


def test_undo_the_whole_sample_restores_the_start(enc: D6Encounter) -> None:
    while history.undo(enc) is not None:
        pass
    assert all(u.strength == u.strength_start for u in enc.units)
    assert not any(u.routed or u.morale_test for u in enc.units)


# --- shooting in the encounter ----------------------------------------------------------


def test_shoot_fills_from_the_roster_and_queues_a_morale_test(session: Session) -> None:
    to_shoot_phase(session)
    before = history.state_of(session.enc)
    # Longbowmen: front rank of 6, SA 3 (4+), at the Foot Sergeants (save 2, AP 1: 6+)
    out = session.execute(
        "shoot Longbowmen Foot --dice hit=4,4,4,4,6,1 save=1,2,3,4,5 kill=1,2,3,4,5"
    )
    f = out.resolution.figures
    assert f["shots"] == 6 and f["needed"] == 4 and f["hits"] == 5
    assert f["ap"] == 1 and f["save"] == 2 and f["save_needed"] == 6 and f["saved"] == 0
    assert f["kill_needed"] == 1 and f["kills"] == 5
    assert f["morale_casualties"] == 4 and f["morale_test"] is True  # 18 figures: 4
    sergeants = unit(session, "Foot Sergeants")
    assert (sergeants.strength, sergeants.casualties_turn, sergeants.casualties_total) == (
        13, 5, 5)
    assert sergeants.morale_test
    assert "MORALE TEST" in RULESET.describe_unit(sergeants)
    session.execute("undo")
    assert history.state_of(session.enc) == before


def test_casualties_add_up_over_the_turn(session: Session) -> None:
    to_shoot_phase(session)
    session.execute("shoot Longbowmen Foot figures=2 --dice hit=6,6 save=1,1 kill=1,1")
    sergeants = unit(session, "Foot Sergeants")
    assert sergeants.casualties_turn == 2 and not sergeants.morale_test
    # the Longbowmen have shot this phase: the GM forces the further volleys
    out = session.execute(
        "shoot Longbowmen Foot figures=2 force=yes --dice hit=6,6 save=1,1 kill=1,1")
    f = out.resolution.figures
    assert f["casualties"] == 4 and f["morale_test"] is True
    assert unit(session, "Foot Sergeants").morale_test
    out = session.execute("shoot Longbowmen Foot figures=1 force=yes --dice hit=6 save=1 kill=1")
    assert out.resolution.figures["morale_test"] is False  # already reached this turn


def test_new_turn_resets_the_shooting_casualty_count(session: Session) -> None:
    to_shoot_phase(session)
    session.execute("shoot Longbowmen Foot figures=2 --dice hit=6,6 save=1,1 kill=1,1")
    session.execute("next round")
    sergeants = unit(session, "Foot Sergeants")
    assert sergeants.casualties_turn == 0 and sergeants.casualties_total == 2
    to_shoot_phase(session)
    out = session.execute("shoot Longbowmen Foot figures=2 --dice hit=6,6 save=1,1 kill=1,1")
    assert out.resolution.figures["morale_test"] is False
    assert out.resolution.figures["casualties"] == 2


def test_battle_setting_counts_all_casualties(session: Session) -> None:
    session.execute("setting shooting_casualties=battle")
    to_shoot_phase(session)
    session.execute("shoot Longbowmen Foot figures=2 --dice hit=6,6 save=1,1 kill=1,1")
    session.execute("next round")
    to_shoot_phase(session)
    out = session.execute("shoot Longbowmen Foot figures=2 --dice hit=6,6 save=1,1 kill=1,1")
    assert out.resolution.figures["casualties"] == 4
    assert out.resolution.figures["morale_test"] is True


def test_moved_shooter_fills_moving(session: Session) -> None:
    to_shoot_phase(session, "French")
    session.execute("set Genoese routed=no moved=yes")
    with pytest.raises(CommandError, match="no move & shoot"):
        session.execute("shoot Genoese Billmen")
    to_shoot_phase(session)
    session.execute("set Longbowmen moved=yes")
    out = session.execute("shoot Longbowmen Billmen --dice hit=1,1,1,1,1,1")
    assert out.resolution.figures["modifiers"] == ["moving -1"]


def test_refused_shot_changes_nothing(session: Session) -> None:
    to_shoot_phase(session)
    before = history.state_of(session.enc)
    with pytest.raises(CommandError, match="no long range"):
        session.execute("shoot Longbowmen Billmen weapon=javelins range=long")
    assert history.state_of(session.enc) == before


def test_target_wiped_out_is_removed(session: Session) -> None:
    to_shoot_phase(session)
    out = session.execute(
        "shoot Longbowmen Men-at-Arms figures=6 sa=9 --dice hit=6,6,6,6,6,6 "
        "save=1,1,1,1,1,1 kill=6,6,6,6,6,6"
    )
    assert out.resolution.figures["kills"] == 5
    mam = unit(session, "Men-at-Arms")
    assert mam.strength == 0 and mam.removed and not mam.morale_test


# --- morale and command actions ---------------------------------------------------------


def test_queued_morale_test_passed(session: Session) -> None:
    to_shoot_phase(session)
    session.execute("shoot Longbowmen Foot figures=4 --dice hit=6,6,6,6 save=1,1,1,1 kill=1,1,1,1")
    assert unit(session, "Foot Sergeants").morale_test
    out = session.execute("morale Foot --dice morale=3,4")
    assert out.resolution.figures["passed"] and out.resolution.figures["mo"] == 7
    sergeants = unit(session, "Foot Sergeants")
    assert not sergeants.morale_test and not sergeants.routed


def test_queued_morale_test_failed_flees(session: Session) -> None:
    to_shoot_phase(session)
    session.execute("shoot Longbowmen Foot figures=4 --dice hit=6,6,6,6 save=1,1,1,1 kill=1,1,1,1")
    before = history.state_of(session.enc)
    out = session.execute("morale Foot --dice morale=4,4")
    assert out.resolution.outcome == "failed"
    assert "flees in the resolution phase" in out.resolution.text
    sergeants = unit(session, "Foot Sergeants")
    assert sergeants.routed and sergeants.flee == "morale" and not sergeants.morale_test
    assert "FLEES" in RULESET.describe_unit(sergeants)
    session.execute("undo")
    assert history.state_of(session.enc) == before


def test_morale_dice_setting_in_the_encounter(session: Session) -> None:
    session.execute("setting morale_dice=1d6")
    to_shoot_phase(session)
    session.execute("set Billmen morale_test=yes")
    out = session.execute("morale Billmen --dice morale=6")
    assert out.resolution.figures["morale_dice"] == "1d6" and out.resolution.figures["passed"]


def test_morale_odds() -> None:
    action = RULESET.action("morale")
    rows = dict(action.odds(action.parse_params({"mo": "7", "morale_dice": "2d6"})))
    assert rows["passed"] == pytest.approx(21 / 36)
    assert sum(rows.values()) == pytest.approx(1)


def test_flank_charge_command_test(session: Session) -> None:
    out = session.execute("command Billmen --dice command=5,2")
    assert out.resolution.figures["passed"] and not unit(session, "Billmen").disordered
    out = session.execute("command Billmen --dice command=6,2")
    assert out.resolution.outcome == "disordered"
    assert unit(session, "Billmen").disordered
    action = RULESET.action("command")
    rows = dict(action.odds(action.parse_params({"command": "7", "command_dice": "2d6"})))
    assert rows["disordered"] == pytest.approx(15 / 36)


# --- combat in the encounter ------------------------------------------------------------


def test_combat_fills_both_units(session: Session) -> None:
    params = RULESET.action("combat").fill(session.enc, {"actor": "French Knights",
                                                         "target": "Billmen"})
    assert params["figures_a"] == 4 and params["size_a"] == 8
    assert params["save_a"] == 7 and params["kind_a"] == "cavalry"
    assert params["formation_a"] == "drilled" and params["ranks_a"] == 0  # files 4
    assert params["figures_b"] == 6 and params["ranks_b"] == 3 and params["save_b"] == 1


def test_ranks_of_six() -> None:
    u = D6Unit(id="u", name="U", strength=17, files=6)
    assert ranks_of_six(u) == 2
    u = D6Unit(id="u", name="U", strength=18, files=6)
    assert ranks_of_six(u) == 3
    u = D6Unit(id="u", name="U", strength=20, files=5)
    assert ranks_of_six(u) == 0
    u = D6Unit(id="u", name="U", strength=24, ranks=3)
    assert ranks_of_six(u) == 3


def test_knights_charge_billmen_and_rout_them(session: Session) -> None:
    before = history.state_of(session.enc)
    # Knights: 4 figures, CA 4 (3+): 4 hits; Billmen save 1 - AP 1: none; KA 4 vs D 4: all
    # Billmen: 6 figures, CA 3 (4+): 3 hits; knights save 7: 1+ saves all.
    out = session.execute(
        'combat "French Knights" Billmen charge_a=yes '
        "--dice hit_a=3,4,5,6 kill_a=1,2,3,4 hit_b=1,2,3,4,5,6 save_a=1,1,1 morale=6,6"
    )
    f = out.resolution.figures
    assert (f["kills_a"], f["kills_b"], f["saved_a"]) == (4, 0, 3)
    assert f["bonuses_a"] == ["impact +1"]  # cavalry: no rank bonus
    assert f["bonuses_b"] == ["rank +2"]
    assert (f["score_a"], f["score_b"], f["result"], f["loser"]) == (5, 2, 3, "b")
    assert f["morale_needed"] == 4 and f["loser_outcome"] == "routs"
    billmen = unit(session, "Billmen")
    assert billmen.strength == 14 and billmen.routed and billmen.flee == "rout"
    assert billmen.casualties_total == 4 and billmen.casualties_turn == 0
    assert "ROUTED" in RULESET.describe_unit(billmen)
    knights = unit(session, "French Knights")
    assert not knights.engaged and knights.push_shove == 0  # the Billmen have fled
    session.execute("undo")
    assert history.state_of(session.enc) == before


def test_winner_carries_push_and_shove_into_the_next_round(session: Session) -> None:
    session.execute(
        'combat "French Knights" Billmen charge_a=yes '
        "--dice hit_a=3,4,5,6 kill_a=1,2,3,4 hit_b=1,2,3,4,5,6 save_a=1,1,1 morale=2,2"
    )
    assert unit(session, "French Knights").push_shove == 1
    assert not unit(session, "Billmen").routed
    params = RULESET.action("combat").fill(session.enc, {"actor": "French Knights",
                                                         "target": "Billmen"})
    assert params["push_a"] == 1 and params["push_b"] == 0


def test_destroyed_when_engaged_on_two_facings(session: Session) -> None:
    session.execute(
        'combat "French Knights" Billmen charge_a=yes facings_b=2 '
        "--dice hit_a=3,4,5,6 kill_a=1,2,3,4 hit_b=1,2,3,4,5,6 save_a=1,1,1 morale=6,6"
    )
    billmen = unit(session, "Billmen")
    assert billmen.removed and billmen.routed


def test_unit_wiped_out_in_combat_is_removed(session: Session) -> None:
    session.execute('set "Genoese Crossbowmen" strength=2 routed=no')
    out = session.execute(
        'combat Men-at-Arms "Genoese Crossbowmen" figures_a=2 ca_a=9 '
        "--dice hit_a=6,6 save_b=1,1 kill_a=6,6 hit_b=1,1"
    )
    f = out.resolution.figures
    assert f["left_b"] == 0 and f["loser_outcome"] == "destroyed" and f["morale"] is None
    genoese = unit(session, "Genoese Crossbowmen")
    assert genoese.strength == 0 and genoese.removed and not genoese.engaged
    assert not unit(session, "Men-at-Arms").engaged  # no enemy left in that combat


def test_combat_without_a_target_is_refused(session: Session) -> None:
    with pytest.raises(CommandError):
        session.execute('combat "French Knights" --dice hit_a=1')


# --- the unit model ---------------------------------------------------------------------


def test_unit_save_is_the_sum_of_its_parts() -> None:
    u = D6Unit(id="k", name="K", armour_parts=["plate-armor", "shield", "mounted"])
    assert u.save == 6


def test_unit_rejects_unknown_armour_and_weapon() -> None:
    with pytest.raises(ValidationError):
        D6Unit(id="k", name="K", armour_parts=["mithril"])
    with pytest.raises(ValidationError):
        D6Unit(id="k", name="K", weapon="musket")
    assert D6Unit(id="k", name="K", weapon="Light-Crossbow").weapon == "light-crossbow"


def test_ruleset_shape() -> None:
    assert set(RULESET.actions) == {"shoot", "combat", "morale", "command"}
    assert RULESET.unit_model is D6Unit
    assert "roster" in RULESET.panes
    names = {s.name for s in RULESET.settings}
    assert {"morale_dice", "natural_one", "shooting_casualties"} <= names
    morale = RULESET.setting_spec("morale_dice")
    assert morale.default == "2d6" and "Mo" in morale.help


def test_the_resolution_phase_names_the_units_that_flee_as_it_begins(session: Session) -> None:
    """Step 5 of resolving shooting: a unit that failed its test flees in the resolution
    phase; then it has fled (routed: the text has no rally)."""
    to_shoot_phase(session)
    session.execute("shoot Longbowmen Foot --dice hit=6,6,6,6,6,6 save=1,1,1,1,1,1")
    session.execute("morale Foot --dice morale=6,6")
    assert unit(session, "Foot Sergeants").flee == "morale"
    session.execute("next phase")  # the English combat
    session.execute("next phase")
    assert session.play.where().phase == "resolution"
    assert session.enc.log[-1].text == "Phase: resolution; flee now (move them): Foot Sergeants"
    line = session.execute("next phase").message  # round 3: the resolution phase has ended
    assert "Foot Sergeants fled (routed: the text has no rally)" in line
    sergeants = unit(session, "Foot Sergeants")
    assert sergeants.flee == "" and sergeants.routed
    session.execute("undo")
    assert unit(session, "Foot Sergeants").flee == "morale"
