"""What a ruleset shows of its units in the roster: columns, state words, filters, sorts.

The roster pane (Textual) draws what a :class:`Roster` describes; the ruleset, which owns
its unit model, says which columns there are, in which order, and which it gives up first
on a narrow screen (``priority``: 0 always shows; higher numbers go first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tracker.core.model import Unit

UnitText = Callable[[Any], str]
UnitTest = Callable[[Any], bool]


@dataclass(frozen=True)
class Column:
    """One roster column: its title, its cell text, and how readily it gives way."""

    title: str
    key: str
    value: UnitText
    priority: int = 5
    """0: always shown (name, strength, state); higher numbers give up first."""


def _side(u: Unit) -> str:
    return u.side


def _name(u: Unit) -> str:
    return u.name


def _strength(u: Unit) -> str:
    return f"{u.strength}/{u.strength_start}"


def _casualties(u: Unit) -> str:
    return str(u.casualties_total or "")


def _kind(u: Unit) -> str:
    return u.kind


SIDE = Column("Side", "side", _side, priority=2)
NAME = Column("Unit", "name", _name, priority=0)
STRENGTH = Column("Str", "strength", _strength, priority=0)
STATE = Column("State", "state", lambda u: "", priority=0)
"""Filled by :meth:`Roster.state`."""
CASUALTIES = Column("Cas", "casualties", _casualties, priority=3)
KIND = Column("Type", "kind", _kind, priority=6)
PROFILE = Column("Profile", "profile", _kind, priority=6)
"""The ruleset's one-line profile (``describe_unit``), without the unit's name."""


def _no_marks(u: Unit) -> list[str]:
    return []


@dataclass(frozen=True)
class Roster:
    """A ruleset's roster: its columns in order, its state words, filters and sorts."""

    columns: tuple[Column, ...] = (SIDE, NAME, STRENGTH, STATE, CASUALTIES, KIND)
    marks: Callable[[Any], list[str]] = _no_marks
    """The ruleset's own words for a unit's state ("confused", "back 7"), placed after
    routed and engaged."""
    filters: Sequence[tuple[str, UnitTest]] = ()
    """Extra filters, offered after "active" ("hit", "confused")."""
    sorts: Sequence[tuple[str, Callable[[Any], Any]]] = ()
    """Extra sorts, offered after "strength" ("hits")."""
    emphasis: UnitTest | None = None
    """A unit drawn in bold (it has hits to deal with)."""
    pending: Callable[[Any], list[str]] = field(default=_no_marks)
    """Duties a unit still has this phase ("drive back", "morale test")."""

    def state(self, u: Unit) -> str:
        """What the GM must know of a unit; a removed unit is only removed (and the GM's
        notes)."""
        if u.removed:
            return ", ".join(["removed", *u.conditions])
        bits: list[str] = []
        if u.routed:
            bits.append("routed")
        if u.engaged:
            bits.append("engaged")
        bits += self.marks(u)
        if u.morale_test:
            bits.append("morale test")
        if u.orders:
            bits.append(u.orders)
        bits += u.conditions
        bits += [e.name for e in u.effects]
        return ", ".join(bits)

    def cell(self, column: Column, u: Unit, describe: UnitText | None = None) -> str:
        if column is STATE:
            return self.state(u)
        if column is PROFILE and describe is not None:
            text = describe(u)
            prefix = f"{u.name}: "
            return text[len(prefix):] if text.startswith(prefix) else text
        return column.value(u)


PROFILE_ROSTER = Roster(columns=(SIDE, NAME, STRENGTH, STATE, CASUALTIES, PROFILE))
"""For games whose units are best read from the ruleset's own profile line."""


def fit_columns(columns: Sequence[Column], widths: dict[str, int],
                room: int, padding: int = 2) -> tuple[list[Column], dict[str, int]]:
    """The columns that fit in ``room`` cells, and a width limit for any shown cut.

    ``widths`` holds each column's widest cell (its title included). Columns give way by
    priority, the highest number first (the rightmost of equals first); priority 0 never
    gives way. A column that gave way comes back if it fits once a wider one has gone;
    one of free text (priority 5 or more) that fits in part, at least 8 cells wide, is
    shown cut to the room left, so a wide terminal fills its width.
    """
    order = list(columns)

    def need(cols: list[Column]) -> int:
        return sum(widths.get(c.key, len(c.title)) + padding for c in cols)

    def placed(cols: list[Column]) -> list[Column]:
        return [c for c in order if c in cols]

    giving = sorted((c for c in order if c.priority > 0),
                    key=lambda c: (-c.priority, -order.index(c)))
    shown = list(order)
    gone: list[Column] = []
    for column in giving:
        if need(shown) <= room:
            break
        shown.remove(column)
        gone.append(column)
    for column in reversed(gone):  # the most important first
        if need([*shown, column]) <= room:
            shown = placed([*shown, column])
            gone.remove(column)
    limits: dict[str, int] = {}
    for column in reversed(gone):
        left = room - need(shown) - padding
        if column.priority >= 5 and left >= 8:
            shown = placed([*shown, column])
            limits[column.key] = left
            break
    return shown, limits
