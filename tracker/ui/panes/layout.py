"""Which panes a screen shows, and the panes for what joins the fight later.

A screen shows the combatants' table when the encounter has combatants or its ruleset is a
skirmish, and the units' roster when it has units or is a mass battle. What joins after
the screen was made (an army's units in a skirmish, a hero added to a battle) gets its
pane then, where the screen would have made it, instead of only at the next opening.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.app import App
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from tracker.core.model import Encounter
from tracker.rules.ruleset import Ruleset
from tracker.ui.panes.combatants import CombatantsPane
from tracker.ui.panes.pools import PoolsPane
from tracker.ui.panes.roster import RosterPane
from tracker.ui.panes.wounds import WoundsPane

LEFT = ("combatants", "roster")
"""The tables of the left column, in their order."""
RIGHT = ("pools", "wounds")
"""The panes above the log, in their order."""


def left_panes(ruleset: Ruleset, enc: Encounter) -> tuple[str, ...]:
    """The left column's tables: the combatants' for a skirmish or any combatant, the
    roster for a mass battle or any unit."""
    combatants = bool(enc.combatants) or ruleset.scale == "skirmish"
    units = bool(enc.units) or ruleset.scale == "mass"
    return ("combatants",) * combatants + ("roster",) * units


def pane_names(ruleset: Ruleset, enc: Encounter, fighters: bool | None = None
               ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The left column's tables, and the panes above the log: the pools and the wounds its
    ruleset keeps, where the screen shows ``fighters`` (None: wherever it shows the
    combatants' table)."""
    left = left_panes(ruleset, enc)
    shown = "combatants" in left if fighters is None else fighters
    return left, tuple(p for p in RIGHT if shown and p in ruleset.panes)


def body(left: Sequence[str], right: Sequence[str], make: Callable[[str], Widget],
         log: Widget, classes: str = "") -> Horizontal:
    """The two columns of a screen: the tables of ``left``, and the panes of ``right``
    above the log."""
    return Horizontal(
        Vertical(*map(make, left), id="left"),
        Vertical(*map(make, right), log, id="right"),
        id="body",
        classes=classes,
    )


def pane(name: str, ruleset: Ruleset, roster: type[RosterPane] = RosterPane) -> Widget:
    """The pane ``name`` (its id too): the combatants' table, the roster (a player view's
    own kind of it), the pools or the wounds."""
    if name == "combatants":
        return CombatantsPane(ruleset, id=name)
    if name == "roster":
        return roster(ruleset, id=name)
    return PoolsPane(id=name) if name == "pools" else WoundsPane(id=name)


def missing(app: App[Any], wanted: Sequence[str]) -> list[str]:
    """The panes of ``wanted`` the screen does not show yet."""
    return [pane for pane in wanted if not app.query(f"#{pane}")]


async def join(app: App[Any], left: Sequence[str], right: Sequence[str],
               make: Callable[[str], Widget]) -> bool:
    """Mount the panes of ``left`` and ``right`` (above the log) that the screen lacks,
    each where the screen's compose puts it; True when one was mounted."""
    joined = False
    column = app.query_one("#left")
    for pane in missing(app, left):
        after = [p for p in LEFT[: LEFT.index(pane)] if app.query(f"#{p}")]
        if after:
            await column.mount(make(pane), after=f"#{after[-1]}")
        else:
            await column.mount(make(pane), before=0 if column.children else None)
        joined = True
    for pane in missing(app, right):
        await app.query_one("#right").mount(make(pane), before="#log")
        joined = True
    return joined
