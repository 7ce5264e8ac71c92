"""Opening a save for writing: the lock first, then the files, then what a crash left.

Under the lock no other tracker writes the encounter, so whatever a crash left behind
is ours to tidy: temp files beside the save and its backups are removed, and an
unfinished last journal record (never committed) is set aside into the backups folder
before the journal is cut back to its last whole record.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from tracker.core.model import Encounter

from . import fs, journal
from .lock import Lock, me
from .toml_store import (
    JournalLink,
    ModelFor,
    SaveError,
    backup_folder,
    link_of,
    load_encounter,
    save_encounter,
    stale_temp_names,
)


def open_for_writing(path: Path, model_for: ModelFor, lock: Lock,
                     took: str = "") -> tuple[Encounter, list[str]]:
    """Load ``path`` (its lock held) and make it ready to write; returns notices."""
    notices: list[str] = []
    for _ in range(3):
        enc = load_encounter(path, model_for)
        b = link_of(enc)
        if b is None:
            return enc, notices
        gone = _remove_temps(path, b)
        if gone:
            notices.append(f"{gone} temp file(s) left by a crash removed")
        if b.torn is not None and not set_aside(b.journal, b.torn, notices):
            continue  # the journal moved on while it was read: read it again
        if b.rolled:
            notices.append(f"{b.rolled} change(s) committed after the state was last "
                           "written were applied from the journal")
        break
    else:
        raise SaveError(path, "save", "the journal kept changing while it was opened")
    if took:
        if b.legacy:
            save_encounter(enc, path)
            b = link_of(enc)
        assert b is not None
        b.ensure_writer().append([("takeover", journal.json_fields(
            by=me(), how=took, at=time.strftime("%Y-%m-%d %H:%M:%S")))])
        notices.append(took)
    elif not b.legacy:
        b.ensure_writer()
    return enc, notices


def _remove_temps(path: Path, b: JournalLink) -> int:
    try:
        return stale_temp_names(path, b)
    except OSError:
        return 0


def set_aside(jpath: Path, torn: journal.Scan, notices: list[str]) -> bool:
    """Copy an unfinished last record into the backups folder and cut it off. False if
    the journal grew since it was read (another writer was still appending)."""
    f = fs.current()
    fd = fs.open_regular(jpath, os.O_RDWR)
    try:
        f.flock(fd, fcntl.LOCK_EX)
        size = f.fstat(fd).st_size
        if size != torn.size:
            return False
        cut = fs.pread_all(fd, size - torn.end.end, torn.end.end)
        folder = backup_folder(jpath)
        fs.ensure_folder(folder, ".tracker-backups")
        kept = folder / f"{jpath.name}.unfinished-{int(time.time())}"
        fs.write_atomic(kept, cut)
        f.ftruncate(fd, torn.end.end)
        f.fsync(fd)
    finally:
        f.close(fd)
    notices.append(f"an unfinished journal record left by a crash (never committed) was set "
                   f"aside in {kept}")
    return True
