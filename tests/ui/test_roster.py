"""What the roster's State column says of a unit."""

from __future__ import annotations

from tests.ui.wait import settled, until
from tracker import rules
from tracker.rules.warmaster.model import WarmasterUnit as Unit
from tracker.ui.grid import plain
from tracker.ui.panes.roster import unit_state

WARMASTER = rules.get("warmaster")


def test_a_unit_in_play_shows_each_of_its_states_in_order():
    unit = Unit(id="u1", name="Archers", side="Empire", engaged=True, confused=True,
                driven_back=6, conditions=["shaken"])
    assert unit_state(unit, WARMASTER) == "engaged, confused: no move, back 6, shaken"


def test_a_removed_unit_shows_removed_and_the_gms_notes_not_its_last_states():
    unit = Unit(id="u1", name="Archers", side="Empire", removed=True, routed=True,
                confused=True, driven_back=6, conditions=["fled north"])
    assert unit_state(unit, WARMASTER) == "removed, fled north"


async def test_a_change_remakes_only_the_rows_of_the_units_it_touched(tmp_path):
    """In a roster of 300 units a shot remakes the rows of the two units it changed;
    the table shows their new values, and an undo puts them back the same way."""
    from tracker.rules.warmaster.model import WarmasterEncounter
    from tracker.session.opening import open_encounter
    from tracker.store import save_encounter
    from tracker.ui.app import TrackerApp
    from tracker.ui.panes.roster import RosterPane

    enc = WarmasterEncounter(name="Field", ruleset="warmaster", units=[
        Unit(id="archers", name="Archers", side="elves", strength=3, strength_start=3),
        Unit(id="knights", name="Knights", side="empire", strength=3, strength_start=3),
    ])
    enc.units += [Unit(id=f"u{i}", name=f"Unit {i}", side="orcs") for i in range(298)]
    path = tmp_path / "field.toml"
    save_encounter(enc, path)
    made: list[str] = []
    cells = RosterPane.cells

    def counted(self, unit):  # type: ignore[no-untyped-def]
        made.append(unit.id)
        return cells(self, unit)

    app = TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(RosterPane).table
        await until(pilot, lambda: table.row_count == 300, "the roster's 300 rows")
        RosterPane.cells = counted  # type: ignore[method-assign]
        try:
            assert app.run_line("set u150 hits=2") is None
            assert made == ["u150"]
            assert table.get_row("u150")[3] == "2"
            made.clear()
            assert app.run_line("undo") is None
            assert made == ["u150"] and table.get_row("u150")[3] == ""
            made.clear()
            assert app.run_line("note nothing on the roster") is None
            assert made == []
            assert app.run_line("add unit Reserves") is None  # units come: all rows anew
            await until(pilot, lambda: table.row_count == 301, "the roster's 301 rows")
            assert len(made) == 301
        finally:
            RosterPane.cells = cells  # type: ignore[method-assign]


async def test_an_encounter_of_units_only_still_draws_its_empty_combatants_pane(tmp_path):
    from tests.conftest import battle
    from tracker.session.opening import open_encounter
    from tracker.store import save_encounter
    from tracker.ui.app import TrackerApp

    path = tmp_path / "field.toml"
    save_encounter(battle(), path)
    app = TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        # a plain encounter of units only: the combatants pane, empty, still draws
        assert "a: add a combatant" in str(app.query_one("#combatants").border_subtitle)


async def test_a_new_sort_or_filter_keeps_what_the_sequence_says_of_each_unit(tmp_path):
    """"to fire" (a duty of the missile phase) stays in the State column through o and v."""
    from tests.conftest import app_on_copy
    from tracker.ui.panes.roster import RosterPane

    async with app_on_copy(tmp_path, "warlord-wood-elves.toml").run_test() as pilot:
        pane = pilot.app.query_one(RosterPane)
        for key in ("", "o", "v"):  # as opened, sorted by side, the elves only
            if key:
                await pilot.press(key)
            shown = [c.key for c in pane.table.grid.columns]
            rows = [dict(zip(shown, map(plain, pane.table.get_row(k)), strict=True))
                    for k in pane.table.grid.keys]
            assert {"name": "Human longbowmen", "state": "to fire"}.items() <= next(
                r for r in rows if r["name"] == "Human longbowmen").items(), key


async def test_the_warlord_profile_names_races_as_the_gms_own_sheet_names_them(tmp_path):
    """A profile sheet of the GM's own (``setting profiles=``) names the wood elves
    otherwise: the roster's profile line says the sheet's name, at once."""
    import shutil
    from pathlib import Path

    from tracker.session.opening import open_encounter
    from tracker.ui.app import TrackerApp
    from tracker.ui.panes.roster import RosterPane

    saves = Path(__file__).resolve().parents[2] / "saves"
    path = tmp_path / "elves.toml"
    shutil.copy(saves / "warlord-wood-elves.toml", path)
    sheet = (Path(rules.__file__).parent / "warlord" / "profiles.toml").read_text()
    (tmp_path / "sheet.toml").write_text(sheet.replace('name = "Wood elves"',
                                                       'name = "Sylvan archers"', 1))
    app = TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)
    async with app.run_test(size=(160, 40)) as pilot:
        await settled(pilot)
        roster = app.query_one(RosterPane)
        guards = next(u for u in app.session.enc.units if u.race == "wood_elf")
        profile = [c.key for c in roster.roster.columns].index("profile")

        def shown() -> str:
            return plain(roster.table.get_row(guards.id)[profile])

        assert shown().startswith("Wood elves, ")
        assert app.run_line("setting profiles=sheet.toml") is None
        await until(pilot, lambda: shown().startswith("Sylvan archers, "), "the sheet's name")
        assert app.run_line("undo") is None
        await until(pilot, lambda: shown().startswith("Wood elves, "), "the shipped name")
