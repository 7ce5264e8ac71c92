"""Army lists where a GM keeps them: found beside the shell, the save or the shipped lists,
copied into ``armies/`` beside the save, skipped by ``tracker list`` and ``check``; and
``tracker army`` from the shell."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAVES
from tracker.cli import main
from tracker.session.commands import CommandError
from tracker.session.opening import load, working_copy
from tracker.session.session import Session

RESERVE = "saves/armies/warmaster-empire-reserve.toml"
ROSTER = SAVES / "armies" / "warmaster-empire-vanguard.ros"


@pytest.fixture
def sample(tracker_home: Path) -> Session:
    """The Warmaster sample as the app opens it: a copy in the data folder."""
    path, _ = working_copy(SAVES / "warmaster-river-crossing.toml")
    assert path.parent == tracker_home / "encounters"
    return Session(load(path), path)


def test_the_readme_s_army_command_works_from_a_sample(sample, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = sample.execute(f"army {RESERVE}")
    assert out.message == ("Army list warmaster-empire-reserve.toml: 3 units join (Empire); "
                           "copied to armies/warmaster-empire-reserve.toml")
    kept = sample.path.parent / "armies" / "warmaster-empire-reserve.toml"
    assert kept.read_bytes() == (ROOT / RESERVE).read_bytes()
    assert sample.enc.find_unit("Reiksguard").armour == 4


def test_the_shipped_lists_are_found_from_any_folder(sample, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    out = sample.execute(f"army {RESERVE}")  # as the README writes it, from elsewhere
    assert out.message.startswith("Army list warmaster-empire-reserve.toml: 3 units join")
    out = sample.execute("army warmaster-empire-vanguard.ros side=Empire")  # by its name
    assert out.message.startswith("Army list warmaster-empire-vanguard.ros: 6 units join")


def test_a_list_is_found_beside_the_shell_then_the_save_then_its_armies(tmp_path,
                                                                        monkeypatch):
    from tracker.store.armies import find_army

    shell, save_dir = tmp_path / "shell", tmp_path / "games"
    (shell).mkdir()
    (save_dir / "armies").mkdir(parents=True)
    save = save_dir / "battle.toml"
    for folder in (shell, save_dir, save_dir / "armies"):
        (folder / "list.toml").write_text(f"# {folder.name}\n")
    assert find_army("list.toml", save, cwd=shell) == shell / "list.toml"
    (shell / "list.toml").unlink()
    assert find_army("list.toml", save, cwd=shell) == save_dir / "list.toml"
    (save_dir / "list.toml").unlink()
    assert find_army("list.toml", save, cwd=shell) == save_dir / "armies" / "list.toml"
    assert find_army("armies/list.toml", save, cwd=shell) == save_dir / "armies" / "list.toml"
    assert find_army(str(shell / "x.toml"), save, cwd=shell) == shell / "x.toml"  # absolute


def test_a_missing_list_says_where_it_was_looked_for(sample):
    with pytest.raises(CommandError) as info:
        sample.execute("army nowhere.toml")
    assert str(info.value) == (
        "army: nowhere.toml: no such file (looked in the current folder, the save's folder "
        "and its armies/ and the shipped saves/armies/)")


def test_a_copy_never_overwrites_another_list_of_the_same_name(sample, tmp_path):
    armies = sample.path.parent / "armies"
    armies.mkdir()
    (armies / "reserve.toml").write_text("# the GM's own list, kept\n")
    mine = tmp_path / "reserve.toml"
    shutil.copy(SAVES / "armies" / "warmaster-empire-reserve.toml", mine)
    out = sample.execute(f"army {mine}")
    assert out.message.endswith("copied to armies/reserve-2.toml")
    assert (armies / "reserve.toml").read_text() == "# the GM's own list, kept\n"
    out = sample.execute(f"army {mine}")  # the same file again: no second copy
    assert "copied" not in out.message
    assert sorted(p.name for p in armies.iterdir()) == ["reserve-2.toml", "reserve.toml"]
    out = sample.execute("army armies/reserve-2.toml")  # a list already there stays as it is
    assert "copied" not in out.message


def test_list_and_check_skip_the_armies_folder(sample, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    sample.execute(f"army {RESERVE}")
    from tracker.store import save_encounter

    save_encounter(sample.enc, sample.path)
    folder = sample.path.parent
    # and a list put straight into the data folder by hand
    shutil.copy(ROOT / RESERVE, folder / "loose.toml")
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "unreadable" not in out and "armies/" not in out.split("an army list")[0]
    assert f"{folder / 'loose.toml'}  an army list, not an encounter (keep it in armies/)" in out
    assert "Warmaster: the river crossing (warmaster, round 1)" in out
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert f"{sample.path}: ok (warmaster, 13 in play, 1 log entry" in out
    assert f"{folder / 'loose.toml'}: an army list, not a save (skipped)" in out
    kept = folder / "armies" / "warmaster-empire-reserve.toml"
    assert main(["check", str(kept), str(sample.path)]) == 0
    assert f"{kept}: an army list, not a save (skipped)" in capsys.readouterr().out


# --- tracker army -------------------------------------------------------------------------


def test_tracker_army_adds_units_from_a_roster_and_saves(sample, capsys):
    code = main(["army", str(ROSTER), "--into", str(sample.path), "--side", "Empire"])
    assert code == 0
    out = capsys.readouterr().out
    assert out.startswith("r1 Army list warmaster-empire-vanguard.ros: 6 units join (Empire)")
    enc = load(sample.path)
    assert enc.find_unit("Knights 2").armour == 4
    assert (sample.path.parent / "armies" / ROSTER.name).is_file()


def test_tracker_army_takes_named_units_of_a_catalogue(sample, capsys):
    cat = Path(__file__).resolve().parent / "store" / "data" / "border-patrol.cat"
    code = main(["army", str(cat), "Spearmen=2", "Chariots", "--into", str(sample.path),
                 "--side", "High Elves"])
    assert code == 0, capsys.readouterr().err
    enc = load(sample.path)
    assert {u.name for u in enc.units} >= {"Spearmen 2", "Spearmen 3", "Chariots"}


def test_tracker_army_takes_the_units_named_after_its_options_too(sample, capsys):
    """``army FILE --into ENC Spearmen=2``: the names after the options are the units,
    as they are before them."""
    cat = Path(__file__).resolve().parent / "store" / "data" / "border-patrol.cat"
    code = main(["army", str(cat), "--into", str(sample.path), "Spearmen=2",
                 "--side", "High Elves", "Chariots"])
    assert code == 0, capsys.readouterr().err
    enc = load(sample.path)
    assert {u.name for u in enc.units} >= {"Spearmen 2", "Spearmen 3", "Chariots"}
    assert enc.find_unit("Chariots").side == "High Elves"
    with pytest.raises(SystemExit) as exit_:
        main(["army", str(cat), "--into", str(sample.path), "Spearmen", "--bogus"])
    assert exit_.value.code == 2
    assert "unrecognized arguments: Spearmen --bogus" in capsys.readouterr().err


def test_tracker_army_fails_with_one_line_and_saves_nothing(sample, capsys, tmp_path):
    before = sample.path.read_bytes()
    cat = Path(__file__).resolve().parent / "store" / "data" / "border-patrol.cat"
    code = main(["army", str(cat), "Dragons", "--into", str(sample.path)])
    assert code == 2
    err = capsys.readouterr().err
    assert err == ("tracker: army: border-patrol.cat: a unit named 'Dragons' (units: Spearmen, "
                   "Archers, Chariots)\n")
    assert sample.path.read_bytes() == before
    assert not (sample.path.parent / "armies").exists()


def test_tracker_army_refuses_an_encounter_another_tracker_writes(sample, capsys):
    from tests.conftest import LockHolder

    before = sample.path.read_bytes()
    with LockHolder(sample.path):  # another live tracker holds the lock
        assert main(["army", str(ROSTER), "--into", str(sample.path)]) == 2  # after 5 s
    assert "read-only" in capsys.readouterr().err
    assert sample.path.read_bytes() == before


def test_check_reads_a_bestiary_beside_the_saves_and_reports_one_that_does_not_read(
        tmp_path, capsys):
    """`tracker check saves/*.toml` meets the shipped bestiary: it is read as the creatures
    `add` takes, not refused as a save; a damaged one is named with what does not read."""
    assert main(["check", str(SAVES / "bestiary.toml"),
                 str(SAVES / "plain-goblin-ambush.toml")]) == 0
    out = capsys.readouterr().out
    assert f"{SAVES / 'bestiary.toml'}: a bestiary, not a save: ok (" in out
    broken = tmp_path / "bestiary.toml"
    broken.write_text("[Goblin\n")
    assert main(["check", str(broken)]) == 1
    assert "a bestiary that does not read: not valid TOML" in capsys.readouterr().err
