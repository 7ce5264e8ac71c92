"""d6battle, played at random from its sample (tests/props/harness.py): shooting and the
morale tests it forces, combats and command tests, every advance (forced past the owed
tests too) and undo; what a rule starts ends where the sequence says (a morale test
owed, the shooting casualties the morale table counts, a flight, a push & shove bonus,
disorder), no unit shoots twice in a phase nor a combat is fought twice, every value in
its domain, the journal and the report agree with the state; what the tracker refuses it
refuses in one line, changing nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import SAVES
from tests.props.harness import Rules, examples, play_illegal, play_legal
from tracker.session.opening import load
from tracker.session.session import Session

QUICK = examples(15)
LONG = examples(200)


def duel() -> Session:
    """The sample: round 2, the French combat phase."""
    return Session(load(SAVES / "d6battle-crossbow-duel.toml"))


def values(action: str, session: Session, data: st.DataObject) -> dict[str, str]:
    """What the roster does not give: a command value for the units with none, how a
    combat was joined."""
    if action == "command":
        return {"command": str(data.draw(st.integers(2, 12), label="command"))}
    if action == "combat":
        return {"charge_a": data.draw(st.sampled_from(["no", "yes", "counter"]), label="charge"),
                "facing_a": data.draw(st.sampled_from(["front", "flank", "rear"]),
                                      label="facing")}
    return {}


RULES = Rules(params=values)


@QUICK
@given(st.data())
def test_legal_commands_keep_every_invariant(data: st.DataObject) -> None:
    play_legal(duel(), data, steps=30, rules=RULES)


@QUICK
@given(st.data())
def test_illegal_commands_are_refused_in_one_line_and_change_nothing(
        data: st.DataObject) -> None:
    play_illegal(duel(), data, steps=30, rules=RULES)


@pytest.mark.slow
@LONG
@given(st.data())
def test_legal_commands_keep_every_invariant_long(data: st.DataObject) -> None:
    play_legal(duel(), data, steps=60, rules=RULES)


@pytest.mark.slow
@LONG
@given(st.data())
def test_illegal_commands_are_refused_long(data: st.DataObject) -> None:
    play_illegal(duel(), data, steps=60, rules=RULES)
