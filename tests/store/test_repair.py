"""`tracker repair`: says what it will do, does it only when told, keeps a copy of what
it replaces, and leaves a save that opens and passes `check`."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import journal_of
from tracker.cli import main
from tracker.session.opening import load, model_for, open_encounter
from tracker.store import save_encounter
from tracker.store.toml_store import BACKUP_DIR
from tracker.store.verify import check_save


def played(path: Path, lines: list[str]) -> None:
    opened = open_encounter(path)
    for line in lines:
        opened.session.execute(line)
        save_encounter(opened.session.enc, path)
    assert opened.lock is not None
    opened.lock.release()


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
    assert "rebuild ford.toml from ford.journal.jsonl" in out and "--yes" in out
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


def test_an_intact_state_over_a_journal_cut_in_the_middle_opens_again(skirmish_file, capsys):
    played(skirmish_file, LINES)
    state = load(skirmish_file)
    jpath = journal_of(skirmish_file)
    jpath.write_bytes(jpath.read_bytes()[: jpath.stat().st_size // 2])
    assert not check_save(skirmish_file, model_for).ok
    assert main(["repair", str(skirmish_file), "--yes"]) == 0
    out = capsys.readouterr().out
    assert "new journal" in out
    fixed = load(skirmish_file)
    assert fixed.position == state.position and fixed.combatants == state.combatants
    assert check_save(skirmish_file, model_for).ok
    assert jpath.exists()  # the old journal stays, with what it still holds


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
