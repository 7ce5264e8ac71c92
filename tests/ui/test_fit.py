"""The roster at any width: name, strength and state whole; the rest gives way by
priority; a wide terminal shows more columns. And the view choices kept between starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.wait import settled
from tracker.rules.columns import NAME, STATE, STRENGTH, Column, fit_columns

SAVES = Path(__file__).resolve().parents[2] / "saves"
SIDE = Column("Side", "side", lambda u: u.side, priority=2)
CAS = Column("Cas", "casualties", lambda u: "", priority=3)
PROFILE = Column("Profile", "profile", lambda u: "", priority=6)
COLUMNS = (SIDE, NAME, STRENGTH, STATE, CAS, PROFILE)
WIDTHS = {"side": 7, "name": 19, "strength": 5, "state": 13, "casualties": 3, "profile": 40}


def keys(columns: list[Column]) -> list[str]:
    return [c.key for c in columns]


def test_every_column_shows_where_all_fit():
    shown, cut = fit_columns(COLUMNS, WIDTHS, room=200)
    assert keys(shown) == ["side", "name", "strength", "state", "casualties", "profile"]
    assert cut == {}


def test_the_highest_priority_number_gives_way_first_and_a_text_column_stays_cut():
    # 9+21+7+15+5 = 57 without the profile; 20 cells left for it (2 of them padding)
    shown, cut = fit_columns(COLUMNS, WIDTHS, room=77)
    assert keys(shown) == ["side", "name", "strength", "state", "casualties", "profile"]
    assert cut == {"profile": 18}


def test_at_a_narrow_width_only_name_strength_and_state_remain_in_their_order():
    shown, cut = fit_columns(COLUMNS, WIDTHS, room=45)
    assert keys(shown) == ["name", "strength", "state"]
    assert cut == {}


def test_the_side_shows_its_first_letters_rather_than_nothing():
    # name, strength and state need 21+7+15 = 43; 50 leaves 5 cells for the side
    shown, cut = fit_columns(COLUMNS, WIDTHS, room=50)
    assert keys(shown) == ["side", "name", "strength", "state"]
    assert cut == {"side": 5}


def test_a_narrow_column_comes_back_once_a_wider_one_has_gone():
    wide_side = {**WIDTHS, "side": 30, "profile": 3}
    # without side (32) the rest need 21+7+15+5+9 = 57; the side cut to 8 cells (10)
    # leaves room for the casualties (7), not for the profile as well
    shown, cut = fit_columns(COLUMNS, wide_side, room=60)
    assert keys(shown) == ["side", "name", "strength", "state", "casualties"]
    assert cut == {"side": 8}


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@pytest.mark.parametrize("sample", sorted(p.name for p in SAVES.glob("*.toml")
                                          if "d6battle" in p.name or "war" in p.name))
async def test_roster_cells_of_name_strength_and_state_show_whole(sample, size, tmp_path):
    from tests.conftest import app_on_copy
    from tracker.ui.panes.roster import RosterPane

    app = app_on_copy(tmp_path, sample)
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        pane = app.query_one(RosterPane)
        table = pane.table
        shown = [c.key for c in table.grid.columns]
        assert {"name", "strength", "state"} <= set(shown)
        widths = table.grid.widths
        assert sum(widths.values()) <= table.size.width
        for unit in app.session.enc.units:
            row = table.get_row(unit.id)
            for key in ("name", "strength", "state"):
                cell = row[shown.index(key)]
                text = getattr(cell, "plain", cell)
                assert len(text) + 2 <= widths[key], (unit.name, key, text)
        if size[0] >= 160:  # a wide terminal shows more than the essentials
            assert len(shown) > 4


def fitted(table) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Each shown column's widest cell as drawn (its title included; a side shown as its
    tag: the widest tag), padding added."""
    grid = table.grid
    cells = [table.get_row(key) for key in grid.keys]

    def drawn(at: int, cell) -> str:  # type: ignore[no-untyped-def]
        text = getattr(cell, "plain", cell)
        if at in grid.shortened:
            short = grid.short[at].get(text, text)
            return getattr(short, "plain", short)
        return text

    return {c.key: 2 + max([len(c.title), *(len(drawn(at, row[i])) for row in cells)])
            for i, (at, c) in enumerate(zip(grid.shown, grid.columns, strict=True))}


