"""One writer per encounter: an OS lock (``flock``) on a lock file beside the save.

The lock is taken before the save is read and held on an open file for as long as the
encounter is open for writing; the kernel lets go of it when the process ends, however
it ends, so there are no stale locks. The file's text (pid, host, since) only says who
holds it. A second opener gets a read-only view, or takes the encounter over
(:meth:`Lock.take_over`): it asks the holder to save and let go (a request file the
holder's app looks for every second), and after a timeout takes a fresh lock file in
place of the old one. The old holder then finds its journal moved on (the new writer
logs the take-over there first) and writes nothing more.

A holder tells the two ways of losing its lock apart (:class:`Lost`): a take-over
replaces the lock file with one that says so; a lock file merely deleted from under it
is made again at once (still locked by this holder), unless another tracker made one
first and holds the encounter now.
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from tracker.core.words import digits

from . import fs

TAKE_OVER_SECONDS = 10.0
TAKEN = "take-over"
"""The word a lock file taken over ends with (after pid, host and since)."""


class Lost(StrEnum):
    """Why this tracker no longer holds an encounter it held for writing."""

    TAKEN_OVER = "another tracker took this encounter over"
    DELETED = ("its lock file was deleted and another tracker has opened this encounter "
               "since")


class LockHeld(Exception):
    """Another process holds the encounter for writing."""

    def __init__(self, path: Path, owner: str) -> None:
        self.path, self.owner = path, owner
        super().__init__(f"{path.name} is open for writing by {owner}: read-only "
                         "(`tracker --take-over` asks it to let go)")


def lock_path(save: Path) -> Path:
    return save.with_name(f".{save.name}.lock")


def request_path(save: Path) -> Path:
    return save.with_name(f".{save.name}.takeover")


def me() -> str:
    return f"pid {os.getpid()} on {socket.gethostname()}"


def describe_owner(text: str) -> str:
    """``pid 123 on host since 20:14`` from a lock file's text (informational only)."""
    parts = text.split()
    if len(parts) >= 2 and digits(parts[0]):
        since = ""
        if len(parts) >= 3:
            try:
                since = " since " + time.strftime("%H:%M", time.localtime(float(parts[2])))
            except ValueError:
                pass
        return f"pid {parts[0]} on {parts[1]}{since}"
    return "another tracker"


def read_lock(path: Path) -> tuple[int, str] | None:
    """The pid and host a lock file names (informational: only the OS lock decides who
    writes; a file left by a process that ended still names it)."""
    try:
        parts = fs.read_regular(path, 4096).decode("utf-8", "replace").split()
        return int(parts[0]), parts[1]
    except (OSError, ValueError, IndexError):
        return None


def owner_of(save: Path) -> str:
    try:
        return describe_owner(fs.read_regular(lock_path(save), 4096).decode("utf-8", "replace"))
    except OSError:
        return "another tracker"


