"""Dialogs kept between openings, so that opening one again draws at once.

Textual builds, styles and lays out every widget of a screen each time a new one is
pushed; that is most of the time from a key to a dialog's first screen. A kept dialog is
installed once and, at its next opening, takes the new content from a screen built for
it (never mounted) instead: its values, title and result handler are refreshed and
nothing is composed. A dialog whose fields differ (an edit form for a unit of another
kind) is replaced by the new one, which is kept in its turn.

Once the app's first screen is drawn, ``prepare`` loads what every dialog's first
opening would otherwise load with the key: the dialog modules and their stylesheet,
parsed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from textual.app import App
from textual.screen import Screen

from tracker.ui.errors import log_unexpected

SCREENS = Path(__file__).parent / "screens"
STYLESHEETS = (SCREENS / "dialogs.tcss",)
MODULES = ("tracker.ui.screens.confirm", "tracker.ui.screens.dice",
           "tracker.ui.screens.edit", "tracker.ui.screens.help",
           "tracker.ui.screens.picker", "tracker.ui.screens.resolve")


class Renewable(Protocol):
    def renew(self, fresh: Any) -> bool:
        """Take ``fresh``'s content (a screen of the same class, never mounted); False
        when this screen cannot show it (other fields), so ``fresh`` is used instead."""
        ...


class KeptDialogs:
    """The app's kept dialogs, by name ("help", "settings", "add unit" ...)."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.kept: dict[str, Screen[Any]] = {}
        self.reused = 0
        """Openings that reused a kept dialog (the tests and the bench read it)."""

    def show(self, name: str, fresh: Screen[Any],
             callback: Callable[[Any], None] | None = None) -> Screen[Any]:
        """Push the dialog kept under ``name``, renewed from ``fresh``; or ``fresh``
        itself, kept from now on, when there is none or it cannot take the content."""
        app = self.app
        old = self.kept.get(name)
        if old is not None and old not in app.screen_stack:
            renew: Callable[[Any], bool] | None = getattr(old, "renew", None)
            if type(old) is type(fresh) and renew is not None and renew(fresh):
                self.reused += 1
                app.push_screen(old, callback)
                return old
            self.drop(name)
        elif old is not None:
            # already open (the palette can ask for a dialog from inside it): a new one,
            # not kept
            app.push_screen(fresh, callback)
            return fresh
        self.kept[name] = fresh
        app.install_screen(fresh, f"kept-{name}")
        app.push_screen(fresh, callback)
        return fresh

    def drop(self, name: str) -> None:
        """Forget a kept dialog (it is removed unless it is open)."""
        old = self.kept.pop(name, None)
        if old is None:
            return
        self.app.uninstall_screen(old)
        if old.is_attached and old not in self.app.screen_stack:
            old.remove()


def prepare(app: App[Any]) -> None:
    """Load the dialog modules and the dialogs' stylesheet while the app is idle, so a
    dialog's first opening does not parse them and restyle the whole app with the key.
    A failure is logged and changes nothing: the first opening loads them itself."""
    try:
        _prepare(app)
    except Exception as exc:
        log_unexpected(exc, "preparing the dialogs")


def _prepare(app: App[Any]) -> None:
    for module in MODULES:
        importlib.import_module(module)
    sheet = app.stylesheet
    for path in STYLESHEETS:
        if not sheet.has_source(str(path), ""):
            sheet.read(path)
    # parsed now, not at the first dialog's key; the app's widgets are not styled again
    # (Textual does it when a screen brings a new stylesheet): no rule of the dialogs'
    # stylesheet names a widget, class or id of the main screen
    _ = sheet.rules_map  # reading it parses what was added
