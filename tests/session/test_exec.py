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
    code, out, err = run(capsys, "exec", str(skirmish_file), "--dry-run", "next",
                         "set aldo initiative=3", "next")
    assert code == 0, err
    assert out.splitlines() == ["Turn: Grak", "Aldo: initiative 3", "Turn: Bree",
                                "dry run: ford.toml not changed"]
    assert skirmish_file.read_bytes() == before
    assert journal.exists() == had_journal


def test_a_dry_run_says_what_fails_as_a_real_run_would(
        skirmish_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "exec", str(skirmish_file), "--dry-run", "set nobody x=1")
    assert code == 2 and out == ""
    assert err.strip() == "tracker: set nobody x=1: no combatant named 'nobody'"