@dataclass
class Lock:
    """The write lock on one save; ``notice`` says what happened when it was taken."""

    save: Path
    notice: str = ""
    held: bool = False
    fd: int = -1
    since: float = 0.0

    @property
    def path(self) -> Path:
        return lock_path(self.save)

    def acquire(self, wait: float = 0.0) -> Lock:
        """Take the lock, waiting up to ``wait`` seconds for its holder to let go."""
        deadline = time.monotonic() + wait
        while True:
            try:
                self._try()
                return self
            except LockHeld:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.05)

    def _try(self) -> None:
        if self.held:
            return
        f = fs.current()
        for _ in range(5):
            fd = f.open(self.path, os.O_RDWR | os.O_CREAT)
            try:
                try:
                    f.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise LockHeld(self.save, owner_of(self.save)) from None
                except OSError as exc:
                    if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                        raise LockHeld(self.save, owner_of(self.save)) from None
                    raise
                # the file may have been replaced by a take-over between open and flock
                if f.fstat(fd).st_ino != f.lstat(self.path).st_ino:
                    f.close(fd)
                    continue
                self._claim(fd)
                return
            except BaseException:
                if not self.held:
                    try:
                        f.close(fd)
                    except OSError:
                        pass
                raise
        raise LockHeld(self.save, owner_of(self.save))

    def _claim(self, fd: int, how: str = "") -> None:
        f = fs.current()
        self.since = time.time()
        info = f"{os.getpid()} {socket.gethostname()} {self.since:.0f} {how}".strip()
        info += "\n"
        try:
            f.ftruncate(fd, 0)
            fs.pwrite_all(fd, info.encode(), 0)
        except OSError:
            pass  # the text is only informational
        self.fd, self.held = fd, True

    def lost(self) -> Lost | None:
        """Why this tracker no longer holds the encounter (None: it still does). A lock
        file deleted from under it is made again here, locked, and ``notice`` says so."""
        if not self.held:
            return None
        f = fs.current()
        try:
            mine = f.fstat(self.fd).st_ino
            there = f.lstat(self.path).st_ino
        except FileNotFoundError:
            return self._remake()
        except OSError:
            return Lost.TAKEN_OVER
        if mine == there:
            return None
        try:
            text = fs.read_regular(self.path, 4096).decode("utf-8", "replace")
        except OSError:
            text = ""
        return Lost.TAKEN_OVER if text.split()[3:4] == [TAKEN] else Lost.DELETED

    def _remake(self) -> Lost | None:
        """A new lock file in place of one deleted, locked by this holder; Lost.DELETED
        if another tracker made one first (or none can be made)."""
        f = fs.current()
        tmp = fs.temp_name(self.path)
        try:
            fd = f.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL)
        except OSError:
            return Lost.DELETED
        try:
            f.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            f.link(tmp, self.path)
        except OSError:
            f.close(fd)
            return Lost.DELETED
        finally:
            fs.remove_quietly(tmp)
        old, since = self.fd, self.since
        self._claim(fd)
        self.since = since  # a take-over request made meanwhile is still for this holder
        try:
            f.close(old)
        except OSError:
            pass
        self.notice = (f"the lock file {self.path.name} was deleted; made again (this "
                       "tracker still writes the encounter)")
        return None

    def asked(self) -> str:
        """Who asks this holder to save and let go ("" when no one does)."""
        if not self.held:
            return ""
        try:
            st = fs.current().lstat(request_path(self.save))
        except OSError:
            return ""
        if st.st_mtime < self.since - 1:
            return ""  # a request older than this lock: it was for an earlier holder
        try:
            text = fs.read_regular(request_path(self.save), 4096).decode("utf-8", "replace")
        except OSError:
            return "another tracker"
        return describe_owner(text)

    def release(self) -> None:
        if not self.held:
            return
        f = fs.current()
        try:
            if not self.lost():
                f.ftruncate(self.fd, 0)
        except OSError:
            pass
        try:
            f.close(self.fd)
        except OSError:
            pass
        self.fd, self.held = -1, False

    def take_over(self, timeout: float = TAKE_OVER_SECONDS) -> str:
        """Take the lock from its holder: ask it to save and let go, and after
        ``timeout`` seconds take it regardless. Returns what happened ("" when no one
        held it)."""
        try:
            self._try()
            return ""
        except LockHeld as held:
            owner = held.owner
        request = request_path(self.save)
        info = f"{os.getpid()} {socket.gethostname()} {time.time():.0f}\n".encode()
        fs.write_atomic(request, info)
        try:
            try:
                self.acquire(timeout)
                how = "it saved and let go when asked"
            except LockHeld:
                self._break()
                how = f"it did not let go within {timeout:.0f} s"
        finally:
            fs.remove_quietly(request)
        return f"taken over from {owner}: {how}"

    def _break(self) -> None:
        """A fresh lock file, locked, moved over the old one: the old holder keeps a
        lock on a file no one else opens."""
        f = fs.current()
        tmp = fs.temp_name(self.path)
        fd = f.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL)
        try:
            f.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._claim(fd, TAKEN)
            f.replace(tmp, self.path)
            f.fsync_dir(self.path.parent)
        except BaseException:
            self.held, self.fd = False, -1
            f.close(fd)
            fs.remove_quietly(tmp)
            raise
