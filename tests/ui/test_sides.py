"""Whose unit is whose at any width: each side a colour and, where its name does not fit,
a short tag the pane's title names; the row under the cursor read whole underneath."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.style import Style
from rich.text import Text

from tests.ui.wait import settled
from tracker.rules.columns import NAME, STATE, STRENGTH, Column, fit_columns
from tracker.ui.grid import Grid
from tracker.ui.sides import tags

SIDE = Column("Side", "side", lambda u: u.side, priority=2)


def test_a_tag_is_the_initials_of_several_words_or_the_first_letters_of_one():
    assert tags(["High Elves", "Empire"]) == {"High Elves": "HE", "Empire": "Emp"}
    assert tags(["French", "English"]) == {"French": "Fre", "English": "Eng"}


def test_no_two_sides_share_a_tag():
    found = tags(["Empire", "Empire of Man", "Emperor's guard", "Emptiness"])
    assert len(set(found.values())) == 4
    assert all(len(tag) <= 3 for tag in found.values())


def test_the_last_column_is_cut_to_the_room_left_rather_than_running_past_the_edge():
    widths = {"name": 20, "strength": 5, "state": 30}
    shown, limits = fit_columns((NAME, STRENGTH, STATE), widths, room=45)
    assert [c.key for c in shown] == ["name", "strength", "state"]
    # the padding of every column but the last one's blank right edge, which the words
    # may take as they do when they are not cut
    assert limits == {"state": 45 - 22 - 7 - 1}


def test_a_last_column_with_little_room_left_is_cut_to_it_rather_than_left_unmarked():
    # name, hit points and so on take 35 of 44 cells: 8 left for a state of 39, its
    # blank right edge taken too
    widths = {"name": 24, "strength": 7, "state": 39}
    shown, limits = fit_columns((NAME, STRENGTH, STATE), widths, room=44)
    assert [c.key for c in shown] == ["name", "strength", "state"]
    assert limits == {"state": 44 - 26 - 9 - 1}


async def test_a_long_plain_state_ends_with_an_ellipsis_in_the_row_and_reads_whole_below(
        tmp_path):
    from tests.conftest import app_on_copy
    from tracker.ui.panes.combatants import CombatantsPane

    app = app_on_copy(tmp_path, "plain-goblin-ambush.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert app.run_line("set Tam +blinded +frightened +grappled") is None
        await settled(pilot)
        pane = app.query_one(CombatantsPane)
        table = pane.table
        table.select_key("tam")
        await settled(pilot)
        row = 1 + table.grid.where["tam"]
        drawn = table.render_line(row).text
        assert drawn.rstrip().endswith("…"), drawn
        assert "state" in table.grid.cut
        assert table.grid.width <= table.size.width
        detail = str(app.query_one("#combatant-detail").render())
        assert "blinded, frightened, grappled; poisoned, until the end of Tam's next turn" \
            in " ".join(detail.split())


def grid_of(rows: list[tuple[str, str, str, str]]) -> Grid:
    grid = Grid((SIDE, NAME, STRENGTH, STATE))
    grid.replace([r[1] for r in rows], [(r[1], list(r)) for r in rows])
    return grid


def test_a_side_that_does_not_fit_shows_its_tag_whole_rather_than_cut_or_gone():
    grid = grid_of([("High Elves", "Archers I", "3/3", "3 hits to drive back"),
                    ("Empire", "Empire Knights", "3/3", "")])
    grid.shorten("side", {"High Elves": Text("HE"), "Empire": Text("Emp")})
    grid.fit(200)  # room for every name
    assert grid.shortened == set() and grid.widths["side"] == len("High Elves") + 2
    grid.fit(50)  # 12 + 16 + 5 + 22 = 55 with the whole side: its tag instead
    assert grid.shortened == {0} and grid.cut == set()
    assert grid.widths == {"side": 6, "name": 16, "strength": 5, "state": 22}
    drawn = "".join(s.text for s in grid.segments(Console(), 0, grid.cells["Archers I"],
                                                  Style(), Style()))
    assert drawn == " HE    Archers I       3/3  3 hits to drive back "


async def test_plain_conditions_and_effects_read_whole_under_the_cursor(tmp_path):
    from tests.ui.scenes import plain_app

    app = plain_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        detail = app.query_one("#combatant-detail")
        assert str(detail.render()) == (
            "Aldo · party: initiative 14; frightened, poisoned, pinned")
        await pilot.press("down")
        await settled(pilot)
        assert str(detail.render()) == (
            "Grak the Orc chief · foes: initiative 11; prone, grappled; poisoned, until "
            "the end of Aldo's next turn")


def colour_of(cell) -> object:  # type: ignore[no-untyped-def]
    assert isinstance(cell, Text)
    return triplet(Style.parse(str(cell.style)).color)


def triplet(colour) -> object:  # type: ignore[no-untyped-def]
    return colour.get_truecolor() if colour is not None else None


@pytest.mark.parametrize(("sample", "pane"), [("warmaster-river-crossing.toml", "roster"),
                                              ("plain-goblin-ambush.toml", "combatants")])
async def test_the_side_colours_follow_a_new_theme_at_once(tmp_path, sample, pane):
    from textual.color import Color

    from tests.conftest import app_on_copy
    from tracker.ui.panes.combatants import CombatantsPane
    from tracker.ui.panes.roster import RosterPane

    app = app_on_copy(tmp_path, sample)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        widget = app.query_one(RosterPane if pane == "roster" else CombatantsPane)
        table = widget.table
        first = next(iter(widget._sides.sides))  # the first side: the theme's accent
        key = next(w.id for w in app.session.enc.everyone if w.side == first)
        at = [c.key for c in table.grid.all_columns].index("side")

        def shown() -> tuple[object, object, object]:
            tag = table.grid.short[at][first]
            detail = app.query_one(".detail").render()
            coloured = [triplet(Style.parse(str(s.style)).color) for s in detail.spans]
            return (colour_of(table.grid.cells[key][at]), colour_of(tag),
                    next(c for c in coloured if c is not None))

        def accent() -> object:
            return triplet(Color.parse(app.current_theme.accent).rich_color)

        table.select_key(key)
        await settled(pilot)
        assert shown() == (accent(),) * 3
        before = accent()
        app.theme = next(t for t in ("tracker-light", "textual-light") if t != app.theme)
        await settled(pilot)
        assert accent() != before
        assert shown() == (accent(),) * 3
