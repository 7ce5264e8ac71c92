"""Every screen and dialog of every sample (and the plain skirmish) at 80x24, then resized
to 120x40:
no visible "…" in the status line (a message too long for it says ``m`` instead), no row
of a log entry wrapped to the pane's first column, and nothing drawn outside its frame."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from tests.conftest import SAMPLES as ENCOUNTERS
from tests.conftest import SAVES
from tests.ui.scenes import plain_app
from tests.ui.wait import settled
from tracker.ui.logview import LogView

SAMPLES = [*sorted(ENCOUNTERS), "plain"]
KEYS = ("f", "a", "e", "s", "t", "question_mark", "x", "E", "w", "m")
"""The keys that open a screen or a dialog from the main screen."""


def status_line(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.query_one("#status", Static).render())


def check_main(app) -> None:  # type: ignore[no-untyped-def]
    status = status_line(app).replace("saving…", "")
    assert "…" not in status, status
    for view in app.query(LogView):  # one row an entry: each row starts with its round
        for row in view.lines:
            assert row.plain[:1] == "r" and row.plain[1:2].isdigit(), row.plain
            assert row.cell_len <= view.size.width, row.plain
    check_frames(app.screen)


def inside(widget: Widget, frame: Widget) -> bool:
    return frame.region.contains_region(widget.region)


def scrolled(widget: Widget) -> bool:
    """Whether the widget is in a container that scrolls (and clips what it holds)."""
    return any(isinstance(a, Widget) and (a.allow_vertical_scroll or a.allow_horizontal_scroll)
               for a in widget.ancestors)


def check_frames(screen) -> None:  # type: ignore[no-untyped-def]
    """Every widget shown lies inside the screen, and inside its parent's region (but
    what a container scrolls through)."""
    for widget in screen.query("*"):
        if not widget.display or not widget.region.area or scrolled(widget):
            continue
        assert screen.region.contains_region(widget.region), (widget, widget.region)
        parent = widget.parent
        if isinstance(parent, Widget) and parent.region.area and not parent.is_scrollable:
            assert inside(widget, parent), (widget, widget.region, parent, parent.region)


def app_for(sample: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    if sample == "plain":
        return plain_app(tmp_path)
    from tracker.session.opening import open_encounter
    from tracker.ui.app import TrackerApp

    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)


SIZES = ((80, 24), (120, 40))
"""The sizes walked, in one app per sample resized to each, as a GM's terminal is."""


async def resize(pilot, app, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    await pilot.resize_terminal(*size)
    await settled(pilot)
    assert (app.size.width, app.size.height) == size


@pytest.mark.parametrize("sample", SAMPLES)
async def test_every_screen_and_dialog_reads_whole_inside_its_frame(tmp_path, sample):
    app = app_for(sample, tmp_path)
    first, *others = SIZES
    async with app.run_test(size=first) as pilot:
        await settled(pilot)
        focused = app.focused  # where the keys go as the app opens
        for size in others:  # the main screen as it opens, at each size
            check_main(app)
            await resize(pilot, app, size)
        check_main(app)
        await resize(pilot, app, first)
        app.run_line("next phase")  # a refusal, or a step on: either is said in words
        await settled(pilot)
        await walk(pilot, app)
        for size in others:  # the same encounter (every dialog closed changed nothing)
            await resize(pilot, app, size)
            app.set_focus(focused)
            await walk(pilot, app)


async def walk(pilot, app) -> None:  # type: ignore[no-untyped-def]
    """The main screen, each screen and dialog its keys open, and the marked log entry."""
    check_main(app)
    opened = 0
    for key in KEYS:
        await pilot.press(key)
        await settled(pilot)
        if isinstance(app.screen, ModalScreen):
            opened += 1
            check_frames(app.screen)
            if key == "f":  # the action picker, then the first action's dialog
                await pilot.press("enter")
                await settled(pilot)
                check_frames(app.screen)
            while isinstance(app.screen, ModalScreen):
                await pilot.press("escape")
                await settled(pilot)
        check_main(app)
    app.query_one(LogView).focus()
    await pilot.press("enter")  # the marked entry whole
    await settled(pilot)
    if app.session.enc.log:
        assert isinstance(app.screen, ModalScreen)
        check_frames(app.screen)
        await pilot.press("escape")
        await settled(pilot)
    assert opened >= 6
