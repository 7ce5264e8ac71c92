"""Shared fixtures: a temporary data folder so no test touches the GM's own saves.

The suite keeps Python's bytecode caches even where ``PYTHONDONTWRITEBYTECODE`` is set
(as it is on some CI machines): it starts the tracker in well over a hundred processes
of its own (the command line, the table server, the install check) and four test
workers, and without the caches each of them compiles every module it imports from
source again (about a tenth of the suite's CPU on a 2-core machine, bench/RESULTS.md,
"The suite's workers"). The caches go where Python puts them, in ``__pycache__``
folders that git ignores.
"""

from __future__ import annotations

import os
import sys

sys.dont_write_bytecode = False  # before the tracker and the test modules are imported
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # and so in every process the tests start

import shutil  # noqa: E402
import subprocess  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING, Any, TypeVar  # noqa: E402

import pytest  # noqa: E402

from tracker.core.model import Combatant, Encounter, Unit  # noqa: E402
from tracker.session.opening import load, open_encounter  # noqa: E402
from tracker.store import Lock, LockHeld, journal, save_encounter  # noqa: E402
from tracker.store.paths import encounter_files  # noqa: E402
from tracker.store.toml_store import END  # noqa: E402

if TYPE_CHECKING:
    from tracker.ui.app import TrackerApp

ROOT = Path(__file__).resolve().parents[1]
SAVES = ROOT / "saves"
SAMPLES = [p.name for p in encounter_files(SAVES)]
"""The shipped samples: the encounters of ``saves/`` (its bestiary is none)."""

E = TypeVar("E", bound=Encounter)


def load_sample(name: str, model: type[E]) -> E:
    """A shipped sample from ``saves/``, opened as the tracker opens it, of its ruleset's model."""
    enc = load(SAVES / name)
    assert isinstance(enc, model), type(enc).__name__
    return enc


def app_on_copy(tmp_path: Path, sample: str, theme: str | None = "tracker-dark") -> TrackerApp:
    """The GM's app on a copy of a shipped sample in ``tmp_path`` (no autosave); the
    theme None: the one kept from the last start."""
    from tracker.ui.app import TrackerApp

    path = tmp_path / sample
    if not path.exists():
        shutil.copy(SAVES / sample, path)
    return TrackerApp(open_encounter(path), theme=theme, autosave=False)


def examples(full: int, quick: int) -> list[Any]:
    """Hypothesis example counts to parametrize a costly property test by: ``quick`` in
    the default run, ``full`` in the slow one that ``.ci/run`` adds."""
    return [pytest.param(quick, id=f"{quick}-examples"),
            pytest.param(full, id=f"{full}-examples", marks=pytest.mark.slow)]


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


FUZZ_TRIED: Counter[str] = Counter()
"""Inputs the fuzz tests fed to the loader and the parser, over every worker."""


def _tried_here() -> dict[str, int]:
    fuzz = sys.modules.get("tests.store.test_fuzz")
    return dict(fuzz.TRIED) if fuzz is not None else {}


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker of ``-n`` hands its fuzz counts to the run that started it."""
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out["fuzz_tried"] = _tried_here()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core. Most of a UI test is spent waiting for the app
    to settle (Pilot's idle checks), not on the CPU, so two workers a core keep the CPUs
    busy: on a quiet 2-core machine the suite took 224 s with two workers, 162 s with
    four (bench/RESULTS.md, "The suite's workers")."""
    return 2 * (os.cpu_count() or 1)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    FUZZ_TRIED.update(getattr(node, "workeroutput", {}).get("fuzz_tried", {}))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how many inputs the fuzz tests fed to the loader and the parser."""
    tried = FUZZ_TRIED + Counter(_tried_here())
    if tried:
        said = ", ".join(f"{k} {v}" for k, v in tried.items())
        terminalreporter.write_line(f"fuzz inputs tried: {said}")


def resign(path: Path, text: str) -> None:
    """Write a state's text with a fresh checksum, as if the tracker had written it (for
    tests of what the loader says about a well-formed file with a bad value)."""
    body = text[: text.index("[end]")].encode() if "[end]" in text else text.encode()
    path.write_bytes(body + END + journal.digest(body).encode() + b'"\n')


def journal_of(path: Path) -> Path:
    return path.with_name(path.stem + ".journal.jsonl")


HOLDER = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "from tracker.store import Lock\n"
    "Lock(Path(sys.argv[1])).acquire()\n"
    "print('held', flush=True)\n"
    "time.sleep(120)\n"
)


class LockHolder:
    """Another process that holds a save's lock until the block ends."""

    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)],
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "held"

    def __enter__(self) -> LockHolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.kill()
        self.proc.wait()


def lock_is_free(path: Path) -> bool:
    """Whether no process holds the save's lock (the lock file itself may stay)."""
    try:
        lock = Lock(path).acquire()
    except LockHeld:
        return False
    lock.release()
    return True
