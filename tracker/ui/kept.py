"""Dialogs kept between openings, so that opening one again draws at once.

Textual builds, styles and lays out every widget of a screen each time a new one is
pushed; that is most of the time from a key to a dialog's first screen. A kept dialog is
installed once and, at its next opening, takes the new content from a screen built for
it (never mounted) instead: its values, title and result handler are refreshed and
nothing is composed. A dialog whose fields differ (an edit form for a unit with other
further fields) is kept beside it, a few under one name.

Once the app's first screen is drawn, ``prepare`` imports what every dialog's first
opening would otherwise import with the key: the dialog modules. Their stylesheet is
one of the app's own (``STYLESHEETS``, in ``TrackerApp.CSS_PATH``), parsed with the
app's at start: a dialog's first opening then neither parses it nor restyles the app.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen

from tracker.ui.errors import log_unexpected

SCREENS = Path(__file__).parent / "screens"
STYLESHEETS = (SCREENS / "dialogs.tcss",)
"""The dialogs' stylesheets, which the app loads with its own."""
MODULES = ("tracker.ui.screens.condition", "tracker.ui.screens.confirm", "tracker.ui.screens.dice",
           "tracker.ui.screens.edit", "tracker.ui.screens.help",
           "tracker.ui.screens.picker", "tracker.ui.screens.points", "tracker.ui.screens.resolve")


KEEP = 6
"""Dialogs kept under one name: an edit form for each kind of unit whose further fields
differ (one a kind a GM edits), the least recently used put away first."""


class KeptDialogs:
    """The app's kept dialogs, by name ("help", "settings", "edit unit" ...)."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.kept: dict[str, list[Screen[Any]]] = {}
        self.reused = 0
        """Openings that reused a kept dialog (the tests read it)."""

    def show(self, name: str, fresh: Screen[Any],
             callback: Callable[[Any], None] | None = None) -> Screen[Any]:
        """Push a dialog kept under ``name`` that can show ``fresh``'s content, renewed
        from it; or ``fresh`` itself, kept from now on. A kept screen's ``renew(fresh)``
        takes the content, or answers False when it cannot show it (other fields)."""
        app = self.app
        kept = self.kept.setdefault(name, [])
        for old in kept:
            if old in app.screen_stack or type(old) is not type(fresh):
                continue  # open already (the palette can ask for a dialog from inside it)
            renew: Callable[[Any], bool] | None = getattr(old, "renew", None)
            if renew is not None and renew(fresh):
                kept.remove(old)
                kept.append(old)  # the most recently used last
                self.reused += 1
                app.push_screen(old, callback)
                return old
        kept.append(fresh)
        app.install_screen(fresh, f"kept-{name}-{id(fresh)}")
        app.push_screen(fresh, callback)
        if len(kept) > KEEP:
            # put away after the new dialog is drawn, not while it is being drawn
            app.call_after_refresh(self._put_away, kept.pop(0))
        return fresh

    def _put_away(self, old: Screen[Any]) -> None:
        self.app.uninstall_screen(old)
        if old.is_attached and old not in self.app.screen_stack:
            old.remove()


def prepare() -> None:
    """Import the dialog modules while the app is idle, so a dialog's first opening
    does not import them with the key. A failure is logged and changes nothing: the
    first opening imports them itself."""
    try:
        for module in MODULES:
            importlib.import_module(module)
    except Exception as exc:
        log_unexpected(exc, "preparing the dialogs")
