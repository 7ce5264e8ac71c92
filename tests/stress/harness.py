"""Stress runs of the real tracker: SIGKILL at random moments of an app session in a
pseudo-terminal, concurrent `tracker exec` writers, simultaneous app starts.

The test suite runs a few of each (tests/stress/test_*.py); `python -m bench.reliability`
runs the full counts and prints the figures the README gives.
"""

from __future__ import annotations

import fcntl
import os
import pty
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.stress.screen import Screen

ROOT = Path(__file__).resolve().parents[2]
STATUS = re.compile(r"^\s*(saving… )?\S")
LOGGED = re.compile(r"│r\d+ k(\d+)\b")


def env_for(home: Path) -> dict[str, str]:
    env = dict(os.environ, TERM="xterm-256color", TRACKER_HOME=str(home),
               PYTHONPATH=str(ROOT))
    env.pop("PYTEST_CURRENT_TEST", None)
    return env


def start_app(path: Path, home: Path, *extra: str) -> tuple[int, int]:
    """The real tracker on an 80x24 pseudo-terminal: (pid, the terminal's fd)."""
    env = env_for(home)
    pid, fd = pty.fork()
    if pid == 0:  # the child
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execvpe(sys.executable, [sys.executable, "-m", "tracker", str(path), *extra], env)
    return pid, fd


@dataclass
class Watch:
    """What the app's screen showed: the notes shown as committed.

    A note is shown committed when it is in the log pane while the top bar has no
    "saving…" mark. The screen is read only once the app has written a whole frame
    (nothing more waiting on the terminal), so a half-drawn frame is never read.
    """

    screen: Screen = field(default_factory=Screen)
    committed: set[int] = field(default_factory=set)
    drawn: float = 0.0

    def pump(self, fd: int, timeout: float) -> bool:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return True
        while ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return False
            if not data:
                return False
            self.screen.feed(data)
            ready, _, _ = select.select([fd], [], [], 0.002)
        lines = self.screen.lines()
        if not self.drawn and any("·" in line and "Round" in line for line in lines) and \
                "Help" in lines[-1]:
            self.drawn = time.monotonic()
        if not self.drawn or "saving…" in lines[0]:  # the top bar's mark
            return True
        for line in lines[1:-2]:
            self.committed.update(int(k) for k in LOGGED.findall(line))
        return True


