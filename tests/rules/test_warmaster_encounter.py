"""Warmaster (WM) on an encounter: fill, apply, undo, and a whole Shooting phase.

Runs the sample battle in saves/ through the session, as the `:` line does.
"""

from __future__ import annotations

import pytest

from tests.conftest import load_sample
from tracker.core import history
from tracker.rules.warmaster import RULESET, WarmasterEncounter, WarmasterUnit
from tracker.session.commands import CommandError
from tracker.session.session import Session


@pytest.fixture
def enc() -> WarmasterEncounter:
    return load_sample("warmaster-river-crossing.toml", WarmasterEncounter)


@pytest.fixture
def session(enc: WarmasterEncounter) -> Session:
    return Session(enc)


def unit(s: Session, name: str) -> WarmasterUnit:
    u = s.enc.find_unit(name)
    assert isinstance(u, WarmasterUnit)
    return u


def test_sample_battle_loads(enc: WarmasterEncounter) -> None:
    names = {u.name for u in enc.units}
    assert {"Archers I", "Archers II", "Empire Knights"} <= names
    knights = enc.find_unit("Empire Knights")
    assert (knights.strength, knights.hits_per_stand, knights.armour) == (3, 3, 4)
    assert RULESET.phases[enc.position.phase] == "shooting"
    assert {u.side for u in enc.units} == {"High Elves", "Empire"}


def test_two_archer_units_on_empire_knights(session: Session) -> None:
    before = history.state_of(session.enc)
    out = session.execute(
        'shoot "Archers I" "Empire Knights" shooters="Archers II"'
        " --dice hit=1,2,4,5,6,6 save=2,4,5,6"
    )
    assert out.resolution is not None
    f = out.resolution.figures
    assert (f["attacks"], f["hits"], f["saved"], f["unsaved"]) == (6, 4, 3, 1)
    knights = unit(session, "Empire Knights")
    assert (knights.hits, knights.leftover_hits, knights.strength) == (1, 1, 3)
    assert knights.shot_by == ["Archers I", "Archers II"]
    assert unit(session, "Archers I").shot and unit(session, "Archers II").shot
    history.undo(session.enc)
    assert history.state_of(session.enc) == before


def test_hits_accumulate_over_the_phase(session: Session) -> None:
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,4,1 save=1,1')
    knights = unit(session, "Empire Knights")
    assert (knights.hits, knights.leftover_hits, knights.strength) == (2, 2, 3)
    session.execute('shoot "Archers II" "Empire Knights" --dice hit=4,4,1 save=1,1')
    knights = unit(session, "Empire Knights")
    assert (knights.hits, knights.leftover_hits, knights.strength) == (4, 1, 2)
    assert (knights.casualties_turn, knights.casualties_total) == (1, 1)


def test_stands_in_range_given_by_the_gm(session: Session) -> None:
    out = session.execute(
        'shoot "Archers I" "Empire Knights" shooters="Bolt Thrower" in_range=2,1 --dice hit=1,1,1,1'
    )
    assert out.resolution is not None
    assert out.resolution.figures["attacks"] == 2 * 1 + 1 * 2


def test_whole_shooting_phase_three_shooters_two_targets(session: Session) -> None:
    enc = session.enc
    start = history.state_of(enc)
    session.execute(
        'shoot "Archers I" "Empire Knights" shooters="Archers II"'
        " --dice hit=1,2,4,5,6,6 save=2,4,5,6"
    )
    # Halberdiers: one stand outside the wall is shot at 4+ first (3 hits clear it)
    out = session.execute('shoot "Bolt Thrower" Halberdiers --dice hit=4,5,6,6 save=1,2,6,1')
    assert out.resolution is not None
    f = out.resolution.figures
    assert [b["to_hit"] for b in f["batches"]] == [4, 4]
    assert f["stands_removed"] == 1
    halb = unit(session, "Halberdiers")
    assert (halb.strength, halb.exposed, halb.hits, halb.leftover_hits) == (2, 0, 3, 0)

    out = session.execute("endphase order=Halberdiers --dice drive=5,3,6")
    assert out.resolution is not None
    assert [u["unit"] for u in out.resolution.figures["units"]] == [
        "Halberdiers",
        "Empire Knights",
    ]
    halb = unit(session, "Halberdiers")
    knights = unit(session, "Empire Knights")
    # defended: three hits roll two dice
    assert (halb.driven_back, halb.confused, halb.strength) == (8, False, 2)
    assert (knights.driven_back, knights.confused, knights.leftover_hits) == (6, True, 1)
    assert knights.strength == 3 and not knights.routed
    assert "Empire Knights driven back 6 = 6 cm: confused" in out.message
    # the phase's end discounts the odd hits and clears the phase's marks
    out = session.execute("next phase")
    assert "Empire Knights: odd hits discounted" in out.message
    for u in enc.units:
        assert u.hits == 0 and u.leftover_hits == 0
        assert not u.shot and u.shot_by == [] and not u.drive_back_done
    assert unit(session, "Empire Knights").confused  # until its own following turn

    for _ in range(4):
        history.undo(enc)
    assert history.state_of(enc) == start


