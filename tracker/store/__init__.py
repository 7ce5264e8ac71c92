"""Saves: a checksummed TOML state and its journal, atomic writes, backups, the lock.

What other parts of the tracker build on (see each module's docstring for the formats):

- ``load_encounter`` / ``save_encounter``: read (and roll forward) or write a save.
- ``journal.records_after(path, position, enc_id)``: the records appended to a journal
  after a known position, verified (``save_info`` gives the position a state matches):
  a reader can follow a game as it is played without reading the whole save again;
  ``journal.read_after(path, offset)`` gives the log entries after a byte offset, and
  ``toml_store.read_marks`` a state's cursor and log head (what ``tracker.session.live`` follows).
- ``journal.entry_fields``: how a log entry is written (``LogEntry`` serialises itself,
  so a field added to ``LogEntry`` is written and read back with no change here).
- ``fs.read_regular``: read a file the GM names (an army list, a table) safely: no
  symbolic link, FIFO or device.
"""

from .journal import JournalChanged, JournalError, Position, Record, records_after
from .lock import Lock, LockHeld
from .toml_store import (
    SaveError,
    SaveInfo,
    Snapshot,
    load_encounter,
    save_encounter,
    save_info,
    snapshot,
    write_snapshot,
)

__all__ = ["JournalChanged", "JournalError", "Lock", "LockHeld", "Position", "Record",
           "SaveError", "SaveInfo", "Snapshot", "load_encounter", "records_after",
           "save_encounter", "save_info", "snapshot", "write_snapshot"]
