"""The add and edit forms honour each field's domain: a value outside it is said in the
form, in one line, the form stays open and nothing is added or changed."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Label

from tests.ui.test_short_forms import app_on


async def type_into(pilot, screen, name: str, text: str) -> None:  # type: ignore[no-untyped-def]
    box = screen.query_one(f"#f-{name}", Input)
    box.focus()
    await pilot.pause()
    await pilot.press("ctrl+u", *text)


async def test_the_add_form_refuses_a_warmaster_armour_of_9(tmp_path: Path) -> None:
    from tracker.ui.screens.form import FormScreen

    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        units = len(app.session.enc.units)
        entries = len(app.session.enc.log)
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FormScreen)
        await pilot.press(*"Guard")
        await type_into(pilot, screen, "armour", "9")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen  # still open, to put right
        error = str(screen.query_one("#form-error", Label).render())
        assert error == "armour=9: Warmaster armour is 3 to 6 (a save of 3+ to 6+), or none"
        assert (len(app.session.enc.units), len(app.session.enc.log)) == (units, entries)
        screen.show_error("shoot: did not expect 'I' (shoot [actor=…] [target=…])")
        await pilot.pause()  # a refusal quoting a usage is text, not markup
        assert "[actor=…]" in str(screen.query_one("#form-error", Label).render())
        await type_into(pilot, screen, "armour", "5")
        # what Enter said was of the form as it was: a change puts it away
        assert str(screen.query_one("#form-error", Label).render()) == ""
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is not screen
        guard = app.session.enc.find_unit("Guard")
        assert (guard.armour, guard.pace) == (5, 20)  # an infantry unit's pace


async def test_the_edit_form_refuses_hits_per_stand_0(tmp_path: Path) -> None:
    from tracker.ui.screens.form import FormScreen

    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.query_one("#roster-table")
        table.focus()
        table.select_key(app.session.enc.find_unit("Spearmen").id)  # type: ignore[attr-defined]
        await pilot.pause()
        before = app.session.enc.find_unit("Spearmen").model_dump()
        await pilot.press("e")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FormScreen)
        await type_into(pilot, screen, "hits_per_stand", "0")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        error = str(screen.query_one("#form-error", Label).render())
        assert error == "hits_per_stand=0: must be at least 1"
        assert app.session.enc.find_unit("Spearmen").model_dump() == before


async def test_a_refusal_that_quotes_brackets_is_shown_as_written(tmp_path: Path) -> None:
    """The usage a refusal quotes (``[actor=…]``) is text, not markup: the app stays up."""
    from textual.widgets import Static

    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        problem = app.run_line("shoot archers-i archers-ii I")
        assert problem is not None and "[actor=…]" in problem
        await pilot.pause()
        shown = str(app.query_one("#status", Static).render())
        assert shown.startswith("shoot: did not expect 'I' (shoot [actor=…]")
        assert app.is_running


async def test_a_creature_from_the_bestiary_joins_its_own_side_unless_the_gm_changes_it(
    tmp_path: Path,
) -> None:
    """The add form offers the side first on the table (the party here); an Orc of the
    bestiary (side foes) joins the foes unless the GM types another side."""
    from tracker.ui.screens.form import FormScreen

    app = app_on(tmp_path, "plain-goblin-ambush.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for name, side, joins in (("Orc", None, "foes"), ("Ogre", "cave", "cave"),
                                  ("Brother Tuck", None, "party")):
            await pilot.press("a")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FormScreen)
            assert screen.query_one("#f-side", Input).value == "party"
            await pilot.press(*name)
            if side is not None:
                await type_into(pilot, screen, "side", side)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is not screen
            assert app.session.enc.find_combatant(name).side == joins, name
