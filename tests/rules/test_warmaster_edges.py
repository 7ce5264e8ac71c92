"""Warmaster at the edges of its sequence of play (issue 26, seed 004): what the rules
start ends where they say, forcing past the drive backs does what the phase's end does
anyway, and who may shoot when."""

from __future__ import annotations

import pytest

from tests.conftest import SAVES
from tracker.core import history
from tracker.core.dice import Dice, DiceError
from tracker.rules.warmaster import RULESET, WarmasterUnit
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session


@pytest.fixture
def session() -> Session:
    """The sample: the High Elves' shooting phase of round 1; the Empire's turn follows."""
    return Session(load(SAVES / "warmaster-river-crossing.toml"))


def unit(s: Session, name: str) -> WarmasterUnit:
    u = s.enc.find_unit(name)
    assert isinstance(u, WarmasterUnit)
    return u


def where(s: Session) -> tuple[int, str, str]:
    pos = s.enc.position
    side = ["High Elves", "Empire"][pos.side]
    return pos.round, side, RULESET.phases[pos.phase]


def confuse_the_knights(s: Session) -> None:
    s.execute('shoot "Archers I" "Empire Knights" --dice hit=4,4,1 save=1,1')
    s.execute('driveback "Empire Knights" --dice drive=6,1')
    assert unit(s, "Empire Knights").confused


# --- confusion: "unable to move in their following turn" ---------------------------------


def test_confusion_lasts_through_the_units_following_turn_and_ends_with_it(session):
    confuse_the_knights(session)
    session.execute("next phase")  # the High Elves' combat
    session.execute("next phase")  # the Empire's turn: its command phase
    assert where(session) == (1, "Empire", "command")
    assert unit(session, "Empire Knights").confused
    out = session.execute("next phase")  # its movement phase: the knights may not move
    assert "Confused, no move this turn: Empire Knights" in out.message
    session.execute("next phase")
    session.execute("next phase")  # the Empire's combat phase
    assert unit(session, "Empire Knights").confused
    out = session.execute("next phase")  # the end of the Empire's turn
    assert where(session) == (2, "High Elves", "command")
    assert "Empire Knights: no longer confused" in out.message
    assert not unit(session, "Empire Knights").confused
    history.undo(session.enc)
    assert unit(session, "Empire Knights").confused


def test_confusion_ends_with_the_next_movement_phase_when_the_setting_says_so(session):
    session.execute("setting confusion_ends=movement")
    confuse_the_knights(session)
    session.execute("next phase")
    session.execute("next phase")
    session.execute("next phase")  # the Empire's movement phase
    assert unit(session, "Empire Knights").confused
    out = session.execute("next phase")
    assert "Empire Knights: no longer confused" in out.message
    assert where(session) == (1, "Empire", "shooting")


def test_the_end_of_confusion_is_a_setting_the_gm_sees(session):
    assert "confusion_ends" in session.settings_text()
    with pytest.raises(CommandError, match="own_turn, movement"):
        session.execute("setting confusion_ends=never")


def test_a_confused_unit_stays_confused_when_its_turn_is_skipped_to_the_round_end(session):
    confuse_the_knights(session)
    out = session.execute("next round force")
    assert "Empire Knights: no longer confused" in out.message


# --- forcing past the drive backs ----------------------------------------------------------


def test_forcing_past_the_drive_backs_discounts_the_odd_hits_and_says_what_was_owed(session):
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,4,1 save=1,1')
    out = session.execute("next force")
    assert out.message.startswith(
        "drive backs skipped by the GM (Empire Knights: 2 hits to drive back)")
    assert "Empire Knights: odd hits discounted" in out.message
    knights = unit(session, "Empire Knights")
    assert (knights.hits, knights.leftover_hits, knights.shot_by, knights.driven_back) == (
        0, 0, [], 0)
    assert not unit(session, "Archers I").shot


def test_odd_hits_forced_past_do_not_block_the_other_sides_shooting_phase(session):
    """Seed 004: hits "are not recorded from one phase to another or from one turn to the
    next": the Empire's own shooting phase ends without a drive back owed."""
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,4,1 save=1,1')
    session.execute("next force")
    for _ in range(3):
        session.execute("next phase")
    assert where(session) == (1, "Empire", "shooting")
    out = session.execute("next phase")
    assert out.pending is None, out.message
    assert where(session) == (1, "Empire", "combat")