def reap(pid: int, fd: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    end = time.monotonic() + 10
    while time.monotonic() < end:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        try:
            select.select([fd], [], [], 0.05)
            os.read(fd, 65536)
        except OSError:
            time.sleep(0.02)
    try:
        os.close(fd)
    except OSError:
        pass


@dataclass
class KillResult:
    kills: int = 0
    typed: int = 0
    shown_committed: int = 0
    shown: set[int] = field(default_factory=set)
    """Every note the screen showed as committed."""
    broken: list[str] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    seconds: float = 0.0


def notes_in(path: Path) -> set[int]:
    from tracker.session.opening import load

    return {int(e.text[1:]) for e in load(path).log if re.fullmatch(r"k\d+", e.text)}


def kill_once(path: Path, home: Path, rng: random.Random, first: int,
              result: KillResult, after_draw: bool | None = None) -> None:
    """Start the app, type notes ``k<first>``, ``k<first+1>`` ... and SIGKILL it at a
    random moment: from its start (while starting, drawing, typing or saving), or, every
    other time (or when ``after_draw``), once it has drawn its first screen."""
    if after_draw is None:
        after_draw = rng.random() < 0.5
    pid, fd = start_app(path, home)
    watch = Watch()
    spawned = time.monotonic()
    delay = rng.uniform(0.05, 2.0) if after_draw else rng.uniform(0.2, 4.0)
    n = first
    next_key = 0.0
    try:
        while True:
            now = time.monotonic()
            start = watch.drawn if after_draw else spawned
            if (start and now >= start + delay) or now > spawned + 60:
                break
            if not watch.pump(fd, 0.005):
                break
            if watch.drawn and now >= max(next_key, watch.drawn + 0.3):
                os.write(fd, b":note k%d\r" % n)
                n += 1
                next_key = time.monotonic() + rng.uniform(0.0, 0.06)
    finally:
        reap(pid, fd)
    result.kills += 1
    result.typed = n - 1
    result.shown.update(watch.committed)
    result.shown_committed = max(result.shown_committed, max(watch.committed, default=0))


def verify(path: Path, result: KillResult, where: str) -> None:
    from tracker.session.opening import model_for
    from tracker.store.verify import check_save

    report = check_save(path, model_for)
    if not report.ok:
        result.broken.append(f"{where}: {report.problems}")
        return
    have = notes_in(path)
    result.lost += sorted(k for k in result.shown if k not in have and k not in result.lost)


def run_kills(count: int, folder: Path, seed: int = 1, progress: bool = False,
              after_draw: bool | None = None) -> KillResult:
    """``count`` SIGKILLs of app sessions on one save, each session going on from the last."""
    from tracker.session.opening import new_encounter

    rng = random.Random(seed)
    home = folder / "home"
    path = new_encounter("Kill test", "plain", folder / "kill.toml")
    result = KillResult()
    start = time.monotonic()
    n = 1
    for i in range(count):
        kill_once(path, home, rng, n, result, after_draw)
        verify(path, result, f"kill {i + 1}")
        if progress and (i + 1) % 50 == 0:
            print(f"  {i + 1} kills, {len(result.shown)} changes shown committed, "
                  f"{len(result.lost)} lost, {len(result.broken)} broken", file=sys.stderr,
                  flush=True)
        if result.broken:
            break
        # notes typed but never shown committed may or may not be there: go on after them
        n = max([result.shown_committed, *notes_in(path)]) + 1
    result.seconds = time.monotonic() - start
    return result


# --- concurrent writers -------------------------------------------------------------------


@dataclass
class WriterResult:
    rounds: int = 0
    writers: int = 0
    exit_zero: int = 0
    refused: int = 0
    lost: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_writers(writers: int, rounds: int, folder: Path) -> WriterResult:
    """``writers`` `tracker exec` processes at once on one save, ``rounds`` times: every
    one that exits 0 must have its change in the save."""
    from tracker.session.opening import model_for, new_encounter
    from tracker.store.verify import check_save

    home = folder / "home"
    path = new_encounter("Writers", "plain", folder / "writers.toml")
    result = WriterResult(rounds=rounds, writers=writers)
    done: list[str] = []
    start = time.monotonic()
    for r in range(rounds):
        procs = [
            (f"w{w}-r{r}", subprocess.Popen(
                [sys.executable, "-m", "tracker", "exec", "--wait", "60", str(path),
                 f"note w{w}-r{r}"], env=env_for(home), stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True))
            for w in range(writers)
        ]
        for name, proc in procs:
            out, err = proc.communicate(timeout=300)
            if proc.returncode == 0:
                result.exit_zero += 1
                done.append(name)
            else:
                result.refused += 1
                if "Traceback" in err or err.count("\n") > 1:
                    result.broken.append(f"{name}: {err.strip()}")
    from tracker.session.opening import load

    have = {e.text for e in load(path).log}
    result.lost = [name for name in done if name not in have]
    report = check_save(path, model_for)
    if not report.ok:
        result.broken += report.problems
    result.seconds = time.monotonic() - start
    return result


# --- simultaneous starts --------------------------------------------------------------------

OPENER = """
import sys, time
from pathlib import Path
from tracker.session.opening import open_encounter
opened = open_encounter(Path(sys.argv[1]))
writer = not opened.session.read_only
if writer:
    opened.session.execute("note start " + sys.argv[2])
    from tracker.store import save_encounter
    save_encounter(opened.session.enc, opened.session.path)
print("writer" if writer else "reader", time.time(), flush=True)
time.sleep(float(sys.argv[3]))
print("done", time.time(), flush=True)
"""


@dataclass
class StartResult:
    rounds: int = 0
    starts: int = 0
    most_writers_at_once: int = 0
    rounds_with_one_writer: int = 0
    broken: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_starts(starts: int, rounds: int, folder: Path, hold: float = 1.0) -> StartResult:
    """``starts`` processes open one save for writing at the same moment (the opening the
    app does before its first screen), hold it ``hold`` s, then exit: never two writers."""
    from tracker.session.opening import model_for, new_encounter
    from tracker.store.verify import check_save

    home = folder / "home"
    path = new_encounter("Starts", "plain", folder / "starts.toml")
    result = StartResult(rounds=rounds, starts=starts)
    t0 = time.monotonic()
    for r in range(rounds):
        go = folder / f"go-{r}"
        script = ("import os, time, sys\n"
                  f"while not os.path.exists({str(go)!r}): time.sleep(0.001)\n" + OPENER)
        procs = [subprocess.Popen([sys.executable, "-c", script, str(path), f"{r}-{i}",
                                   str(hold)], env=env_for(home), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for i in range(starts)]
        time.sleep(0.5 + starts * 0.02)  # let them all import and wait at the gate
        go.write_text("")
        spans: list[tuple[float, float]] = []
        for proc in procs:
            out, err = proc.communicate(timeout=300)
            lines = out.split()
            if proc.returncode != 0 or "Traceback" in err:
                result.broken.append(err.strip()[-300:])
                continue
            if lines and lines[0] == "writer":
                spans.append((float(lines[1]), float(lines[3])))
        events = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans])
        now = most = 0
        for _, step in events:
            now += step
            most = max(most, now)
        result.most_writers_at_once = max(result.most_writers_at_once, most)
        result.rounds_with_one_writer += 1 if spans and most == 1 else 0
    report = check_save(path, model_for)
    if not report.ok:
        result.broken += report.problems
    result.seconds = time.monotonic() - t0
    return result
