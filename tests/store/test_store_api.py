"""What other parts of the tracker build on: following a journal from a known position,
the record format open to new log entry fields, restore and the backup ring."""

from __future__ import annotations

import errno
import os

import pytest

from tests.conftest import LockHolder, journal_of
from tracker.cli import main
from tracker.core.model import LogEntry
from tracker.session.opening import load, model_for, open_encounter
from tracker.session.session import Session
from tracker.store import fs, journal, records_after, save_encounter, save_info
from tracker.store.toml_store import backup_paths, fingerprint
from tracker.store.verify import check_save


def test_a_reader_follows_the_records_appended_after_a_position(skirmish_file):
    info = save_info(skirmish_file)
    records, pos = records_after(info.journal, info.position, info.enc_id)
    assert records == [] and pos == info.position
    opened = open_encounter(skirmish_file)
    for line in ("note one", "next", "undo"):
        opened.session.execute(line)
        save_encounter(opened.session.enc, skirmish_file)
    records, pos = records_after(info.journal, pos, info.enc_id)
    assert [r.kind for r in records] == ["entry", "entry", "cursor"]
    assert records[0].entry().text == "one" and records[2].data["c"] == 1
    assert pos == save_info(skirmish_file).position
    with journal_of(skirmish_file).open("ab") as fh:
        fh.write(b'{"id":"')  # a record being written: left for the next call
    assert records_after(info.journal, pos, info.enc_id) == ([], pos)
    opened.lock.release()


def test_a_new_log_entry_field_is_written_and_verified_without_the_store_knowing_it():
    class Wider(LogEntry):
        odds: float | None = None

    fields = journal.entry_fields(0, -1, Wider(text="Archers shoot", odds=0.42))
    line, h = journal.encode("abc", 1, "entry", fields, "0" * 32)
    rec = journal.decode(line, 100)
    assert rec.hash == h and rec.data["e"]["odds"] == 0.42
    assert Wider.model_validate(rec.data["e"]).odds == 0.42


def test_restore_keeps_the_state_it_replaces_and_refuses_while_the_encounter_is_held(
        skirmish_file, capsys):
    opened = open_encounter(skirmish_file)
    for n in range(1, 4):
        opened.session.execute(f"note change {n}")
        save_encounter(opened.session.enc, skirmish_file)
    assert main(["restore", str(skirmish_file), "2"]) == 2  # this process holds it
    assert "open for writing" in capsys.readouterr().err
    opened.lock.release()
    current = fingerprint(skirmish_file)
    with LockHolder(skirmish_file):
        assert main(["restore", str(skirmish_file), "2"]) == 2
    assert main(["restore", str(skirmish_file), "2"]) == 0
    assert [e.text for e in load(skirmish_file).log] == ["change 1"]
    assert fingerprint(backup_paths(skirmish_file, 1)[0]) == current
    marks = [fingerprint(p) for p in backup_paths(skirmish_file, 5) if p.exists()]
    assert len(marks) == len(set(marks))
    for _ in range(3):  # restoring again and again never fills the ring with one state
        assert main(["restore", str(skirmish_file), "1"]) == 0
    marks = [fingerprint(p) for p in backup_paths(skirmish_file, 5) if p.exists()]
    assert len(marks) == len(set(marks)) >= 3
    assert check_save(skirmish_file, model_for).ok


class _NoTemp(fs.Files):
    def open(self, path, flags, mode=fs.FILE_MODE):  # type: ignore[no-untyped-def]
        if str(path).endswith(".tmp"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return super().open(path, flags, mode)


def test_the_ring_rotates_only_after_a_write_that_worked(skirmish_file):
    session = Session(load(skirmish_file), skirmish_file)
    for n in range(3):
        session.execute(f"note {n}")
        save_encounter(session.enc, skirmish_file)
    ring = [p.read_bytes() if p.exists() else None for p in backup_paths(skirmish_file, 5)]
    for n in range(10):  # thirty seconds of a full disk: the ring stays as it was
        session.execute(f"note lost {n}")
        with fs.use(_NoTemp()), pytest.raises(OSError):
            save_encounter(session.enc, skirmish_file)
    assert [p.read_bytes() if p.exists() else None
            for p in backup_paths(skirmish_file, 5)] == ring
