"""Dialogs are kept between openings: a second opening is the same screen, showing what
a new one would (the encounter's values now, no earlier typing, the further fields put
away, the first field focused), and the dialogs' stylesheet is loaded once the first
screen is up, not with the first dialog's key."""

from __future__ import annotations

from pathlib import Path

from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList

from tests.ui.keys import burst, keys_for
from tests.ui.test_short_forms import app_on, shown
from tests.ui.wait import gone, on_top, settled, until
from tracker.ui.kept import STYLESHEETS
from tracker.ui.screens.form import FormScreen
from tracker.ui.screens.help import HelpScreen
from tracker.ui.screens.picker import PickerScreen
from tracker.ui.screens.resolve import ResolveScreen


async def _open(pilot, key: str):  # type: ignore[no-untyped-def]
    """The dialog ``key`` opens, once it is on top."""
    await pilot.press(key)
    return await on_top(pilot, ModalScreen)


async def _close(pilot) -> None:  # type: ignore[no-untyped-def]
    """Escape, until the dialog on top has closed."""
    dialog = pilot.app.screen
    assert isinstance(dialog, ModalScreen), dialog
    await pilot.press("escape")
    await gone(pilot, dialog)


def _box(screen, name: str) -> Input:  # type: ignore[no-untyped-def]
    return screen.query_one(f"#f-{name}", Input)


async def test_the_add_form_opens_again_as_new_without_what_was_typed(tmp_path: Path):
    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = await _open(pilot, "a")
        assert isinstance(first, FormScreen)
        short = shown(first)
        await pilot.press(*"Elf", "tab", "ctrl+o")
        await pilot.pause()
        assert len(shown(first)) > len(short)
        first.show_error("a message from before")
        await _close(pilot)

        again = await _open(pilot, "a")
        assert again is first and app.dialogs.reused == 1
        assert shown(again) == short  # the further fields are put away again
        assert _box(again, "name").value == ""
        assert again.focused is _box(again, "name")
        assert "ctrl+o" in str(again.query_one("#form-keys", Label).render())
        assert str(again.query_one("#form-error", Label).render()) == ""
        await pilot.press(*"Scouts", "ctrl+s")
        await pilot.pause()
        assert app.session.enc.find_unit("Scouts").side == "elves"


