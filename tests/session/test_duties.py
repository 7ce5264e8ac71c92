"""The turn engine at a phase's edges, on a small sequence (tests/session/drill.py):
forcing past a duty does what the rules do there anyway and says what it owed; a duty
blocks the actions it names while it is owed; a duty owed as a phase begins asks for its
dice through `next`; an advance says what it passes over unplayed."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from tests.conftest import skirmish
from tests.session.drill import drill
from tracker.core import history
from tracker.core.sequence import Duty
from tracker.session.commands import CommandError
from tracker.session.play import PendingDuty
from tracker.session.session import Session
from tracker.store import save_encounter


def unit(s: Session, name: str) -> object:
    return s.enc.find_unit(name)


# --- forcing past a duty ---------------------------------------------------------------------


def test_forcing_past_a_duty_logs_what_it_owed_and_the_phase_end_still_ends_its_fields():
    s = drill()
    s.execute("next phase")  # Red's shooting
    s.execute("shoot Bowmen Archers hits=2")
    archers = unit(s, "Archers")
    before = history.state_of(s.enc)
    out = s.execute("next force")
    assert out.message == (
        "drive backs skipped by the GM (Archers: 2 hits to drive back); "
        "morale tests skipped by the GM (Archers: morale test); "
        "Phase: combat; "
        "Archers: leftover hits discarded; Archers: 1 held casualties removed; "
        "Archers: morale test not taken")
    assert (archers.leftover, archers.held, archers.owes_test) == (0, 0, False)  # type: ignore[attr-defined]
    assert archers.strength == 5  # type: ignore[attr-defined]
    s.execute("undo")
    assert history.state_of(s.enc) == before


def test_a_skip_names_who_owed_it_never_an_internal_id():
    s = drill()
    s.execute("next phase")
    s.execute("shoot Bowmen Horse hits=1")
    line = s.execute("next force").message
    assert "Horse: 1 hits to drive back" in line and "hs" not in line.split()


def test_leaving_the_round_early_passes_the_duty_and_ends_what_it_left():
    s = drill()
    s.execute("next phase")
    s.execute("shoot Bowmen Archers hits=3")
    assert s.execute("next round").pending is not None  # the duty still stops `N`
    line = s.execute("next round force").message
    assert line.startswith("drive backs skipped by the GM (Archers: 3 hits to drive back)")
    assert "Archers: leftover hits discarded" in line
    assert unit(s, "Archers").leftover == 0  # type: ignore[attr-defined]


# --- a duty that blocks actions while it is owed ---------------------------------------------


def test_a_morale_test_owed_blocks_the_next_shot_until_it_is_taken():
    s = drill()
    s.execute("next phase")
    s.execute("shoot Bowmen Archers hits=1")
    before = history.state_of(s.enc)
    with pytest.raises(CommandError) as refused:
        s.execute("shoot Spears Horse")
    assert str(refused.value) == (
        "morale tests first (Archers: morale test): the rules resolve it before the next "
        "shoot; add force=yes to take it anyway")
    assert history.state_of(s.enc) == before
    s.execute("morale Archers --dice morale=5")
    assert s.execute("shoot Spears Horse").message == "Spears shoots Horse: 1 hits"


def test_a_blocked_action_may_be_forced_and_the_log_says_so():
    s = drill()
    s.execute("next phase")
    s.execute("shoot Bowmen Archers hits=1")
    out = s.execute("shoot Spears Horse force=yes")
    assert out.message.startswith("Spears shoots Horse: 1 hits (forced by the GM: morale tests"
                                  " first (Archers: morale test)")


def test_a_duty_blocks_only_the_actions_it_names():
    s = drill()
    s.execute("next phase")
    s.execute("shoot Bowmen Archers hits=1")
    assert s.play.problems(s.ruleset.action("morale"), None, []) == []


# --- a duty owed as a phase begins: its dice are asked for -----------------------------------


def shaken_blue() -> Session:
    """Blue's archers shaken; Red's turn at its combat phase: the next `n` begins Blue's
    turn, whose command phase owes the archers' rally test."""
    s = drill(ar={"shaken": True})
    s.execute("next phase")
    s.execute("next phase")
    return s


def test_a_start_duty_stops_the_advance_and_says_which_dice_it_needs():
    s = shaken_blue()
    before = history.state_of(s.enc)
    entries = len(s.enc.log)
    out = s.execute("next")
    assert out.pending is not None and out.pending.start and not out.changed
    assert out.message == (
        "command of round 1 cannot begin yet: rally tests (Archers: rally test); "
        "its dice: rally 1 d6 for Archers; next --dice rally=… or next --roll-rest gives "
        "them; next force begins it without them")
    assert [(a.who, a.dice) for a in out.pending.asks] == [("Archers", "rally 1 d6")]
    assert history.state_of(s.enc) == before and len(s.enc.log) == entries