def test_drive_back_routs_when_above_full_pace(session: Session) -> None:
    session.execute('shoot "Archers I" "Great Cannon" --dice hit=4,4,4')
    cannon = unit(session, "Great Cannon")
    assert (cannon.strength, cannon.hits, cannon.leftover_hits) == (1, 3, 1)
    out = session.execute('driveback "Great Cannon" --dice drive=5,4,2')
    assert out.resolution is not None and out.resolution.outcome == "routed"
    cannon = unit(session, "Great Cannon")
    assert cannon.routed and cannon.removed and cannon.driven_back == 0
    with pytest.raises(CommandError, match="no longer"):
        session.execute('shoot "Archers II" "Great Cannon"')


def test_single_driveback_then_endphase_skips_it(session: Session) -> None:
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,4,1 save=1,1')
    session.execute('driveback "Empire Knights" --dice drive=3,4')
    knights = unit(session, "Empire Knights")
    assert (knights.driven_back, knights.drive_back_done) == (7, True)
    with pytest.raises(CommandError, match="already"):
        session.execute('driveback "Empire Knights"')
    out = session.execute("endphase")
    assert out.resolution is not None and out.resolution.figures["units"] == []
    assert unit(session, "Empire Knights").driven_back == 7


def test_once_the_drive_backs_are_worked_out_the_shooting_is_over(session: Session) -> None:
    """Said where the action list asks, before any form; the GM may force past it."""
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,4,1 save=1,1')
    shoot = session.ruleset.action("shoot")
    assert session.why_not(shoot, unit(session, "Archers II").id) == ""
    session.execute("endphase --dice drive=3,4")
    over = "the drive backs are worked out: the shooting of this phase is over"
    assert session.why_not(shoot, unit(session, "Archers II").id) == over
    with pytest.raises(CommandError, match=over):
        session.execute('shoot "Archers II" "Halberdiers" --dice hit=4 save=1')
    out = session.execute('shoot "Archers II" "Halberdiers" force=yes --dice hit=1,1,1')
    assert "shooting of this phase is over" in out.message  # the log says what was forced


def charge_phase(session: Session) -> None:
    """The Empire's movement phase: its knights charge the archers."""
    session.enc.position.side = 1
    session.enc.position.phase = RULESET.phases.index("movement")


def test_shooting_at_charging_knights(session: Session) -> None:
    charge_phase(session)
    out = session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,6 save=1,2,3')
    assert out.resolution is not None
    f = out.resolution.figures
    assert (f["charging"], f["stands_removed"], f["carried"]) == (True, 1, 3)
    knights = unit(session, "Empire Knights")
    assert (knights.strength, knights.carried_hits, knights.hits) == (2, 3, 0)
    assert "carried into the first combat round" in out.message
    session.execute("next phase")  # the Empire's shooting: the knights are not driven back
    assert session.execute("endphase").resolution.figures["units"] == []  # type: ignore[union-attr]
    session.execute("next phase")
    knights = unit(session, "Empire Knights")
    assert knights.driven_back == 0 and knights.carried_hits == 3


def test_two_hits_on_chargers_stay_outstanding_into_the_first_combat_round(
        session: Session) -> None:
    """Seed 004: "the Knights start the combat with two hits outstanding": kept past the
    Shooting phase, counted in the combat phase, ended with it."""
    charge_phase(session)
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
    knights = unit(session, "Empire Knights")
    assert (knights.strength, knights.carried_hits, knights.leftover_hits) == (3, 2, 0)
    session.execute("next phase")
    session.execute("next phase")  # the Empire's combat phase
    assert unit(session, "Empire Knights").carried_hits == 2
    out = session.execute("next phase")  # its end: the first combat round is fought
    assert "Empire Knights: hits carried into the first combat round counted" in out.message
    assert unit(session, "Empire Knights").carried_hits == 0


def test_a_second_charge_shot_counts_the_odd_hits_already_carried(session: Session) -> None:
    charge_phase(session)
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
    out = session.execute('shoot "Archers II" "Empire Knights" --dice hit=4,1,1 save=1')
    assert out.resolution.figures["stands_removed"] == 1  # type: ignore[union-attr]
    assert unit(session, "Empire Knights").carried_hits == 3


