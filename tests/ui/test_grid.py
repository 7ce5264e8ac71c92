"""The grid of the roster and combatants tables: which columns a width shows."""

from __future__ import annotations

from tracker.rules.columns import Column
from tracker.ui.grid import Grid


def _grid(rows: list[tuple[str, list[str]]]) -> Grid:
    columns = [Column("Name", "name", str, priority=0), Column("HP", "hp", str, priority=0),
               Column("Notes", "notes", str, priority=6), Column("State", "state", str, 0)]
    grid = Grid(columns)
    grid.replace([key for key, _ in rows], rows)
    return grid


def test_a_column_blank_in_every_row_gives_way_first() -> None:
    """The hit points a spectator's view does not show: the column gives way before one
    with something in it, even one that gives way readily."""
    rows = [("a", ["Aria", "", "holds the ford", "prone"]),
            ("b", ["Tam", "", "", "poisoned"])]
    grid = _grid(rows)
    grid.fit(32)
    assert [c.key for c in grid.columns] == ["name", "notes", "state"]
    grid.fit(80)  # room for all: the blank one too
    assert [c.key for c in grid.columns] == ["name", "hp", "notes", "state"]


def test_a_column_with_a_cell_never_gives_way_at_priority_0() -> None:
    rows = [("a", ["Aria", "17/24", "holds the ford", "prone"]),
            ("b", ["Tam", "", "", "poisoned"])]
    grid = _grid(rows)
    grid.fit(32)
    assert [c.key for c in grid.columns] == ["name", "hp", "state"]
