"""Files a GM can trust on a shared machine: private modes, no link followed, no FIFO
waited on, unpredictable temp names, leftovers of a crash tidied, one line per error."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import journal_of, skirmish
from tracker.session.opening import load, new_encounter, open_encounter
from tracker.session.session import CommandError, Session
from tracker.store import fs, save_encounter
from tracker.store.toml_store import BACKUP_DIR


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_saves_journals_and_backups_are_private(tmp_path, tracker_home):
    path = new_encounter("Private", "plain", tracker_home / "games" / "p.toml")
    session = Session(load(path), path)
    session.execute("note! the dragon sleeps")
    save_encounter(session.enc, path)
    assert mode(path) == 0o600 and mode(journal_of(path)) == 0o600
    assert mode(path.parent / BACKUP_DIR) == 0o700
    assert all(mode(p) == 0o600 for p in (path.parent / BACKUP_DIR).iterdir())
    assert mode(path.parent) == 0o700  # a folder the tracker made


def test_the_data_folder_is_private(tracker_home):
    from tracker.store.paths import encounters_dir

    assert mode(encounters_dir()) == 0o700


def test_a_journal_that_is_a_symlink_is_refused(tmp_path):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    outside = tmp_path / "outside.jsonl"
    journal_of(path).rename(outside)
    journal_of(path).symlink_to(outside)
    with pytest.raises(Exception, match="symbolic link"):
        load(path)


def test_a_backups_folder_that_is_a_symlink_is_refused(tmp_path):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / BACKUP_DIR).symlink_to(elsewhere)
    session = Session(load(path), path)
    session.execute("note one")
    with pytest.raises(OSError, match="symbolic link"):
        save_encounter(session.enc, path)
    assert list(elsewhere.iterdir()) == []
    assert [e.text for e in load(path).log] == ["one"]  # committed to the journal


def test_a_planted_temp_file_or_link_is_never_written_through(tmp_path):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    target = tmp_path / "victim.txt"
    target.write_text("keep me")
    # the old, predictable name: a link planted there is not used
    (tmp_path / f".ford.toml.{os.getpid()}.tmp").symlink_to(target)
    names = {fs.temp_name(path).name for _ in range(50)}
    assert len(names) == 50  # unpredictable
    session = Session(load(path), path)
    session.execute("note one")
    save_encounter(session.enc, path)
    assert target.read_text() == "keep me"


def test_a_temp_name_already_taken_is_not_opened(tmp_path, monkeypatch):
    path = tmp_path / "ford.toml"
    taken = tmp_path / ".ford.toml.000000000000.tmp"
    taken.symlink_to(tmp_path / "victim")
    monkeypatch.setattr(fs, "temp_name", lambda target: taken)
    with pytest.raises(FileExistsError):
        fs.write_temp(path, b"x")
    assert not (tmp_path / "victim").exists()


def test_leftover_temp_files_of_a_crash_are_removed_at_the_next_open(tmp_path):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    (tmp_path / BACKUP_DIR).mkdir(mode=0o700, exist_ok=True)
    left = [tmp_path / ".ford.toml.0123456789ab.tmp",
            tmp_path / ".ford.journal.jsonl.0123456789ab.tmp",
            tmp_path / BACKUP_DIR / ".ford.toml.0123456789ab.tmp"]
    for p in left:
        p.write_text("half")
    other = tmp_path / ".notes.txt.0123456789ab.tmp"  # not this save's
    other.write_text("mine")
    opened = open_encounter(path)
    assert "temp file" in opened.notice
    assert not any(p.exists() for p in left) and other.exists()
    opened.lock.release()


def test_an_army_list_that_is_a_fifo_is_refused_at_once(tmp_path):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    os.mkfifo(tmp_path / "army.toml")
    session = Session(load(path), path)
    start = time.monotonic()
    with pytest.raises(CommandError, match="regular file"):
        session.execute("army army.toml")
    assert time.monotonic() - start < 5


def test_a_table_a_save_names_through_a_symlink_or_as_a_fifo_is_refused_unopened(tmp_path):
    from tracker.store.paths import safe_child

    (tmp_path / "real.toml").write_text("x = 1\n")
    (tmp_path / "link.toml").symlink_to(tmp_path / "real.toml")
    os.mkfifo(tmp_path / "pipe.toml")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t.toml").write_text("x = 1\n")
    (tmp_path / "sublink").symlink_to(tmp_path / "sub")
    assert safe_child(tmp_path, "real.toml") == tmp_path / "real.toml"
    assert safe_child(tmp_path, "sub/t.toml") == tmp_path / "sub" / "t.toml"
    for name, why in (("link.toml", "symbolic link"), ("sublink/t.toml", "symbolic link"),
                      ("pipe.toml", "not a regular file"), ("../x.toml", "outside")):
        with pytest.raises(ValueError, match=why):
            safe_child(tmp_path, name)


READ_ONLY = """
import errno, os, sys
from tracker.store import fs

