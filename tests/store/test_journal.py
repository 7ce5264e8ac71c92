"""The journal beside the state: opening reads only the newest record, saving appends,
every saved state stays readable, and a change committed to the journal survives a
crash before the state is written."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SAVES, journal_of, resign, skirmish
from tracker.cli import main
from tracker.core import history
from tracker.session.opening import load, model_for, open_encounter
from tracker.session.session import CommandError, Session
from tracker.store import SaveError, journal, save_encounter
from tracker.store.autosave import Autosaver
from tracker.store.toml_store import backup_paths, commit, link_of, snapshot
from tracker.store.verify import replay_save


def played(path: Path, lines: list[str]) -> Session:
    """Open for writing (as the app and `tracker exec` do), play, save, let go."""
    opened = open_encounter(path)
    session = opened.session
    try:
        for line in lines:
            session.execute(line)
        save_encounter(session.enc, path)
    finally:
        assert opened.lock is not None
        opened.lock.release()
    return session


def texts(path: Path) -> list[str]:
    return [e.text for e in load(path).log]


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in journal_of(path).read_text().splitlines()]


def test_the_log_goes_to_a_journal_and_the_state_names_its_newest_record(skirmish_file):
    played(skirmish_file, ["note one", "note two", "next", "note three"])
    state = tomllib.loads(skirmish_file.read_text())
    recs = records(skirmish_file)
    assert state["log"]["journal"] == "ford.journal.jsonl"
    assert [r["k"] for r in recs] == ["state", "entry", "entry", "entry", "entry"]
    assert state["log"]["count"] == 4
    assert [r["n"] for r in recs[1:]] == [0, 1, 2, 3]
    assert recs[1]["p"] == -1
    assert [r["s"] for r in recs] == [0, 1, 2, 3, 4]
    assert all(r["id"] == state["save"]["id"] for r in recs)
    assert all(r["ph"] == before["h"] for before, r in zip(recs, recs[1:], strict=False))
    raw = journal_of(skirmish_file).read_bytes()
    assert json.loads(raw[state["log"]["head"]:].split(b"\n")[0])["e"]["text"] == "three"
    assert state["save"]["records"] == 5 and state["save"]["last"] == recs[-1]["h"]
    enc = load(skirmish_file)
    assert enc.log.in_memory == 1  # opening read the newest record only
    assert [e.text for e in enc.log][:2] == ["one", "two"]
    assert enc.log[-1].text == "three"


def test_saving_again_appends_only_the_new_records(skirmish_file):
    played(skirmish_file, ["note one", "note two"])
    before = journal_of(skirmish_file).read_bytes()
    played(skirmish_file, ["note three"])
    after = journal_of(skirmish_file).read_bytes()
    assert after.startswith(before) and after.count(b"\n") == 4
    assert texts(skirmish_file) == ["one", "two", "three"]


def test_undo_after_reopening_reads_back_and_restores_the_state(skirmish_file):
    start = history.state_of(load(skirmish_file))
    played(skirmish_file, ["set aldo initiative=3", "next", "set bree initiative=1"])
    session = Session(load(skirmish_file), skirmish_file)
    for _ in range(3):
        session.execute("undo")
    assert history.state_of(session.enc) == start
    assert session.enc.cursor == 0 and len(session.enc.log) == 3


def test_undo_and_redo_are_records_of_their_own(skirmish_file):
    played(skirmish_file, ["note one", "note two", "undo"])
    assert records(skirmish_file)[-1] == {**records(skirmish_file)[-1], "k": "cursor", "c": 1}
    played(skirmish_file, ["redo"])
    assert records(skirmish_file)[-1]["c"] == 2


def test_a_new_change_after_undo_replaces_the_tail_in_every_later_load(skirmish_file):
    played(skirmish_file, ["note one", "note two", "note three"])
    played(skirmish_file, ["undo", "undo", "note two again"])
    assert texts(skirmish_file) == ["one", "two again"]
    entries = [r for r in records(skirmish_file) if r["k"] == "entry"]
    assert [r["e"]["text"] for r in entries] == ["one", "two", "three", "two again"]
    # the new entry takes the place of "two": entry 1, after the record of "one"
    raw = journal_of(skirmish_file).read_bytes().split(b"\n")
    offsets = [sum(len(line) + 1 for line in raw[:i]) for i in range(len(raw))]
    at = {r["e"]["text"]: offsets[i] for i, r in enumerate(records(skirmish_file))
          if r["k"] == "entry"}
    assert entries[-1]["n"] == 1
    assert entries[-1]["p"] == at["one"] != at["two"]


def test_undone_entries_survive_a_reopening_and_can_be_redone(skirmish_file):
    played(skirmish_file, ["note one", "note two", "undo"])
    session = Session(load(skirmish_file), skirmish_file)
    assert session.enc.cursor == 1 and len(session.enc.log) == 2
    session.execute("redo")
    assert session.enc.cursor == 2


def test_a_change_in_the_journal_survives_a_crash_before_the_state(skirmish_file):
    played(skirmish_file, ["note one", "note two"])
    saved = skirmish_file.read_bytes()
    # a save that committed its records (and half of another) but died before the state
    session = Session(load(skirmish_file), skirmish_file)
    session.execute("undo")
    session.execute("note kept")
    commit(snapshot(session.enc, skirmish_file))
    with journal_of(skirmish_file).open("ab") as fh:
        fh.write(b'{"id":"x","s":9,"k":"entry","n":2,"p":0,"e":{"te')
    assert skirmish_file.read_bytes() == saved
    assert texts(skirmish_file) == ["one", "kept"]  # rolled forward from the journal
    assert main(["check", str(skirmish_file)]) == 0  # the unfinished line is noted, not used
    played(skirmish_file, ["note three"])  # opening for writing sets the torn line aside
    assert texts(skirmish_file) == ["one", "kept", "three"]
    assert b'"te\n' not in journal_of(skirmish_file).read_bytes()
    assert main(["check", str(skirmish_file)]) == 0


def test_every_backup_still_opens_with_its_own_history(skirmish_file):
    for n in range(1, 5):
        played(skirmish_file, [f"note change {n}"])
    ring = backup_paths(skirmish_file, 5)
    counts = [len(load(p, ).log) for p in ring if p.exists()]
    assert counts == [3, 2, 1, 0]
    assert [e.text for e in load(ring[1]).log] == ["change 1", "change 2"]
    assert main(["restore", str(skirmish_file), "2"]) == 0
    assert texts(skirmish_file) == ["change 1", "change 2"]
    played(skirmish_file, ["note after restore"])
    assert texts(skirmish_file) == ["change 1", "change 2", "after restore"]
    assert main(["check", str(skirmish_file)]) == 0
    assert main(["replay", "-q", str(skirmish_file)]) == 0


def test_a_missing_journal_is_reported_and_nothing_is_written(skirmish_file):
    played(skirmish_file, ["note one"])
    journal_of(skirmish_file).unlink()
    saved = skirmish_file.read_bytes()
    with pytest.raises(SaveError) as err:
        load(skirmish_file)
    assert err.value.key == "save" and "ford.journal.jsonl" in err.value.expected
    assert "missing" in err.value.expected
    assert skirmish_file.read_bytes() == saved


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ('journal = "../elsewhere.jsonl"\ncount = 1\nhead = 0', "log.journal"),
        ('journal = "ford.journal.jsonl"\ncount = -1', "log.count"),
        ('journal = "ford.journal.jsonl"\ncount = 1\nhead = 0\nextra = 1', "log.extra"),
    ],
)
def test_a_bad_log_table_names_its_key(skirmish_file, table, key):
    played(skirmish_file, ["note one"])
    text = skirmish_file.read_text()
    text = text[: text.index("[log]")] + "[log]\n" + table + "\n\n" + text[text.index("[save]"):]
    resign(skirmish_file, text)
    with pytest.raises(SaveError) as err:
        load(skirmish_file)
    assert err.value.key == key


def test_a_log_table_naming_the_wrong_record_is_refused(skirmish_file):
    played(skirmish_file, ["note one", "note two"])
    text = skirmish_file.read_text()
    head = tomllib.loads(text)["log"]["head"]
    resign(skirmish_file, text.replace(f"head = {head}", "head = 0"))
    with pytest.raises(SaveError, match="a state record where a log entry was linked"):
        load(skirmish_file)


def test_a_damaged_record_deep_in_the_journal_is_found_by_opening_and_check(skirmish_file,
                                                                            capsys):
    played(skirmish_file, ["note one", "note two", "note three"])
    path = journal_of(skirmish_file)
    lines = path.read_bytes().split(b"\n")
    at = len(lines[0]) + 1
    lines[1] = lines[1].replace(b'"text":"one"', b'"text":"ONE"')
    path.write_bytes(b"\n".join(lines))
    # opening checks the chain from the first record, not only the record the state names
    with pytest.raises(SaveError, match=f"line 2, byte {at}: the checksum does not match"):
        load(skirmish_file)
    assert main(["check", str(skirmish_file)]) == 1
    assert (f"ford.journal.jsonl line 2, byte {at}: the checksum does not match"
            in capsys.readouterr().err)


def test_a_sample_with_an_inline_log_moves_it_into_a_journal(tmp_path):
    path = tmp_path / "volley.toml"
    shutil.copyfile(SAVES / "harn-nolora-volley.toml", path)
    enc = load(path)
    shipped = [e.text for e in enc.log]
    assert shipped and enc.log.in_memory == len(shipped)
    save_encounter(enc, path)
    assert "[[log]]" not in path.read_text()
    assert path.read_text().startswith("schema = 3\n")
    assert texts(path) == shipped
    assert main(["check", str(path)]) == 0
    assert main(["replay", "-q", str(path)]) == 0
    rebuilt, entries, start = replay_save(path, model_for)
    assert [e.text for e in entries] == shipped[: enc.cursor]
    assert start == "the encounter as it stood when its journal began"


def test_saving_into_another_folder_gives_that_folder_its_own_journal(skirmish_file, tmp_path):
    played(skirmish_file, ["note one", "note two"])
    other = tmp_path / "elsewhere" / "copy.toml"
    other.parent.mkdir()
    save_encounter(load(skirmish_file), other)
    assert journal_of(other).exists()
    journal_of(skirmish_file).unlink()
    assert texts(other) == ["one", "two"]
    assert main(["check", str(other)]) == 0


def test_a_log_read_from_a_journal_can_be_copied_without_reading_it():
    enc = skirmish()
    copy = enc.model_copy(deep=True)
    assert copy.log == [] and copy.log is not enc.log


def test_a_forged_record_breaks_the_chain_and_is_refused(skirmish_file, capsys):
    played(skirmish_file, ["note one", "note two", "note three"])
    path = journal_of(skirmish_file)
    lines = path.read_bytes().split(b"\n")
    second = sum(len(line) + 1 for line in lines[:2])
    link = b'"p":%d' % second
    body = lines[3][: lines[3].rindex(b',"h":"')].replace(link, b'"p":0')
    lines[3] = body + b',"h":"' + journal.digest(body).encode() + b'"}'  # a valid checksum
    path.write_bytes(b"\n".join(lines))
    assert main(["check", str(skirmish_file)]) == 1
    assert "line 4" in capsys.readouterr().err


def test_a_record_of_another_encounter_is_refused(skirmish_file, tmp_path, capsys):
    played(skirmish_file, ["note one", "note two"])
    other = tmp_path / "other.toml"
    save_encounter(skirmish(), other)
    played(other, ["note foreign"])
    mine = journal_of(skirmish_file).read_bytes().split(b"\n")
    theirs = journal_of(other).read_bytes().split(b"\n")
    mine[1] = theirs[1]  # "foreign" in place of "one"
    journal_of(skirmish_file).write_bytes(b"\n".join(mine))
    assert main(["check", str(skirmish_file)]) == 1
    err = capsys.readouterr().err
    at = len(mine[0]) + 1
    assert f"ford.journal.jsonl line 2, byte {at}: a record of another encounter" in err
    with pytest.raises(SaveError):
        load(skirmish_file)


COMMANDS = st.sampled_from(
    ["note a", "note b", "next", "undo", "undo", "redo", "set aldo initiative=2",
     "set bree initiative=20", "SAVE", "REOPEN", "COMMIT"]
)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(COMMANDS, max_size=30))
def test_any_mix_of_changes_saves_and_reopenings_matches_one_session(tmp_path, steps):
    path = tmp_path / f"mix-{abs(hash(tuple(steps)))}.toml"
    save_encounter(skirmish(), path)
    reference = Session(load(path))
    live = Session(load(path), path)
    for step in steps:
        if step == "SAVE":
            save_encounter(live.enc, path)
        elif step == "COMMIT":  # the journal only: the state file lags behind
            commit(snapshot(live.enc, path))
        elif step == "REOPEN":
            commit(snapshot(live.enc, path))
            live = Session(load(path), path)
        else:
            for s in (reference, live):
                try:
                    s.execute(step)
                except CommandError as exc:  # undo with nothing to undo is a clean refusal
                    assert "nothing to" in str(exc)
    commit(snapshot(live.enc, path))
    final = load(path)
    assert history.state_of(final) == history.state_of(reference.enc)
    assert final.cursor == reference.enc.cursor
    assert [e.text for e in final.log] == [e.text for e in reference.enc.log]
    rebuilt, _, _ = replay_save(path, model_for)
    assert history.state_of(rebuilt) == history.state_of(final)
    assert main(["check", str(path)]) == 0


def test_a_journal_cut_short_under_a_running_session_is_not_written_to(skirmish_file):
    played(skirmish_file, ["note one", "note two"])
    session = Session(load(skirmish_file), skirmish_file)
    session.enc.log.load_all()
    journal_file = journal_of(skirmish_file)
    journal_file.write_bytes(b"")  # someone emptied it while the app ran
    saved = skirmish_file.read_bytes()
    session.execute("note three")
    saver = Autosaver(skirmish_file, lambda: snapshot(session.enc, skirmish_file))
    saver.request()
    assert saver.run_pending() is False
    assert "cut short" in (saver.last_error or "")
    assert journal_file.read_bytes() == b"" and skirmish_file.read_bytes() == saved
    assert link_of(session.enc) is not None


@pytest.mark.parametrize(
    ("kind", "fields", "said"),
    [
        ("entry", {"n": -1, "p": -1, "e": {"text": "x"}}, "entry record: n: must be at least 0"),
        ("entry", {"n": True, "p": -1, "e": {"text": "x"}},
         "entry record: n: expected a whole number"),
        ("entry", {"n": 0, "p": 500, "e": {"text": "x"}}, "a link back to an earlier record"),
        ("entry", {"n": 0, "p": -1, "e": {"kind": "note"}}, "entry record: e.text: missing"),
        ("cursor", {"c": "3"}, "cursor record: c: expected a whole number"),
        ("state", {"b": [], "c": 0, "hd": -1}, "state record: b: expected a table"),
        ("state", {"b": {}, "c": 0, "hd": -2}, "state record: hd: must be at least -1"),
    ],
)
def test_a_record_whose_fields_do_not_fit_its_kind_is_refused_saying_which(
    kind: str, fields: dict[str, Any], said: str
) -> None:
    rec = journal.Record(3, kind, 100, 200, "h", "p", {"id": "x", "s": 3, "k": kind, **fields})
    with pytest.raises(ValueError, match=re.escape(said)):
        journal.check_fields(rec)
