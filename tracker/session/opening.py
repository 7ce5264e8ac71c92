"""Opening an encounter: load and validate, take the write lock or fall back to read-only."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tracker import rules
from tracker.core.model import Encounter
from tracker.session.session import Session
from tracker.store import Lock, LockHeld, load_encounter, save_encounter
from tracker.store.fs import make_folders, read_regular, write_atomic
from tracker.store.open_save import open_for_writing
from tracker.store.paths import encounter_files, encounters_dir, list_saves, samples_dir


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
    held_by: str = ""
    """Who holds the encounter for writing, when that made this view read-only."""


def open_encounter(
    path: Path | str, *, read_only: bool = False, take_over: bool = False, wait: float = 0.0
) -> Opened:
    """Take ``path``'s lock, then load it; a lock held elsewhere opens it read-only
    (``take_over``: ask the holder to let go, and take it after a timeout; ``wait``:
    seconds to wait for the holder to let go by itself)."""
    path = Path(path)
    if path.is_symlink():
        path = path.resolve()  # the GM named this save: the file it points to is meant
    if read_only:
        return Opened(Session(load(path), path, read_only=True), None, "read-only view")
    lock = Lock(path)
    took = ""
    try:
        if take_over:
            took = lock.take_over() or ""
        else:
            lock.acquire(wait)
    except LockHeld as held:
        return Opened(Session(load(path), path, read_only=True), None, str(held), held.owner)
    except OSError as exc:
        enc = load(path)
        why = exc.strerror or str(exc)
        return Opened(Session(enc, path, read_only=True), None, f"read-only: {why}")
    try:
        enc, notices = open_for_writing(path, model_for, lock, took)
    except OSError as exc:
        lock.release()
        enc = load(path)
        why = exc.strerror or str(exc)
        return Opened(Session(enc, path, read_only=True), None, f"read-only: {why}")
    except BaseException:
        lock.release()
        raise
    return Opened(Session(enc, path), lock, "; ".join(notices))


FIRST_SAMPLE = "edc-roland-press.toml"
"""The sample a first run opens: a duel, the quickest to try by hand."""


def default_save() -> Path:
    """The most recent encounter, or a copy of a sample from ``saves/`` on first run."""
    saves = list_saves()
    if saves:
        return saves[0]
    folder = samples_dir()
    samples = sorted(encounter_files(folder), key=lambda p: p.name != FIRST_SAMPLE) \
        if folder else []
    if not samples:
        raise FileNotFoundError("no encounter yet: start one with `tracker new NAME --ruleset ID`")
    target = encounters_dir() / samples[0].name
    write_atomic(target, read_regular(samples[0]))
    return target


def working_copy(path: Path) -> tuple[Path, str]:
    """A shipped sample opens as a copy in the data folder, so the sample stays as shipped."""
    folder = samples_dir()
    if folder is None or path.resolve().parent != folder.resolve():
        return path, ""
    target = encounters_dir() / path.name
    if not target.exists():
        write_atomic(target, read_regular(path))
        return target, f"sample copied to {target}; the shipped one stays as it was"
    return target, f"opened your copy of the sample: {target}"


def find_sample(name: str) -> Path:
    """The shipped sample ``name`` means: its file name, with or without ``.toml``, or
    the one sample whose name starts with it (``warmaster``); LookupError names the
    samples when none or several match."""
    folder = samples_dir()
    samples = encounter_files(folder) if folder else []
    if not samples:
        raise LookupError("this install has no samples")
    stem = name.removesuffix(".toml")
    found = [p for p in samples if p.stem == stem] or [
        p for p in samples if p.stem.startswith(stem)]
    if len(found) == 1:
        return found[0]
    names = ", ".join(p.stem for p in found or samples)
    why = f"which one? {names}" if found else f"no such sample (the samples: {names})"
    raise LookupError(f"sample '{name}': {why}")


def new_encounter(name: str, ruleset_id: str, path: Path, seed: int | None = None,
                  sample: Path | None = None) -> Path:
    """A new encounter at ``path``: empty, or as ``sample`` stands (its units, log and,
    unless ``seed`` is given, its seed), named ``name``."""
    if sample is not None:
        enc = load(sample)
        if ruleset_id and ruleset_id != enc.ruleset:
            raise rules.RuleError(f"the sample {sample.stem} is for {enc.ruleset}, "
                                  f"not {ruleset_id}")
        enc.name = name
        enc.seed = enc.seed if seed is None else seed
    else:
        ruleset = rules.get(ruleset_id)
        enc = ruleset.encounter_model(name=name, ruleset=ruleset.id, seed=seed or 0,
                                        under_way=False)
    if path.exists() or path.is_symlink():
        raise FileExistsError(f"{path} already exists")
    make_folders(path.parent)  # 0700, its missing parents too, whatever the umask
    save_encounter(enc, path)
    return path
