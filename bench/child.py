"""What the benchmark runs in a fresh interpreter, one measurement per process.

``python -m bench.child MODE ...`` prints one line of JSON (``start`` prints the wall
clock at the first paint, so the parent can time from the moment it spawned us).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

SIZE = (120, 40)


SETTLE_S = 1.0
"""How long an app runs on after its first screen before it exits, so that the peak
memory counts what it does next (the roster's remaining rows, the autosave worker)."""


def _exit_on_first_paint() -> None:
    """Make every ``App.run`` headless, print the time its first screen was drawn, and
    exit once it has settled.

    The first screen is the last composite before the app first goes idle after
    mounting (its first ``call_after_refresh``): by then every widget has drawn what
    it was mounted with, including what waits for its first size, like the log pane's
    wrapped lines. Work queued to run after that screen (the roster's remaining rows,
    the autosave's warm-up) is not counted, as it does not delay what the GM sees.
    """
    from textual.app import App
    from textual.screen import Screen

    composited: list[tuple[int, float]] = []
    """Wall clock (ns) and the process's CPU time (s) at the end of each composite."""
    refresh = Screen._compositor_refresh

    def timed_refresh(screen: Screen[Any]) -> None:
        refresh(screen)
        composited.append((time.time_ns(), time.process_time()))

    Screen._compositor_refresh = timed_refresh  # type: ignore[method-assign]
    run = App.run

    def headless_run(self: App[Any], *args: Any, **kw: Any) -> Any:
        def painted() -> None:
            drawn, cpu = composited[-1] if composited else (time.time_ns(), time.process_time())
            print(json.dumps({"first_paint_ns": drawn, "cpu_s": cpu}), flush=True)
            if os.environ.get("BENCH_EXIT_AT_PAINT"):  # bench.instructions counts to here
                os._exit(0)
            self.set_timer(SETTLE_S, self.exit)

        async def pilot(_pilot: Any) -> None:
            self.call_after_refresh(painted)

        return run(self, headless=True, size=SIZE, auto_pilot=pilot)

    App.run = headless_run  # type: ignore[method-assign]


def start(kind: str, arg: str) -> None:
    """``baseline N``, ``floor N`` (the baseline after importing what validating a save
    takes: pydantic and the encounter models) or ``tracker FILE``."""
    _exit_on_first_paint()
    if kind in ("baseline", "floor"):
        from bench.baseline import BaselineApp

        if kind == "floor":
            import tracker.core.model  # noqa: F401

        BaselineApp(int(arg)).run()
    else:
        from tracker.cli import main

        main([arg])


def _hook_paint(app: Any) -> asyncio.Event:
    """An event set each time the current screen has been composited."""
    painted = asyncio.Event()
    screen = app.screen
    refresh = screen._compositor_refresh

    def hooked() -> None:
        refresh()
        painted.set()

    screen._compositor_refresh = hooked
    return painted


async def _presses(app: Any, pilot: Any, key: str, count: int) -> list[float]:
    """Seconds from a key reaching the app to the screen composited after it.

    The key is sent the way Pilot sends it; Pilot then waits for the app to settle
    before the next key, so each press starts from an idle app.
    """
    from textual import events
    from textual.widgets import DataTable

    painted = _hook_paint(app)
    table = app.focused
    # from the middle of the table, so that in a long table every press scrolls it by a
    # row in both apps (the heavier case; their tables are not the same height, so from
    # the top one would start scrolling sooner than the other)
    if isinstance(table, DataTable):
        table.move_cursor(row=table.row_count // 2)
    else:
        table.move_cursor(table.row_count // 2)
    await pilot.pause()
    for _ in range(10):  # warm up: first draws of each row
        await pilot.press(key)
    await pilot.pause()
    times = []
    for _ in range(count):
        # walk the table down and back up, so short tables move at every key too
        if table.cursor_row >= table.row_count - 1:
            key = "up"
        elif table.cursor_row <= 0:
            key = "down"
        painted.clear()
        event = events.Key(key, None)
        event.set_sender(app)
        t0 = time.perf_counter()
        app._driver.send_message(event)
        await asyncio.wait_for(painted.wait(), 5)
        times.append(time.perf_counter() - t0)
        await pilot.pause()
    return times


async def keys(kind: str, arg: str, count: int) -> dict[str, Any]:
    from textual.widgets import DataTable

    if kind == "baseline":
        from bench.baseline import BaselineApp

        app: Any = BaselineApp(int(arg))
    else:
        from tracker.session.opening import open_encounter
        from tracker.ui.app import TrackerApp

        app = TrackerApp(open_encounter(arg), theme="tracker-dark", autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        focused = app.focused
        if kind == "baseline":
            assert isinstance(focused, DataTable), focused
        else:
            assert focused is not None and focused.id == "roster-table", focused
        times = await _presses(app, pilot, "down", count)
        row = focused.cursor_row
    return {"median_s": statistics.median(times), "presses": len(times), "row": row}


async def autosave(path: str, count: int) -> dict[str, Any]:
    """Changes made in the app: UI-thread time of the save request, worker time of the write."""
    from tracker.session.opening import open_encounter
    from tracker.ui.app import TrackerApp

    app = TrackerApp(open_encounter(path), theme="tracker-dark")
    ui: list[float] = []
    worker: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        saver = app.saving.autosaver
        assert saver is not None
        run_pending = saver.run_pending
        save_worker = app._save_worker

        def timed_run_pending() -> bool:
            t0 = time.perf_counter()
            ok = run_pending()
            worker.append(time.perf_counter() - t0)
            return ok

        saver.run_pending = timed_run_pending  # type: ignore[method-assign]

        def timed_changed(outcome: Any) -> None:
            # what _changed does for the save, timed on the UI thread
            t0 = time.perf_counter()
            app.saving.changed()
            save_worker()
            ui.append(time.perf_counter() - t0)
            app.refresh_panes()

        app.session.on_change = timed_changed
        await pilot.pause()
        await app.workers.wait_for_complete()  # the app has settled, as before a GM's first key
        for i in range(count):
            assert app.run_line(f"note benchmark change {i}") is None
            await app.workers.wait_for_complete()
            await pilot.pause()
    saves = saver.saves
    # the first write after opening serialises everything; later ones reuse that text
    return {"ui_median_s": statistics.median(ui), "worker_first_s": worker[0],
            "worker_median_s": statistics.median(worker[1:] or worker), "saves": saves,
            "size": Path(path).stat().st_size}


def load(path: str, count: int) -> dict[str, Any]:
    from tracker.session.opening import load as load_save

    sample = Path(__file__).resolve().parents[1] / "saves" / "warmaster-river-crossing.toml"
    load_save(sample)  # the ruleset's module is imported once, as in any session
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        enc = load_save(path)
        times.append(time.perf_counter() - t0)
        del enc
    return {"median_s": statistics.median(times)}


def main(argv: list[str]) -> None:
    mode, *rest = argv
    if mode == "start":
        start(rest[0], rest[1])
        return
    if mode == "keys":
        out = asyncio.run(keys(rest[0], rest[1], int(rest[2])))
    elif mode == "autosave":
        out = asyncio.run(autosave(rest[0], int(rest[1])))
    elif mode == "load":
        out = load(rest[0], int(rest[1]))
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
