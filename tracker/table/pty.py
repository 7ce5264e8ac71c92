"""One session's process in a real pseudo-terminal.

The child is a session leader whose controlling terminal is the pty, so the kernel's
tty rules hold as they do for a local terminal: a new window size (``TIOCSWINSZ``)
sends SIGWINCH to it, and a hangup is a SIGHUP. Bytes pass through unchanged both ways
(the app puts the tty in raw mode itself; nothing edits lines in between). The process
itself is made by a :class:`~tracker.table.zygote.Zygote`, which forks it already
loaded; its end comes from there too.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Callable

KILL_AFTER = 0.8
"""Seconds a hung-up child has to save and leave before it is killed."""

VIEWER_NICE = 5
"""Scheduling niceness of a view's process once its first screen is up: on a busy
machine the GM's app, whose keys everyone waits on, runs first, and the views catch up
after. (Views that show the same share a process, so there are few: at 19 they starved
behind any other busy process of the machine, and a side followed the GM seconds late.)"""

Spawn = Callable[[list[str], dict[str, str], str, int, Callable[[int], None]], int]
"""Start ``argv`` with ``env`` in folder ``cwd`` on the pty whose other end is the file
descriptor given; the process's id. Its exit status goes to the callable given."""


def step_back(pid: int) -> None:
    """Lower a view's scheduling priority to :data:`VIEWER_NICE`. Each view leads a
    session of its own, which Linux schedules as a group of its own (autogroup): a
    process's niceness only ranks it inside its group, so the group's niceness is set
    too, ranking it against the GM's app."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, VIEWER_NICE)
        with open(f"/proc/{pid}/autogroup", "w") as group:
            group.write(str(VIEWER_NICE))
    except OSError:  # no autogroup here, or not allowed: the niceness does what it can
        pass


def set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(rows, 1), max(cols, 1), 0, 0))


class PtyChild:
    """A child process on a pty; output goes to ``on_output``, its end to ``on_exit``
    (once, with its exit status, after the last of its output)."""

    def __init__(
        self,
        spawn: Spawn,
        argv: list[str],
        env: dict[str, str],
        cwd: str,
        cols: int,
        rows: int,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._on_output, self._on_exit = on_output, on_exit
        self._status: int | None = None
        self._ended = False
        self._reading = True
        master, slave = os.openpty()
        try:
            set_size(slave, cols, rows)
            self.pid = spawn(argv, env, cwd, slave, self.exited)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.master: int | None = master
        self.size = (cols, rows)
        os.set_blocking(master, False)
        self._pending = b""
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
            self._close_master()
            self._end()

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
        if self.master is not None and self._reading:
            self._loop.remove_reader(self.master)
        self._reading = False

    def resume(self) -> None:
        if self.master is not None and not self._reading:
            self._reading = True
            self._loop.add_reader(self.master, self._readable)

    def resize(self, cols: int, rows: int) -> None:
        self.size = (cols, rows)
        if self.master is not None:
            set_size(self.master, cols, rows)  # the kernel sends the child SIGWINCH

    # --- the end --------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._status is None

    def exited(self, status: int) -> None:
        """The zygote reaped the process: its exit status (128 + N for signal N)."""
        self._status = status
        self._end()

    def hangup(self) -> None:
        """The connection is gone: SIGHUP, as a terminal's hangup sends; SIGKILL if the
        child is still there ``KILL_AFTER`` seconds later."""
        self.signal(signal.SIGHUP)
        self._loop.call_later(KILL_AFTER, self._kill)

    def _kill(self) -> None:
        if self.running:
            self.signal(signal.SIGKILL)

    def signal(self, sig: int) -> None:
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def _close_master(self) -> None:
        if self.master is not None:
            self.pause()
            self._loop.remove_writer(self.master)
            os.close(self.master)
            self.master = None

    def _end(self) -> None:
        """Ended once both are known: the output has all been read and the status."""
        if self._ended or self._status is None:
            return
        if self.master is not None:
            if self._reading:
                return  # the last output first: EIO at its end ends the child here
            self._close_master()
        self._ended = True
        self._on_exit(self._status)
