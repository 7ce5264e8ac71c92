"""A small terminal (a phone over SSH): no pane cut off at the edge, and the table keeps
its rows under a line that keeps to two."""

from __future__ import annotations

from pathlib import Path

from tests.ui.test_short_forms import app_on


async def test_at_50x14_both_columns_fit_and_the_table_keeps_its_rows(tmp_path: Path) -> None:
    app = app_on(tmp_path, "plain-goblin-ambush.toml")
    async with app.run_test(size=(50, 14)) as pilot:
        await pilot.pause()
        right = app.query_one("#right").region
        assert right.right <= 50 and right.width >= 20
        detail = app.query(".detail").first().region
        assert detail.height <= 2
        table = app.query_one("#combatants").region
        assert table.height - detail.height - 3 >= 4  # borders, header: four rows or more
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.query(".detail").first().region.height > 2  # room again: the line whole
