"""SVG snapshots of the battle report screen (``R``) at 160x48 and 80x24: the d6battle
sample and one volley whose odds the journal kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.report.test_report import d6_session, volley
from tests.snapshots.test_snapshots import SIZES
from tests.ui.test_report_screen import open_report
from tracker.session.opening import open_encounter
from tracker.store import save_encounter
from tracker.ui.app import TrackerApp


def report_app(tmp_path: Path) -> TrackerApp:
    s = d6_session()
    volley(s)
    path = tmp_path / "duel.toml"
    save_encounter(s.enc, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)


@pytest.mark.parametrize("size", SIZES)
def test_report_screen(snap_compare, tmp_path, size):
    assert snap_compare(report_app(tmp_path), terminal_size=SIZES[size],
                        run_before=open_report)
