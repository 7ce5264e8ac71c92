"""Opening an encounter: load and validate, take the write lock or fall back to read-only."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from tracker import rules
from tracker.core.model import Encounter
from tracker.session import Session
from tracker.store import Lock, LockHeld, load_encounter, save_encounter
from tracker.store.paths import encounters_dir, list_saves, samples_dir


def model_for(ruleset_id: str) -> type[Encounter]:
    return rules.get(ruleset_id).encounter_model


def load(path: Path | str) -> Encounter:
    """Load and validate a save (SaveError names the file, key and what was expected)."""
    return load_encounter(path, model_for)


@dataclass
class Opened:
    session: Session
    lock: Lock | None
    notice: str = ""


def open_encounter(path: Path | str, *, read_only: bool = False) -> Opened:
    """Load ``path`` and take its lock; a live lock elsewhere opens it read-only."""
    path = Path(path)
    enc = load(path)
    if read_only:
        return Opened(Session(enc, path, read_only=True), None, "read-only view")
    lock = Lock(path)
    try:
        lock.acquire()
    except LockHeld as held:
        return Opened(Session(enc, path, read_only=True), None, str(held))
    except OSError as exc:
        return Opened(Session(enc, path, read_only=True), None, f"read-only: {exc.strerror}")
    return Opened(Session(enc, path), lock, lock.notice)


FIRST_SAMPLE = "edc-roland-press.toml"
"""The sample a first run opens: a duel, the quickest to try by hand."""


def default_save() -> Path:
    """The most recent encounter, or a copy of a sample from ``saves/`` on first run."""
    saves = list_saves()
    if saves:
        return saves[0]
    folder = samples_dir()
    samples = sorted(folder.glob("*.toml"), key=lambda p: p.name != FIRST_SAMPLE) if folder else []
    if not samples:
        raise FileNotFoundError("no encounter yet: start one with `tracker new NAME --ruleset ID`")
    target = encounters_dir() / samples[0].name
    shutil.copyfile(samples[0], target)
    return target


def working_copy(path: Path) -> tuple[Path, str]:
    """A shipped sample opens as a copy in the data folder, so the sample stays as shipped."""
    folder = samples_dir()
    if folder is None or path.resolve().parent != folder.resolve():
        return path, ""
    target = encounters_dir() / path.name
    if not target.exists():
        shutil.copyfile(path, target)
        return target, f"sample copied to {target}; the shipped one stays as it was"
    return target, f"opened your copy of the sample: {target}"


def new_encounter(name: str, ruleset_id: str, path: Path, seed: int = 0) -> Path:
    ruleset = rules.get(ruleset_id)
    enc = ruleset.encounter_model(name=name, ruleset=ruleset.id, seed=seed)
    if path.exists():
        raise FileExistsError(f"{path} already exists")
    path.parent.mkdir(parents=True, exist_ok=True)
    save_encounter(enc, path)
    return path
