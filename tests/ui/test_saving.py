"""Saving as the GM sees it: "saving…" until a change is on disk, a failed save said
and retried (and the line cleared when it works), a quit that never loses a change,
:save-as, and handing the encounter over to another tracker."""

from __future__ import annotations

import errno
import os

from textual.widgets import Static

from tests.conftest import journal_of, lock_is_free
from tests.ui.keys import command
from tests.ui.wait import settled, until
from tracker.session.opening import load, model_for, open_encounter
from tracker.store import Lock, fs
from tracker.store.autosave import Autosaver
from tracker.store.lock import request_path
from tracker.store.toml_store import snapshot
from tracker.store.verify import check_save
from tracker.ui.app import TrackerApp


class ReadOnlyDisk(fs.Files):
    """Every write fails with EROFS (the folder went read-only under the app)."""

    def open(self, path, flags, mode=fs.FILE_MODE):  # type: ignore[no-untyped-def]
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return super().open(path, flags, mode)


def text(app: TrackerApp, widget: str) -> str:
    return str(app.query_one(widget, Static).render())


async def test_a_change_is_marked_saving_until_its_record_is_on_disk(skirmish_file):
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    app._save_worker = lambda: None  # type: ignore[method-assign]  # the disk is slow today
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon", *"note", "space", *"slow", "enter")
        await pilot.pause()
        assert "saving…" in text(app, "#topbar")
        assert text(app, "#status").startswith("saving… slow")
        assert [e.text for e in load(skirmish_file).log] == []
        assert app.saving.autosaver is not None and app.saving.autosaver.run_pending()
        await pilot.pause()
        assert "saving…" not in text(app, "#topbar")
        assert text(app, "#status") == "slow"
        assert [e.text for e in load(skirmish_file).log] == ["slow"]


async def test_a_failed_save_is_retried_and_the_line_clears_when_it_works(skirmish_file):
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        with fs.use(ReadOnlyDisk()):
            await pilot.press("colon", *"note", "space", *"stuck", "enter")
            await settled(pilot)
            assert "could not save ford.toml" in text(app, "#status")
            assert "retrying" in text(app, "#status")
            assert "saving…" in text(app, "#topbar")
        app._retry_save()  # the timer's retry, the folder writable again
        await settled(pilot)
        assert text(app, "#status") == "saved ford.toml"
        assert "saving…" not in text(app, "#topbar")
    assert [e.text for e in load(skirmish_file).log] == ["stuck"]


async def test_quit_keeps_the_app_open_while_nothing_can_be_saved(skirmish_file, tmp_path):
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with app.run_test(size=(80, 24)) as pilot:
        with fs.use(ReadOnlyDisk()):
            await pilot.press("n")
            await settled(pilot)
            await pilot.press("q")
            await pilot.pause()
            assert app.is_running
            assert "not quitting" in text(app, "#status")
            assert ":save-as" in text(app, "#status")
        await command(pilot, f"save-as {elsewhere}/kept")
        assert "saved as" in text(app, "#status"), text(app, "#status")
        await pilot.press("q")
        await pilot.pause()
    kept = elsewhere / "kept.toml"
    assert load(kept).position.turn == 1
    assert check_save(kept, model_for).ok
    assert lock_is_free(kept) and lock_is_free(skirmish_file)


async def test_save_as_a_folder_goes_into_it_and_a_new_folder_is_made(skirmish_file,
                                                                     tmp_path):
    """``:save-as FOLDER`` writes the save into it under its name (it wrote FOLDER.toml
    beside it); a folder not there yet is made; a place that cannot hold a save is named
    as the GM typed it, never by the tracker's lock or temp file."""
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    (tmp_path / "here").mkdir()
    (tmp_path / "a-file").write_text("")
    async with app.run_test(size=(200, 24)) as pilot:
        await command(pilot, f"save-as {tmp_path}/a-file/x")
        assert text(app, "#status") == (
            f"save-as: {tmp_path}/a-file/x.toml: not a folder"), text(app, "#status")
        await command(pilot, f"save-as {tmp_path}/here")
        assert text(app, "#status").startswith(f"saved as {tmp_path}/here/ford.toml;")
        await command(pilot, f"save-as {tmp_path}/new/sub/kept")
        assert text(app, "#status").startswith(f"saved as {tmp_path}/new/sub/kept.toml;")
        await pilot.press("q")
        await pilot.pause()
    assert check_save(tmp_path / "new" / "sub" / "kept.toml", model_for).ok
    assert check_save(tmp_path / "here" / "ford.toml", model_for).ok


