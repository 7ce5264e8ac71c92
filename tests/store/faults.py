"""A file system that fails on demand, for the store's fault-injection tests.

:class:`FaultyFiles` stands in for :class:`tracker.store.fs.Files` (the way SQLite tests
its VFS). It numbers every file operation the store makes; the one numbered
``fail_at`` either fails with an errno (EIO, ENOSPC, EROFS, EFBIG) or "crashes": the
process is taken to have died there, every later operation raises :class:`Crash`, and
:meth:`FaultyFiles.crash` then puts the folder in the state a real crash would leave:
only what was fsynced survives (a file's bytes at its last fsync, a folder's names at
its last fsync), and every descriptor the "process" had is closed (its locks go).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tracker.store import fs


class Crash(BaseException):
    """The process died at this file operation."""


class FaultyFiles(fs.Files):
    def __init__(self, root: Path, fail_at: int = 0, error: int = 0, crash: bool = False):
        self.root = root
        self.fail_at = fail_at
        self.error = error
        self.crash_here = crash
        self.count = 0
        self.ops: list[str] = []
        self.crashed = False
        self.failed = False
        self.fds: set[int] = set()
        # what a crash keeps: each folder's names (as inodes) and each inode's bytes
        self.names: dict[Path, dict[str, int]] = {}
        self.content: dict[int, bytes] = {}
        for folder in [root, *[p for p in root.rglob("*") if p.is_dir()]]:
            self._sync_folder(folder)

    # --- the injection point ---------------------------------------------------------------

    def _op(self, name: str) -> None:
        if self.crashed:
            raise Crash(name)
        self.count += 1
        self.ops.append(name)
        if self.count == self.fail_at:
            if self.crash_here:
                self.crashed = True
                raise Crash(name)
            self.failed = True
            raise OSError(self.error, os.strerror(self.error))

    # --- operations ------------------------------------------------------------------------

    def open(self, path: Path, flags: int, mode: int = fs.FILE_MODE) -> int:
        self._op("open")
        fd = super().open(path, flags, mode)
        self.fds.add(fd)
        return fd

    def read(self, fd: int, size: int) -> bytes:
        self._op("read")
        return super().read(fd, size)

    def pread(self, fd: int, size: int, offset: int) -> bytes:
        self._op("pread")
        return super().pread(fd, size, offset)

    def write(self, fd: int, data: bytes | memoryview) -> int:
        self._op("write")
        return super().write(fd, data)

    def pwrite(self, fd: int, data: bytes | memoryview, offset: int) -> int:
        self._op("pwrite")
        return super().pwrite(fd, data, offset)

    def fsync(self, fd: int) -> None:
        self._op("fsync")  # durability is this model's business: no real fsync, faster
        st = os.fstat(fd)
        with open(f"/proc/self/fd/{fd}", "rb") as fh:  # the descriptor may be write-only
            self.content[st.st_ino] = fh.read()

    def ftruncate(self, fd: int, size: int) -> None:
        self._op("ftruncate")
        super().ftruncate(fd, size)

    def fstat(self, fd: int) -> os.stat_result:
        self._op("fstat")
        return super().fstat(fd)

    def close(self, fd: int) -> None:
        try:
            self._op("close")
        except OSError:
            # close(2) lets go of the descriptor even when it reports an error
            self.fds.discard(fd)
            super().close(fd)
            raise
        self.fds.discard(fd)
        super().close(fd)

    def flock(self, fd: int, op: int) -> None:
        self._op("flock")
        super().flock(fd, op)

    def replace(self, src: Path, dst: Path) -> None:
        self._op("rename")
        super().replace(src, dst)

    def link(self, src: Path, dst: Path) -> None:
        self._op("link")
        super().link(src, dst)

    def unlink(self, path: Path) -> None:
        self._op("unlink")
        super().unlink(path)

    def mkdir(self, path: Path, mode: int = fs.DIR_MODE) -> None:
        self._op("mkdir")
        super().mkdir(path, mode)
        self.names.setdefault(Path(path), {})

    def lstat(self, path: Path) -> os.stat_result:
        self._op("lstat")
        return super().lstat(path)

    def listdir(self, path: Path) -> list[str]:
        self._op("listdir")
        return super().listdir(path)

    def fsync_dir(self, path: Path) -> None:
        self._op("fsync_dir")
        self._sync_folder(Path(path))

    # --- the durable model -----------------------------------------------------------------

    def _sync_folder(self, folder: Path) -> None:
        names: dict[str, int] = {}
        for entry in os.listdir(folder):
            st = os.lstat(folder / entry)
            if stat.S_ISREG(st.st_mode):
                names[entry] = st.st_ino
                if st.st_ino not in self.content:  # there before the test: on disk
                    self.content[st.st_ino] = (folder / entry).read_bytes()
        self.names[folder] = names

    def crash(self) -> None:
        """Leave the folders as a crash at the failed operation would: what was not
        fsynced is gone, and so are the dead process's descriptors (and its locks)."""
        for fd in list(self.fds):
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds.clear()
        for folder, names in self.names.items():
            if not folder.is_dir():
                folder.mkdir(parents=True)
            for entry in os.listdir(folder):
                if (folder / entry).is_file() and entry not in names:
                    os.unlink(folder / entry)
            for entry, ino in names.items():
                target = folder / entry
                if target.exists():
                    os.unlink(target)
                data = self.content.get(ino, b"")  # a name made durable, its bytes never
                target.write_bytes(data)
                os.chmod(target, 0o600)
