"""Every pane and dialog of every sample at 80x24: the header keeps where the fight stands
whole, no table header or row's name, strength or state is cut, and no dialog line is
cut (a long one wraps); no field holds a placeholder -1 or a Python value."""

from __future__ import annotations

import shutil

import pytest
from rich.text import Text
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from tests.conftest import SAMPLES, SAVES
from tests.ui.wait import settled
from tracker.ui.table import SyncTable

WHOLE = {"roster-table": ("name", "strength", "state"),
         "combatants-table": ("now", "name", "state")}
"""The columns of each table that always show whole."""
DIALOG_KEYS = ("f", "a", "e", "s", "t", "question_mark", "x", "E")


def plain(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def check_tables(app) -> None:  # type: ignore[no-untyped-def]
    for table in app.query(SyncTable):
        if table.id not in WHOLE:
            continue
        widths = table.grid.widths
        keys = [c.key for c in table.grid.columns]
        assert sum(widths.values()) <= table.size.width, table.id
        for c in table.grid.columns:  # every header shows whole
            assert len(c.title) + 2 <= widths[c.key], (table.id, c.key)
        for row in table.grid.keys:
            cells = dict(zip(keys, table.get_row(row), strict=True))
            for key in WHOLE[table.id]:
                if key in cells:
                    text = plain(cells[key])
                    assert len(text) + 2 <= widths[key], (table.id, key, text)


def check_dialog(screen) -> None:  # type: ignore[no-untyped-def]
    for box in screen.query(Input):  # never a placeholder number or a Python value
        assert box.value != "-1" and "{'" not in box.value, (box.id, box.value)
    right = screen.size.width
    for label in screen.query(Label):
        if not label.display or not label.region.width:
            continue
        text = plain(label.render())
        assert label.region.right <= right, text
        # a line longer than the label's width wraps onto as many lines as it needs
        lines = sum(max(1, -(-len(part) // label.content_region.width))
                    for part in text.split("\n")) if label.content_region.width else 1
        assert label.content_region.height >= lines or not text.strip(), (
            f"cut: {text!r} in {label.content_region.width}x{label.content_region.height}")


@pytest.mark.parametrize("sample", SAMPLES)
async def test_every_pane_and_dialog_of_a_sample_fits_80x24(tmp_path, sample):
    from tracker.session.opening import open_encounter
    from tracker.ui.app import TrackerApp
    from tracker.ui.topbar import TopBar, where_text

    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    app = TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        header = plain(app.query_one(TopBar).render())
        assert where_text(app.session) in header
        check_tables(app)
        opened = 0
        for key in DIALOG_KEYS:
            await pilot.press(key)
            await settled(pilot)
            if isinstance(app.screen, ModalScreen):
                opened += 1
                if key == "f":  # the action picker, then the first action's dialog
                    check_dialog(app.screen)
                    await pilot.press("enter")
                    await settled(pilot)
                check_dialog(app.screen)
                while isinstance(app.screen, ModalScreen):
                    await pilot.press("escape")
                    await pilot.pause()
        assert opened >= 6
