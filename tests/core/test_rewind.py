"""Rewind: back to a round (and phase) or to any entry in one step; the entries on the way
stay in the journal, and undo or redo right after takes the rewind back in one step."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import SAVES, skirmish
from tracker.core import history
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session
from tracker.store import save_encounter
from tracker.store.journal import JournalReader

ROUNDS = [
    # round 1, shooting (where the sample stands)
    'shoot "Archers I" "Empire Knights" --dice hit=4,5,6 save=1,2,3',
    "endphase --dice drive=3,2,1",
    "next phase",
    "next round",
    # round 2, command
    "next phase",
    "next phase",
    # round 2, shooting
    'shoot "Archers II" Halberdiers --dice hit=4,4,1 save=1,1',
    "endphase --dice drive=2",
    "next round",
    # round 3
    "note the river rises",
]


def play(folder: Path) -> tuple[Session, list[dict[str, object]]]:
    """The Warmaster sample played into round 3 and saved in ``folder``, and its state
    after each entry."""
    save = folder / "river.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", save)
    session = Session(load(save), save)
    states = [history.state_of(session.enc)]
    for line in ROUNDS:
        session.execute(line)
        states.append(history.state_of(session.enc))
    save_encounter(session.enc, save)
    return session, states


@pytest.fixture
def played(tmp_path: Path) -> tuple[Session, list[dict[str, object]]]:
    return play(tmp_path)


def test_rewind_to_round_1_and_redo_back(played):
    session, states = played
    out = session.execute("rewind round 1")
    assert out.message == "Back to round 1: 10 changes undone; undo or redo takes it back"
    assert session.enc.cursor == 0 and history.state_of(session.enc) == states[0]
    assert len(session.enc.log) == 10  # the rounds stay in the log
    out = session.execute("redo")
    assert out.message == "Rewind taken back: 10 changes redone"
    assert session.enc.cursor == 10 and history.state_of(session.enc) == states[-1]


def test_undo_right_after_a_rewind_takes_it_back(played):
    session, states = played
    session.execute("rewind round 2")
    assert session.enc.cursor == 4 and history.state_of(session.enc) == states[4]
    assert session.enc.position.round == 2 and session.enc.position.phase == 0
    out = session.execute("undo")
    assert out.message == "Rewind taken back: 6 changes redone"
    assert history.state_of(session.enc) == states[-1]
    # after that, undo and redo step one entry again
    assert session.execute("undo").message == "Undone: the river rises"
    assert history.state_of(session.enc) == states[-2]


def test_rewind_to_a_round_and_phase(played):
    session, states = played
    session.execute("rewind round 2 phase shooting")
    assert session.enc.cursor == 6 and history.state_of(session.enc) == states[6]
    session.execute("rewind round 1 phase 4")  # combat, by its number: a second rewind
    assert session.enc.cursor == 3 and history.state_of(session.enc) == states[3]
    session.execute("redo")  # back to where the first rewind started
    assert session.enc.cursor == 10 and history.state_of(session.enc) == states[-1]


def test_after_a_rewind_undo_and_redo_step_once_more_has_moved(played):
    session, states = played
    session.execute("rewind round 2")
    session.execute("redo")  # taken back
    session.execute("rewind round 3")
    session.execute("rewind entry 5")  # then on to an entry, in the log pane
    assert history.state_of(session.enc) == states[5]
    session.execute("undo")
    assert history.state_of(session.enc) == states[-1]


def test_rewind_to_an_entry_back_or_forward(played):
    session, states = played
    out = session.execute("rewind entry 2")
    assert out.message.startswith("Back to entry 2: 8 changes undone")
    assert history.state_of(session.enc) == states[2]
    # a second jump straight after the first is taken back to where the first began
    out = session.execute("rewind entry 7")
    assert out.message == "Forward to entry 7: 5 changes redone; undo goes back"
    assert history.state_of(session.enc) == states[7]
    session.execute("redo")
    assert history.state_of(session.enc) == states[10]
    for _ in range(3):
        session.execute("undo")  # plain undos: no jump to take back any more
    assert session.enc.jump is None and history.state_of(session.enc) == states[7]
    session.execute("rewind entry 9")  # forward, with entries left to redo after it
    session.execute("redo")  # after a jump forward, redo steps on one entry
    assert history.state_of(session.enc) == states[10]
    session.execute("rewind entry 9")
    session.execute("undo")  # undo takes a jump back, whichever way it went
    assert history.state_of(session.enc) == states[10]


def test_rewind_to_the_round_it_stands_in_goes_to_its_start(played):
    session, states = played
    out = session.execute("rewind round 3")
    assert out.message.startswith("Back to round 3: 1 change undone")
    assert history.state_of(session.enc) == states[9]
    with pytest.raises(CommandError, match="rewind: already at round 3"):
        session.execute("rewind round 3")


def test_a_new_change_after_a_rewind_plays_on_from_there(played):
    session, states = played
    session.execute("rewind round 2")
    session.execute("note a new round 2")
    assert [e.text for e in session.enc.log][-2:] == [
        "Round 2, command, High Elves first; Empire's whole turn skipped",
                                                      "a new round 2"]
    assert len(session.enc.log) == 5 and session.enc.jump is None
    with pytest.raises(CommandError, match="nothing to redo"):
        session.execute("redo")


def test_the_rewound_entries_stay_in_the_journal_and_redo_works_after_a_restart(played):
    session, states = played
    save = session.path
    assert save is not None
    session.execute("rewind round 1")
    save_encounter(session.enc, save)
    reopened = Session(load(save), save)
    assert len(reopened.enc.log) == 10 and reopened.enc.cursor == 0
    assert history.state_of(reopened.enc) == states[0]
    reopened.execute("redo")
    assert history.state_of(reopened.enc) == states[-1]
    assert [e.text for e in reopened.enc.log] == [e.text for e in session.enc.log]


@pytest.mark.parametrize(("line", "says"), [
    ("rewind", "rewind round N [phase P] or rewind entry K"),
    ("rewind round", "rewind round N [phase P] or rewind entry K"),
    ("rewind round two", "round=two: expected a whole number"),
    ("rewind round 4", "rewind: round 4 is not in the log before now"),
    ("rewind round 2 phase sleeping", "phase sleeping: expected one of command, movement"),
    ("rewind round 2 phase 9", "phase 9: expected one of"),
    ("rewind round 2 turn 1", "rewind round N [phase P] or rewind entry K"),
    ("rewind round 1 phase command", "rewind: round 1, command is not in the log before now"),
    ("rewind entry 11", "rewind entry 11: the log has entries 1 to 10 (0: its start)"),
    ("rewind entry 10", "rewind: already at entry 10"),
    ("rewind entry=3", "rewind round N [phase P] or rewind entry K"),
])
def test_a_bad_rewind_gives_one_line_and_changes_nothing(played, line, says):
    session, states = played
    with pytest.raises(CommandError) as info:
        session.execute(line)
    assert says in str(info.value) and "\n" not in str(info.value)
    assert history.state_of(session.enc) == states[-1] and session.enc.cursor == 10


@pytest.mark.parametrize("line", ["rewind round 1", "rewind entry 0"])
def test_a_journal_that_cannot_be_read_rewinds_nothing(played, line, monkeypatch):
    session, states = played
    save = session.path
    assert save is not None
    journal = save.with_name(session.enc.log.journal)
    monkeypatch.setattr(JournalReader, "BLOCK", 1)  # each record read from the disk
    reopened = Session(load(save), save)  # opening checks every record: spoilt after it
    lines = journal.read_bytes().split(b"\n")
    lines[1] = b"x" * len(lines[1])  # the oldest entry's record is spoilt
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(CommandError) as info:
        reopened.execute(line)
    assert f"{journal.name} line 2, byte " in str(info.value)
    assert history.state_of(reopened.enc) == states[-1] and reopened.enc.cursor == 10


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["next", "next round", "note x", "set aldo initiative=3",
                                 "effect bree aimed rounds=1", "undo"]), min_size=1,
                max_size=14),
       st.data())
def test_any_rewind_equals_stepping_there_and_is_taken_back_whole(lines, data):
    session = Session(skirmish())
    for line in lines:
        try:
            session.execute(line)
        except CommandError:
            continue
    enc = session.enc
    end, cursor = history.state_of(enc), enc.cursor
    target = data.draw(st.integers(0, len(enc.log)))
    if target == cursor:
        return
    stepwise = enc.model_copy(deep=True)
    while stepwise.cursor > target:
        history.undo(stepwise)
    while stepwise.cursor < target:
        history.redo(stepwise)
    session.execute(f"rewind entry {target}")
    assert enc.cursor == target
    assert history.state_of(enc) == history.state_of(stepwise)
    session.execute("undo")
    assert history.state_of(enc) == end and enc.cursor == cursor


def test_rewind_round_1_keeps_the_table_as_it_was_set_up(tmp_path: Path):
    """A GM who adds fighters, sets them up and then plays: ``rewind round 1`` goes back
    to where the play began, not to an empty table."""
    save = tmp_path / "ford.toml"
    save_encounter(skirmish(), save)
    session = Session(load(save), save)
    session.execute("add combatant Orc side=foes initiative=8")
    session.execute("set Aldo hp=12")
    session.execute("note the ford is in flood")
    set_up = history.state_of(session.enc)
    with pytest.raises(CommandError, match=r"already at round 1 \(after the setup: rewind "
                                           r"entry 0 goes back before it\)"):
        session.execute("rewind round 1")
    session.execute("next")
    session.execute("set Orc hp=3")  # a change in play, after the first turn passed
    out = session.execute("rewind round 1")
    assert out.message == ("Back to round 1 (after the setup: rewind entry 0 goes back "
                           "before it): 2 changes undone; undo or redo takes it back")
    assert session.enc.cursor == 3 and history.state_of(session.enc) == set_up
    assert "Orc" in [c.name for c in session.enc.combatants]
    session.execute("rewind entry 0")  # the whole log, setup and all, is still there
    assert session.enc.cursor == 0 and "Orc" not in [c.name for c in session.enc.combatants]
