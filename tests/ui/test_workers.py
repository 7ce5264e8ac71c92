"""A failing background worker is logged and reported in one line; the table stays up."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tests.ui.test_app import app_on_sample
from tests.ui.wait import settled


async def test_a_save_worker_that_fails_leaves_the_app_running(
    tmp_path: Path, tracker_home: Path
) -> None:
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.saving.autosaver is not None

        def broken() -> bool:
            raise RuntimeError("disk on fire")

        working = app.saving.autosaver.run_pending
        app.saving.autosaver.run_pending = broken  # type: ignore[method-assign]
        assert app.run_line("note a line to save") is None
        await settled(pilot)  # the save worker ran, and failed
        status = str(app.query_one("#status", Static).render())
        assert "save work failed (RuntimeError)" in status
        assert "\n" not in status
        log = (tracker_home / "errors.log").read_text(encoding="utf-8")
        assert "disk on fire" in log
        assert app.is_running
        assert app.run_line("note still at the table") is None
        app.saving.autosaver.run_pending = working  # type: ignore[method-assign]
