"""Fantasy Warlord, played at random from its sample (tests/props/harness.py): orders,
moves, missile fire, held casualties and the morale tests, every advance and undo; the
casualties held through phase eight never outlive it, no figure fires twice in a turn,
the journal and the report agree with the state; what the tracker refuses it refuses in
one line, changing nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import SAVES
from tests.props.harness import LONG, QUICK, Rules, play_illegal, play_legal
from tracker.session.opening import load
from tracker.session.session import Session


def wood_elves() -> Session:
    """The sample: phase eight of turn 1, the wood elves have fired."""
    return Session(load(SAVES / "warlord-wood-elves.toml"))


def params(action: str, session: Session, data: st.DataObject) -> dict[str, str]:
    """What the encounter does not fill: the range band, the orders, a test's result."""
    if action == "fire":
        return {"range": data.draw(st.sampled_from(["short", "medium", "long"]), "range")}
    if action == "order":
        return {"orders": data.draw(st.sampled_from(["fire", "advance and fire", "halt"]),
                                    "orders")}
    if action == "movefire":
        return {"moved": str(data.draw(st.integers(0, 5), "moved"))}
    if action == "morale":
        return {"result": data.draw(st.sampled_from(["passed", "failed"]), "result")}
    return {}


RULES = Rules(params=params)


def check_held(session: Session) -> None:
    """Outside phase eight no unit holds casualties: they were removed as it ended."""
    if session.play.seq.phase(session.enc.position).name != "missile fire (8)":
        assert all(u.held_casualties == 0 for u in session.enc.units)  # type: ignore[attr-defined]


@QUICK
@given(st.data())
def test_legal_commands_keep_every_invariant(data: st.DataObject) -> None:
    h = play_legal(wood_elves(), data, steps=30, rules=RULES)
    check_held(h.session)


@QUICK
@given(st.data())
def test_illegal_commands_are_refused_in_one_line_and_change_nothing(
        data: st.DataObject) -> None:
    play_illegal(wood_elves(), data, steps=30, rules=RULES)


@pytest.mark.slow
@LONG
@given(st.data())
def test_legal_commands_keep_every_invariant_long(data: st.DataObject) -> None:
    check_held(play_legal(wood_elves(), data, steps=60, rules=RULES).session)


@pytest.mark.slow
@LONG
@given(st.data())
def test_illegal_commands_are_refused_long(data: st.DataObject) -> None:
    play_illegal(wood_elves(), data, steps=60, rules=RULES)
