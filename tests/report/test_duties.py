"""Duties the tracker runs inside ``next`` (a morale test, the drive backs at the end of
the shooting phase) are kept as the same action taken by hand, so their dice and odds
reach the battle report."""

from __future__ import annotations

from itertools import product

import pytest

from tests.conftest import SAMPLES, SAVES
from tests.report.test_report import d6_session, volley
from tracker.core.model import LogEntry
from tracker.report.gather import gather
from tracker.session.opening import load
from tracker.session.session import Session


def last(s: Session) -> LogEntry:
    return s.enc.log[s.enc.cursor - 1]


def two_d6_at_most(n: int) -> float:
    """The chance 2d6 totals ``n`` or less, counted by hand."""
    return sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= n) / 36


def test_a_morale_test_run_by_next_keeps_the_record_of_one_taken_by_hand() -> None:
    """Foot Sergeants (Mo 7) owe a morale test after the volley; typed with next, it is
    kept as `morale Foot` with the same dice would be: 2d6 3+4 = 7 passes."""
    s = d6_session()
    volley(s)
    s.execute("next --dice morale=3,4")
    advance = last(s)
    assert advance.parts is not None and len(advance.parts) == 1
    duty = advance.parts[0]

    by_hand = d6_session()
    volley(by_hand)
    by_hand.execute("morale Foot --dice morale=3,4")
    taken = last(by_hand)
    assert duty.resolved == taken.resolved
    assert (duty.kind, duty.actor, duty.phase, duty.rolls) == (
        taken.kind, taken.actor, taken.phase, taken.rolls)

    lines = [ln for ln in gather(s.enc).lines if ln.index == s.enc.cursor]
    test, moved = lines
    assert test.duty and not moved.duty
    assert (test.action, test.actor, test.happened) == ("morale", "Foot Sergeants", "passed")
    assert test.chance is not None and abs(test.chance - two_d6_at_most(7)) < 1e-9
    assert [d.value for d in test.dice] == [3, 4] and moved.dice == []
    # the morale test is told once, in its own line; the advance says where it went
    assert "Phase: combat" in moved.text.split("; ")
    assert test.text in advance.text and test.text not in moved.text
    from tracker.report.render import render

    rows = [r for r in render(s.enc, "csv").splitlines()[1:] if r.startswith(f"{test.index},")]
    assert [r.split(",")[5] for r in rows] == ["morale", "morale"]  # one row per die


def test_dice_typed_for_something_else_leave_the_duty_owed() -> None:
    s = d6_session()
    volley(s)
    pending = s.execute("next --dice hit=3").pending
    assert pending is not None and "morale tests" in pending.message


def test_a_morale_test_rolled_by_next_says_its_dice_were_rolled() -> None:
    s = d6_session()
    volley(s)
    s.execute("next --roll-rest")
    duty = (last(s).parts or [])[0]
    assert duty.resolved is not None and duty.resolved.happened in ("passed", "failed, flees")
    assert [r.source for r in duty.rolls] == ["rolled", "rolled"]
    assert [r.value for r in duty.rolls] == [r.value for r in last(s).rolls[:2]]


def test_the_drive_backs_at_the_end_of_shooting_keep_their_record_and_dice(tmp_path) -> None:
    """Empire Knights take hits; `next --roll-rest` drives them back as `endphase` would,
    and the report shows the drive dice on the end-of-phase action."""
    s = Session(load(SAVES / "warmaster-river-crossing.toml"))
    s.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
    knights = s.enc.find_unit("Empire Knights")
    hits, pace = knights.hits, knights.pace  # type: ignore[attr-defined]
    assert hits > 0 and knights.position in (None, "open")  # type: ignore[attr-defined]
    within = sum(1 for dice in product(range(1, 7), repeat=hits) if sum(dice) <= pace) / 6**hits
    s.execute("next --roll-rest")
    advance = last(s)
    assert advance.parts is not None
    (duty,) = advance.parts
    assert duty.kind == "endphase" and duty.rolls
    assert all(r.role == "drive" and r.source == "rolled" for r in duty.rolls)

    by_hand = Session(load(SAVES / "warmaster-river-crossing.toml"))
    by_hand.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
    typed = ",".join(str(r.value) for r in duty.rolls)
    by_hand.execute(f"endphase --dice drive={typed}")
    assert duty.resolved == last(by_hand).resolved

    line = next(ln for ln in gather(s.enc).lines if ln.duty)
    assert [d.value for d in line.dice] == [r.value for r in duty.rolls]
    assert "Empire Knights" in line.text
    # the odds of the end of the phase: how many units rout (driven beyond full pace)
    routed = sum(r.value for r in duty.rolls) > pace
    assert line.happened == f"{int(routed)} routed"
    assert line.chance is not None
    assert abs(line.chance - ((1 - within) if routed else within)) < 1e-9


