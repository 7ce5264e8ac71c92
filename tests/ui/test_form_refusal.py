"""The action form says, while the GM types, that Enter would be refused and why (the
turn engine's refusals, what the rules refuse before any die), instead of saying Enter
takes it; the line follows each field as it changes."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tests.ui.keys import command, type_text
from tests.ui.test_app import app_on_sample
from tests.ui.test_round_by_keys import to_the_injury_dialog
from tests.ui.test_short_forms import app_on
from tests.ui.wait import on_top, settled, until
from tracker.ui.app import TrackerApp
from tracker.ui.screens.picker import PickerScreen
from tracker.ui.screens.resolve import ResolveScreen


def odds_line(app: TrackerApp) -> str:
    return str(app.screen.query_one("#odds", Static).render())


async def form_says(app: TrackerApp, pilot) -> str:  # type: ignore[no-untyped-def]
    await settled(pilot)
    screen = app.screen
    assert isinstance(screen, ResolveScreen)
    await until(pilot, lambda: screen.odds_settled, "the form's line")
    return odds_line(app)


async def test_harn_injury_with_no_level_does_not_say_enter_takes_it(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "harn-nolora-point-blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_injury_dialog(pilot, app)
        said = await form_says(app, pilot)
        assert "Enter takes it" not in said, said
        assert said == "reads, but Enter is refused: injury: level= is required (e.g. S2p)"
        await pilot.press("tab")  # to the level
        await type_text(pilot, "S2p")
        said = await form_says(app, pilot)
        assert said == "the form reads, no dice to roll: Enter takes it", said


async def test_warmaster_shoot_form_says_a_confused_shooter_is_refused(tmp_path: Path) -> None:
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await command(pilot, "set 'Archers II' confused=yes")
        await pilot.press("home")  # Archers I, who may shoot
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, PickerScreen), "the action list")
        await pilot.press("s", "enter")
        said = await form_says(app, pilot)
        assert app.screen.values()["actor"] == "Archers I"  # type: ignore[attr-defined]
        assert not said.startswith("reads, but Enter is refused"), said
        box = app.screen.query_one("#f-actor")
        box.focus()
        await pilot.press("ctrl+u")
        await type_text(pilot, "Archers II")
        said = await form_says(app, pilot)
        assert said.startswith("reads, but Enter is refused: Archers II is confused: it does"
                               " not shoot (setting confused_shoot)\n"), said
        await pilot.press("enter")  # refused as the line said: nothing is taken
        await settled(pilot)
        assert isinstance(app.screen, ResolveScreen)
        assert not app.session.enc.find_unit("Archers II").shot


async def test_warlord_holdfire_is_offered_for_a_unit_holding_its_fire_order_then_greyed(
        tmp_path: Path) -> None:
    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("home")  # the wood elf guards, who have fired
        await pilot.press("f")
        picker = await on_top(pilot, PickerScreen)
        # the goblin archers and the longbowmen still hold theirs
        assert "holdfire" not in picker.refused and "fire" not in picker.refused
        await pilot.press("escape")
        await settled(pilot)
        await command(pilot, "holdfire Human")
        await command(pilot, "holdfire Morgab")
        await pilot.press("f")
        picker = await on_top(pilot, PickerScreen)
        assert picker.refused["holdfire"] == ("no unit holds a fire order: there is no"
                                              " counter to take off")
        assert picker.refused["fire"] == ("no unit can fire now: none holds a fire order"
                                          " with a missile weapon and figures left to fire")
