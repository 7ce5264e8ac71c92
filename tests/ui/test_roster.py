"""What the roster's State column says of a unit."""

from __future__ import annotations

from tracker.core.model import Unit
from tracker.ui.panes.roster import unit_state


def test_a_unit_in_play_shows_each_of_its_states_in_order():
    unit = Unit(id="u1", name="Archers", side="Empire", engaged=True, confused=True,
                driven_back=6, conditions=["shaken"])
    assert unit_state(unit) == "engaged, confused, back 6, shaken"


def test_a_removed_unit_shows_removed_and_the_gms_notes_not_its_last_states():
    unit = Unit(id="u1", name="Archers", side="Empire", removed=True, routed=True,
                confused=True, driven_back=6, conditions=["fled north"])
    assert unit_state(unit) == "removed, fled north"
