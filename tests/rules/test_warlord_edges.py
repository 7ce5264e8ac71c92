"""Fantasy Warlord at the edges of its game turn (issue 26, seed 002 §8): the casualties
held through phase eight are removed as it ends, whatever the GM skipped, and their
morale tests are owed; orders, moves and morale tests come when the sequence says."""

from __future__ import annotations

import pytest

from tests.rules.test_warlord_phase import RULES, battle, unit
from tracker.core import history
from tracker.session.commands import CommandError
from tracker.session.session import Session


def phase(s: Session) -> str:
    return RULES.phases[s.enc.position.phase]


def test_forcing_past_phase_eight_removes_the_held_casualties_and_owes_the_morale_tests():
    """Seed 002 §8: "When every unit has fired all casualties are removed and any
    necessary Morale Tests are taken", even where the GM leaves fire orders unfired."""
    s = Session(battle())
    s.execute("fire elves orcs range=medium --dice d100=23")
    assert unit(s.enc, "orcs").held_casualties == 1
    out = s.execute("next force")
    assert out.message.startswith("fire orders skipped by the GM (Human longbowmen: to fire;"
                                  " Goblin archers: to fire)")
    assert "held casualties removed: Orc warband loses 1 (20 → 19), morale test" in out.message
    orcs = unit(s.enc, "orcs")
    assert (orcs.held_casualties, orcs.strength, orcs.casualties_total) == (0, 19, 1)
    assert orcs.morale_test
    assert phase(s) == "morale tests"
    pending = s.execute("next").pending
    assert pending is not None and "Orc warband: morale test" in pending.message
    s.execute("morale orcs result=passed")
    assert s.execute("next").pending is None


def test_the_removal_forced_past_follows_the_morale_settings():
    s = Session(battle())
    s.execute("setting morale_test_when=class_threshold morale_thresholds=C:10")
    s.execute("fire elves orcs range=medium --dice d100=23")
    out = s.execute("next force")
    assert "Orc warband loses 1 (20 → 19)" in out.message
    assert not unit(s.enc, "orcs").morale_test  # 5% lost: below class C's 10%


def test_a_morale_test_left_untaken_ends_with_the_morale_tests_and_says_so():
    s = Session(battle())
    s.execute("fire elves orcs range=medium --dice d100=23")
    s.execute("next force")
    out = s.execute("next force")
    assert "morale tests skipped by the GM (Orc warband: morale test)" in out.message
    assert "Orc warband: morale test not taken" in out.message
    assert not unit(s.enc, "orcs").morale_test


def test_a_unit_that_has_fired_fires_no_more_this_turn():
    """Each figure may only fire once per turn: no new fire order in phase eight, and
    what it fired is kept to the end of the game turn."""
    s = Session(battle())
    s.execute("fire elves orcs range=medium --dice d100=23")
    before = history.state_of(s.enc)
    with pytest.raises(CommandError, match="order is taken in the before missile fire"):
        s.execute("order elves orders=fire")
    with pytest.raises(CommandError, match="already fired"):
        s.execute("fire elves gobs range=short")
    assert history.state_of(s.enc) == before
    s.execute("next force")
    with pytest.raises(CommandError, match="not in the morale tests phase"):
        s.execute("fire bows gobs range=short")
    assert unit(s.enc, "elves").fired


def test_a_unit_that_moved_beyond_its_move_and_fire_allowance_cannot_fire():
    """Goblins with short bows lose half their 20 cm move to fire: 12 cm is too far."""
    enc = battle()
    unit(enc, "gobs").moved_cm = 12
    s = Session(enc)
    with pytest.raises(CommandError, match="moved 12 cm this turn: a unit that fires may"
                                           " move only 10 cm"):
        s.execute("fire gobs elves range=short")
    unit(enc, "gobs").moved_cm = 10
    s.execute("fire gobs elves range=short --dice d100=1")


def test_mounted_figures_move_a_whole_move_and_fire():
    enc = battle()
    wolves = unit(enc, "wolves")
    wolves.weapon, wolves.orders, wolves.moved_cm, wolves.pace = "short_bow", "fire", 30, 30
    Session(enc).execute("fire wolves elves range=short --dice d100=1")


def test_moves_and_orders_come_before_missile_fire():
    s = Session(battle())
    with pytest.raises(CommandError, match="movefire is taken in the before missile fire"):
        s.execute("movefire gobs terrain=1/2 moved=5")


def test_morale_tests_come_after_every_casualty_is_removed():
    enc = battle()
    unit(enc, "orcs").morale_test = True
    with pytest.raises(CommandError, match="not in the missile fire \\(8\\) phase"):
        Session(enc).execute("morale orcs")


def test_only_a_unit_that_lost_figures_owes_a_morale_test():
    s = Session(battle())
    s.execute("next force")
    with pytest.raises(CommandError, match="Orc warband owes no morale test"):
        s.execute("morale orcs")


def test_no_more_held_casualties_than_figures_nor_figures_fired_than_the_unit_had():
    """A kill is held on a figure of the target ("one enemy figure is killed"); "each
    figure may only fire once per turn": every path that sets a unit's values holds both."""
    s = Session(battle())
    before = history.state_of(s.enc)
    for line, said in (
        ("set orcs held_casualties=21",
         "held_casualties=21: must be at most 20 (the figures it has)"),
        ("set orcs figures_fired=21",
         "figures_fired=21: must be at most 20 (each figure fires once a turn)"),
        ("add unit Wolves side=Orcs strength=5 held_casualties=6",
         "held_casualties=6: must be at most 5 (the figures it has)"),
    ):
        with pytest.raises(CommandError) as err:
            s.execute(line)
        assert str(err.value) == said
    assert history.state_of(s.enc) == before
    s.execute("fire elves orcs range=short --dice d100=23")
    held = unit(s.enc, "orcs").held_casualties
    with pytest.raises(CommandError, match=f"strength={held - 1}: held_casualties is {held}"):
        s.execute(f"set orcs strength={held - 1}")
