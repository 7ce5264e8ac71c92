"""The real app in a pseudo-terminal: SIGHUP and SIGTERM save before exit, nothing lost."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.conftest import lock_is_free
from tracker.session.opening import load


def read_until(fd: int, marker: bytes, timeout: float = 30) -> bytes:
    seen = b""
    end = time.monotonic() + timeout
    while marker not in seen:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{marker!r} never appeared; got {seen[-300:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def start_app(path: Path, home: Path) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real tracker on an 80x24 terminal
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", TRACKER_HOME=str(home))
        os.execvpe(sys.executable, [sys.executable, "-m", "tracker", str(path)], env)
    return pid, fd


def wait_draining(pid: int, fd: int, timeout: float = 30) -> int:
    """Wait for the child, reading its screen so its last writes never block."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                os.read(fd, 65536)
            except OSError:
                pass
    os.kill(pid, signal.SIGKILL)
    raise AssertionError("the tracker did not exit after the signal")


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_a_signal_saves_releases_the_lock_and_exits(skirmish_file, tracker_home, sig):
    """The encounter on disk is whole and its lock is gone; a restart takes it up again."""
    before = load(skirmish_file)
    pid, fd = start_app(skirmish_file, tracker_home)
    try:
        read_until(fd, b"for help")
        assert not lock_is_free(skirmish_file)
        os.kill(pid, sig)
        status = wait_draining(pid, fd)
    finally:
        os.close(fd)
    assert os.WIFEXITED(status), status
    assert load(skirmish_file).model_dump() == before.model_dump()
    assert lock_is_free(skirmish_file)


def test_a_lost_terminal_saves_and_exits(skirmish_file, tracker_home):
    pid, fd = start_app(skirmish_file, tracker_home)
    read_until(fd, b"for help")
    assert not lock_is_free(skirmish_file)
    os.close(fd)  # the SSH connection is gone: nobody sends a signal on purpose
    end = time.monotonic() + 20
    while time.monotonic() < end:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        raise AssertionError("the tracker kept running without its terminal")
    assert load(skirmish_file).name == "Ambush at the ford"
    assert lock_is_free(skirmish_file)


async def test_a_signal_flushes_a_change_the_worker_has_not_written(skirmish_file):
    from tracker.session.opening import load, open_encounter
    from tracker.ui.app import TrackerApp

    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    app.exit_deadline = None  # the test process must not be ended
    app._save_worker = lambda: None  # type: ignore[method-assign]  # the worker is slow today
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon", *"note", "space", *"pending", "enter")
        assert app.saving.autosaver is not None and app.saving.autosaver.pending
        assert [e.text for e in load(skirmish_file).log] == []
        app._on_signal()
        assert [e.text for e in load(skirmish_file).log] == ["pending"]
        assert lock_is_free(skirmish_file)
