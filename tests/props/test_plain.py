"""plain, played at random (tests/props/harness.py): timed effects end where they say,
the journal and the report agree with the state, and what the tracker refuses it refuses
in one line, changing nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import skirmish
from tests.props.harness import examples, play_illegal, play_legal
from tracker.session.session import Session

QUICK = examples(25)
LONG = examples(300)


def ford() -> Session:
    """Aldo 14, Grak 11 (hidden), Bree 9: a round of three turns."""
    enc = skirmish()
    enc.combatants[2].hidden = False
    return Session(enc)


@QUICK
@given(st.data())
def test_legal_commands_keep_every_invariant(data: st.DataObject) -> None:
    play_legal(ford(), data, steps=30)


@QUICK
@given(st.data())
def test_illegal_commands_are_refused_in_one_line_and_change_nothing(
        data: st.DataObject) -> None:
    play_illegal(ford(), data, steps=30)


@pytest.mark.slow
@LONG
@given(st.data())
def test_legal_commands_keep_every_invariant_long(data: st.DataObject) -> None:
    play_legal(ford(), data, steps=60)


@pytest.mark.slow
@LONG
@given(st.data())
def test_illegal_commands_are_refused_long(data: st.DataObject) -> None:
    play_illegal(ford(), data, steps=60)
