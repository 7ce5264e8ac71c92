"""One writer per encounter: a lock file beside the save holding the writer's pid and host.

A lock left by a dead process on this host is stale and taken over (with a notice); a
live one, or one from another host, makes the second opener read-only.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path


class LockHeld(Exception):
    """Another live process writes this encounter."""

    def __init__(self, path: Path, pid: int, host: str) -> None:
        self.path, self.pid, self.host = path, pid, host
        super().__init__(f"{path.name} is open for writing by pid {pid} on {host}: read-only")


def lock_path(save: Path) -> Path:
    return save.with_name(f".{save.name}.lock")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_lock(path: Path) -> tuple[int, str] | None:
    try:
        text = path.read_text("utf-8").split()
        return int(text[0]), text[1]
    except (OSError, ValueError, IndexError):
        return None


@dataclass
class Lock:
    """The write lock on one save; ``notice`` says if a stale lock was taken over."""

    save: Path
    notice: str = ""
    held: bool = False

    @property
    def path(self) -> Path:
        return lock_path(self.save)

    def acquire(self) -> Lock:
        me = f"{os.getpid()} {socket.gethostname()}\n".encode()
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                owner = read_lock(self.path)
                if owner is None:
                    self.notice = "an unreadable lock file was replaced"
                elif owner[1] == socket.gethostname() and not _alive(owner[0]):
                    self.notice = (
                        f"a stale lock from pid {owner[0]} (no longer running) was taken over"
                    )
                elif owner[0] == os.getpid() and owner[1] == socket.gethostname():
                    self.held = True
                    return self
                else:
                    raise LockHeld(self.save, owner[0], owner[1]) from None
                self.path.unlink(missing_ok=True)
                continue
            with os.fdopen(fd, "wb") as fh:
                fh.write(me)
                fh.flush()
                os.fsync(fh.fileno())
            self.held = True
            return self
        raise LockHeld(self.save, -1, "unknown")

    def release(self) -> None:
        if not self.held:
            return
        owner = read_lock(self.path)
        if owner is not None and owner[0] == os.getpid():
            self.path.unlink(missing_ok=True)
        self.held = False