async def test_the_holder_saves_and_hands_over_when_asked(skirmish_file):
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        app._save_worker = lambda: None  # type: ignore[method-assign]  # not saved yet
        await pilot.press("colon", *"note", "space", *"mine", "enter")
        await pilot.pause()
        fs.write_atomic(request_path(skirmish_file), b"4242 other-host 0\n")
        app._watch_lock()  # the app looks every second
        await pilot.pause()
        assert "handed over to pid 4242 on other-host" in text(app, "#status")
        assert "READ-ONLY" in text(app, "#topbar")
        assert lock_is_free(skirmish_file)
    assert [e.text for e in load(skirmish_file).log] == ["mine"]


def test_a_holder_that_does_not_answer_is_taken_over_and_fenced(skirmish_file, monkeypatch):
    old = open_encounter(skirmish_file)  # a session whose network dropped: it never answers
    assert old.lock is not None
    monkeypatch.setattr("tracker.store.lock.TAKE_OVER_SECONDS", 0.5)
    from tracker.store import lock as lock_module

    monkeypatch.setattr(lock_module.Lock.take_over, "__defaults__", (0.5,))
    new = open_encounter(skirmish_file, take_over=True)
    assert not new.session.read_only
    assert "did not let go" in new.notice
    assert old.lock.lost()
    # the old holder wakes up and tries to save: nothing is written
    old.session.execute("note late")
    saver = Autosaver(skirmish_file, lambda: snapshot(old.session.enc, skirmish_file),
                      lock=old.lock)
    saver.request()
    assert saver.run_pending() is False and saver.lost
    new.session.execute("note mine")
    saver = Autosaver(skirmish_file, lambda: snapshot(new.session.enc, skirmish_file),
                      lock=new.lock)
    saver.request()
    assert saver.run_pending()
    assert [e.text for e in load(skirmish_file).log] == ["mine"]
    assert b'"k":"takeover"' in journal_of(skirmish_file).read_bytes()
    assert check_save(skirmish_file, model_for).ok
    new.lock.release()
    old.lock.release()
    assert Lock(skirmish_file).acquire().held


async def test_a_read_only_opener_takes_over_when_the_gm_says_yes(skirmish_file):
    holder = open_encounter(skirmish_file)
    assert holder.lock is not None
    second = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    async with second.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # the holder lets go when asked, as its app would within a second
        import threading

        def answer() -> None:
            import time

            for _ in range(100):
                if holder.lock is not None and holder.lock.asked():
                    holder.lock.release()
                    return
                time.sleep(0.05)

        threading.Thread(target=answer, daemon=True).start()
        await pilot.press("y")
        await until(pilot, lambda: not second.session.read_only, "the take-over")
        assert "saved and let go" in text(second, "#status")
        await pilot.press("colon", *"note", "space", *"taken", "enter")
        await settled(pilot)
        await pilot.press("q")
    assert [e.text for e in load(skirmish_file).log] == ["taken"]


class NoTempFiles(fs.Files):
    """The journal can be appended to, but no new file can be made (a disk all but full)."""

    def open(self, path, flags, mode=fs.FILE_MODE):  # type: ignore[no-untyped-def]
        if flags & os.O_CREAT:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return super().open(path, flags, mode)


async def test_quit_leaves_when_every_change_is_in_the_journal(skirmish_file):
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        with fs.use(NoTempFiles()):
            await pilot.press("n")
            await settled(pilot)
            assert "every change is in the journal" in text(app, "#status")
            assert "saving…" not in text(app, "#topbar")  # committed all the same
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running
    assert load(skirmish_file).position.turn == 1  # applied from the journal
    assert check_save(skirmish_file, model_for).ok