def test_a_start_duty_runs_with_the_dice_given_to_next_in_the_phase_it_begins():
    s = shaken_blue()
    out = s.execute("next --dice rally=4")
    assert out.message == "Turn: Blue, command; Archers rallies"
    entry = s.enc.log[-1]
    assert entry.parts is not None and [p.text for p in entry.parts] == ["Archers rallies"]
    part = entry.parts[0]
    assert (part.round, part.side, part.phase, part.actor) == (1, 1, 0, "Archers")
    assert [(r.role, r.value, r.source) for r in entry.rolls] == [("rally", 4, "entered")]
    assert unit(s, "Archers").shaken is False  # type: ignore[attr-defined]
    s.execute("undo")
    assert unit(s, "Archers").shaken is True  # type: ignore[attr-defined]


def test_a_start_duty_with_the_rest_rolled_says_the_dice_are_the_trackers():
    s = shaken_blue()
    s.execute("next --roll-rest")
    assert [r.source for r in s.enc.log[-1].rolls] == ["rolled"]


def test_a_start_duty_forced_past_is_logged_with_what_it_owed():
    s = shaken_blue()
    out = s.execute("next force")
    assert out.message == ("Turn: Blue, command; rally tests skipped by the GM "
                           "(Archers: rally test)")
    assert unit(s, "Archers").shaken is True  # type: ignore[attr-defined]


def test_a_start_duty_is_not_pending_in_the_phase_it_began():
    s = shaken_blue()
    s.execute("next force")
    assert s.play.pending_now() == {}
    assert s.play.markers() == {}


def test_a_round_that_begins_owes_its_start_duties_before_its_upkeep():
    """The round's upkeep sees what the start duty did: a unit that rallied is not named
    as still shaken."""
    s = drill(bw={"shaken": True}, ar={"shaken": True})
    s.execute("next phase")
    s.execute("next phase")
    s.execute("next --dice rally=1")  # Blue's turn: the archers stay shaken
    for _ in range(2):
        s.execute("next phase")
    line = s.execute("next --dice rally=6").message  # round 2: Red's bowmen rally
    assert line == ("Round 2, command, Red first; Bowmen rallies; still shaken: Archers")


def test_dice_left_over_after_a_start_duty_are_refused_and_nothing_moves():
    s = shaken_blue()
    before = history.state_of(s.enc)
    with pytest.raises(CommandError, match="entered dice not used: rally=2"):
        s.execute("next --dice rally=5,2")
    assert history.state_of(s.enc) == before


# --- what an advance passes over ------------------------------------------------------------


def test_next_round_says_which_phases_and_turns_it_skipped():
    s = drill()
    assert s.play.skipped("round").question() == (
        "Skip the rest of the Red's turn and the Blue's whole turn?")
    line = s.execute("next round").message
    assert line == ("Round 2, command, Red first; Red's shooting and combat phases skipped; "
                    "Blue's whole turn skipped")


def test_next_round_from_the_last_side_skips_only_the_rest_of_its_turn():
    s = drill()
    for _ in range(3):
        s.execute("next phase")  # Blue's command
    skipped = s.play.skipped("round")
    assert skipped.whole and skipped.question() == "Skip the rest of the Blue's turn?"
    s.execute("next phase")
    s.execute("next phase")  # Blue's combat: the round's last phase
    assert not s.play.skipped("round").whole
    assert s.execute("next round").message == "Round 2, command, Red first"


def test_next_phase_names_the_turns_not_taken(tmp_path: Path):
    """Aldo acts; `p` ends the round's only phase: Grak and Bree had no turn (allowed: no
    text obliges anyone to act), and the log says so."""
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    from tracker.session.opening import load

    s = Session(load(path), path)
    skipped = s.play.skipped("phase")
    assert not skipped.whole
    line = s.execute("next phase").message
    assert line == "Round 2, Aldo first; Grak and Bree had no turn in round 1"
    s.execute("next")
    assert s.execute("next").message == "Turn: Bree"  # n skips no one


# --- what a pending duty keeps from moving --------------------------------------------------


@pytest.mark.parametrize(("phase", "side", "at", "said"), [
    ("shooting", "", "end", "the shooting phase cannot end yet"),
    ("shooting", "", "start", "shooting of round 3 cannot begin yet"),
    ("", "Red", "end", "Red's turn cannot end yet"),
    ("", "Red", "start", "Red's turn of round 3 cannot begin yet"),
    ("", "", "end", "round 3 cannot end yet"),
    ("", "", "start", "round 3 cannot begin yet"),
])
def test_a_pending_duty_names_what_cannot_move_the_phase_the_side_s_turn_or_the_round(
        phase: str, side: str, at: Literal["start", "end"], said: str) -> None:
    """A phase of no name is a side's whole turn where the sides take turns, else the
    whole round: that is what waits for the duty, never "the turn" of one combatant."""
    duty = Duty("tests", lambda enc: [("a", "owed")], at=at)
    pending = PendingDuty.of(phase, duty, [("a", "owed")], {"a": "Archers"}, 3, side)
    assert pending.why == f"{said}: tests (Archers: owed)"
