"""The plain sample by keys at 80x24: hit points asked for on the row (d, h), a condition
with its end (c), an attack and initiative typed from the table's dice."""

from __future__ import annotations

from textual.widgets import Input

from tests.conftest import app_on_copy
from tests.ui.keys import type_text
from tests.ui.wait import on_top, until
from tracker.session.opening import new_encounter, open_encounter
from tracker.ui.app import TrackerApp
from tracker.ui.panes.combatants import CombatantsPane
from tracker.ui.screens.dice import DiceScreen
from tracker.ui.screens.form import FormScreen
from tracker.ui.table import SyncTable

SAMPLE = "plain-goblin-ambush.toml"


def points(app, name: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    who = app.session.enc.find_combatant(name)
    return who.hp, who.temp_hp


async def to_row(pilot, app, name: str) -> None:  # type: ignore[no-untyped-def]
    """The cursor on a combatant's row, by the arrow keys."""
    table = app.query_one("#combatants-table", SyncTable)
    table.focus()
    key = app.session.enc.find_combatant(name).id
    for _ in range(20):
        if table.selected_key == key:
            return
        await pilot.press("down")
    raise AssertionError(f"no row {name}")


async def opened(pilot, app, kind: type) -> object:  # type: ignore[no-untyped-def]
    return await on_top(pilot, kind)


async def back_to_the_roster(pilot, app) -> None:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: len(app.screen_stack) == 1, "the dialogs to close")


async def roll_the_rest(pilot, app):  # type: ignore[no-untyped-def]
    """``R`` in the dice step, once the first die was typed: the log entry it makes, its
    first die entered and the rest rolled by the tracker."""
    await pilot.press("R")
    await back_to_the_roster(pilot, app)
    entry = app.session.enc.log[-1]
    sources = [r.source for r in entry.rolls]
    assert sources[0] == "entered" and set(sources[1:]) == {"rolled"}
    return entry


async def test_d_and_h_ask_for_the_amount_of_the_row_under_the_cursor(tmp_path):
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Goblin 3")
        assert points(app, "Goblin 3") == (4, 0)
        await pilot.press("d")
        form = await opened(pilot, app, FormScreen)
        assert form.title_text == "Damage Goblin 3 (4/7 hp)"
        await pilot.press("3", "enter")
        await pilot.pause()
        assert points(app, "Goblin 3") == (1, 0)
        await to_row(pilot, app, "Aria")
        await pilot.press("h")
        await opened(pilot, app, FormScreen)
        await pilot.press("9", "enter")
        await pilot.pause()
        assert points(app, "Aria") == (24, 5)
        assert app.session.enc.log[-1].text == "Aria: healed 7 of 9, 17 → 24 hp (its maximum)"
        pane = app.query_one(CombatantsPane)
        cells = dict(pane.rows(app.session.enc, app.session.play.current()))
        assert cells["aria"][4].plain == "24/24 +5"


async def test_d_refuses_a_bad_amount_in_the_dialog_and_changes_nothing(tmp_path):
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Goblin 3")
        before = len(app.session.enc.log)
        await pilot.press("d")
        form = await opened(pilot, app, FormScreen)
        await pilot.press("0", "enter")
        await pilot.pause()
        assert app.screen is form
        assert "the amount must be 1 to 9999" in str(form.query_one("#form-error").render())
        assert len(app.session.enc.log) == before


async def test_c_offers_the_common_conditions_and_sets_how_long_one_lasts(tmp_path):
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Hobgoblin")
        await pilot.press("c")
        form = await opened(pilot, app, FormScreen)
        await type_text(pilot, "fri")
        await pilot.pause()
        assert form.query_one("#f-condition", Input).value == "fri"
        await pilot.press("tab")
        await type_text(pilot, "Aria")
        await pilot.press("enter")
        await pilot.pause()
        hob = app.session.enc.find_combatant("Hobgoblin")
        assert [e.describe({"aria": "Aria"}) for e in hob.effects] == [
            "frightened, until the end of Aria's next turn"]
        detail = str(app.query_one("#combatant-detail").render())
        assert "frightened, until the end of Aria's next turn" in detail
        await to_row(pilot, app, "Bree")
        await pilot.press("c")
        await opened(pilot, app, FormScreen)
        await type_text(pilot, "blessed")  # any word; no end: until removed
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.enc.find_combatant("Bree").conditions == ["blessed"]


async def test_f_attacks_the_row_under_the_cursor_with_the_table_s_dice(tmp_path):
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Hobgoblin")
        await pilot.press("f", "enter")  # Tam (who acts) attacks: the first action
        await pilot.pause()
        await pilot.press("enter")
        step = await opened(pilot, app, DiceScreen)
        assert step.title_text == "attack: Tam at Hobgoblin"
        assert str(step.query_one("#dice-prompt").render()) == "roll 1 d20 to hit (12+)"
        await pilot.press("1", "4", "enter")
        await pilot.pause()
        assert str(step.query_one("#dice-prompt").render()) == "roll 1 d6 for damage"
        await pilot.press("5", "enter")
        await back_to_the_roster(pilot, app)
        assert points(app, "Hobgoblin") == (0, 0)
        entry = app.session.enc.log[-1]
        assert entry.text == ("Tam attacks Hobgoblin: 14+6 = 20 vs AC 18: hit, 9 damage "
                              "(1d6+4: 5+4); Hobgoblin is down")
        assert [(r.role, r.value, r.source) for r in entry.rolls] == [
            ("attack", 14, "entered"), ("damage", 5, "entered")]