@pytest.mark.parametrize(("phase", "line", "reason"), [
    ("shooting", 'shoot "Archers I" "Empire Knights" charging=yes', "enemy's movement phase"),
    ("movement", 'shoot "Archers I" "Empire Knights" charging=no', "only at chargers"),
])
def test_shooting_at_chargers_only_as_they_charge(session: Session, phase: str, line: str,
                                                  reason: str) -> None:
    if phase == "movement":
        charge_phase(session)
    before = history.state_of(session.enc)
    with pytest.raises(CommandError, match=reason):
        session.execute(line)
    assert history.state_of(session.enc) == before


def test_engaged_target_refused_with_reason(session: Session) -> None:
    unit(session, "Empire Knights").engaged = True
    with pytest.raises(CommandError, match="engaged in combat.*not a valid target"):
        session.execute('shoot "Archers I" "Empire Knights"')
    assert session.enc.log == []
    # a spell may still hit it; at the end of the phase its hits go into the combat
    session.execute('shoot "Archers I" "Empire Knights" magic=yes --dice hit=6,6,1 save=1,1')
    session.execute("endphase")
    knights = unit(session, "Empire Knights")
    assert (knights.carried_hits, knights.driven_back) == (2, 0)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('shoot "Archers I" "Archers II"', "same side"),
        ('shoot Spearmen "Empire Knights"', "no shooting attacks"),
        ('shoot "Archers I" "Empire Knights" in_range=4', "only 3 stands"),
        ('shoot "Archers I" "Empire Knights" in_range=1,2', "2 numbers for 1"),
        ('shoot "Archers I" Nobody', "^no unit named 'Nobody'$"),
        ("shoot Arch Handgunners", "^'Arch' matches several: Archers I, Archers II$"),
    ],
)
def test_refusals(session: Session, line: str, reason: str) -> None:
    with pytest.raises(CommandError, match=reason):
        session.execute(line)


def test_the_log_names_every_shooter_in_full_as_the_encounter_has_it(session: Session) -> None:
    out = session.execute('shoot "Archers I" Handg shooters=archers-ii --dice hit=6,5,4,4,4,4')
    assert out.message.startswith("Archers I, Archers II shoot Handgunners: 6 dice")
    assert session.enc.log[-1].resolved.params["shooters"] == ["Archers II"]


def test_engaged_shooter_only_at_chargers_with_free_stands(session: Session) -> None:
    unit(session, "Archers I").engaged = True
    with pytest.raises(CommandError, match="only shoot at units charging it"):
        session.execute('shoot "Archers I" "Empire Knights"')
    charge_phase(session)
    with pytest.raises(CommandError, match="in_range"):
        session.execute('shoot "Archers I" "Empire Knights" charging=yes')
    out = session.execute('shoot "Archers I" "Empire Knights" charging=yes in_range=1 --dice hit=2')
    assert out.resolution is not None and out.resolution.figures["attacks"] == 1


def test_setting_split_batches_reaches_the_shot(session: Session) -> None:
    session.execute("setting split_batches=no")
    out = session.execute('shoot "Bolt Thrower" Halberdiers --dice hit=4,4,4,4 save=1,1,1,1')
    assert out.resolution is not None
    assert "batches" not in out.resolution.figures
    assert out.resolution.figures["unsaved"] == 4


def test_a_new_round_counts_the_turns_casualties_afresh(session: Session) -> None:
    knights = unit(session, "Empire Knights")
    knights.casualties_turn, knights.casualties_total = 1, 1
    session.execute("next round")
    knights = unit(session, "Empire Knights")
    assert (knights.casualties_turn, knights.casualties_total) == (0, 1)
    assert RULESET.start_round is None  # what ends at a round's end is a lifetime


def test_describe_unit(enc: WarmasterEncounter) -> None:
    assert RULESET.describe_unit is not None
    text = RULESET.describe_unit(enc.find_unit("Halberdiers"))
    assert "3/3 stands" in text and "A 3/0" in text and "defended, 1 exposed" in text


def test_the_end_of_a_phase_whose_only_target_was_destroyed_says_no_unit_in_play_was_hit(
    tmp_path,
):
    session = Session(WarmasterEncounter(name="t", ruleset="warmaster"), tmp_path / "t.toml")
    session.execute("add unit Archers side=Elves strength=3 shoot_attacks=1")
    session.execute("add unit Orcs side=Orcs strength=3 armour=6")
    session.execute("next phase")
    session.execute("next phase")  # the Elves' shooting phase
    session.execute("shoot Archers Orcs --dice hit=4,5,6 save=1,1,1")
    assert session.enc.find_unit("Orcs").removed
    outcome = session.execute("endphase")
    assert session.enc.log[-1].text == (
        "End of shooting: no unit in play took hits this phase"
    ), outcome