async def test_settings_show_the_encounter_s_value_now(tmp_path: Path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setting = app.session.ruleset.settings[0]
        form = await _open(pilot, "s")
        before = _box(form, setting.name).value
        await _close(pilot)
        choices = [c for c in (setting.choices or ("yes", "no")) if c != before]
        assert app.run_line(f"setting {setting.name}={choices[0]}") is None
        again = await _open(pilot, "s")
        assert again is form
        assert _box(again, setting.name).value == choices[0]


async def test_the_theme_list_marks_the_theme_chosen_since(tmp_path: Path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        picker = await _open(pilot, "t")
        assert isinstance(picker, PickerScreen)
        others = [key for key, _ in picker.items if key != app.theme]
        picker.query_one(OptionList).highlighted = [k for k, _ in picker.items].index(others[0])
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == others[0]
        again = await _open(pilot, "t")
        assert again is picker
        options = again.query_one(OptionList)
        assert options.highlighted_option is not None
        assert options.highlighted_option.id == others[0]
        labels = {o.id: str(o.prompt) for o in options.options}
        assert labels[others[0]].endswith("(current)")
        assert sum(label.endswith("(current)") for label in labels.values()) == 1


async def test_help_opens_again_from_the_top(tmp_path: Path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        help_ = await _open(pilot, "question_mark")
        assert isinstance(help_, HelpScreen)
        # the text comes right after the frame: every key, then the command language
        text = " ".join(str(w.render()) for w in help_.query("#help-body Static, Label"))
        assert "Command line" in text and app.session.help_lines()[0].split()[0] in text
        await pilot.press("end")
        await pilot.pause()
        await _close(pilot)
        again = await _open(pilot, "question_mark")
        assert again is help_
        assert again.query_one("#help-body").scroll_y == 0


async def test_the_end_of_phase_dialog_follows_the_encounter_again(tmp_path: Path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = await _open(pilot, "E")
        assert isinstance(dialog, ResolveScreen)
        box = dialog.query(Input).first()
        name = (box.id or "")[2:]
        filled = box.value
        await pilot.press("end", *"99")
        await pilot.pause()
        assert name in dialog.touched and box.value == filled + "99"
        await _close(pilot)
        again = await _open(pilot, "E")
        assert again is dialog
        assert _box(again, name).value == filled
        assert name not in again.touched and _box(again, name).has_class("follows")
        await until(pilot, lambda: again.odds_settled, "the odds of the form as it stands")
        assert str(again.query_one("#odds").render()) not in ("", "…")


async def test_edit_forms_for_units_with_other_fields_are_kept_side_by_side(
        tmp_path: Path):
    from tracker.ui.screens.edit import edit_form

    app = app_on(tmp_path, "d6battle-crossbow-duel.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("home")  # from the first unit (the cursor is on whoever acts)
        first = await _open(pilot, "e")
        await pilot.press("ctrl+o")
        await pilot.pause()
        await _close(pilot)
        for _ in range(len(app.session.enc.units) - 1):
            await pilot.press("down")
            await pilot.pause()
            form = await _open(pilot, "e")
            unit = app.session.enc.find_unit(app._selected_name()[1])
            new = edit_form(app.session, "unit", unit.id, app.run_command)
            # the rows a new form would show for this unit, in its order, with its values
            assert shown(form) == [f.name for f in new.fields if not f.more]
            assert [box.value for box in form.query(Input)] == [
                f.value for f in new.fields if not f.more]
            labels = str(form.query_one(".field-labels", Label).render()).split("\n")
            assert labels == [f.label or f.name for f in new.fields if not f.more]
            assert str(form.query_one(".dialog-title", Label).render()) == f"Edit {unit.name}"
            await _close(pilot)
        assert isinstance(first, FormScreen)
        for _ in range(len(app.session.enc.units) - 1):
            await pilot.press("up")
        await pilot.pause()
        again = await _open(pilot, "e")  # the first unit again: its form was kept
        unit = app.session.enc.units[0]
        assert again is first and shown(again) == [
            f.name for f in edit_form(app.session, "unit", unit.id, app.run_command).fields
            if not f.more]


async def test_the_dialog_stylesheet_is_one_of_the_apps_own(tmp_path: Path):
    """Loaded with the app's at start: a dialog's first opening parses no stylesheet
    and restyles nothing of the main screen."""
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert {str(p) for p in STYLESHEETS} <= {str(p) for p in app.css_path}
        screen = await _open(pilot, "a")
        assert [str(p) for p in screen.css_path] == [str(p) for p in STYLESHEETS]


async def test_the_action_picker_opens_again_on_its_first_action(tmp_path: Path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        picker = await _open(pilot, "f")
        assert isinstance(picker, PickerScreen)
        await pilot.press("down", "down")
        await pilot.pause()
        assert picker.query_one(OptionList).highlighted == 2
        await _close(pilot)
        again = await _open(pilot, "f")
        assert again is picker and again.query_one(OptionList).highlighted == 0
        first = picker.items[0][0]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen) and app.screen.action.name == first


async def test_a_form_opened_again_says_what_its_first_field_is_for(tmp_path: Path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = await _open(pilot, "a")
        said = str(form.query_one("#field-help", Label).render())
        assert said.startswith("name")
        await _close(pilot)
        again = await _open(pilot, "a")
        assert str(again.query_one("#field-help", Label).render()) == said


async def test_keys_typed_ahead_reach_a_kept_dialog_as_a_new_one(tmp_path: Path):
    app = app_on(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        forms = []
        for name in ("Nap quest", "Fexuw tN"):
            burst(app, "a", *keys_for(name), "tab", "tab", "1", "2")
            form = await on_top(pilot, FormScreen)
            await settled(pilot)
            assert app.screen is form
            forms.append(form)
            values = form.values()
            assert (values["name"], values["reflex"]) == (name, "12")
            await _close(pilot)
        assert forms[0] is forms[1]
        for _ in range(2):
            burst(app, "f", "k", "enter")  # the action picker, then the first starting k
            dialog = await on_top(pilot, ResolveScreen)
            await settled(pilot)
            assert app.screen is dialog
            assert dialog.action.name == "knockdown"
            await _close(pilot)
