"""edc, played at random from its sample (tests/props/harness.py): exchanges, hesitation,
initiative, missiles, terrain rolls, wounds and the blood loss tests owed as each round
begins, every advance and undo; the initiative, markers, hesitation, a shield's block and
a ride-by's single exchange end where the sequence says, no fighter takes two exchanges in
one, every value stays in its domain, the journal and the report agree with the state;
what the tracker refuses it refuses in one line, changing nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import SAVES
from tests.props.harness import Rules, examples, play_illegal, play_legal
from tracker.session.opening import load
from tracker.session.session import Session

QUICK = examples(12)
LONG = examples(150)


def press() -> Session:
    """The sample: Roland's press, round 2, the first exchange (Jacques bleeds)."""
    return Session(load(SAVES / "edc-roland-press.toml"))


def small(n: int) -> st.SearchStrategy[str]:
    return st.integers(0, n).map(str)


def params(action: str, session: Session, data: st.DataObject) -> dict[str, str]:
    """Values the encounter does not fill, small enough for the pools a fighter has."""
    draws: dict[str, dict[str, st.SearchStrategy[str]]] = {
        "exchange": {"attack_dice": small(2), "defense_dice": small(2),
                     "defense": st.sampled_from(["parry", "block"])},
        "hit": {"location": st.sampled_from(["arm", "leg", "chest"]), "level": small(3)},
        "spend": {"dice": small(1)},
        "shock": {"cp": small(3), "shock": small(3), "base": small(8)},
        "knockdown": {"dice": small(3)},
        "knockout": {"dice": small(3)},
        "terrain": {"dice": small(1), "tn": st.just("4")},
        "unhorse": {"dice": small(2), "mos": small(2)},
        "ride": {"maneuver": st.sampled_from(["accelerate", "quarter_turn"])},
        "missile_prep": {"rounds": st.integers(1, 2).map(str)},
        "missile": {"dice": small(1), "atn": st.just("6"),
                    "defense": st.sampled_from(["none", "block"]), "defense_dice": small(1),
                    "shield_dtn": st.just("5")},
    }
    return {name: data.draw(draw, label=f"{action} {name}")
            for name, draw in draws.get(action, {}).items()}


RULES = Rules(params=params)


@QUICK
@given(st.data())
def test_legal_commands_keep_every_invariant(data: st.DataObject) -> None:
    play_legal(press(), data, steps=30, rules=RULES)


@QUICK
@given(st.data())
def test_illegal_commands_are_refused_in_one_line_and_change_nothing(
        data: st.DataObject) -> None:
    play_illegal(press(), data, steps=30, rules=RULES)


@pytest.mark.slow
@LONG
@given(st.data())
def test_legal_commands_keep_every_invariant_long(data: st.DataObject) -> None:
    play_legal(press(), data, steps=60, rules=RULES)


@pytest.mark.slow
@LONG
@given(st.data())
def test_illegal_commands_are_refused_long(data: st.DataObject) -> None:
    play_illegal(press(), data, steps=60, rules=RULES)
