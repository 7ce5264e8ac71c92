"""The journal beside the state: opening reads only the newest record, saving appends,
every saved state stays readable, and a crash between the two writes loses nothing saved."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SAVES, skirmish
from tracker.cli import main
from tracker.core import history
from tracker.core.log import LogError
from tracker.opening import load
from tracker.session import Session
from tracker.store import SaveError, journal, save_encounter
from tracker.store.toml_store import backup_paths


def played(path: Path, lines: list[str]) -> Session:
    session = Session(load(path), path)
    for line in lines:
        session.execute(line)
    save_encounter(session.enc, path)
    return session


def texts(path: Path) -> list[str]:
    return [e.text for e in load(path).log]


def journal_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.with_suffix(".log.jsonl").read_text().splitlines()]


def test_the_log_goes_to_a_journal_and_the_state_names_its_newest_record(skirmish_file):
    played(skirmish_file, ["note one", "note two", "next", "note three"])
    state = tomllib.loads(skirmish_file.read_text())
    records = journal_lines(skirmish_file)
    assert state["log"]["journal"] == "ford.log.jsonl"
    assert state["log"]["count"] == 4 == len(records)
    assert [r["n"] for r in records] == [0, 1, 2, 3]
    assert [r["p"] for r in records][0] == -1
    raw = skirmish_file.with_suffix(".log.jsonl").read_bytes()
    assert raw[state["log"]["head"]:].startswith(b'{"n":3,')
    enc = load(skirmish_file)
    assert enc.log.in_memory == 1  # opening read the newest record only
    assert [e.text for e in enc.log][:2] == ["one", "two"]
    assert enc.log[-1].text == "three"


def test_saving_again_appends_only_the_new_entries(skirmish_file):
    played(skirmish_file, ["note one", "note two"])
    before = skirmish_file.with_suffix(".log.jsonl").read_bytes()
    played(skirmish_file, ["note three"])
    after = skirmish_file.with_suffix(".log.jsonl").read_bytes()
    assert after.startswith(before) and after.count(b"\n") == 3
    assert texts(skirmish_file) == ["one", "two", "three"]


def test_undo_after_reopening_reads_back_and_restores_the_state(skirmish_file):
    start = history.state_of(load(skirmish_file))
    played(skirmish_file, ["set aldo initiative=3", "next", "set bree initiative=1"])
    session = Session(load(skirmish_file), skirmish_file)
    for _ in range(3):
        session.execute("undo")
    assert history.state_of(session.enc) == start
    assert session.enc.cursor == 0 and len(session.enc.log) == 3


def test_a_new_change_after_undo_replaces_the_tail_in_every_later_load(skirmish_file):
    played(skirmish_file, ["note one", "note two", "note three"])
    played(skirmish_file, ["undo", "undo", "note two again"])
    assert texts(skirmish_file) == ["one", "two again"]
    # the dropped entries are still in the file, only no state links to them
    assert [r["e"]["text"] for r in journal_lines(skirmish_file)] == [
        "one", "two", "three", "two again"]
    assert journal_lines(skirmish_file)[-1]["p"] == 0  # linked to "one", the first line


def test_undone_entries_survive_a_reopening_and_can_be_redone(skirmish_file):
    played(skirmish_file, ["note one", "note two", "undo"])
    session = Session(load(skirmish_file), skirmish_file)
    assert session.enc.cursor == 1 and len(session.enc.log) == 2
    session.execute("redo")
    assert session.enc.cursor == 2


def test_a_crash_between_the_journal_and_the_state_loses_nothing_saved(skirmish_file):
    played(skirmish_file, ["note one", "note two"])
    saved = skirmish_file.read_bytes()
    # a save that appended its entries (and half of another) but died before the state
    session = Session(load(skirmish_file), skirmish_file)
    session.execute("undo")
    session.execute("note lost")
    index, before, entries = session.enc.log.pending()
    journal.append(skirmish_file.with_suffix(".log.jsonl"), index, before, entries)
    with skirmish_file.with_suffix(".log.jsonl").open("ab") as fh:
        fh.write(b'{"n":2,"p":0,"e":{"te')
    assert skirmish_file.read_bytes() == saved
    assert texts(skirmish_file) == ["one", "two"]
    # the next session goes on from the saved state; the torn line is closed first
    played(skirmish_file, ["note three"])
    assert texts(skirmish_file) == ["one", "two", "three"]
    assert main(["check", str(skirmish_file)]) == 0


def test_every_backup_still_opens_with_its_own_history(skirmish_file):
    for n in range(1, 5):
        played(skirmish_file, [f"note change {n}"])
    ring = backup_paths(skirmish_file, 5)
    counts = [len(load(p).log) for p in ring if p.exists()]
    assert counts == [3, 2, 1, 0]
    assert [e.text for e in load(ring[1]).log] == ["change 1", "change 2"]
    assert main(["restore", str(skirmish_file), "2"]) == 0
    assert texts(skirmish_file) == ["change 1", "change 2"]
    played(skirmish_file, ["note after restore"])
    assert texts(skirmish_file) == ["change 1", "change 2", "after restore"]


def test_a_missing_journal_is_reported_and_nothing_is_written(skirmish_file):
    played(skirmish_file, ["note one"])
    skirmish_file.with_suffix(".log.jsonl").unlink()
    saved = skirmish_file.read_bytes()
    with pytest.raises(SaveError) as err:
        load(skirmish_file)
    assert err.value.key == "log.head" and "ford.log.jsonl" in err.value.expected
    assert "missing" in err.value.expected
    assert skirmish_file.read_bytes() == saved


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ('journal = "../elsewhere.jsonl"\ncount = 1\nhead = 0', "log.journal"),
        ('journal = "ford.log.jsonl"\ncount = -1', "log.count"),
        ('journal = "ford.log.jsonl"\ncount = 2\nhead = 0', "log.head"),
        ('journal = "ford.log.jsonl"\ncount = 1\nhead = 5', "log.head"),
        ('journal = "ford.log.jsonl"\ncount = 1\nhead = 0\nextra = 1', "log.extra"),
    ],
)
def test_a_bad_log_table_names_its_key(skirmish_file, table, key):
    played(skirmish_file, ["note one"])
    text = skirmish_file.read_text()
    text = text[: text.index("[log]")] + "[log]\n" + table + "\n"
    skirmish_file.write_text(text)
    with pytest.raises(SaveError) as err:
        load(skirmish_file)
    assert err.value.key == key


def test_a_damaged_record_deep_in_the_journal_is_found_by_check_and_by_undo(skirmish_file, capsys):
    played(skirmish_file, ["note one", "note two", "note three"])
    path = skirmish_file.with_suffix(".log.jsonl")
    lines = path.read_bytes().split(b"\n")
    lines[0] = lines[0].replace(b'"text":"one"', b'"text":11111')
    path.write_bytes(b"\n".join(lines))
    session = Session(load(skirmish_file), skirmish_file)  # the newest record is whole
    session.execute("undo")
    session.execute("undo")
    with pytest.raises(Exception, match="ford.log.jsonl at byte 0"):
        session.execute("undo")
    assert main(["check", str(skirmish_file)]) == 1
    assert "ford.log.jsonl at byte 0" in capsys.readouterr().err


def test_a_sample_with_an_inline_log_moves_it_into_a_journal(tmp_path):
    path = tmp_path / "volley.toml"
    shutil.copyfile(SAVES / "harn-nolora-volley.toml", path)
    enc = load(path)
    shipped = [e.text for e in enc.log]
    assert shipped and enc.log.in_memory == len(shipped)
    save_encounter(enc, path)
    assert "[[log]]" not in path.read_text()
    assert texts(path) == shipped
    assert main(["replay", "-q", str(path)]) == 0


def test_saving_into_another_folder_gives_that_folder_its_own_journal(skirmish_file, tmp_path):
    played(skirmish_file, ["note one", "note two"])
    other = tmp_path / "elsewhere" / "copy.toml"
    other.parent.mkdir()
    save_encounter(load(skirmish_file), other)
    assert (other.parent / "copy.log.jsonl").exists()
    skirmish_file.with_suffix(".log.jsonl").unlink()
    assert texts(other) == ["one", "two"]


def test_a_log_read_from_a_journal_can_be_copied_without_reading_it():
    enc = skirmish()
    copy = enc.model_copy(deep=True)
    assert copy.log == [] and copy.log is not enc.log


def test_a_record_linked_to_the_wrong_place_is_an_error(skirmish_file):
    played(skirmish_file, ["note one", "note two", "note three"])
    path = skirmish_file.with_suffix(".log.jsonl")
    lines = path.read_bytes().split(b"\n")
    second = len(lines[0]) + 1
    link = b'"p":%d' % second
    lines[2] = lines[2].replace(link, b'"p":0'.ljust(len(link)))  # the same length
    path.write_bytes(b"\n".join(lines))
    enc = load(skirmish_file)
    with pytest.raises(LogError, match="is entry 1, expected entry 2"):
        enc.log[0]


COMMANDS = st.sampled_from(
    ["note a", "note b", "next", "undo", "undo", "redo", "set aldo initiative=2",
     "set bree initiative=20", "SAVE", "REOPEN"]
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
        elif step == "REOPEN":
            save_encounter(live.enc, path)
            live = Session(load(path), path)
        else:
            for s in (reference, live):
                try:
                    s.execute(step)
                except Exception as exc:  # undo with nothing to undo is a clean refusal
                    assert "nothing to" in str(exc)
    save_encounter(live.enc, path)
    final = load(path)
    assert history.state_of(final) == history.state_of(reference.enc)
    assert final.cursor == reference.enc.cursor
    assert [e.text for e in final.log] == [e.text for e in reference.enc.log]
    rebuilt, _ = history.replay(final)
    assert history.state_of(rebuilt) == history.state_of(final)


def test_a_journal_cut_short_under_a_running_session_is_not_written_to(skirmish_file):
    from tracker.store.autosave import Autosaver
    from tracker.store.toml_store import snapshot

    played(skirmish_file, ["note one", "note two"])
    session = Session(load(skirmish_file), skirmish_file)
    session.enc.log.load_all()
    journal_file = skirmish_file.with_suffix(".log.jsonl")
    journal_file.write_bytes(b"")  # someone emptied it while the app ran
    saved = skirmish_file.read_bytes()
    session.execute("note three")
    saver = Autosaver(skirmish_file, lambda: snapshot(session.enc, skirmish_file))
    saver.request()
    assert saver.run_pending() is False
    assert "cut short" in (saver.last_error or "")
    assert journal_file.read_bytes() == b"" and skirmish_file.read_bytes() == saved
