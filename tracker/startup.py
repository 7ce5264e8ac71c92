"""Start-up: what makes the first screen come sooner, all in one place.

Each trick is counted in instructions (valgrind's callgrind, as ``python -m
bench.instructions`` counts: from the interpreter's start to the first screen of the
sample Warmaster battle at 120x40, 2,015 M with every trick; the same start counts the
same within 0.2 %), against the same checkout without it:

- **The shell's commands load what they use** (:func:`command`). ``tracker`` reads its
  arguments, then imports the one module of ``tracker.shell`` that carries out the
  command asked for: ``tracker resolve`` loads neither argparse, nor Textual, nor
  pydantic, nor the store (``tracker resolve warmaster shoot``, whole: 320 M, against
  997 M with the other commands' modules loaded); ``tracker exec`` loads no Textual.
  Every module imports what it uses at its top.
- **The collector waits while the app is made** (:func:`collector_held`, then
  :func:`app_made`): start-up makes many objects that live as long as the app (modules,
  the encounter's models, the widgets) and hardly any garbage, and each full collection
  would scan them all again. The collector is off from the import of the app's modules
  until the app is made; what was made is then frozen out of its generations, and again
  once the first screen is up and the dialogs are loaded (:func:`first_screen_shown`), so
  a full collection does not land on a GM's first keys: 25 M off the start.
- **What the first screen does not show loads after it** (:func:`lazy`, and
  :func:`first_screen_shown`): the typed commands (``tracker.session.commands``, some
  twenty dataclasses), what saving tells the GM (``tracker.session.save_news``), the
  dialogs (the forms, the action dialog and its dice step, the confirmations, the help,
  the report screen, the pick lists), the player view and the army readers load right
  after the first screen, while the GM looks at it, or when first used: 286 M off the
  start (2,264 M with each imported where it is named).
- **An action's module loads what resolving needs; the rest on first use** (:func:`lazy`,
  in an ``else`` beside the module's ``if TYPE_CHECKING`` imports, so mypy reads the real
  module; a ruleset's ``later.py`` holds those its modules share): the odds (icepool),
  the encounter models (pydantic) and the rulesets' big tables (edc, harn) and Warlord's
  profile sheet load when an odds, fill, apply or roster function first asks for them,
  not when ``tracker resolve`` imports the action. Counted on importing Warmaster's shoot
  action (683 M): the models at its top 162 M more, icepool 101 M, edc's tables 91 M.
  The tests of each ruleset's ``tracker resolve`` hold it to that
  (``test_resolve_loads_only_the_action_it_runs``).
- **``tracker FILE`` builds no parser** (``tracker.shell.parser.plain_open``): the app
  opened on a file, or on the most recent encounter, with no option, is read without
  building argparse's parser of every command and option: 17 M off the start (a test
  holds that reading to the parser's).

The table server's zygote (:func:`preloaded`) imports what every session runs once, then
freezes it out of the collector, so the sessions it forks share those pages: 3 MiB PSS a
viewer with 50 viewers (``python -m bench.ssh``).

Elsewhere every module imports what it uses at its top (a test walks the code for
imports inside functions: only this module has them).
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any


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


def first_screen_shown(modules: Iterable[str], prepare: Callable[[], object]) -> None:
    """The first screen is up: import ``modules`` and ``prepare`` what a dialog's first
    opening would load, then freeze what the first screen and the dialogs made, as
    :func:`app_made` did."""
    for name in modules:
        importlib.import_module(name)
    prepare()
    gc.freeze()


def preloaded() -> None:
    """The table server's zygote has imported what its sessions run: one collection now,
    then everything out of the collector's generations, so that a forked session never
    collects those objects (a collection writes to each object it scans, which would copy
    the zygote's pages into every session instead of sharing them)."""
    gc.collect()
    gc.freeze()


class Later(ModuleType):
    """A module imported when one of its names is first read."""

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module(self.__name__), name)


def lazy(name: str) -> ModuleType:
    """The module ``name``, imported when one of its names is first read (or when
    anything imports it)."""
    return sys.modules.get(name) or Later(name)
