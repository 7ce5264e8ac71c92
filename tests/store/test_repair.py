"""`tracker repair`: says what it will do, does it only when told, keeps a copy of what
it replaces, and leaves a save that opens and passes `check`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import journal_of, skirmish
from tests.store.damage import play
from tracker.cli import main
from tracker.session.opening import load, model_for
from tracker.store import save_encounter
from tracker.store.toml_store import BACKUP_DIR
from tracker.store.verify import check_save

played = play


LINES = ["note one", "next", "note two", "undo", "note three", "next round"]


def texts(path: Path) -> list[str]:
    return [e.text for e in load(path).log]


def copies(path: Path) -> list[str]:
    return sorted(p.name for p in (path.parent / BACKUP_DIR).iterdir() if "repair" in p.name)


def test_a_whole_save_needs_nothing(skirmish_file, capsys):
    played(skirmish_file, LINES)
    assert main(["repair", str(skirmish_file)]) == 0
    assert "nothing to repair" in capsys.readouterr().out


def test_a_cut_state_is_rebuilt_from_the_journal(skirmish_file, capsys):
    played(skirmish_file, LINES)
    expected = texts(skirmish_file)
    whole = skirmish_file.read_bytes()
    skirmish_file.write_bytes(whole[: len(whole) // 2])
    assert main(["repair", str(skirmish_file)]) == 1  # says what it would do, does nothing
    out = capsys.readouterr().out
    assert "rebuild ford.toml from the records kept" in out and "--yes" in out
    assert skirmish_file.read_bytes() == whole[: len(whole) // 2]
    assert main(["repair", str(skirmish_file), "--yes"]) == 0
    assert texts(skirmish_file) == expected
    assert check_save(skirmish_file, model_for).ok
    assert any(name.startswith("ford.toml.before-repair") for name in copies(skirmish_file))


def test_an_altered_record_after_the_state_is_cut_off_with_a_copy(skirmish_file, capsys):
    played(skirmish_file, LINES)
    expected = texts(skirmish_file)
    jpath = journal_of(skirmish_file)
    with jpath.open("ab") as fh:  # a record committed after the state, then damaged
        fh.write(jpath.read_bytes().split(b"\n")[-2].replace(b"round", b"ROUND") + b"\n")
    assert not check_save(skirmish_file, model_for).ok
    assert main(["repair", str(skirmish_file), "--yes"]) == 0
    assert "cut back" in capsys.readouterr().out
    assert texts(skirmish_file) == expected
    assert check_save(skirmish_file, model_for).ok
    assert any(n.startswith("ford.journal.jsonl.before-repair") for n in copies(skirmish_file))


def test_from_journal_rebuilds_what_the_whole_records_hold(skirmish_file):
    played(skirmish_file, LINES)
    jpath = journal_of(skirmish_file)
    lines = jpath.read_bytes().split(b"\n")
    jpath.write_bytes(b"\n".join(lines[:4]) + b"\n" + lines[4][:20])
    assert main(["repair", str(skirmish_file), "--yes", "--from-journal"]) == 0
    assert texts(skirmish_file) == ["one", "Turn: Grak", "two"]  # its first four records
    assert load(skirmish_file).cursor == 3
    assert check_save(skirmish_file, model_for).ok


def test_a_damaged_state_and_first_record_are_rebuilt_from_a_backup(skirmish_file, capsys):
    played(skirmish_file, LINES)
    expected = texts(skirmish_file)
    jpath = journal_of(skirmish_file)
    lines = jpath.read_bytes().split(b"\n")
    lines[0] = lines[0].replace(b"Ambush", b"AMBUSH")
    jpath.write_bytes(b"\n".join(lines))
    skirmish_file.write_bytes(b"schema = 3\n")
    assert main(["repair", str(skirmish_file), "--yes"]) == 0
    assert "from the backup" in capsys.readouterr().out
    assert texts(skirmish_file) == expected


def exec_five(path: Path) -> None:
    assert main(["exec", str(path), "note a", "note b", "next", "note c", "note d"]) == 0


def test_a_journal_that_lost_only_its_last_line_break_keeps_every_entry(skirmish_file, capsys):
    exec_five(skirmish_file)
    expected = texts(skirmish_file)
    jpath = journal_of(skirmish_file)
    whole = jpath.read_bytes()
    jpath.write_bytes(whole[:-1])  # truncate -s -1
    assert main(["check", str(skirmish_file)]) == 1
    assert "line break is missing" in capsys.readouterr().err
    assert main(["repair", "--yes", str(skirmish_file)]) == 0
    out = capsys.readouterr().out
    assert "put back the line break that line 6 lost (nothing is dropped)" in out
    assert texts(skirmish_file) == expected and len(expected) == 5
    assert jpath.read_bytes() == whole
    assert check_save(skirmish_file, model_for).ok
    assert any(n.startswith("ford.journal.jsonl.before-repair") for n in copies(skirmish_file))


def test_a_state_of_another_encounter_never_replaces_the_saves_own_journal(tmp_path, capsys):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    exec_five(path)
    expected = texts(path)
    elsewhere = tmp_path / "other" / "ford.toml"
    elsewhere.parent.mkdir()
    save_encounter(skirmish(), elsewhere)
    assert main(["exec", str(elsewhere), "note foreign"]) == 0
    foreign = elsewhere.read_bytes()
    path.write_bytes(foreign)  # the other encounter's state, copied over this one's
    assert main(["check", str(path)]) == 1
    assert "a state of another encounter" in capsys.readouterr().err
    assert main(["repair", "--yes", str(path)]) == 0
    out = capsys.readouterr().out
    assert "of another encounter) is kept in a copy" in out
    assert texts(path) == expected
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == ["ford.journal.jsonl"]
    assert check_save(path, model_for).ok
    kept = [path.parent / BACKUP_DIR / n for n in copies(path) if n.startswith("ford.toml.")]
    assert [k.read_bytes() for k in kept] == [foreign]


@pytest.mark.parametrize("damage", [
    lambda text: "",
    lambda text: text.replace("schema = 3", "schem\xe4 = 3"),
    lambda text: text.replace("schema = 3", "schema = x"),
    lambda text: text.replace("schema = 3\n", ""),
])
def test_an_empty_or_unreadable_state_is_checked_repaired_and_restored(skirmish_file, capsys,
                                                                        damage):
    played(skirmish_file, LINES)
    expected = texts(skirmish_file)
    whole = skirmish_file.read_text()
    skirmish_file.write_text(damage(whole))
    assert main(["check", str(skirmish_file)]) == 1
    assert "`tracker repair` rebuilds it from the journal" in capsys.readouterr().err
    assert main(["repair", "--yes", str(skirmish_file)]) == 0
    assert texts(skirmish_file) == expected
    assert check_save(skirmish_file, model_for).ok
    # and with the state broken again, a backup goes back in its place
    skirmish_file.write_text(damage(whole))
    assert main(["restore", str(skirmish_file), "1"]) == 0, capsys.readouterr().err
    assert check_save(skirmish_file, model_for).ok
    assert texts(skirmish_file) == expected[:-1]  # backup 1: the state before the last save


def cut_in_line_5(lines: list[bytes]) -> bytes:
    return b"\n".join(lines[:4]) + b"\n" + lines[4][:30]


def altered_line_4(lines: list[bytes]) -> bytes:  # "note two" edited: the lines after move
    return b"\n".join([*lines[:3], lines[3].replace(b'"two"', b'"two, edited"'), *lines[4:]])


@pytest.mark.parametrize(("damage", "keep", "drop", "left"), [
    (cut_in_line_5, "keep lines 1–4 of ford.journal.jsonl, its whole records: 3 log "
     "entries, round 1; the fight at round 1", "cut off line 5 (1 line too damaged to say "
     "what it held)", ["one", "Turn: Grak", "two"]),
    (altered_line_4, "keep lines 1–3 of ford.journal.jsonl, its whole records: 2 log "
     "entries, round 1; the fight at round 1", "cut off lines 4–7 (4 records: 3 log "
     "entries, rounds 1–2)", ["one", "Turn: Grak"]),
])
def test_repair_says_what_it_keeps_and_drops_then_keeps_every_entry_before_the_damage(
        skirmish_file, capsys, damage, keep, drop, left):
    played(skirmish_file, LINES)
    jpath = journal_of(skirmish_file)
    lines = jpath.read_bytes().split(b"\n")
    jpath.write_bytes(damage(lines))
    assert not check_save(skirmish_file, model_for).ok
    before = (skirmish_file.read_bytes(), jpath.read_bytes())
    assert main(["repair", str(skirmish_file)]) == 1
    plan = capsys.readouterr().out
    assert keep in plan and drop in plan
    assert "(round 2, 4 log entries, naming a record past the last whole one)" in plan
    assert (skirmish_file.read_bytes(), jpath.read_bytes()) == before  # nothing done yet
    assert main(["repair", "--yes", str(skirmish_file)]) == 0
    assert texts(skirmish_file) == left
    assert check_save(skirmish_file, model_for).ok
    whole = len(left) + 1  # the first record, then one a log entry
    assert jpath.read_bytes() == b"\n".join(lines[:whole]) + b"\n"  # the same journal
    assert [p.name for p in skirmish_file.parent.glob("*.jsonl")] == ["ford.journal.jsonl"]
    kept = copies(skirmish_file)
    assert any(n.startswith("ford.toml.before-repair") for n in kept)
    assert any(n.startswith("ford.journal.jsonl.before-repair") for n in kept)


def test_a_missing_journal_starts_a_new_one_from_the_state_as_it_is(skirmish_file, capsys):
    played(skirmish_file, LINES)
    before = load(skirmish_file)
    journal_of(skirmish_file).unlink()
    assert main(["repair", "--yes", str(skirmish_file)]) == 0
    out = capsys.readouterr().out
    assert "ford.journal.jsonl cannot be read: missing" in out and "keep a copy of ford.toml" in out
    after = load(skirmish_file)
    assert after.position == before.position and after.combatants == before.combatants
    assert check_save(skirmish_file, model_for).ok


def flipped(lines: list[bytes], n: int, old: bytes, new: bytes) -> bytes:
    """Line ``n`` (from 1) with ``old`` turned into ``new`` of the same length, as a
    flipped bit leaves it: every other record stays where the state and links name it."""
    assert len(old) == len(new) and old in lines[n - 1]
    return b"\n".join([*lines[: n - 1], lines[n - 1].replace(old, new, 1), *lines[n:]])


def test_a_damaged_record_of_an_entry_undone_and_replaced_loses_nothing(skirmish_file,
                                                                          capsys):
    """"note two" was undone and "note three" made in its place: its record (line 4)
    is in no log the state names, so repair keeps the state and its whole log."""
    played(skirmish_file, LINES)
    expected = texts(skirmish_file)
    assert expected == ["one", "Turn: Grak", "three",
                        "Round 2, Aldo first; Bree had no turn in round 1"]
    jpath = journal_of(skirmish_file)
    jpath.write_bytes(flipped(jpath.read_bytes().split(b"\n"), 4, b'"two"', b'"twO"'))
    assert not check_save(skirmish_file, model_for).ok
    assert main(["repair", str(skirmish_file)]) == 1
    plan = capsys.readouterr().out
    assert "ford.journal.jsonl line 4 is damaged (the checksum does not match" in plan
    assert ("keep ford.toml as it is and start a new journal from it, with its whole log: "
            "4 log entries, rounds 1–2 (line 4 held none of them)") in plan
    assert main(["repair", "--yes", str(skirmish_file)]) == 0
    assert texts(skirmish_file) == expected
    assert check_save(skirmish_file, model_for).ok
    assert load(skirmish_file).position.round == 2


def test_a_damaged_record_in_the_middle_loses_only_its_entry_and_undo_stops_there(
        skirmish_file, capsys):
    """One flipped bit in the record of "note three" (line 6), with the state and the
    record after it whole: repair keeps the state as it was (round 2) and every other
    entry of its log; one entry stands for the one lost, and undo stops at it."""
    played(skirmish_file, LINES)
    jpath = journal_of(skirmish_file)
    whole = jpath.read_bytes()
    jpath.write_bytes(flipped(whole.split(b"\n"), 6, b'"three"', b'"thrEe"'))
    assert main(["repair", "--yes", str(skirmish_file)]) == 0
    out = capsys.readouterr().out
    assert ("with its log: 3 log entries, rounds 1–2 still read; the entry line 6 held is "
            "lost, and undo will stop where it was") in out
    assert check_save(skirmish_file, model_for).ok
    enc = load(skirmish_file)
    assert enc.position.round == 2 and enc.cursor == 4
    assert [e.text for e in enc.log][:2] == ["one", "Turn: Grak"]
    assert enc.log[3].text == "Round 2, Aldo first; Bree had no turn in round 1"
    lost = enc.log[2]
    assert lost.kind == "lost" and lost.ops == []
    assert lost.text.startswith("an entry lost to damage in the journal (its line 6, repaired ")
    # the old journal and state are kept as they were
    kept = copies(skirmish_file)
    assert any(n.startswith("ford.journal.jsonl.before-repair") for n in kept)
    assert (skirmish_file.parent / BACKUP_DIR / next(
        n for n in kept if n.startswith("ford.journal.jsonl.before-repair"))).read_bytes() \
        != whole  # the damaged journal, as it was when repaired
    # undo takes back "Round 2", then stops at the lost entry, changing nothing
    assert main(["exec", str(skirmish_file), "undo"]) == 0
    assert main(["exec", str(skirmish_file), "undo"]) == 2  # refused: nothing changed
    err = capsys.readouterr().err
    assert "undo stops here: an entry lost to damage in the journal (its line 6" in err
    enc = load(skirmish_file)
    assert enc.cursor == 3 and enc.position.round == 1
    assert check_save(skirmish_file, model_for).ok
