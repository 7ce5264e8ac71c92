"""Where saves live: the platform data folder unless the GM gives a path."""

from __future__ import annotations

import os
import re
import stat
from importlib.resources import files
from pathlib import Path

from platformdirs import user_data_dir

from . import fs

APP = "tracker"


def data_dir() -> Path:
    """The folder for the GM's encounters (``TRACKER_HOME`` overrides it)."""
    override = os.environ.get("TRACKER_HOME")
    if override:
        return Path(override).expanduser()
    return Path(user_data_dir(APP, appauthor=False))


def encounters_dir() -> Path:
    """The encounters folder, made (with the data folder and any missing parent) 0700."""
    folder = data_dir() / "encounters"
    fs.make_folders(folder)
    return folder


NOT_ENCOUNTERS = ("bestiary.toml",)
"""TOML files beside the encounters that are not encounters (the creatures ``add`` takes)."""


def encounter_files(folder: Path) -> list[Path]:
    """The encounters of a folder (its ``*.toml`` files but a bestiary), by name."""
    return sorted(p for p in folder.glob("*.toml") if p.name not in NOT_ENCOUNTERS)


def list_saves(folder: Path | None = None) -> list[Path]:
    """Saves in the folder, most recently changed first."""
    folder = folder or encounters_dir()
    saves = [p for p in encounter_files(folder) if p.is_file()]
    return sorted(saves, key=lambda p: p.stat().st_mtime, reverse=True)


def save_path_for(name: str) -> Path:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower() or "encounter"
    return encounters_dir() / f"{stem}.toml"


def shipped(folder: str) -> Path | None:
    """A folder that ships inside the package (``themes``, ``saves``), found as Python
    finds the package's files: in the installed wheel, or in the clone for an editable
    install. None when the install lacks it (or is a zip, which has no folders)."""
    try:
        found = files(f"tracker.shipped.{folder}")
    except ModuleNotFoundError:
        return None
    return found if isinstance(found, Path) and found.is_dir() else None


def samples_dir() -> Path | None:
    """The shipped samples (``saves/``; their army lists in its ``armies/``)."""
    return shipped("saves")


def themes_dir() -> Path | None:
    """The shipped colour themes (``themes/``)."""
    return shipped("themes")


def safe_child(folder: Path, name: str) -> Path:
    """A file named in a save, inside ``folder``, checked before anything opens it: a path
    that escapes the folder, goes through a symbolic link, or is not a regular file (a
    FIFO, a device, a folder) is refused with ValueError."""
    base = folder.resolve()
    candidate = (base / name).resolve()
    if base not in candidate.parents:
        raise ValueError(f"'{name}' points outside {folder}")
    walk = base
    for part in Path(name).parts:
        walk = walk / part
        try:
            st = walk.lstat()
        except FileNotFoundError:
            return candidate  # not there: whoever opens it says so
        except OSError as exc:
            raise ValueError(f"'{name}': {exc.strerror}") from None
        if stat.S_ISLNK(st.st_mode):
            raise ValueError(f"'{name}' is a symbolic link (refused)")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"'{name}' is not a regular file")
    return candidate
