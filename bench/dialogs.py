"""Dialogs: from the key that opens one to its first screen, against a bare Textual modal
with 25 Inputs opened the same way in the same run.

    .venv/bin/python -m bench.dialogs            # 15 openings of each, after 2 to warm up
    .venv/bin/python -m bench.dialogs --count 5

Each dialog is opened by its key on the sample Warmaster battle (the edit form on the
row under the cursor, the action picker, the end-of-phase dialog ...) and closed with
Esc; the time is from the key reaching the app to the end of the first composite of
the new screen. The first opening of each, half a second after the app's first screen,
is reported apart (the dialog's own screen is not made yet), then the median of the
rest. Every figure is also given as a ratio to the bare modal's
median, measured in the same process between the tracker's dialogs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "saves" / "warmaster-river-crossing.toml"
SIZE = (80, 24)
IDLE = 0.5
"""Seconds each app is left idle after its first screen before the first key (the
tracker loads what the dialogs share in that time, as it does for a GM at the table)."""
DIALOGS = (
    ("add form", "a"),
    ("edit form", "e"),
    ("action picker", "f"),
    ("end of phase", "E"),
    ("settings", "s"),
    ("theme picker", "t"),
    ("help", "question_mark"),
)


def _bare_app() -> Any:
    from textual.app import App, ComposeResult
    from textual.containers import Vertical
    from textual.screen import ModalScreen
    from textual.widgets import DataTable, Footer, Header, Input

    class Modal(ModalScreen[None]):
        BINDINGS = [("escape", "dismiss", "Close")]

        def compose(self) -> ComposeResult:
            with Vertical():
                for i in range(25):
                    yield Input(placeholder=f"field {i}")

    class Bare(App[None]):
        BINDINGS = [("m", "modal", "Modal")]

        def compose(self) -> ComposeResult:
            yield Header()
            yield DataTable(cursor_type="row")
            yield Footer()

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            table.add_columns("Unit", "Str")
            for i in range(10):
                table.add_row(f"Spearmen {i}", "3/3")
            table.focus()

        def action_modal(self) -> None:
            self.push_screen(Modal())

    return Bare()


async def _openings(app: Any, key: str, count: int) -> list[float]:
    """Seconds from ``key`` to the first composite of the screen it opens, ``count``
    times (the dialog closed with Esc in between, the app idle before each key)."""
    from textual import events
    from textual.screen import Screen

    drawn: dict[int, float] = {}
    refresh = Screen._compositor_refresh

    def timed(screen: Screen[Any]) -> None:
        refresh(screen)
        drawn.setdefault(id(screen), time.perf_counter())

    Screen._compositor_refresh = timed  # type: ignore[method-assign]
    times: list[float] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await asyncio.sleep(IDLE)  # a GM's first key comes a moment after the screen
            await pilot.pause()
            base = app.screen
            for _ in range(count):
                drawn.clear()
                event = events.Key(key, None)
                event.set_sender(app)
                t0 = time.perf_counter()
                app._driver.send_message(event)
                for _ in range(2000):
                    await asyncio.sleep(0.001)
                    if app.screen is not base and id(app.screen) in drawn:
                        break
                else:
                    raise RuntimeError(f"'{key}' opened no screen")
                times.append(drawn[id(app.screen)] - t0)
                await pilot.pause()
                await pilot.press("escape")
                await pilot.pause()
                assert app.screen is base, app.screen
    finally:
        Screen._compositor_refresh = refresh  # type: ignore[method-assign]
    return times


def _tracker_app(work: Path) -> Any:
    from tracker.session.opening import open_encounter
    from tracker.ui.app import TrackerApp

    path = work / SAMPLE.name
    shutil.copy(SAMPLE, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.0f} ms"


async def measure(count: int) -> list[tuple[str, float, float]]:
    """(dialog, first opening, median of the later ones), the bare modal first."""
    rows: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["TRACKER_HOME"] = str(work / "home")
        bare = await _openings(_bare_app(), "m", count + 1)
        rows.append(("bare modal, 25 Inputs", bare[0], statistics.median(bare[1:])))
        for label, key in DIALOGS:
            times = await _openings(_tracker_app(work), key, count + 1)
            rows.append((label, times[0], statistics.median(times[1:])))
        again = await _openings(_bare_app(), "m", count + 1)  # the load may have moved
        rows.append(("bare modal, 25 Inputs (again)", again[0], statistics.median(again[1:])))
    return rows


def render(rows: list[tuple[str, float, float]]) -> str:
    base = statistics.mean([rows[0][2], rows[-1][2]])
    out = ["| dialog (80x24) | first opening | later (median) | × bare modal |",
           "|---|---:|---:|---:|"]
    for label, first, later in rows:
        out.append(f"| {label} | {fmt(first)} | {fmt(later)} | {later / base:.2f} × |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dialogs")
    parser.add_argument("--count", type=int, default=15, help="openings of each dialog")
    ns = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    rows = asyncio.run(measure(ns.count))
    print(render(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
