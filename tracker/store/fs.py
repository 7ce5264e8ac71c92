"""Every file operation of the store, in one place, so that tests can make any of them fail.

The store never calls ``os`` for its files directly: it calls the functions here, which
call the :class:`Files` in use (the real file system). A test puts a subclass in its
place with :func:`use` (the way SQLite tests its VFS) to fail the n-th operation with
EIO, ENOSPC, EROFS or EFBIG, or to "crash" there and drop every write not yet fsynced.

Files are created 0600 and folders 0700 whatever the umask (the mode is set again once
made); every open refuses a symbolic link (``O_NOFOLLOW``), new files are created
exclusively under unpredictable temp names and moved into place, and
:func:`read_regular` reads only regular files (a FIFO or a device named as a save or an
army list is refused, never waited on). Files beside the saves use the same functions:
:func:`write_private` (the GM's preferences, a report), :func:`append_private` (the
error log), :func:`make_folders` (the data folder and its parents).
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700
TEMP_SUFFIX = ".tmp"


class Files:
    """The real file system. Each method is one operation a fault can be injected at."""

    def open(self, path: Path, flags: int, mode: int = FILE_MODE) -> int:
        fd = os.open(path, flags | os.O_CLOEXEC | os.O_NOFOLLOW, mode)
        if flags & os.O_CREAT:
            try:
                _exact_mode(fd, mode)
            except BaseException:
                os.close(fd)
                raise
        return fd

    def read(self, fd: int, size: int) -> bytes:
        return os.read(fd, size)

    def pread(self, fd: int, size: int, offset: int) -> bytes:
        return os.pread(fd, size, offset)

    def write(self, fd: int, data: bytes | memoryview) -> int:
        return os.write(fd, data)

    def pwrite(self, fd: int, data: bytes | memoryview, offset: int) -> int:
        return os.pwrite(fd, data, offset)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def ftruncate(self, fd: int, size: int) -> None:
        os.ftruncate(fd, size)

    def fstat(self, fd: int) -> os.stat_result:
        return os.fstat(fd)

    def close(self, fd: int) -> None:
        os.close(fd)

    def flock(self, fd: int, op: int) -> None:
        fcntl.flock(fd, op)

    def replace(self, src: Path, dst: Path) -> None:
        os.replace(src, dst)

    def link(self, src: Path, dst: Path) -> None:
        os.link(src, dst, follow_symlinks=False)

    def unlink(self, path: Path) -> None:
        os.unlink(path)

    def mkdir(self, path: Path, mode: int = DIR_MODE) -> None:
        os.mkdir(path, mode)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            _exact_mode(fd, mode)
        finally:
            os.close(fd)

    def lstat(self, path: Path) -> os.stat_result:
        return os.lstat(path)

    def listdir(self, path: Path) -> list[str]:
        return os.listdir(path)

    def fsync_dir(self, path: Path) -> None:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _exact_mode(fd: int, mode: int) -> None:
    """Give a file or folder this process made (or owns) exactly ``mode``: a umask may
    have taken bits from it (one that takes the owner's would leave it unusable)."""
    st = os.fstat(fd)
    if stat.S_IMODE(st.st_mode) != mode and st.st_uid == os.geteuid():
        os.fchmod(fd, mode)


_current: Files = Files()


def current() -> Files:
    return _current


@contextmanager
def use(files: Files) -> Iterator[Files]:
    """Run the store on ``files`` (a test's faulty file system) inside the block."""
    global _current
    old, _current = _current, files
    try:
        yield files
    finally:
        _current = old


class NotRegular(OSError):
    """A path that is a symbolic link, a folder, a FIFO or a device where a file was wanted."""


def refuse_link(path: Path, what: str = "") -> None:
    """Raise NotRegular if ``path`` is a symbolic link (it is never followed)."""
    try:
        st = _current.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise NotRegular(errno.ELOOP, f"{what or 'file'} is a symbolic link (refused)", str(path))


def open_regular(path: Path, flags: int = os.O_RDONLY) -> int:
    """Open a regular file (no link, FIFO or device); the caller closes the descriptor."""
    try:
        fd = _current.open(path, flags | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegular(errno.ELOOP, "a symbolic link (refused)", str(path)) from None
        if exc.errno == errno.ENXIO:  # a FIFO with no writer, opened for writing
            raise NotRegular(errno.ENXIO, "not a regular file", str(path)) from None
        raise
    try:
        st = _current.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise NotRegular(errno.EISDIR, "a folder, not a file", str(path))
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(errno.EINVAL, "not a regular file (a FIFO or a device?)", str(path))
        if flags & (os.O_WRONLY | os.O_RDWR) == 0:
            os.set_blocking(fd, True)
    except BaseException:
        _current.close(fd)
        raise
    return fd


def read_regular(path: Path | str, limit: int = 1 << 30) -> bytes:
    """The bytes of a regular file; a link, FIFO, device or folder is refused at once."""
    fd = open_regular(Path(path))
    try:
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = _current.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise NotRegular(errno.EFBIG, f"larger than {limit} bytes", str(path))
        return b"".join(chunks)
    finally:
        _current.close(fd)


def pread_all(fd: int, size: int, offset: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0:
        chunk = _current.pread(fd, size, offset)
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[_current.write(fd, view) :]


def pwrite_all(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        n = _current.pwrite(fd, view, offset)
        view, offset = view[n:], offset + n


def temp_name(target: Path) -> Path:
    """An unpredictable hidden name beside ``target``: ``.battle.toml.3f9a0c1d2e4b.tmp``."""
    return target.with_name(f".{target.name}.{secrets.token_hex(6)}{TEMP_SUFFIX}")


def is_temp_of(name: str, target_name: str) -> bool:
    prefix = f".{target_name}."
    return name.startswith(prefix) and name.endswith(TEMP_SUFFIX) and len(name) == len(
        prefix
    ) + 12 + len(TEMP_SUFFIX)


def write_temp(target: Path, data: bytes) -> Path:
    """Write ``data`` to a new temp file beside ``target`` (exclusive create, no link
    followed), fsynced; the caller moves it into place or removes it. An error is said of
    ``target``, the file asked for, never of the temp file's name."""
    tmp = temp_name(target)
    try:
        fd = _current.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except OSError as exc:
        raise _of(target, exc) from None
    try:
        write_all(fd, data)
        _current.fsync(fd)
    except BaseException as exc:
        _current.close(fd)
        remove_quietly(tmp)
        if isinstance(exc, OSError):
            raise _of(target, exc) from None
        raise
    try:
        _current.close(fd)
    except BaseException as exc:
        remove_quietly(tmp)
        if isinstance(exc, OSError):
            raise _of(target, exc) from None
        raise
    return tmp


def _of(target: Path, exc: OSError) -> OSError:
    """``exc`` said of ``target`` (an error of its temp file, or of no file named)."""
    if exc.errno is None or type(exc).__module__ != "builtins":
        return exc  # a refusal of the tracker's own (not a regular file) says its own words
    return OSError(exc.errno, exc.strerror, str(target))


def write_atomic(target: Path, data: bytes) -> None:
    """``target`` holds either its old bytes or ``data``, never half; the folder is fsynced."""
    tmp = write_temp(target, data)
    try:
        _current.replace(tmp, target)
    except OSError as exc:
        remove_quietly(tmp)
        raise _of(target, exc) from None
    except BaseException:
        remove_quietly(tmp)
        raise
    _current.fsync_dir(target.parent)


def write_new(target: Path, data: bytes) -> None:
    """Write a file that must not exist yet (FileExistsError if it does, or if anything
    takes its name meanwhile): a temp file, linked into place, the folder fsynced."""
    tmp = write_temp(target, data)
    try:
        _current.link(tmp, target)
    finally:
        remove_quietly(tmp)
    _current.fsync_dir(target.parent)


def write_private(target: Path, data: bytes) -> None:
    """Write a file beside the saves (the preferences, a report): its missing folders
    made 0700, the file 0600 through a temp file with an unpredictable name, exclusive
    create, no link followed, moved into place (a link at ``target`` is replaced, never
    written through)."""
    make_folders(target.parent)
    write_atomic(target, data)


def append_private(target: Path, data: bytes) -> None:
    """Append to a log file (the error log): created 0600 and exclusively if it is
    missing; a link, FIFO or device in its place is refused."""
    make_folders(target.parent)
    for _ in range(3):
        try:
            fd = open_regular(target, os.O_WRONLY | os.O_APPEND)
        except FileNotFoundError:
            try:
                fd = _current.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL)
            except FileExistsError:
                continue  # made meanwhile: open that one
        try:
            write_all(fd, data)
        finally:
            _current.close(fd)
        return
    raise NotRegular(errno.EEXIST, "keeps changing while it is opened", str(target))


def make_folders(folder: Path) -> None:
    """Make ``folder`` and whichever of its parents are missing, each 0700 whatever the
    umask (folders already there are left as they are)."""
    missing: list[Path] = []
    walk = folder
    while True:
        try:
            _current.lstat(walk)
            break
        except FileNotFoundError:
            missing.append(walk)
            if walk.parent == walk:
                break
            walk = walk.parent
    for made in reversed(missing):
        try:
            _current.mkdir(made, DIR_MODE)
        except FileExistsError:
            continue
        _current.fsync_dir(made.parent)
    if not os.path.isdir(folder):
        raise NotRegular(errno.ENOTDIR, "not a folder", str(folder))


def exists(path: Path) -> bool:
    """Whether anything is at ``path`` (a link counts: it is not followed)."""
    try:
        _current.lstat(path)
    except FileNotFoundError:
        return False
    return True


def remove_quietly(path: Path) -> None:
    try:
        _current.unlink(path)
    except OSError:
        pass


def ensure_folder(folder: Path, what: str = "folder") -> None:
    """Make ``folder`` (0700) if it is missing; a link or a file in its place is refused."""
    try:
        st = _current.lstat(folder)
    except FileNotFoundError:
        try:
            _current.mkdir(folder, DIR_MODE)
        except FileExistsError:
            pass
        else:
            _current.fsync_dir(folder.parent)
        st = _current.lstat(folder)
    if stat.S_ISLNK(st.st_mode):
        raise NotRegular(errno.ELOOP, f"{what} is a symbolic link (refused)", str(folder))
    if not stat.S_ISDIR(st.st_mode):
        raise NotRegular(errno.ENOTDIR, f"{what} is not a folder", str(folder))


def remove_stale_temps(folder: Path, names: list[str]) -> list[str]:
    """Remove temp files a crash left behind for ``names`` in ``folder`` (under the lock,
    no other writer can be using them); returns what was removed."""
    try:
        entries = _current.listdir(folder)
    except OSError:
        return []
    gone = []
    for entry in entries:
        if any(is_temp_of(entry, name) for name in names):
            try:
                _current.unlink(folder / entry)
                gone.append(entry)
            except OSError:
                pass
    return gone


def describe(exc: OSError) -> str:
    """One line for a file error: the file and what went wrong."""
    why = exc.strerror or str(exc) or type(exc).__name__
    name = exc.filename
    return f"{name}: {why}" if name else why
