"""An action no one in play can take is greyed in the action list with the reason, and
refused at the `:` line in the same words (``force=yes`` takes it anyway), before any
form is filled: a drive back with no unit hit, a shot with no missile weapon on the
table, a morale test no casualties forced."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAVES
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session


def session_of(tmp_path: Path, sample: str) -> Session:
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return Session(load(path), path)


def why(s: Session, action: str) -> str:
    return s.why_not(s.ruleset.action(action), None)


NO_DRIVE_BACK = "no unit in play took hits this phase and is yet to be driven back"


def test_a_warmaster_drive_back_is_offered_while_a_unit_hit_awaits_one(tmp_path):
    s = session_of(tmp_path, "warmaster-river-crossing.toml")
    assert why(s, "driveback") == NO_DRIVE_BACK
    with pytest.raises(CommandError, match=f"{NO_DRIVE_BACK}; add force=yes"):
        s.execute("driveback Handgunners hits=1")
    s.execute("shoot 'Archers I' Handgunners --dice hit=4,5,6")  # three hits, no save
    assert why(s, "driveback") == ""
    s.execute("driveback Handgunners --dice drive=2,3,1")
    assert why(s, "driveback") == NO_DRIVE_BACK  # driven back once a phase


def test_a_d6battle_shot_needs_a_missile_weapon_on_the_table(tmp_path):
    s = session_of(tmp_path, "d6battle-crossbow-duel.toml")
    s.execute("next round force")  # round 3's shoot phase
    assert why(s, "shoot") == ""
    for name in ("Longbowmen", "Genoese Crossbowmen"):
        s.execute(f"set \"{name}\" removed=yes")
    assert why(s, "shoot") == "no unit in play has a missile weapon"
    assert why(s, "morale") == ("no unit in play owes a morale test (shooting casualties force "
                                "one)")


def test_warlord_fire_orders_and_morale_tests(tmp_path):
    s = session_of(tmp_path, "warlord-wood-elves.toml")
    assert why(s, "fire") == why(s, "holdfire") == ""
    for unit in s.enc.units:
        s.execute(f"set \"{unit.name}\" orders=")
    assert why(s, "holdfire") == "no unit in play holds a fire order counter"
    assert why(s, "fire") == ("no unit in play has a missile weapon and its fire order "
                              "counter")
    s.execute("holdfire 'Orc warband' force=yes")  # the GM may still force it
