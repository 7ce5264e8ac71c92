"""A whole Warmaster shooting phase by keys: three shooters, two targets, drive backs."""

from __future__ import annotations

import shutil

from tests.conftest import SAVES
from tests.ui.keys import command, type_text
from tracker.session.opening import load, open_encounter
from tracker.ui.app import TrackerApp
from tracker.ui.screens.dice import DiceScreen
from tracker.ui.screens.resolve import ResolveScreen


async def fill_field(pilot, app, name: str, value: str) -> None:
    """Tab to a field of the open dialog (keys only) and replace its value."""
    screen = app.screen
    assert isinstance(screen, ResolveScreen)
    for _ in range(60):
        if screen.focused is not None and screen.focused.id == f"f-{name}":
            break
        await pilot.press("tab")
    else:
        raise AssertionError(f"no field {name}")
    await pilot.press("ctrl+a", "ctrl+k")
    await type_text(pilot, value)


async def test_a_whole_shooting_phase_ends_with_the_roster_the_rules_give(tmp_path):
    path = tmp_path / "wm.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)
    app = TrackerApp(open_encounter(path), theme="tracker-dark")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        # Archers I is under the cursor; the first action is shoot
        await pilot.press("f", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen)
        await fill_field(pilot, app, "target", "Empire Knights")
        await fill_field(pilot, app, "shooters", "Archers II")
        await pilot.press("enter")
        await pilot.pause()
        # the dice step: the hits, then one save per hit
        assert isinstance(app.screen, DiceScreen), app.screen
        await type_text(pilot, "124566")
        await pilot.press("enter")
        await type_text(pilot, "2456")
        await pilot.press("enter")
        await pilot.pause()
        if isinstance(app.screen, ResolveScreen):
            raise AssertionError(str(app.screen.query_one("#form-error").render()))
        knights = app.session.enc.find_unit("Empire Knights")
        assert (knights.hits, knights.leftover_hits, knights.strength) == (1, 1, 3)

        # the Bolt Thrower (two stands of shooting 2) at the defended Halberdiers
        await command(pilot, "shoot 'Bolt Thrower' Halberdiers --dice hit=6,6,6,6 save=1,1,1,6")
        halberdiers = app.session.enc.find_unit("Halberdiers")
        assert (halberdiers.strength, halberdiers.hits, halberdiers.leftover_hits) == (2, 3, 0)
        assert halberdiers.casualties_total == 1

        # end of phase: Knights 1 die, Halberdiers (defended, first hit ignored) 2 dice
        await command(pilot, "endphase --dice drive=3,2,4")
        await pilot.press("q")

    enc = load(path)
    knights, halberdiers = enc.find_unit("Empire Knights"), enc.find_unit("Halberdiers")
    assert (knights.driven_back, knights.confused, knights.routed) == (3, False, False)
    # the odd hits stay until the phase ends (the drive backs come before they are discounted)
    assert (knights.hits, knights.leftover_hits, knights.strength) == (1, 1, 3)
    assert (halberdiers.driven_back, halberdiers.strength, halberdiers.leftover_hits) == (6, 2, 0)
    assert not halberdiers.routed
    shooters = [enc.find_unit(n) for n in ("Archers I", "Archers II", "Bolt Thrower")]
    assert all(u.strength == u.strength_start for u in shooters)
    assert [e.kind for e in enc.log[-3:]] == ["shoot", "shoot", "endphase"]


async def test_shooting_in_the_combat_phase_is_refused_before_the_form(tmp_path):
    """The action list still lists shoot, but taking it in the combat phase says why at
    once: no form to fill in first."""
    path = tmp_path / "wm.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)
    app = TrackerApp(open_encounter(path), theme="tracker-dark")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await command(pilot, "next phase")  # the High Elves' combat phase
        await pilot.press("f", "enter")  # shoot
        await pilot.pause()
        assert not isinstance(app.screen, ResolveScreen)
        assert app._status_text.startswith(
            "shoot is taken in the shooting or movement phase, not in the combat phase")
        await pilot.press("q")


async def test_the_end_of_phase_shows_the_units_it_drives_back_as_rows(tmp_path):
    from textual.widgets import Static

    from tests.ui.wait import settled, until

    path = tmp_path / "wm.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)
    app = TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await command(pilot, "shoot 'Bolt Thrower' Halberdiers --dice hit=6,6,6,6 save=1,1,1,6")
        await command(pilot, "shoot 'Archers I' Handgunners --dice hit=6,6,1")
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the end of phase")
        await settled(pilot)
        # one row a unit, in words; not NAME:HITS:PACE items joined in one box
        assert app.screen.query_one("#f-units").value == ""
        rows = str(app.screen.query_one("#records", Static).render()).splitlines()
        assert rows[1:] == ["  Halberdiers: hits 3 · pace 20 · defended",
                            "  Handgunners: hits 2 · pace 20 · open"]
        # the dice step: the defended Halberdiers disregard the first of 3 hits (2 dice),
        # then the Handgunners' 2
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DiceScreen), "the dice step")
        await type_text(pilot, "11")
        await pilot.press("enter")
        await type_text(pilot, "11")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.enc.log[-1].kind == "endphase", "the drive back")
        assert app.session.enc.find_unit("Halberdiers").driven_back == 2
        assert app.session.enc.find_unit("Handgunners").driven_back == 2
