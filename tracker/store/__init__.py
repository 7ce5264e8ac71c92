"""TOML saves: load/save with schema and migration, atomic writes, backups, the lock."""

from .lock import Lock, LockHeld
from .toml_store import (
           SaveError,
           Snapshot,
           load_encounter,
           save_encounter,
           snapshot,
           write_snapshot,
)

__all__ = ["Lock", "LockHeld", "SaveError", "Snapshot", "load_encounter", "save_encounter",
           "snapshot", "write_snapshot"]
