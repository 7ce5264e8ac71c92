"""Keys that behave the same everywhere: the first arrow after any dialog closes moves
the cursor, and Tab leaves a filled field of an action's dialog."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from tests.ui.test_short_forms import app_on
from tests.ui.wait import settled, until
from tracker.ui.app import MainScreen
from tracker.ui.screens.picker import PickerScreen
from tracker.ui.screens.resolve import ResolveScreen

OPEN_AND_CLOSE = [
    ("question_mark", "escape"), ("a", "escape"), ("f", "escape"), ("s", "escape"),
    ("t", "escape"), ("R", "escape"), ("x", "n"), ("x", "enter"), ("E", "escape"),
    ("colon", "escape"),
]


@pytest.mark.parametrize(("opens", "closes"), OPEN_AND_CLOSE)
async def test_the_first_arrow_after_a_dialog_closes_moves_the_cursor(tmp_path, opens, closes):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        table = app.query_one("#roster-table")
        first = table.selected_key
        await pilot.press(opens)
        await settled(pilot)
        await pilot.press(closes)
        await until(pilot, lambda: isinstance(app.screen, MainScreen), "the main screen")
        await settled(pilot)
        await pilot.press("down")
        await settled(pilot)
        assert app.focused is table and table.selected_key != first, opens


@pytest.mark.parametrize("sample", ["warmaster-river-crossing.toml", "edc-roland-press.toml",
                                    "d6battle-crossbow-duel.toml", "warlord-wood-elves.toml",
                                    "harn-nolora-volley.toml"])
async def test_tab_leaves_the_filled_target_field(tmp_path, sample):
    app = app_on(tmp_path, sample)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, PickerScreen), "the action list")
        picker = app.screen
        actions = app.session.ruleset.actions
        # the first action it may take now that names a target
        name = next(key for key, _ in picker.items if key not in picker.refused
                    and any(p.kind == "target" for p in actions[key].params))
        options = picker.query_one(OptionList)
        while picker.items[options.highlighted][0] != name:
            await pilot.press("down")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the action's dialog")
        await settled(pilot)
        screen = app.screen
        target = next(p.name for p in screen.action.params if p.kind == "target")
        for _ in range(40):
            if screen.focused is not None and screen.focused.id == f"f-{target}":
                break
            await pilot.press("tab")
        assert screen.focused.value, "the target is filled in"
        await pilot.press("tab")
        await settled(pilot)
        assert screen.focused.id != f"f-{target}"
