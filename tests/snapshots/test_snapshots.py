"""SVG snapshots of every pane and dialog, at 80x24 and 160x48, fixed seed and theme.

Review each changed SVG (the report pytest writes) before accepting it with
``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Input

from tests.conftest import SAMPLES, SAVES
from tests.ui.wait import until
from tracker.session.opening import open_encounter
from tracker.ui.app import TrackerApp
from tracker.ui.screens.resolve import ResolveScreen

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


async def steady(pilot) -> None:
    """Stop the text cursors blinking, so a snapshot never catches one mid-blink."""
    for screen in pilot.app.screen_stack:
        for box in screen.query(Input):
            box.cursor_blink = False
    await pilot.pause()


async def odds_shown(pilot) -> None:
    """Until the dialog on top shows the odds of its form as it stands (worked out in a
    thread)."""

    def shown() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, ResolveScreen) and screen.odds_settled

    await until(pilot, shown, "the dialog's odds")


def pressing(*keys: str):
    async def run_before(pilot) -> None:
        await pilot.press(*keys)
        await steady(pilot)

    return run_before


def app_on(sample: str, tmp_path: Path) -> TrackerApp:
    """The app on a copy of a sample (the status line shows only the file's name)."""
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", SAMPLES)
def test_main_screen(snap_compare, tmp_path, sample, size):
    assert snap_compare(app_on(sample, tmp_path), terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, tmp_path, size):
    app = app_on(SAMPLES[0], tmp_path)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=pressing("question_mark"))


@pytest.mark.parametrize("size", SIZES)
def test_add_form(snap_compare, tmp_path, size):
    app = app_on(SAMPLES[0], tmp_path)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=pressing("a"))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sample", SAMPLES)
def test_resolve_dialog(snap_compare, tmp_path, sample, size):
    app = app_on(sample, tmp_path)

    async def open_first_action(pilot) -> None:
        await pilot.press("f", "enter")
        await odds_shown(pilot)
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=open_first_action)


@pytest.mark.parametrize("size", SIZES)
def test_command_line_error(snap_compare, tmp_path, size):
    app = app_on(SAMPLES[0], tmp_path)
    keys = ["colon", *"fly", "space", *"away", "enter"]
    assert snap_compare(app, terminal_size=SIZES[size], run_before=pressing(*keys))