async def test_initiative_asks_each_one_s_die_and_r_rolls_the_rest(tmp_path):
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "i")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        step = await opened(pilot, app, DiceScreen)
        assert str(step.query_one("#dice-prompt").render()) == \
            "Aria +1: roll 1 d20 for initiative"
        await pilot.press("1", "8", "enter")
        await pilot.pause()
        assert str(step.query_one("#dice-prompt").render()) == \
            "Tam +4: roll 1 d20 for initiative"
        entry = await roll_the_rest(pilot, app)
        assert entry.text.startswith("Initiative: Aria 19 (18+1), Tam ")
        assert len(entry.rolls) == 7  # everyone still up; Goblin 1 is down


async def test_the_help_lists_the_hit_point_and_condition_keys(tmp_path):
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(80, 24)):
        from tracker.ui.panes.log import LogPane
        from tracker.ui.panes.roster import RosterPane
        from tracker.ui.screens.help import key_groups

        groups = key_groups(app.BINDINGS, RosterPane.BINDINGS, LogPane.BINDINGS)
        rows = dict(dict(groups)["On the main screen"])
        assert rows["d"].startswith("damage the combatant under the cursor")
        assert rows["h"] == "heal the combatant under the cursor"
        assert rows["c"].startswith("a condition on the combatant under the cursor")


async def test_a_round_that_rolls_initiative_again_asks_each_die_as_it_begins(tmp_path):
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(80, 24)) as pilot:
        app.session.execute("setting initiative_each_round=yes")
        await pilot.press("N", "y")  # the rest of round 2 skipped, knowingly
        step = await opened(pilot, app, DiceScreen)
        assert step.title_text == "initiative"
        assert app.session.enc.position.round == 2  # nothing moved while it asks
        assert str(step.query_one("#dice-prompt").render()) == \
            "Aria +1: roll 1 d20 for initiative"
        await pilot.press("2", "enter")
        await pilot.pause()
        entry = await roll_the_rest(pilot, app)
        assert app.session.enc.position.round == 3
        assert "Initiative: Aria 3 (2+1), " in entry.text


async def test_the_first_n_of_a_new_fight_asks_each_one_s_initiative_die(tmp_path):
    path = new_encounter("Cave", "plain", tmp_path / "cave.toml", seed=3)
    app = TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for line in ("add combatant Aria hp=24 init_bonus=1",
                     "add combatant Tam hp=18 init_bonus=4",
                     "add combatant Goblin side=foes hp=7 init_bonus=2"):
            app.session.execute(line)
        await pilot.press("n")
        step = await opened(pilot, app, DiceScreen)
        assert step.title_text == "initiative"
        assert not app.session.enc.under_way  # nothing moved while it asks
        assert str(step.query_one("#dice-prompt").render()) == \
            "Aria +1: roll 1 d20 for initiative"
        await pilot.press("1", "7", "enter")
        await pilot.pause()
        entry = await roll_the_rest(pilot, app)
        assert entry.text.startswith("Round 1 begins, ")
        assert "Initiative: Aria 18 (17+1), " in entry.text
        assert app.session.enc.under_way and app.session.enc.position.round == 1
        order = app.session.play.order()
        totals = {c.id: c.initiative for c in app.session.enc.combatants}
        assert app.session.play.current() == order[0]
        assert totals[order[0]] == max(totals.values())


async def test_the_pane_counts_who_is_still_in_the_fight_and_who_is_out(tmp_path):
    """The sample has one goblin down of eight; a second goblin taken to 0 hp by ``d``
    leaves six in the fight, and the frame says so."""
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(CombatantsPane)
        assert pane.border_subtitle == "7 in the fight · 1 out"
        await to_row(pilot, app, "Goblin 3")
        await pilot.press("d")
        await opened(pilot, app, FormScreen)
        await pilot.press("4", "enter")
        await until(pilot, lambda: points(app, "Goblin 3") == (0, 0), "Goblin 3 down")
        await pilot.pause()
        assert pane.border_subtitle == "6 in the fight · 2 out"


async def test_the_gms_own_stats_show_in_the_detail_line(tmp_path):
    """``set Tam dex=3`` keeps a stat of the GM's own: the line under the table says it,
    as it says the AC and attack; the initiative is said once, by the summary."""
    app = app_on_copy(tmp_path, SAMPLE)
    async with app.run_test(size=(120, 30)) as pilot:
        assert app.run_line("set Tam dex=3 will=12") is None
        await to_row(pilot, app, "Tam")
        detail = str(app.query_one("#combatant-detail").render())
        assert "initiative 21 (+4); dex 3, will 12" in detail
