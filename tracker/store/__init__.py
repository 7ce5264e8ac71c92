"""TOML saves: load/save with schema and migration, atomic writes, backups, the lock."""

from .lock import Lock, LockHeld
from .toml_store import SaveError, dump_encounter, load_encounter, save_encounter

__all__ = ["Lock", "LockHeld", "SaveError", "dump_encounter", "load_encounter", "save_encounter"]
