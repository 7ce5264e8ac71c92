"""Encounters set up for the screens' tests: the plain skirmish with three conditions."""

from __future__ import annotations

from pathlib import Path

from tracker.core.model import Combatant, Encounter
from tracker.session.opening import open_encounter
from tracker.session.session import Session
from tracker.store import save_encounter
from tracker.ui.app import TrackerApp

THREE_CONDITIONS = (
    "set Aldo +frightened +poisoned +pinned",
    "effect Bree blessed rounds=3",
    "effect Grak poisoned until=aldo at=end",
    "set Grak +prone +grappled",
)


def plain_app(tmp_path: Path, size_hint: str = "") -> TrackerApp:
    """The GM's app on a plain skirmish of three, Aldo with three conditions, Grak with
    two and an effect until the end of Aldo's next turn, Bree blessed for three rounds."""
    path = tmp_path / "ambush.toml"
    enc = Encounter(name="Ambush at the ford", ruleset="plain", seed=7, combatants=[
        Combatant(id="aldo", name="Aldo", side="party", initiative=14),
        Combatant(id="bree", name="Bree the Quick", side="party", initiative=9),
        Combatant(id="grak", name="Grak the Orc chief", side="foes", initiative=11)])
    save_encounter(enc, path)
    session = Session(enc, path)
    for line in THREE_CONDITIONS:
        session.execute(line)
    save_encounter(session.enc, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)
