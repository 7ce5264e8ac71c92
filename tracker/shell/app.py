"""The app from the shell: ``tracker [FILE]`` opens it, ``tracker watch`` the player view."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracker.session.opening import default_save, load, open_encounter, working_copy
from tracker.shell.errors import UsageError
from tracker.store import SaveError
from tracker.ui.app import run_app, run_watch


def cmd_open(ns: argparse.Namespace) -> int:
    notice = ""
    if ns.file:
        path, notice = working_copy(Path(ns.file))
    else:
        try:
            path = default_save()
        except FileNotFoundError as exc:
            raise UsageError(str(exc)) from None
    try:  # a bad file is reported here, before the screen opens, and loaded only once
        if ns.take_over and not ns.read_only:
            print(f"asking whoever writes {path.name} to save and let go ...", file=sys.stderr)
        opened = open_encounter(path, read_only=ns.read_only,
                                take_over=ns.take_over and not ns.read_only)
    except SaveError as exc:
        raise UsageError(str(exc)) from None
    return run_app(opened, theme=ns.theme, notice=notice)


def open_new(path: Path, theme: str | None) -> int:
    """Open an encounter ``tracker new`` has just made."""
    return run_app(open_encounter(path), theme=theme)


def cmd_watch(ns: argparse.Namespace) -> int:
    try:
        load(ns.file)
    except SaveError as exc:
        raise UsageError(str(exc)) from None
    return run_watch(Path(ns.file), theme=ns.theme, side=ns.side, public=ns.public)
