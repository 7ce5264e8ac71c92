import errno
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.conftest import LockHolder, journal_of, skirmish
from tracker.cli import main
from tracker.core.model import SCHEMA_VERSION
from tracker.session.opening import load, model_for, open_encounter
from tracker.session.session import Session
from tracker.store import Lock, LockHeld, SaveError, fs, save_encounter, snapshot
from tracker.store.autosave import Autosaver
from tracker.store.lock import lock_path
from tracker.store.toml_store import backup_paths


def test_a_save_round_trips_and_starts_with_its_schema(tmp_path):
    enc = skirmish()
    enc = model_for(enc.ruleset).model_validate(enc.model_dump())  # its ruleset's fields
    path = tmp_path / "a.toml"
    save_encounter(enc, path)
    assert path.read_text().startswith(f"schema = {SCHEMA_VERSION}\n")
    assert load(path).model_dump() == enc.model_dump()


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        ("schema = 1\nname = 'x'\nruleset = 'plain'\n[position]\nround = 'two'\n",
         "position.round", "valid integer"),
        ("schema = 1\nname = 'x'\nruleset = 'plain'\n[[combatants]]\nid = 'a'\n",
         "combatants[0:a].name", "Field required"),
        ("schema = 1\nname = 'x'\nruleset = 'plain'\ncolour = 'red'\n",
         "colour", "Extra inputs"),
        ("schema = 1\nname = 'x'\nruleset = 'chess'\n", "ruleset", "unknown ruleset"),
        ("schema = 99\nname = 'x'\nruleset = 'plain'\n", "schema", "newer"),
        ("name = 'x'\n", "schema", "schema = N"),
        ("schema = 1\nname = [unclosed\n", "line 2", "valid TOML"),
    ],
)
def test_bad_files_name_the_file_the_key_and_what_was_expected(tmp_path, text, key, expected):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    before = path.read_bytes()
    with pytest.raises(SaveError) as info:
        load(path)
    assert info.value.key == key
    assert expected in info.value.expected
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)
    assert path.read_bytes() == before


def test_the_cli_reports_a_bad_file_in_one_line_and_leaves_it(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(b"schema = 1\nname = 'x'\nruleset = 'plain'\n[position]\nround = -\n")
    before = path.read_bytes()
    for args in (["check", str(path)], [str(path)], ["exec", str(path), "next"]):
        run = subprocess.run([sys.executable, "-m", "tracker", *args], capture_output=True,
                             text=True, timeout=60)
        assert run.returncode != 0
        assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
        assert str(path) in run.stderr
    assert path.read_bytes() == before


def test_backups_keep_a_ring_of_previous_versions(tmp_path):
    enc = skirmish()
    path = tmp_path / "ring.toml"
    for n in range(8):
        enc.position.round = n + 1
        save_encounter(enc, path, backups=3)
    ring = backup_paths(path, 3)
    rounds = [load(p).position.round for p in ring]
    assert rounds == [7, 6, 5]
    assert load(path).position.round == 8


def test_restore_puts_back_a_backup(tmp_path):
    enc = skirmish()
    path = tmp_path / "r.toml"
    for n in (1, 2, 3):
        enc.position.round = n
        save_encounter(enc, path)
    run = subprocess.run([sys.executable, "-m", "tracker", "restore", str(path), "2"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert load(path).position.round == 1


@pytest.mark.parametrize("n", ["0", "-1"])
def test_restore_of_a_backup_before_the_first_is_refused(tmp_path, capsys, n):
    """Backups count from 1, the newest: 0 or -1 put back backup 1 as if it were asked."""
    enc = skirmish()
    path = tmp_path / "r.toml"
    for rnd in (1, 2):
        enc.position.round = rnd
        save_encounter(enc, path)
    before = path.read_bytes()
    assert main(["restore", str(path), n]) == 2
    assert capsys.readouterr().err == (
        f"tracker: {path}: no backup {n}: backups count from 1, the newest\n")
    assert path.read_bytes() == before


def test_a_live_lock_makes_the_second_opener_read_only(skirmish_file):
    with LockHolder(skirmish_file):
        second = open_encounter(skirmish_file)
        assert second.session.read_only and second.lock is None
        assert "read-only" in second.notice and "pid" in second.held_by
    third = open_encounter(skirmish_file)  # the holder is gone: so is its lock
    assert not third.session.read_only
    third.lock.release()


def test_a_lock_file_left_by_a_dead_process_does_not_hold_the_encounter(skirmish_file):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock_path(skirmish_file).write_text(f"{dead.pid} {os.uname().nodename} 0\n")
    opened = open_encounter(skirmish_file)
    assert not opened.session.read_only
    assert lock_path(skirmish_file).read_text().startswith(f"{os.getpid()} ")
    opened.lock.release()
    assert Lock(skirmish_file).acquire().held


def test_the_lock_file_text_never_decides_who_writes(skirmish_file):
    """Only the OS lock counts: a file naming a live pid on another host does not hold
    the encounter, and an empty one does not let a second writer in."""
    lock_path(skirmish_file).write_text("1 some-other-host 0\n")
    first = Lock(skirmish_file).acquire()
    lock_path(skirmish_file).write_text("")
    with pytest.raises(LockHeld):
        Lock(skirmish_file).acquire()
    first.release()


def test_a_read_only_folder_keeps_the_request_and_retries(tmp_path, monkeypatch):
    path = tmp_path / "e.toml"
    enc = skirmish()
    saver = Autosaver(path, lambda: snapshot(enc, path))
    real_open = os.open

    def read_only(name, flags, *args):
        if str(name).endswith(".tmp"):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    saver.request()
    assert saver.run_pending() is False
    assert saver.pending and "Read-only file system" in (saver.last_error or "")
    assert not path.exists()
    monkeypatch.undo()
    assert saver.run_pending() is True
    assert not saver.pending
    assert load(path).name == enc.name


class _FullDisk(fs.Files):
    def write(self, fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    def pwrite(self, fd, data, offset):
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_keeps_the_old_save_and_the_request(tmp_path):
    path = tmp_path / "e.toml"
    session = Session(skirmish(), path)
    save_encounter(session.enc, path, backups=0)
    before = path.read_bytes()
    journal_before = journal_of(path).read_bytes()
    session.execute("next round")
    saver = Autosaver(path, lambda: snapshot(session.enc, path), backups=0)
    saver.request()
    with fs.use(_FullDisk()):
        assert saver.run_pending() is False
    assert "No space left" in (saver.last_error or "")
    assert path.read_bytes() == before and journal_of(path).read_bytes() == journal_before
    assert not list(tmp_path.glob(".*.tmp"))
    assert saver.run_pending() is True
    assert load(path).position.round == 2


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tracker.core.model import Combatant, Encounter
    from tracker.store import save_encounter
    path = Path(sys.argv[1])
    enc = Encounter(name="stream", ruleset="plain")
    enc.combatants = [Combatant(id=f"c{i}", name=f"Fighter {i}") for i in range(300)]
    n = 1
    save_encounter(enc, path, backups=2)
    print("ready", flush=True)  # a first save is on disk: from here a kill finds one
    while n < 100000:
        n += 1
        enc.position.round = n
        save_encounter(enc, path, backups=2)
    """
)


def test_kill_9_during_a_stream_of_autosaves_never_leaves_a_broken_save(tmp_path):
    path = tmp_path / "stream.toml"
    rounds = []
    for attempt in range(8):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(0.15 + 0.07 * attempt)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        enc = load(path)  # never a half-written file
        rounds.append(enc.position.round)
        assert len(enc.combatants) == 300
    assert all(r >= 1 for r in rounds)
