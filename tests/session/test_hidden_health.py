"""Another side's Health (edc) and wounds (edc, harn) in a player's view: the view holds
neither, says the Health in words as plain says hit points (``player_health``), and what
shows a fighter says plainly that the wounds are not shown."""

from __future__ import annotations

import pytest

from tests.conftest import SAVES
from tracker.rules.edc.describe import describe
from tracker.rules.edc.model import EdcCombatant
from tracker.session.opening import load
from tracker.session.session import Session
from tracker.ui.panes.combatants import NOT_SHOWN, wounds_cell


def edc() -> Session:
    """Roland's press: Jacques (party) has a wound and 4 of his 5 Health."""
    return Session(load(SAVES / "edc-roland-press.toml"))


def data(session: Session, side: str | None) -> str:
    view = session.player_view(side)
    return view.model_dump_json() + "".join(e.model_dump_json() for e in view.log)


def test_another_side_s_health_is_in_words_and_not_in_the_view() -> None:
    session = edc()
    jacques = session.enc.find_combatant("Jacques")
    assert (jacques.health, jacques.health_max) == (4, 5)  # type: ignore[attr-defined]
    for side in ("foes", None):
        view = session.player_view(side)
        seen = view.find_combatant("Jacques")
        assert isinstance(seen, EdcCombatant)
        assert "hurt" in seen.conditions
        line = describe(seen)
        assert "HT" not in line and "4/5" not in line
        assert '"health":4' not in data(session, side)
    own = session.player_view("party").find_combatant("Jacques")
    assert isinstance(own, EdcCombatant)
    assert "HT 4/5" in describe(own) and "hurt" not in own.conditions


def test_a_change_of_another_side_s_health_is_told_in_words() -> None:
    session = edc()
    session.execute("set Jacques health=2")
    assert session.player_view("foes").log[-1].text == "Jacques: bloodied"
    assert session.player_view("party").log[-1].text == "Jacques: health 2"


def test_the_gm_may_show_health_as_numbers() -> None:
    session = edc()
    session.execute("setting player_health=numbers")
    seen = session.player_view("foes").find_combatant("Jacques")
    assert isinstance(seen, EdcCombatant)
    assert "HT 4/5" in describe(seen) and "hurt" not in seen.conditions


@pytest.mark.parametrize(("sample", "side", "other"), [
    ("edc-roland-press.toml", "foes", "Jacques"),
    ("harn-nolora-volley.toml", "party", "Destrier"),
])
def test_another_side_s_wounds_cell_says_they_are_not_shown(sample: str, side: str,
                                                              other: str) -> None:
    session = Session(load(SAVES / sample))
    assert session.enc.find_combatant(other).wounds
    view = session.player_view(side)
    assert wounds_cell(view.find_combatant(other)) == NOT_SHOWN
    own = session.player_view(session.enc.find_combatant(other).side)
    assert wounds_cell(own.find_combatant(other)) == str(len(own.find_combatant(other).wounds))
