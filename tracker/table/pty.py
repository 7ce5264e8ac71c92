"""One session's process in a real pseudo-terminal.

The child is a session leader whose controlling terminal is the pty, so the kernel's
tty rules hold as they do for a local terminal: a new window size (``TIOCSWINSZ``)
sends SIGWINCH to it, and a hangup is a SIGHUP. Bytes pass through unchanged both ways
(the app puts the tty in raw mode itself; nothing edits lines in between).
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import subprocess
import termios
from collections.abc import Callable

KILL_AFTER = 0.8
"""Seconds a hung-up child has to save and leave before it is killed."""


def _take_terminal() -> None:  # runs in the child, after setsid, before exec
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


VIEWER_NICE = 19
"""Scheduling niceness of a view's process once its first screen is up: on a busy
machine the GM's app, whose keys everyone waits on, runs first, and the views catch up
after."""

STEP_BACK = "TRACKER_STEP_BACK"
"""Set in a view's environment by the table: the view steps back (:func:`step_back`)
once it has drawn its first screen, so a player who connects sees it at once."""


def step_back() -> None:
    """Lower this process's scheduling priority to :data:`VIEWER_NICE`. The table starts
    each view in a session of its own, which Linux schedules as a group of its own
    (autogroup): a process's niceness only ranks it inside its group, and 20 views would
    share the CPU with the GM's app as equals. The group's niceness ranks it against the
    GM's. Only for a process that leads its own session (the table's views): in a
    player's own terminal the group is their shell's."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, VIEWER_NICE)
        if os.getsid(0) == os.getpid():
            with open("/proc/self/autogroup", "w") as group:
                group.write(str(VIEWER_NICE))
    except OSError:  # no autogroup here, or not allowed: the niceness does what it can
        pass


def set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(rows, 1), max(cols, 1), 0, 0))


class PtyChild:
    """A child process on a pty; output goes to ``on_output``, its end to ``on_exit``."""

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        cols: int,
        rows: int,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        background: bool = False,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._on_output, self._on_exit = on_output, on_exit
        master, slave = os.openpty()
        try:
            set_size(slave, cols, rows)
            self.proc = subprocess.Popen(
                argv, stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                env={**env, STEP_BACK: "1"} if background else env,
                start_new_session=True,
                preexec_fn=_take_terminal,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.pid = self.proc.pid
        self.master: int | None = master
        os.set_blocking(master, False)
        self._pending = b""
        self._reading = True
        self._ended = False
        self._reaping = False
        self._loop.add_reader(master, self._readable)

    # --- both ways ------------------------------------------------------------------------

    def _readable(self) -> None:
        if self.master is None:
            return
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: every copy of the pty's other end is closed
            data = b""
        if data:
            self._on_output(data)
        else:
            self._stop_reading()
            self._reap()

    def write(self, data: bytes) -> None:
        if self.master is None:
            return
        self._pending += data
        self._flush()

    def _flush(self) -> None:
        if self.master is None:
            return
        try:
            while self._pending:
                n = os.write(self.master, self._pending)
                self._pending = self._pending[n:]
        except BlockingIOError:
            self._loop.add_writer(self.master, self._flush)
            return
        except OSError:
            self._pending = b""
        self._loop.remove_writer(self.master)

    def pause(self) -> None:
        """The connection's buffer is full: stop reading until it drains."""
        self._stop_reading()

    def resume(self) -> None:
        if self.master is not None and not self._reading:
            self._reading = True
            self._loop.add_reader(self.master, self._readable)

    def _stop_reading(self) -> None:
        if self.master is not None and self._reading:
            self._loop.remove_reader(self.master)
        self._reading = False

    def resize(self, cols: int, rows: int) -> None:
        if self.master is not None:
            set_size(self.master, cols, rows)  # the kernel sends the child SIGWINCH

    # --- the end --------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.proc.poll() is None

    def hangup(self) -> None:
        """The connection is gone: SIGHUP, as a terminal's hangup sends; SIGKILL if the
        child is still there ``KILL_AFTER`` seconds later."""
        self._signal(signal.SIGHUP)
        self._loop.call_later(KILL_AFTER, self._kill)
        self._reap()

    def _kill(self) -> None:
        if self.running:
            self._signal(signal.SIGKILL)

    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def _reap(self) -> None:
        if self._reaping or self._ended:
            return
        self._reaping = True
        self._check()

    def _check(self) -> None:
        code = self.proc.poll()
        if code is None:
            self._loop.call_later(0.02, self._check)
            return
        if self.master is not None:
            self._stop_reading()
            self._loop.remove_writer(self.master)
            os.close(self.master)
            self.master = None
        if not self._ended:
            self._ended = True
            self._on_exit(code if code >= 0 else 128 - code)
