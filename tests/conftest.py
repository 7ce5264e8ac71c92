"""Shared fixtures: a temporary data folder so no test touches the GM's own saves."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import pytest

from tracker.core.model import Combatant, Encounter, Unit
from tracker.store import save_encounter

ROOT = Path(__file__).resolve().parents[1]
SAVES = ROOT / "saves"

E = TypeVar("E", bound=Encounter)


def load_sample(name: str, model: type[E]) -> E:
    """A shipped sample from ``saves/``, opened as the tracker opens it, of its ruleset's model."""
    from tracker.opening import load

    enc = load(SAVES / name)
    assert isinstance(enc, model), type(enc).__name__
    return enc


@pytest.fixture(autouse=True)
def tracker_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("TRACKER_HOME", str(home))
    return home


def skirmish() -> Encounter:
    return Encounter(
        name="Ambush at the ford",
        ruleset="plain",
        seed=7,
        combatants=[
            Combatant(id="aldo", name="Aldo", side="party", initiative=14),
            Combatant(id="bree", name="Bree", side="party", initiative=9),
            Combatant(id="grak", name="Grak", side="foes", initiative=11, hidden=True),
        ],
    )


def battle() -> Encounter:
    return Encounter(
        name="Field",
        ruleset="plain",
        units=[
            Unit(id="archers", name="Archers", side="elves", strength=3, strength_start=3),
            Unit(id="knights", name="Knights", side="empire", strength=3, strength_start=3),
        ],
    )


@pytest.fixture
def skirmish_file(tmp_path: Path) -> Path:
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    return path


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """Say how many inputs the fuzz tests fed to the loader and the parser."""
    import sys

    fuzz = sys.modules.get("tests.store.test_fuzz")
    if fuzz is not None and any(fuzz.TRIED.values()):
        tried = ", ".join(f"{k} {v}" for k, v in fuzz.TRIED.items())
        terminalreporter.write_line(f"fuzz inputs tried: {tried}")