def test_an_advance_with_no_duty_to_run_keeps_no_parts() -> None:
    s = Session(load(SAVES / "d6battle-crossbow-duel.toml"))
    s.execute("next")
    assert last(s).parts is None


# --- removed by the GM ------------------------------------------------------------------


def test_a_unit_removed_by_the_gm_still_counts_in_its_sides_losses() -> None:
    """Foot Sergeants lose figures to the volley, then the GM removes them: every figure
    they had is lost to their side (the kills, then what was left at removal)."""
    s = d6_session()
    foot = s.enc.find_unit("Foot Sergeants")
    side, start = foot.side, foot.strength
    before = gather(s.enc).losses.total(side)
    volley(s)
    left = s.enc.find_unit("Foot Sergeants").strength
    assert 0 < left < start
    s.execute("remove Foot Sergeants")
    g = gather(s.enc)
    lost = g.losses.total(side)
    assert (lost.casualties, lost.by_gm) == (before.casualties + start, before.by_gm + 1)
    removal = g.lines[-1]
    assert removal.notes == [
        f"removed by the GM: Foot Sergeants ({side}), strength {left}, counted among the losses"]
    from tracker.report.render import render

    md = render(s.enc, "md")
    assert "removed by the GM" in md and "1 removed by the GM" in md


def test_a_combatant_removed_by_the_gm_counts_as_out_of_the_fight() -> None:
    s = Session(load(SAVES / "edc-roland-press.toml"))
    who = s.enc.combatants[0]
    s.execute(f"remove {who.name}")
    lost = gather(s.enc).losses.total(who.side)
    assert (lost.out, lost.by_gm) == (1, 1)


# --- where an advance belongs in the story ------------------------------------------------


def test_a_phase_line_belongs_under_the_phase_it_starts() -> None:
    s = d6_session()  # the English shoot phase, nothing owed
    s.execute("next")
    line = gather(s.enc).lines[-1]
    assert line.text.startswith("Phase: combat")
    assert (line.phase, line.turn) == ("combat", "English")
    from tracker.report.render import render

    md = render(s.enc, "md")
    assert md.rindex("### Combat, English's turn") < md.rindex(f"{line.index}. Phase: combat")


@pytest.mark.parametrize("name", SAMPLES)
def test_every_sample_tells_each_phase_under_its_own_heading(name: str) -> None:
    """A "Phase: X" line is in phase X, and so is what follows it until the next
    advance, whose duties (listed before it) are its own (a save that did not keep where
    each entry stood included)."""
    phase = None
    for line in gather(load(SAVES / name)).lines:
        if line.kind == "next" or line.duty:
            phase = None
            if line.text.startswith("Phase: "):
                phase = line.text[len("Phase: "):].split(",")[0].split(";")[0]
        if phase is not None:
            assert line.phase.lower() == phase.lower(), (line.index, line.text)


# --- battles logged before the tracker kept odds -------------------------------------------

ALL_BEFORE = "This battle was logged before the tracker kept the odds of each action"


@pytest.mark.parametrize("name", SAMPLES)
def test_a_sample_logged_before_odds_says_so_once_at_the_top(name: str) -> None:
    from tracker.report.render import render

    enc = load(SAVES / name)
    g = gather(enc)
    md = render(enc, "md")
    assert "not recorded" not in md
    if g.actions and g.unrecorded == g.actions:
        assert md.count(ALL_BEFORE) == 1
        assert md.index(ALL_BEFORE) < md.index("## ")
        assert "odds:" not in md  # no line per action
    else:
        assert ALL_BEFORE not in md


def test_a_battle_partly_logged_before_odds_counts_those_without() -> None:
    from tracker.report.render import render

    s = d6_session()
    before = gather(s.enc)
    assert before.actions == before.unrecorded > 0
    volley(s)
    g = gather(s.enc)
    assert (g.actions, g.unrecorded) == (before.actions + 1, before.unrecorded)
    md = render(s.enc, "md")
    assert f"{g.unrecorded} actions of {g.actions} were logged before" in md
    assert md.count("odds:") == 1  # the volley's, kept when it was resolved


def test_a_battle_with_every_record_says_nothing_of_missing_odds() -> None:
    import json

    from tracker.report.render import render

    s = d6_session()
    del s.enc.log[:]
    s.enc.cursor = 0
    volley(s)
    md = render(s.enc, "md")
    assert "logged before the tracker" not in md and md.count("odds:") == 1
    data = json.loads(render(s.enc, "json"))
    assert (data["unrecorded"], data["note"]) == (0, "")
