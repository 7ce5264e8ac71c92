"""What joins the fight after the screen was made gets its pane at once: an army's units
in a skirmish get a roster, a hero added to a battle a combatants' table (they did only
at the next opening)."""

from __future__ import annotations

from tests.ui.keys import command
from tests.ui.test_app import app_on_sample
from tests.ui.wait import until
from tracker.ui.table import SyncTable
from tracker.ui.watch import WatchApp


def rows(app, table_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    table = app.query_one(f"#{table_id}", SyncTable)
    return [" ".join(map(str, table.get_row(key))) for key in table.grid.keys]


async def test_a_unit_added_to_a_skirmish_shows_in_a_roster_under_the_combatants(tmp_path):
    app = app_on_sample(tmp_path, "plain-goblin-ambush.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.query("#roster")
        await command(pilot, "add unit Wolves side=foes strength=6 strength_start=6")
        await until(pilot, lambda: app.query("#roster-table"), "the roster to join")
        await until(pilot, lambda: any("Wolves" in r for r in rows(app, "roster-table")),
                    "the wolves in the roster")
        left = app.query_one("#left")
        assert [pane.id for pane in left.children] == ["combatants", "roster"]
        assert not app.query_one("#body").has_class("mass")  # the log stays beside them
        await pilot.press("u")  # undone: the roster stays, empty
        await until(pilot, lambda: rows(app, "roster-table") == [], "the roster emptied")


async def test_a_hero_added_to_a_battle_shows_in_a_combatants_table_above_the_roster(
        tmp_path):
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        assert not app.query("#combatants") and app.query_one("#body").has_class("mass")
        await command(pilot, "add combatant General side=Empire")
        await until(pilot, lambda: app.query("#combatants-table"), "the combatants to join")
        await until(pilot, lambda: any("General" in r
                                       for r in rows(app, "combatants-table")),
                    "the general in the combatants' table")
        left = app.query_one("#left")
        assert [pane.id for pane in left.children] == ["combatants", "roster"]
        assert not app.query_one("#body").has_class("mass")


async def test_a_watcher_sees_a_roster_join_when_the_gm_adds_units(tmp_path):
    gm = app_on_sample(tmp_path, "plain-goblin-ambush.toml")
    path = gm.session.path
    watcher = WatchApp(path, theme="tracker-dark", public=True)
    async with gm.run_test(size=(80, 24)) as gm_pilot, watcher.run_test(size=(80, 24)) as w:
        assert not watcher.query("#roster")
        await command(gm_pilot, "add unit Wolves side=foes strength=6 strength_start=6")
        await gm.workers.wait_for_complete()
        await until(w, lambda: watcher.query("#roster-table")
                    and any("Wolves" in r for r in rows(watcher, "roster-table")),
                    "the watcher's roster to show the wolves")
        assert [pane.id for pane in watcher.query_one("#left").children] == [
            "combatants", "roster"]
