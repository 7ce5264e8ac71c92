"""Fault injection under the store: every file operation of a session's saves, in turn,
fails with EIO, ENOSPC, EROFS or EFBIG, or the process crashes there with every write
not yet fsynced lost. After each, the encounter opens for writing, `tracker check`
passes, the backups never hold one state twice, and every change reported committed
is there."""

from __future__ import annotations

import errno
import shutil
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import SAVES, skirmish
from tests.store.faults import Crash, FaultyFiles
from tracker.core import history
from tracker.core.log import LogError
from tracker.core.model import Encounter
from tracker.session.opening import load, model_for, open_encounter
from tracker.store import Lock, SaveError, fs, save_encounter, snapshot
from tracker.store.autosave import Autosaver
from tracker.store.toml_store import backup_paths, fingerprint
from tracker.store.verify import check_save, restore_backup

ERRORS = {"EIO": errno.EIO, "ENOSPC": errno.ENOSPC, "EROFS": errno.EROFS, "EFBIG": errno.EFBIG}
PLAY = ["note a", "next", "undo", "redo", "undo", "note b", "RESTORE", "note c"]

def state(enc: Encounter) -> tuple:
    return (history.state_of(enc), enc.cursor, [e.text for e in enc.log])


@dataclass
class Run:
    states: list[tuple] = field(default_factory=list)
    """The encounter after each change attempted, in order (0: as opened)."""
    committed: int = 0
    """How many changes were reported committed."""
    opened: bool = False


def play(path: Path, run: Run) -> None:
    """A session as the app runs it: each change saved by the autosaver (a failed save
    retried once, as the app's timer would), a restore, then quitting."""
    opened = open_encounter(path)
    if opened.session.read_only:
        return
    run.opened = True
    session = opened.session
    run.states.append(state(session.enc))
    base = 0

    def take():  # type: ignore[no-untyped-def]
        with session.lock:
            return snapshot(session.enc, path)

    saver = Autosaver(path, take, lock=opened.lock)
    saver.on_commit = lambda n: setattr(run, "committed", base + n)
    try:
        for line in PLAY:
            if line == "RESTORE":
                if not saver.flush() and not saver.flush():
                    return
                assert opened.lock is not None
                opened.lock.release()  # `tracker restore` takes the lock itself
                with fs.use(fs.Files()):  # what restoring backup 2 gives (the test's oracle)
                    run.states.append(state(load(backup_paths(path, 2)[-1])))
                lock = Lock(path).acquire()
                try:
                    for _ in range(2):
                        try:
                            restore_backup(path, 2, model_for)
                            break
                        except OSError:
                            continue
                    else:
                        run.states.pop()
                        return
                finally:
                    lock.release()
                run.committed = len(run.states) - 1
                opened = open_encounter(path)
                if opened.session.read_only:
                    return
                session = opened.session
                base = run.committed
                saver = Autosaver(path, take, lock=opened.lock)
                saver.on_commit = lambda n, base=base: setattr(run, "committed", base + n)
                continue
            session.execute(line)
            run.states.append(state(session.enc))
            saver.request()
            if not saver.run_pending():
                saver.run_pending()
        saver.flush()
    finally:
        if opened.lock is not None:
            opened.lock.release()


def setup(folder: Path, kind: str) -> Path:
    folder.mkdir()
    if kind == "journal":
        path = folder / "ford.toml"
        save_encounter(skirmish(), path)
        opened = open_encounter(path)
        for line in ("note one", "next round", "note two"):
            opened.session.execute(line)
            save_encounter(opened.session.enc, path)
        assert opened.lock is not None
        opened.lock.release()
        return path
    path = folder / "volley.toml"  # a shipped sample: schema 2, its log inline
    shutil.copyfile(SAVES / "harn-nolora-volley.toml", path)
    text = path.read_text()
    path.write_text(text + "\n" if not text.endswith("\n") else text)
    return path


