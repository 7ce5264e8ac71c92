"""Add and edit forms ask first what a GM fills in at the table; the rest waits behind
ctrl+o. No form shows a placeholder number or a Python value."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tracker.ui.screens.form import show_value

SAVES = Path(__file__).resolve().parents[2] / "saves"


def test_a_unit_the_encounter_fills_in_shows_as_it_is_typed_without_its_id():
    units = ({"id": "archers-i", "name": "Archers I", "hits": 2, "pace": 20,
              "position": "open", "engaged": False},
             {"id": "spear", "name": "Spearmen", "hits": 1, "pace": 20,
              "position": "defended", "engaged": True})
    assert show_value(units) == "Archers I:2:20:open,Spearmen:1:20:defended:engaged"
    assert show_value(None) == "" and show_value(True) == "yes"


def app_on(tmp_path: Path, sample: str):  # type: ignore[no-untyped-def]
    import shutil

    from tracker.session.opening import open_encounter
    from tracker.ui.app import TrackerApp

    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)


def shown(screen) -> list[str]:  # type: ignore[no-untyped-def]
    return [(box.id or "")[2:] for box in screen.query(Input)]


async def test_the_warlord_add_form_asks_its_own_fields_first_and_the_rest_on_ctrl_o(tmp_path):
    from tracker.ui.screens.form import FormScreen

    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FormScreen)
        assert shown(screen) == ["name", "side", "strength", "race", "weapon",
                                 "armour_class", "mounted", "morale_class", "pace",
                                 "ranks", "files", "orders"]
        assert "armour" not in shown(screen)  # another game's word is never asked
        await pilot.press(*"Elf scouts", "tab", "tab", "backspace", "8")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert {"held_casualties", "routed", "hidden"} <= set(shown(screen))
        await pilot.press("ctrl+s")
        await pilot.pause()
        unit = app.session.enc.find_unit("Elf scouts")
        assert (unit.name, unit.side, unit.strength) == ("Elf scouts", "elves", 8)


async def test_the_edit_form_shows_what_differs_from_a_fresh_unit(tmp_path):
    from tracker.ui.screens.form import FormScreen

    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.run_line("set Halberdiers hits=2") is None
        app.query_one("#roster-table").focus()
        table = app.query_one("#roster-table")
        table.select_key(app.session.enc.find_unit("Halberdiers").id)  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FormScreen)
        fields = shown(screen)
        assert fields[:3] == ["name", "side", "strength"]
        assert {"hits", "position", "armour", "pace"} <= set(fields)
        assert "confused" not in fields  # as a fresh unit: behind ctrl+o
        await pilot.press("escape")


async def test_a_value_the_encounter_leaves_open_reads_from_the_roster(tmp_path):
    from tracker.ui.screens.resolve import ResolveScreen

    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("E")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ResolveScreen)
        units = screen.query_one("#f-units", Input)
        assert units.value == ""  # no unit is hit: the box says the roster has none
        assert units.placeholder.startswith("none on the roster: units hit")
        await pilot.press("escape")
        assert app.run_line("set Halberdiers hits=2") is None
        await pilot.press("E")
        await pilot.pause()
        units = app.screen.query_one("#f-units", Input)
        pace = app.session.enc.find_unit("Halberdiers").pace  # type: ignore[attr-defined]
        # the units the roster gives are rows under the fields, not a list in the box
        assert units.value == ""
        rows = str(app.screen.query_one("#records").render()).splitlines()
        assert rows[1:] == [f"  Halberdiers: hits 2 · pace {pace} · defended"]


async def test_an_empty_box_the_roster_fills_says_it_has_none_once_the_target_is_named(tmp_path):
    """harn's range: the roster gives the range last measured to that target, in the box;
    a newcomer has none, and the empty box says so rather than "or from the roster"."""
    from tracker.ui.screens.resolve import ResolveScreen

    app = app_on(tmp_path, "harn-nolora-point-blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.run_line("load Nolora") is None
        app.open_action("shoot")
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen)
        assert app.screen.query_one("#f-range", Input).value == "20"  # her first shot's
        await pilot.press("escape")
        for line in ("remove Sentry", "add combatant Sentry side=brigands initiative=60"):
            assert app.run_line(line) is None
        app.open_action("shoot")
        await pilot.pause()
        box = app.screen.query_one("#f-range", Input)
        assert (box.value, box.placeholder) == ("", "none on the roster: feet to the target")
        await pilot.press("escape")
        app.open_action("shoot", at="")  # no target named yet: the roster may still give it
        await pilot.pause()
        box = app.screen.query_one("#f-range", Input)
        assert box.placeholder == "feet to the target, or from the roster"


def test_a_field_of_a_few_words_names_them_under_the_form():
    """Warlord's morale result takes passed or failed: the line under the form says so
    while the field has the focus; a help that names its words already is left as it is."""
    from tracker import rules
    from tracker.ui.screens.resolve_text import field_help

    morale = {p.name: p for p in rules.get("warlord").actions["morale"].params}
    assert field_help(morale["result"]) == "what the test gave: passed or failed"
    terrain = {p.name: p for p in rules.get("edc").actions["terrain"].params}
    assert field_help(terrain["gain"]) == "what success gives: none or higher_footing"
    assert field_help(terrain["terrain"]).endswith("limited_room or pressing, or empty")
    shoot = {p.name: p for p in rules.get("harn").actions["shoot"].params}
    assert field_help(shoot["object"]) == shoot["object"].help  # its words are in it


def test_an_empty_box_says_what_empty_means_where_its_help_says_it():
    """Warmaster's more shooters: empty is none more, not a value the roster lacks;
    harn's overhead: empty is the open sky; harn's range is the roster's, and empty once
    the target is named means it has none."""
    from tracker import rules
    from tracker.ui.screens.resolve_text import field_hint, roster_hint

    shoot = {p.name: p for p in rules.get("warmaster").actions["shoot"].params}
    for hint in (field_hint, roster_hint):
        assert hint(shoot["shooters"]) == "more shooting units, one batch (default: none)"
    harn = {p.name: p for p in rules.get("harn").actions["shoot"].params}
    assert roster_hint(harn["overhead"]) == "overhead clearance in feet (none: open sky)"
    assert field_hint(harn["range"]) == "feet to the target, or from the roster"
    assert roster_hint(harn["range"]) == "none on the roster: feet to the target"