class ReadOnly(fs.Files):
    def open(self, path, flags, mode=fs.FILE_MODE):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return super().open(path, flags, mode)

    def mkdir(self, path, mode=fs.DIR_MODE):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

fs._current = ReadOnly()
from tracker.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("args", [
    ["restore", "{dir}"], ["exec", "{dir}", "note x"],
    ["replay", "{dir}"], ["repair", "{dir}"], ["new", "x", "--ruleset", "plain", "--file",
                                               "{ro}/x.toml", "--no-open"],
    ["exec", "{ro}/ford.toml", "note x"], ["restore", "{ro}/ford.toml"],
    ["repair", "{ro}/ford.toml", "--yes"],
])
def test_file_errors_are_one_line_and_exit_2(tmp_path, args):
    """A folder where a save is named, and a read-only file system (EROFS on every
    write, as a read-only mount gives even to root)."""
    folder = tmp_path / "a-folder.toml"
    folder.mkdir()
    ro = tmp_path / "ro"
    ro.mkdir()
    save_encounter(skirmish(), ro / "ford.toml")
    argv = [a.format(dir=folder, ro=ro) for a in args]
    run = subprocess.run([sys.executable, "-c", READ_ONLY, *argv], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode in (1, 2), run
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr


@pytest.fixture
def wide_umask():
    old = os.umask(0)  # the widest: a file made with the default mode would be 0666
    try:
        yield
    finally:
        os.umask(old)


def test_new_file_in_new_folders_makes_each_folder_private_whatever_the_umask(
        tmp_path, wide_umask):
    from tracker.cli import main

    target = tmp_path / "a" / "b" / "c.toml"
    assert main(["new", "Deep", "--ruleset", "plain", "--file", str(target), "--no-open"]) == 0
    for folder in (tmp_path / "a", tmp_path / "a" / "b"):
        assert mode(folder) == 0o700, folder
    assert mode(target) == 0o600 and mode(journal_of(target)) == 0o600


def test_the_data_folder_and_its_parents_are_private_whatever_the_umask(
        tmp_path, monkeypatch, wide_umask):
    from tracker.store.paths import encounters_dir

    home = tmp_path / "deep" / "er" / "home"
    monkeypatch.setenv("TRACKER_HOME", str(home))
    encounters_dir()
    for folder in (tmp_path / "deep", tmp_path / "deep" / "er", home, home / "encounters"):
        assert mode(folder) == 0o700, folder


def test_a_narrow_umask_does_not_leave_a_folder_the_tracker_cannot_use(tmp_path):
    old = os.umask(0o277)  # would give mkdir 0500 and files 0400
    try:
        path = tmp_path / "new" / "p.toml"
        new_encounter("Narrow", "plain", path)
        session = Session(load(path), path)
        session.execute("note fine")
        save_encounter(session.enc, path)
    finally:
        os.umask(old)
    assert mode(path.parent) == 0o700 and mode(path) == 0o600
    assert mode(path.parent / BACKUP_DIR) == 0o700


def test_errors_log_is_private_and_never_appended_through_a_link(tracker_home, wide_umask):
    from tracker.ui.errors import log_unexpected

    tracker_home.mkdir(parents=True)
    victim = tracker_home.parent / "victim.txt"
    victim.write_text("keep me")
    (tracker_home / "errors.log").symlink_to(victim)
    with pytest.raises(OSError, match="symbolic link"):
        log_unexpected(RuntimeError("boom"), "a test")
    assert victim.read_text() == "keep me"
    (tracker_home / "errors.log").unlink()
    path = log_unexpected(RuntimeError("boom"), "a test")
    assert mode(path) == 0o600 and "boom" in path.read_text()
    log_unexpected(RuntimeError("again"), "a test")
    assert "again" in path.read_text() and "boom" in path.read_text()


def test_errors_log_makes_a_private_data_folder(tmp_path, monkeypatch, wide_umask):
    from tracker.ui.errors import log_unexpected

    home = tmp_path / "fresh" / "home"
    monkeypatch.setenv("TRACKER_HOME", str(home))
    log_unexpected(RuntimeError("boom"), "a test")
    assert mode(home) == 0o700 and mode(tmp_path / "fresh") == 0o700


def test_prefs_are_written_privately_and_never_through_a_planted_link(
        tracker_home, monkeypatch, wide_umask):
    from tracker.ui import prefs

    monkeypatch.setenv("TRACKER_CONFIG", str(tracker_home / "config"))
    folder = tracker_home / "config"
    folder.mkdir(parents=True)
    victim = tracker_home.parent / "victim.txt"
    victim.write_text("keep me")
    (folder / ".prefs.toml.tmp").symlink_to(victim)  # the old, fixed temp name
    assert prefs.remember(theme="tracker-light")
    assert victim.read_text() == "keep me"
    assert mode(folder / "prefs.toml") == 0o600
    assert prefs.get("theme") == "tracker-light"
    (folder / "prefs.toml").unlink()
    (folder / "prefs.toml").symlink_to(victim)  # a link in the file's place is replaced
    assert prefs.remember(theme="tracker-dark")
    assert victim.read_text() == "keep me" and not (folder / "prefs.toml").is_symlink()


def test_a_kept_army_list_and_its_folder_are_private(tmp_path, wide_umask):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    army = tmp_path / "elsewhere" / "band.toml"
    army.parent.mkdir()
    army.write_text('[[units]]\nname = "Spears"\nside = "foes"\n')
    session = Session(load(path), path)
    session.execute(f"army {army}")
    kept = tmp_path / "armies" / "band.toml"
    assert kept.read_bytes() == army.read_bytes()
    assert mode(tmp_path / "armies") == 0o700 and mode(kept) == 0o600


def test_a_report_out_file_is_private_and_never_written_through_a_link(tmp_path, wide_umask):
    from tracker.cli import main

    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out = tmp_path / "report.md"
    out.symlink_to(victim)
    assert main(["report", str(path), "--out", str(out)]) == 0
    assert victim.read_text() == "keep me" and not out.is_symlink()
    assert mode(out) == 0o600 and "Ambush at the ford" in out.read_text()


def test_the_rescue_and_host_key_folders_are_private(tmp_path, monkeypatch, wide_umask):
    from tracker.session.saving import rescue
    from tracker.table.ssh import host_key

    home = tmp_path / "new" / "home"
    monkeypatch.setenv("TRACKER_HOME", str(home))
    rescued = rescue(skirmish(), tmp_path / "ford.toml")
    assert rescued is not None and mode(rescued.parent) == 0o700 and mode(home) == 0o700
    assert mode(rescued) == 0o600
    keys = tmp_path / "keys" / "ssh"
    host_key(keys)
    assert mode(keys) == 0o700 and mode(tmp_path / "keys") == 0o700
