"""The app tells a lock file deleted under it from a take-over: the first is made again
and saving goes on; only a take-over is called one."""

from __future__ import annotations

from textual.widgets import Static

from tracker.session.opening import load, open_encounter
from tracker.store import Lock
from tracker.store.lock import lock_path
from tracker.ui.app import TrackerApp


def text(app: TrackerApp, widget: str) -> str:
    return str(app.query_one(widget, Static).render())


async def test_a_deleted_lock_file_is_made_again_and_saving_goes_on(skirmish_file):
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        lock_path(skirmish_file).unlink()
        app._watch_lock()  # the app looks every second
        await pilot.pause()
        assert "ford.toml.lock was deleted; made again" in text(app, "#status")
        assert "READ-ONLY" not in text(app, "#topbar")
        await pilot.press("colon", *"note", "space", *"mine", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "took this encounter over" not in text(app, "#status")
    assert [e.text for e in load(skirmish_file).log] == ["mine"]


async def test_a_deleted_lock_file_another_tracker_took_is_not_called_a_take_over(
        skirmish_file):
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        lock_path(skirmish_file).unlink()
        other = Lock(skirmish_file).acquire()
        app._watch_lock()
        await pilot.pause()
        status = text(app, "#status")
        assert "its lock file was deleted and another tracker has opened" in status
        assert "took this encounter over" not in status
        assert "READ-ONLY" in text(app, "#topbar")
        other.release()
