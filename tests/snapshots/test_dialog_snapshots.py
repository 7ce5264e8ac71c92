"""Snapshots of every dialog at 80x24 and 160x48: the action picker, confirm, the add and
edit forms (short, and with ctrl+o's further fields), settings, the theme picker, each
ruleset's end-of-phase dialog, and the player view."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAVES
from tests.snapshots.test_snapshots import SIZES, app_on, odds_shown, pressing, steady

DIALOGS = {
    "action-picker": ("f",),
    "confirm-remove": ("x",),
    "add-form": ("a",),
    "add-form-more": ("a", "ctrl+o"),
    "edit-form": ("e",),
    "settings": ("s",),
    "theme-picker": ("t",),
}
ON = {"unit": "warlord-wood-elves.toml", "combatant": "edc-roland-press.toml"}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("who", ON)
@pytest.mark.parametrize("dialog", DIALOGS)
def test_dialog(snap_compare, tmp_path, dialog, who, size):
    app = app_on(ON[who], tmp_path)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=pressing(*DIALOGS[dialog]))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["warlord-wood-elves.toml", "warmaster-river-crossing.toml"])
def test_end_of_phase_dialog(snap_compare, tmp_path, sample, size):
    app = app_on(sample, tmp_path)

    async def open_end_of_phase(pilot) -> None:
        await pilot.press("E")
        await odds_shown(pilot)
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=open_end_of_phase)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", ["edc-roland-press.toml", "warmaster-river-crossing.toml"])
def test_player_view(snap_compare, tmp_path, sample, size):
    from tracker.ui.watch import WatchApp

    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    app = WatchApp(Path(path), theme="tracker-dark", public=True)
    assert snap_compare(app, terminal_size=SIZES[size])