async def test_columns_fit_their_content_after_a_shot_a_rewind_and_resizes(tmp_path):
    """Every column as wide as its widest cell after each change and resize; none
    shrinks to a few letters (a column given way to is dropped, or cut with an "…")."""
    from tests.conftest import app_on_copy
    from tracker.ui.panes.roster import RosterPane

    app = app_on_copy(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.query_one(RosterPane).table
        knights = app.session.enc.find_unit("Empire Knights").id

        def check() -> None:
            cut = table.grid.cut
            want = {k: w for k, w in fitted(table).items() if k not in cut}
            assert {k: w for k, w in table.grid.widths.items() if k not in cut} == want
            assert all(table.grid.widths[k] >= 5 for k in cut)  # three letters and padding
            assert "side" in table.grid.widths  # whose unit is whose, at any width

        check()
        assert app.run_line("set Empire Knights hits=3") is None
        await pilot.pause()
        check()
        state = [c.key for c in table.grid.columns].index("state")
        assert "3 hits to drive back" in table.get_row(knights)[state]
        assert app.run_line("rewind entry 0") is None
        await pilot.pause()
        check()
        full = dict(table.grid.widths)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        check()
        assert all(table.grid.widths[k] >= w for k, w in full.items())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        check()
        assert table.grid.widths == full


def test_the_theme_and_roster_view_are_kept_between_starts(tmp_path, monkeypatch):
    from tracker.ui import prefs

    monkeypatch.setenv("TRACKER_CONFIG", str(tmp_path / "config"))
    assert prefs.load() == {}
    assert prefs.remember(theme="tracker-light")
    assert prefs.remember(roster_sort="name", nonsense="x")
    assert prefs.load() == {"theme": "tracker-light", "roster_sort": "name"}
    (tmp_path / "config" / "prefs.toml").write_text("theme = [", "utf-8")
    assert prefs.load() == {}  # a broken file is ignored, never an error


async def test_a_theme_picked_with_t_is_the_theme_of_the_next_start(tmp_path, monkeypatch):
    from tests.conftest import app_on_copy
    from tracker.ui.screens.picker import PickerScreen

    monkeypatch.setenv("TRACKER_CONFIG", str(tmp_path / "config"))
    sample = "warmaster-river-crossing.toml"
    app = app_on_copy(tmp_path, sample, theme=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = app.theme
        await pilot.press("t")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, PickerScreen)
        labels = dict(picker.items)
        assert labels[first] == f"{first}  (current)"
        await pilot.press("t")  # the next theme starting with t
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        chosen = app.theme
        assert chosen != first
    app = app_on_copy(tmp_path, sample, theme=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == chosen


async def test_the_roster_sort_and_filter_are_kept_and_a_side_not_here_shows_all(
        tmp_path, monkeypatch):
    from tests.conftest import app_on_copy
    from tracker.ui import prefs
    from tracker.ui.panes.roster import RosterPane

    monkeypatch.setenv("TRACKER_CONFIG", str(tmp_path / "config"))
    sample = "warmaster-river-crossing.toml"
    app = app_on_copy(tmp_path, sample)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.query_one("#roster-table").focus()
        await pilot.press("o", "v")  # sorted by side; the first side only
        await pilot.pause()
        pane = app.query_one(RosterPane)
        sort, view = pane.sort, pane.view
        assert (sort, view) == ("side", "side:High Elves")
    assert prefs.load()["roster_sort"] == "side"
    app = app_on_copy(tmp_path, sample)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.query_one(RosterPane)
        assert (pane.sort, pane.view) == (sort, view)
        assert pane.table.row_count == sum(1 for u in app.session.enc.units
                                       if u.side == "High Elves")
    prefs.remember(roster_filter="side:Nobody here")
    app = app_on_copy(tmp_path, sample)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.query_one(RosterPane)
        assert pane.view == "all" and pane.table.row_count == len(app.session.enc.units)


def test_a_hint_is_cut_after_its_last_whole_word() -> None:
    from tracker.ui.inputs import fit_words

    hint = "damage dice, rolled once for all: 8d6 (none: no damage)"
    assert fit_words(hint, 80) == hint
    assert fit_words(hint, 45) == "damage dice, rolled once for all: 8d6…"
    assert fit_words("target location (head, neck, chest)", 24) == "target location (head…"


async def test_each_field_s_hint_fits_its_box_at_80x24(tmp_path):
    """The plain save form: the damage field's hint is longer than its box at 80 columns;
    it is cut after a word with "…" (the line under the form says it whole); a hint set
    later (a field the form fills) is cut the same way."""
    from tests.conftest import app_on_copy
    from tests.ui.wait import on_top
    from tracker.ui.screens.resolve import ResolveScreen

    app = app_on_copy(tmp_path, "plain-goblin-ambush.toml")
    whole = "damage dice, rolled once for all: 8d6 (none: no damage)"
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        app.open_action("save")
        form = await on_top(pilot, ResolveScreen)
        await settled(pilot)
        box = form.query_one("#f-damage")
        assert box.placeholder.endswith("…") and whole.startswith(box.placeholder[:-1])
        assert len(box.placeholder) < box.content_size.width
        box.placeholder = "a hint set later, " * 5
        await settled(pilot)
        assert box.placeholder.startswith("a hint set later, ") and box.placeholder.endswith("…")
        assert len(box.placeholder) < box.content_size.width
