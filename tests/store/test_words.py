"""What the tracker says about saves is true: `tracker --take-over FILE` as the README
writes it; a change committed to the journal whose state could not be written says so;
a lock file deleted is told from a take-over."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from tests.conftest import journal_of
from tracker import cli
from tracker.session.opening import load, open_encounter
from tracker.shell import app
from tracker.store import Lock, LockHeld, fs, save_encounter, snapshot
from tracker.store.autosave import Autosaver
from tracker.store.lock import Lost, lock_path
from tracker.store.toml_store import COMMITTED


def test_take_over_first_opens_that_file_taking_it_over(monkeypatch, skirmish_file):
    seen: dict[str, object] = {}
    monkeypatch.setattr(app, "cmd_open", lambda ns: seen.update(vars(ns)) or 0)
    assert cli.main(["--take-over", str(skirmish_file)]) == 0
    assert seen["take_over"] is True and seen["file"] == str(skirmish_file)
    assert cli.main(["--read-only", str(skirmish_file)]) == 0
    assert seen["read_only"] is True


def test_help_names_take_over(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "tracker --take-over FILE" in out and "tracker --read-only FILE" in out


class NoNewStateFile(fs.Files):
    """The save's folder takes no new file (a read-only folder); the journal, an existing
    file, can still be appended to."""

    def __init__(self, save: Path) -> None:
        self.save = save

    def open(self, path: Path, flags: int, mode: int = fs.FILE_MODE) -> int:
        name = Path(path).name
        if flags & os.O_CREAT and name.startswith(f".{self.save.name}.") and \
                name.endswith(".tmp"):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return super().open(path, flags, mode)


def test_restore_that_cannot_write_the_state_says_it_is_committed(skirmish_file, capsys):
    assert cli.main(["exec", str(skirmish_file), "note one"]) == 0
    assert cli.main(["exec", str(skirmish_file), "note two"]) == 0
    with fs.use(NoNewStateFile(skirmish_file)):
        assert cli.main(["restore", str(skirmish_file), "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{COMMITTED}" in err and "could not be written" in err
    assert [e.text for e in load(skirmish_file).log] == ["one"]  # as the next opening sees it


def test_exec_that_cannot_write_the_state_says_it_is_committed(skirmish_file, capsys):
    with fs.use(NoNewStateFile(skirmish_file)):
        assert cli.main(["exec", str(skirmish_file), "note one"]) == 2
    assert COMMITTED in capsys.readouterr().err
    assert [e.text for e in load(skirmish_file).log] == ["one"]


def test_a_deleted_lock_file_is_made_again_and_still_held(skirmish_file):
    lock = Lock(skirmish_file).acquire()
    lock_path(skirmish_file).unlink()
    assert lock.lost() is None
    assert lock_path(skirmish_file).exists() and "deleted; made again" in lock.notice
    with pytest.raises(LockHeld):
        Lock(skirmish_file).acquire()
    lock.release()
    assert Lock(skirmish_file).acquire().held


def test_a_deleted_lock_file_another_tracker_took_is_not_called_a_take_over(skirmish_file):
    lock = Lock(skirmish_file).acquire()
    lock_path(skirmish_file).unlink()
    other = Lock(skirmish_file).acquire()  # a tracker started just then
    assert lock.lost() is Lost.DELETED
    other.release()
    lock.release()


def test_a_take_over_is_called_one(skirmish_file, monkeypatch):
    lock = Lock(skirmish_file).acquire()
    taker = Lock(skirmish_file)
    assert "did not let go" in taker.take_over(timeout=0.2)
    assert lock.lost() is Lost.TAKEN_OVER
    taker.release()
    lock.release()


def test_the_autosaver_says_a_change_is_committed_when_the_lock_went_after_it(skirmish_file):
    opened = open_encounter(skirmish_file)
    assert opened.lock is not None
    session = opened.session
    session.execute("note kept")
    lock_path(skirmish_file).unlink()
    other = Lock(skirmish_file).acquire()
    saver = Autosaver(skirmish_file, lambda: snapshot(session.enc, skirmish_file),
                      lock=opened.lock)
    saver.request()
    assert saver.run_pending() is False
    assert saver.last_error is not None
    assert "its lock file was deleted" in saver.last_error and COMMITTED in saver.last_error
    assert "took this encounter over" not in saver.last_error
    assert [e.text for e in load(skirmish_file).log] == ["kept"]  # the journal has it
    assert saver.safe is False
    other.release()
    opened.lock.release()
    assert journal_of(skirmish_file).exists()
    save_encounter(load(skirmish_file), skirmish_file)
