"""`tracker exec` and `tracker resolve` as a script runs them: a dry run, the stages a
script can know before any die, and a stage no die can change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAVES
from tracker.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


def copy_of(tmp_path: Path, sample: str) -> Path:
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return path


# --- a dry run -------------------------------------------------------------------------------


def test_a_dry_run_runs_the_commands_on_a_copy_and_saves_nothing(
        tmp_path: Path, skirmish_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = skirmish_file.read_bytes()
    journal = skirmish_file.with_suffix(".journal.jsonl")
    had_journal = journal.exists()
    # the command lines go on after the option as before it
    code, out, err = run(capsys, "exec", str(skirmish_file), "next", "--dry-run",
                         "set aldo initiative=3", "next")
    assert code == 0, err
    assert out.splitlines() == ["r1 Turn: Grak", "r1 Aldo: initiative 3", "r1 Turn: Bree",
                                "dry run: ford.toml not changed"]
    assert skirmish_file.read_bytes() == before
    assert journal.exists() == had_journal


def test_a_dry_run_says_what_fails_as_a_real_run_would(
        skirmish_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "exec", str(skirmish_file), "--dry-run", "set nobody x=1")
    assert code == 2 and out == ""
    assert err.strip() == "tracker: set nobody x=1: no combatant named 'nobody'"


# --- a stage no die can change -------------------------------------------------------------


def duel(tmp_path: Path) -> Path:
    """English archers (bow: AP none) facing French knights in armour that saves at 1+
    (plate and a large shield: save 6)."""
    from tracker.rules.d6battle.model import D6Encounter, D6Unit
    from tracker.store import save_encounter

    path = tmp_path / "duel.toml"
    save_encounter(D6Encounter(name="duel", ruleset="d6battle", units=[
        D6Unit(id="archers", name="Archers", side="English", sa=3, weapon="bow", strength=6,
               strength_start=6),
        D6Unit(id="knights", name="Knights", side="French", durability=4, strength=8,
               strength_start=8, armour_parts=["plate-armor", "large-shield"]),
    ]), path)
    return path


def test_exec_rolls_a_save_no_die_can_fail_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = duel(tmp_path)
    code, out, err = run(capsys, "exec", str(path), "shoot Archers Knights --dice hit=5,6,1,1,1,1")
    assert code == 0, err
    assert "2 hits, 2 saved (1+)" in out
    assert "(tracker-rolled dice: save " in out and "(no die can change it)" in out
    from tracker.session.opening import load

    rolls = load(path).log[-1].rolls
    assert [(r.role, r.source) for r in rolls] == [("hit", "entered")] * 6 + [
        ("save", "rolled")] * 2


def test_resolve_rolls_a_save_no_die_can_fail_and_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "resolve", "d6battle", "shoot", "figures=2", "sa=3",
                         "weapon=bow", "durability=4", "save=6", "--dice", "hit=5,6")
    assert code == 0, err
    assert "2 saved (1+)" in out.splitlines()[0]
    assert "  save: no die can change it, rolled by the tracker" in out.splitlines()


def test_a_stage_a_die_can_change_is_still_asked_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "resolve", "d6battle", "shoot", "figures=2", "sa=3",
                       "weapon=bow", "durability=4", "save=5", "--dice", "hit=5,6")
    assert code == 2
    assert "save: stage 2 needs 2 d6 (2 hits), 0 given" in err


# --- the stages known before any die ---------------------------------------------------------


def test_stages_of_an_end_of_phase_count_each_units_dice(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two units to drive back: each unit's drive back is a stage of its own, known
    whatever the first unit's dice show."""
    code, out, err = run(capsys, "resolve", "warmaster", "endphase",
                         "units=Knights:3:20,Archers:2:20:defended", "--stages")
    assert code == 0, err
    assert out.splitlines() == ["drive: 3 d6 for the drive back - Knights: 3 hits",
                                "drive: 1 d6 for the drive back - Archers: 2 hits"]


def test_stages_stop_where_a_die_decides_what_comes_next(
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, err = run(capsys, "resolve", "warmaster", "shoot", "attacks=6", "armour=4",
                         "--stages", "--json")
    assert code == 0, err
    assert [(s["role"], s["count"]) for s in json.loads(out)["stages"]] == [
        ("hit", 6), ("save", None)]
    # with no armour no save is rolled, whatever the hits
    code, out, err = run(capsys, "resolve", "warmaster", "shoot", "attacks=6", "--stages",
                         "--json")
    assert [(s["role"], s["count"]) for s in json.loads(out)["stages"]] == [
        ("hit", 6), ("save", 0)]


# --- words after --dice ----------------------------------------------------------------------


def test_a_parameter_typed_after_dice_is_named_and_nothing_is_saved(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--dice hit=4,5 attacks=2`` reads attacks=2 as dice: the GM is told to put it
    before --dice, not asked to give the attacks he typed."""
    code, out, err = run(capsys, "resolve", "warmaster", "shoot", "--dice", "hit=4,5",
                         "attacks=2", "armour=0")
    assert code == 2 and out == ""
    assert err.strip() == ("tracker: attacks=2 comes after --dice, so it was read as dice: "
                           "put shoot's name=value words before --dice")
    path = copy_of(tmp_path, "warmaster-river-crossing.toml")
    before = path.read_bytes()
    code, out, err = run(capsys, "exec", str(path),
                         "shoot Crossbowmen 'Archers I' --dice hit=4,5 attacks=2")
    assert code == 2
    assert "attacks=2 comes after --dice, so it was read as dice" in err
    assert path.read_bytes() == before


def test_dice_of_no_stage_asked_say_which_were_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    # two hits at 4+ against no armour: the shot asks no save, and no die called foo
    code, out, err = run(capsys, "resolve", "warmaster", "shoot", "attacks=2", "armour=0",
                         "--dice", "hit=4,5", "save=3", "foo=1")
    assert code == 2
    assert err.strip() == ("tracker: entered dice not used: save=3 (no save dice asked here;"
                           " asked: hit); foo=1 (no foo dice asked here; asked: hit)")


def test_a_damage_expression_after_dice_is_told_to_go_before_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "resolve", "plain", "attack", "bonus=5", "defence=12",
                         "--dice", "attack=14", "damage=1d8")
    assert code == 2
    assert err.strip() == ("tracker: bad dice 'damage=1d8': expected ROLE=V1,V2,... with whole"
                           " numbers (name=value words go before --dice)")
