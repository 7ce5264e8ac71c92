"""A save cut at every byte, its journal cut at every byte, records altered, forged or
from another encounter: none is accepted silently (opening refuses or `check` fails,
naming the file and the key or journal line)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import journal_of, skirmish
from tracker.core.log import LogError
from tracker.session.opening import load, model_for, open_encounter
from tracker.store import SaveError, journal, save_encounter
from tracker.store.verify import check_save


def played(path: Path) -> None:
    save_encounter(skirmish(), path)
    opened = open_encounter(path)
    for line in ("note one", "set aldo initiative=3", "next", "undo", "note two",
                 "wound bree arm level=2", "undo", "redo", "next round"):
        opened.session.execute(line)
        save_encounter(opened.session.enc, path)
    assert opened.lock is not None
    opened.lock.release()


def accepted(path: Path) -> bool:
    """Whether the damaged save gets through: it opens and `check` passes."""
    try:
        enc = load(path)
        enc.log.load_all()
    except (SaveError, LogError):
        return False
    return check_save(path, model_for).ok


def test_a_state_cut_at_every_byte_is_never_accepted(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    whole = path.read_bytes()
    assert accepted(path)
    silent = [n for n in range(len(whole)) if (path.write_bytes(whole[:n]), accepted(path))[1]]
    assert silent == [], f"cut at byte(s) {silent[:5]} accepted"
    assert len(whole) > 500


def test_a_journal_cut_at_every_byte_is_never_accepted(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    jpath = journal_of(path)
    whole = jpath.read_bytes()
    silent = [n for n in range(len(whole)) if (jpath.write_bytes(whole[:n]), accepted(path))[1]]
    assert silent == [], f"journal cut at byte(s) {silent[:5]} accepted"
    assert whole.count(b"\n") >= 10


def test_every_record_altered_is_found_with_its_line(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    jpath = journal_of(path)
    lines = jpath.read_bytes().split(b"\n")[:-1]
    for i, line in enumerate(lines):
        for old, new in ((b'"s":', b'"s": '), (b'"k":"', b'"k": "'), (b"}", b" }")):
            changed = list(lines)
            changed[i] = line.replace(old, new, 1)
            jpath.write_bytes(b"\n".join(changed) + b"\n")
            report = check_save(path, model_for)
            assert not report.ok, f"line {i + 1} altered ({old!r}) passed check"
            assert any(f"line {i + 1}" in p for p in report.problems), report.problems
            assert not accepted(path)
    jpath.write_bytes(b"\n".join(lines) + b"\n")
    assert accepted(path)


def test_a_forged_record_with_a_good_checksum_breaks_the_chain(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    jpath = journal_of(path)
    lines = jpath.read_bytes().split(b"\n")[:-1]
    for i in range(1, len(lines) - 1):
        data = json.loads(lines[i])
        if data["k"] != "entry":
            continue
        body = lines[i][: lines[i].rindex(b',"h":"')].replace(b'"round":', b'"round":9', 1)
        forged = list(lines)
        forged[i] = body + b',"h":"' + journal.digest(body).encode() + b'"}'
        jpath.write_bytes(b"\n".join(forged) + b"\n")
        report = check_save(path, model_for)
        assert not report.ok and not accepted(path), f"a forged line {i + 1} passed"


def test_records_of_another_encounter_are_never_applied(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    other = tmp_path / "other.toml"
    played(other)
    jpath = journal_of(path)
    mine = jpath.read_bytes()
    theirs = journal_of(other).read_bytes().split(b"\n")[:-1]
    # appended after the state's record (where a crash leaves committed records)
    for line in theirs:
        jpath.write_bytes(mine + line + b"\n")
        assert not accepted(path)
        report = check_save(path, model_for)
        assert any("another encounter" in p or "does not follow" in p
                   for p in report.problems), report.problems
    # in place of one of ours
    lines = mine.split(b"\n")[:-1]
    for i in range(len(lines)):
        swapped = list(lines)
        swapped[i] = theirs[min(i, len(theirs) - 1)]
        jpath.write_bytes(b"\n".join(swapped) + b"\n")
        assert not accepted(path), f"a foreign line {i + 1} was accepted"