def verify(path: Path, run: Run, where: str) -> None:
    opened = open_encounter(path)
    assert not opened.session.read_only, f"{where}: {opened.notice}"
    got = state(opened.session.enc)
    assert opened.lock is not None
    opened.lock.release()
    report = check_save(path, model_for)
    assert report.ok, f"{where}: {report.problems}"
    if run.states:
        later = run.states[run.committed:]
        assert got in later, (f"{where}: committed {run.committed} of {len(run.states) - 1}, "
                              f"the save holds another state")
    marks = [fingerprint(p) for p in backup_paths(path, 5) if p.exists()]
    assert len(marks) == len(set(marks)), f"{where}: the backups hold one state twice"


MODES = [*ERRORS, "crash"]


class Hung(BaseException):
    pass


def _hung(signum: int, frame: object) -> None:
    raise Hung()


def run_matrix(folder: Path, kind: str, modes_at: Callable[[int], list[str]], every: int = 1
               ) -> tuple[int, int, list[str]]:
    """Play the session once per (operation, mode), at every ``every``-th operation;
    returns the injection points, the cases run and what went wrong in each case that
    failed its checks."""
    template = setup(folder / "template", kind)
    counter = FaultyFiles(template.parent)
    clean = folder / "clean"
    shutil.copytree(template.parent, clean)
    counter.root = clean
    with fs.use(counter):
        reference = Run()
        play(clean / template.name, reference)
    points = counter.count
    problems: list[str] = []
    if reference.committed != len(PLAY) or len(reference.states) - 1 != len(PLAY):
        problems.append(f"{kind}: the session without faults did not commit every change")
    verify(clean / template.name, reference, "no fault")
    cases = 0
    for at in range(1, points + 1, every):
        for mode in modes_at(at):
            work = folder / f"{at}-{mode}"
            shutil.copytree(template.parent, work)
            layer = FaultyFiles(work, fail_at=at, error=ERRORS.get(mode, 0),
                                crash=mode == "crash")
            run = Run()
            where = f"{kind}: {mode} at operation {at} ({counter.ops[at - 1]})"
            signal.signal(signal.SIGALRM, _hung)
            signal.alarm(30)
            with fs.use(layer):
                try:
                    play(work / template.name, run)
                except Crash:
                    pass
                except (OSError, SaveError, LogError):
                    pass  # a failure reported as one line (opening, restoring)
                except Hung:
                    problems.append(f"{where}: the session hung")
                    layer.crash()
                finally:
                    signal.alarm(0)
            if layer.crashed:
                layer.crash()
            try:
                verify(work / template.name, run, where)
            except AssertionError as exc:
                problems.append(str(exc).splitlines()[0])
            cases += 1
            shutil.rmtree(work)
    return points, cases, problems


EVERY = [pytest.param(1, marks=pytest.mark.slow, id="every-operation"),
         pytest.param(13, id="every-13th-operation")]
"""The whole run is slow; the quick one takes every 13th operation (13 and the four
errors share no factor, so each error still comes in turn)."""


@pytest.mark.parametrize("every", EVERY)
def test_every_operation_of_a_session_crashes_or_fails_in_turn(tmp_path, every):
    """At every operation a crash, and one of the errors (in turn); the full matrix,
    every error at every operation, is `python -m bench.reliability --faults`."""
    errors = list(ERRORS)
    points, cases, problems = run_matrix(
        tmp_path, "journal", lambda at: ["crash", errors[at % len(errors)]], every)
    assert problems == []
    assert points > 300 and cases == 2 * len(range(1, points + 1, every))


@pytest.mark.parametrize("every", EVERY)
def test_every_operation_of_migrating_a_schema_2_sample_crashes_in_turn(tmp_path, every):
    points, cases, problems = run_matrix(tmp_path, "schema2-sample", lambda at: ["crash"],
                                         every)
    assert problems == []
    assert points > 300 and cases == len(range(1, points + 1, every))
