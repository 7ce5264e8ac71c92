"""Warmaster, played at random from its sample (tests/props/harness.py): shooting, drive
backs and the end of the shooting phase, every advance and undo; what a rule starts ends
where the sequence says, no unit shoots twice in its turn, the journal and the report
agree with the state; what the tracker refuses it refuses in one line, changing
nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import SAVES
from tests.props.harness import LONG, QUICK, play_illegal, play_legal
from tracker.session.opening import load
from tracker.session.session import Session


def river() -> Session:
    """The sample: the High Elves' shooting phase of round 1."""
    return Session(load(SAVES / "warmaster-river-crossing.toml"))


@QUICK
@given(st.data())
def test_legal_commands_keep_every_invariant(data: st.DataObject) -> None:
    play_legal(river(), data, steps=30)


@QUICK
@given(st.data())
def test_illegal_commands_are_refused_in_one_line_and_change_nothing(
        data: st.DataObject) -> None:
    play_illegal(river(), data, steps=30)


@pytest.mark.slow
@LONG
@given(st.data())
def test_legal_commands_keep_every_invariant_long(data: st.DataObject) -> None:
    play_legal(river(), data, steps=60)


@pytest.mark.slow
@LONG
@given(st.data())
def test_illegal_commands_are_refused_long(data: st.DataObject) -> None:
    play_illegal(river(), data, steps=60)
