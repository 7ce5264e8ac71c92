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


@dataclass(frozen=True, slots=True)
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


def _orders(u: Any) -> str:
    return str(u.orders)


def _no_marks(u: Unit) -> list[str]:
    return []


@dataclass(frozen=True, slots=True)
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
    orders: Callable[[Any], str] = field(default=_orders)
    """A unit's orders as its state shows them (the words a pending mark already says
    left out)."""

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
        orders = self.orders(u)
        if orders:
            bits.append(orders)
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


CUT_SHORT = 8
"""The most cells a column of priority 1 or 2 takes when it cannot show whole: enough
to tell the sides apart, leaving room for narrower columns."""


def fit_columns(columns: Sequence[Column], widths: dict[str, int],
                room: int, padding: int = 2) -> tuple[list[Column], dict[str, int]]:
    """The columns that fit in ``room`` cells, and a width limit for any shown cut.

    ``widths`` holds each column's widest cell (its title included). Columns give way by
    priority, the highest number first (the rightmost of equals first); priority 0 never
    gives way. A column that gave way comes back if it fits once a wider one has gone;
    one of free text (priority 5 or more) that fits in part, at least 8 cells wide, is
    shown cut to the room left, so a wide terminal fills its width; one of priority 1 or
    2 (the side) is shown cut to as few as 3 cells rather than not at all. Where the
    columns that never give way are still too wide, the last one shown (the state) is
    cut to the room left, however little (its cut ends in "…"), rather than running past
    the pane's edge unmarked (past its own blank right edge alone, it stays whole).
    """
    order = list(columns)

    limits: dict[str, int] = {}

    def need(cols: list[Column]) -> int:
        return sum(limits.get(c.key, widths.get(c.key, len(c.title))) + padding for c in cols)

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
        left = room - need(shown) - padding
        if need([*shown, column]) <= room:
            shown = placed([*shown, column])
            gone.remove(column)
        elif column.priority <= 2 and left >= 3:
            # nearly as important as the name (the side): its first letters, not nothing
            shown = placed([*shown, column])
            gone.remove(column)
            limits[column.key] = min(left, CUT_SHORT)
    for column in reversed(gone):  # free text fills what is left of a wide terminal
        left = room - need(shown) - padding
        if column.priority >= 5 and left >= 8:
            shown = placed([*shown, column])
            limits[column.key] = left
            break
    over = need(shown) - room
    if over > padding // 2 and shown:  # past its blank right edge: the words are cut
        last = shown[-1]
        have = limits.get(last.key, widths.get(last.key, len(last.title)))
        limits[last.key] = max(have - (over - padding // 2), 1)  # up to that edge too
    return shown, limits
