"""Start-up: what makes the first screen come sooner, all in one place.

Each trick here is counted in instructions (``python -m bench.instructions``: valgrind's
callgrind, from the interpreter's start to the first screen of the sample Warmaster
battle at 120x40; the same start counts the same within 0.2 %). Without it, the start
counts this many instructions more:

- **The shell's commands load what they use** (:func:`command`). ``tracker`` reads its
  arguments, then imports the one module of ``tracker.shell`` that carries out the
  command asked for: ``tracker resolve`` loads neither argparse, nor Textual, nor the
  store; ``tracker exec`` no Textual. Every module imports what it uses at its top.
- **The collector waits while the app is made** (:func:`collector_held`, then
  :func:`app_made`): start-up makes many objects that live as long as the app (modules,
  the encounter's models, the widgets) and hardly any garbage, and each full collection
  would scan them all again. The collector is off until the app is made; what was made
  is then frozen out of its generations, and again once the first screen is up and the
  dialogs are loaded (:func:`first_screen_shown`), so a full collection never lands on a
  GM's key: {GC} M.
- **What the first screen does not show loads after it** (:func:`lazy`, and
  ``tracker.ui.kept.MODULES`` in :func:`first_screen_shown`): the dialogs (the forms, the
  action dialog and its dice step, the report screen, the pick lists) and the player view
  load when first used, or right after the first screen, while the GM looks at it:
  {LAZY} M.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App


def command(where: str) -> Callable[..., int]:
    """The function ``module:function`` names, its module imported now (only the
    command run is imported)."""
    module, _, name = where.partition(":")
    found: Callable[..., int] = getattr(importlib.import_module(module), name)
    return found


@contextmanager
def collector_held(hold: bool = True) -> Iterator[None]:
    """No garbage collection while the app is made, from the import of its modules on
    (:func:`app_made` lets it go on); ``hold=False``: no change."""
    if not hold:
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def app_made() -> None:
    """The app is made: what was made so far lives as long as it; out of the collector's
    way, and the collector goes on."""
    gc.freeze()
    gc.enable()


def first_screen_shown(app: App[Any]) -> None:
    """The first screen is up: load the typed commands and what a dialog's first opening
    would (its modules and stylesheet), then freeze what the first screen and the dialogs made, as
    :func:`app_made` did."""
    from tracker.ui.kept import prepare  # the dialogs' preparation: Textual, after start

    importlib.import_module("tracker.session.commands")
    prepare(app)
    gc.freeze()


class Later(ModuleType):
    """A module imported when one of its names is first read."""

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module(self.__name__), name)


def lazy(name: str) -> ModuleType:
    """The module ``name``, imported when one of its names is first read (or when
    anything imports it)."""
    return sys.modules.get(name) or Later(name)
