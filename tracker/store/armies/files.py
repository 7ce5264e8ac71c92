"""Reading an army file safely: regular files only, a size cap, and zips of one member.

A FIFO, a device or a folder is refused from its ``stat`` alone, before anything opens
it (opening a FIFO for reading blocks until someone writes to it). A file larger than
the cap is refused from its size, and a zip from the sizes its directory declares, so a
zip bomb is never inflated. Every read is bounded by the cap besides, in case a file
grows between the ``stat`` and the read or a zip understates a member's size.
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
from pathlib import Path

MAX_BYTES = 16 * 1024 * 1024
"""The largest army file read, zipped or not (BattleScribe catalogues of the largest
game systems stay well below a few megabytes)."""


class ArmyError(ValueError):
    """An army file that cannot be used: which file, where in it, what was expected.

    The message is one line: whatever the file held, a line break in it is shown escaped.
    """

    def __init__(self, file: str, where: str, expected: str) -> None:
        self.file, self.where = file, where
        self.expected = expected.replace("\r", "\\r").replace("\n", "\\n")
        super().__init__(str(self))

    def __str__(self) -> str:
        at = f" at {self.where}" if self.where else ""
        return f"{self.file}{at}: {self.expected}"


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes."""
    name = path.name
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ArmyError(name, "", "no such file") from None
    except OSError as exc:
        raise ArmyError(name, "", f"a readable file ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ArmyError(name, "", "a file, found a folder")
    if not stat.S_ISREG(info.st_mode):
        raise ArmyError(name, "", "a regular file, found a pipe, socket or device")
    if info.st_size > limit:
        raise ArmyError(name, "", f"at most {_size(limit)}, found {_size(info.st_size)}")
    try:
        # O_NONBLOCK: had the file become a FIFO since the stat, opening it cannot hang
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ArmyError(name, "", f"a readable file ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ArmyError(name, "", "a regular file, found a pipe, socket or device")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise ArmyError(name, "", f"a readable file ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ArmyError(name, "", f"at most {_size(limit)} (the file grew while read)")
    return data


def unzip_one(name: str, data: bytes, inner: tuple[str, ...], limit: int = MAX_BYTES) -> bytes:
    """The one member of a zip (``.rosz``, ``.catz``) whose name ends in ``inner``.

    Only the zip's directory is read before the member's declared size is checked; the
    member is then read no further than the cap.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise ArmyError(name, "", "a zip file (a .rosz holds one .ros)") from None
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        wanted = " or ".join(inner)
        if len(members) != 1:
            found = ", ".join(m.filename for m in members[:4]) or "nothing"
            more = ", ..." if len(members) > 4 else ""
            raise ArmyError(name, "", f"a zip of one {wanted} file, found {found}{more}")
        member = members[0]
        where = f"zip member {member.filename}"
        if not member.filename.lower().endswith(inner):
            raise ArmyError(name, where, f"a {wanted} file")
        if member.file_size > limit:
            raise ArmyError(name, where, f"at most {_size(limit)} unzipped, declares "
                            f"{_size(member.file_size)}")
        try:
            with archive.open(member) as fh:
                out = fh.read(limit + 1)
        except Exception as exc:  # noqa: BLE001 - each decompressor has errors of its own
            raise ArmyError(name, where, f"a readable zip member ({exc})") from None
        if len(out) > limit:
            raise ArmyError(name, where, f"at most {_size(limit)} unzipped")
        return out