def test_the_drive_backs_rolled_with_next_then_the_phase_ends(session):
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,4,1 save=1,1')
    session.execute('shoot "Bolt Thrower" Halberdiers --dice hit=4,5,6,6 save=1,2,6,1')
    out = session.execute("next --dice drive=3,2,4,1")
    assert "Empire Knights driven back" in out.message and "Halberdiers" in out.message
    assert unit(session, "Empire Knights").hits == 0
    assert where(session) == (1, "High Elves", "combat")


# --- who shoots when -----------------------------------------------------------------------


def test_a_unit_shoots_once_in_its_turn(session):
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=1,1,1')
    before = history.state_of(session.enc)
    with pytest.raises(CommandError, match="already shot"):
        session.execute('shoot "Archers I" Halberdiers --dice hit=1,1,1')
    assert history.state_of(session.enc) == before


@pytest.mark.parametrize("phase", ["command", "combat"])
def test_no_shooting_in_the_command_or_combat_phase(session, phase):
    session.enc.position.phase = RULESET.phases.index(phase)
    with pytest.raises(CommandError, match=f"not in the {phase} phase"):
        session.execute('shoot "Archers I" "Empire Knights"')


def test_shooting_at_chargers_is_in_the_enemys_turn(session):
    session.enc.position.phase = RULESET.phases.index("movement")  # the elves' own move
    with pytest.raises(CommandError, match="other side's turn"):
        session.execute('shoot "Archers I" "Empire Knights" --dice hit=1,1,1')


def test_once_the_drive_backs_are_worked_out_the_shooting_is_over(session):
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,4,1 save=1,1')
    session.execute("endphase --dice drive=3,2")
    with pytest.raises(CommandError, match="drive backs are worked out"):
        session.execute('shoot "Archers II" Halberdiers')


def test_a_unit_not_hit_is_not_driven_back(session):
    with pytest.raises(CommandError, match="took no hits"):
        session.execute('driveback "Empire Knights" --dice drive=3')


def test_a_drive_back_that_routs_whatever_the_dice_show_is_not_asked():
    """"If the Drive back dice roll is greater than the unit's full pace movement
    distance ... the entire unit is removed": five dice drive a pace of 4 beyond it even
    at all 1s, so no die can change the rout; three dice against a pace of 20 can."""
    driveback = RULESET.action("driveback")
    dice = Dice(mode="strict", entered={"unused": []})
    res = driveback.resolve(driveback.parse_params({"hits": "5", "pace": "4"}), dice)
    assert dice.requests[0].certain and res.outcome == "routed"
    assert [r.source for r in res.rolls] == ["rolled"] * 5
    with pytest.raises(DiceError, match="drive: stage 1 needs 3 d6"):
        driveback.resolve(driveback.parse_params({"hits": "3", "pace": "20"}),
                          Dice(mode="strict", entered={"unused": []}))


def test_no_more_stands_exposed_than_the_unit_has_nor_odd_hits_of_a_whole_stand(session):
    """"Unprotected stands must be removed as casualties first"; "once a unit has taken
    a number of hits equal to its Hits value, remove a stand": the Halberdiers (3 stands,
    Hits 3) have at most 3 stands exposed and 2 odd hits, on every path."""
    before = history.state_of(session.enc)
    for line, said in (
        ("set Halberdiers exposed=4", "exposed=4: must be at most 3 (the stands it has)"),
        ("set Halberdiers leftover_hits=3",
         "leftover_hits=3: must be at most 2 (odd hits stay short of its Hits value)"),
        ("add unit Pikes side=Empire strength=2 exposed=3",
         "exposed=3: must be at most 2 (the stands it has)"),
        ('endphase units=Halberdiers:-1:20',
         "units: 'Halberdiers:-1:20': HITS must be at least 0 and PACE (cm) at least 1"),
        ('endphase units=Halberdiers:2:0',
         "units: 'Halberdiers:2:0': HITS must be at least 0 and PACE (cm) at least 1"),
    ):
        with pytest.raises(CommandError) as err:
            session.execute(line)
        assert str(err.value) == said
    assert history.state_of(session.enc) == before
    session.execute("set Halberdiers exposed=3")
    with pytest.raises(CommandError, match="strength=2: exposed is 3, which must be at most 2"):
        session.execute("set Halberdiers strength=2")


def test_a_drive_back_of_no_hits_says_so_and_names_no_position():
    driveback = RULESET.action("driveback")
    res = driveback.resolve(driveback.parse_params({"hits": "0", "pace": "20",
                                                    "target": "Spearmen"}), Dice())
    assert res.text == "Spearmen: no hits, no drive back"
