"""Snapshots of what the sequence of play puts on screen at 80x24: the header keeps round,
phase and who acts whole under a long encounter name, and rows carry what each unit did
this phase and what it still owes it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAVES
from tests.snapshots.test_snapshots import SAMPLES, steady
from tracker.session.opening import load, open_encounter
from tracker.store import save_encounter
from tracker.ui.app import TrackerApp

LONG = "The long and bloody afternoon at the ford of the river Aubrac, second attempt"


def long_named(sample: str, tmp_path: Path) -> TrackerApp:
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    enc = load(path)
    enc.name = LONG
    save_encounter(enc, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)


@pytest.mark.parametrize("sample", SAMPLES)
def test_header_with_a_long_name_at_80x24(snap_compare, tmp_path, sample):
    assert snap_compare(long_named(sample, tmp_path), terminal_size=(80, 24))


def test_roster_with_acted_and_pending_markers(snap_compare, tmp_path):
    path = tmp_path / "river.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)
    app = TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)

    async def shoot(pilot) -> None:
        app.run_line('shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
        await steady(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=shoot)
