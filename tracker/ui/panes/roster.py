"""Unit roster: each side's units with strength, attacks, armour, hits and state.

``o`` cycles the sort, ``v`` cycles the filter (by side, then by state); the table
updates only changed cells, so hundreds of units stay readable and quick.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical

from tracker.core.model import Encounter, Unit
from tracker.core.turns import sides
from tracker.rules.base import Ruleset
from tracker.ui.table import Cell, Rows, SyncTable

SORTS = ("listed", "side", "name", "strength", "hits")
STATE_FILTERS = ("active", "hit", "confused", "routed", "engaged")


def unit_state(u: Unit) -> str:
    """What the GM must know of a unit; a removed unit is only removed (and the GM's notes)."""
    if u.removed:
        return ", ".join(["removed", *u.conditions])
    bits: list[str] = []
    if u.routed:
        bits.append("routed")
    if u.engaged:
        bits.append("engaged")
    if u.confused:
        bits.append("confused")
    if u.driven_back:
        bits.append(f"back {u.driven_back}")
    if u.position != "open":
        bits.append(u.position)
    if u.carried_hits:
        bits.append(f"+{u.carried_hits} to combat")
    if u.morale_test:
        bits.append("morale test")
    if u.orders:
        bits.append(u.orders)
    bits += u.conditions
    bits += [e.name for e in u.effects]
    return ", ".join(bits)


def _profile(u: Unit, describe: object) -> str:
    """The ruleset's one-line profile, without the unit's name (its own column has it)."""
    text = describe(u) if callable(describe) else u.kind
    prefix = f"{u.name}: "
    return text[len(prefix):] if text.startswith(prefix) else text


def _short(text: str, width: int) -> str:
    """Keep the roster's later columns (hits, state) on screen."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _matches(u: Unit, view: str) -> bool:
    if view == "all":
        return True
    if view.startswith("side:"):
        return u.side == view[5:]
    return {
        "active": u.active,
        "hit": u.hits > 0 or u.leftover_hits > 0,
        "confused": u.confused,
        "routed": u.routed or u.removed,
        "engaged": u.engaged,
    }.get(view, True)


class RosterPane(Vertical):
    """Every unit of every side."""

    BINDINGS = [
        Binding("o", "cycle_sort", "Sort", id="roster-sort"),
        Binding("v", "cycle_view", "Filter", id="roster-filter"),
    ]

    def __init__(self, ruleset: Ruleset, **kw: object) -> None:
        super().__init__(classes="pane", **kw)  # type: ignore[arg-type]
        self.ruleset = ruleset
        self.border_title = "Units"
        self.sort = "listed"
        self.view = "all"
        self._enc: Encounter | None = None

    def compose(self) -> ComposeResult:
        middle = (
            [("Profile", "profile")]
            if self.ruleset.unit_profile
            else [("Type", "kind"), ("Att", "attacks"), ("Arm", "armour")]
        )
        # what changes in play first, the unit's profile last: at 80 columns the roster
        # shows hits, leftover hits and state, and the profile is a scroll away
        yield SyncTable(
            [("Side", "side"), ("Unit", "name"), ("Str", "strength"), ("Hits", "hits"),
             ("Left", "leftover"), ("State", "state"), ("Cas", "casualties"), *middle],
            id="roster-table",
        )

    @property
    def table(self) -> SyncTable:
        return self.query_one(SyncTable)

    def views(self, enc: Encounter) -> list[str]:
        return ["all", *(f"side:{s}" for s in sides(enc)), *STATE_FILTERS]

    def rows(self, enc: Encounter) -> Rows:
        units = [u for u in enc.units if _matches(u, self.view)]
        key = {
            "side": lambda u: (u.side, u.name.lower()),
            "name": lambda u: u.name.lower(),
            "strength": lambda u: (-u.strength, u.name.lower()),
            "hits": lambda u: (-(u.hits + u.leftover_hits), u.name.lower()),
        }.get(self.sort)
        if key is not None:
            units.sort(key=key)  # type: ignore[arg-type]
        return Rows([u.id for u in units], lambda i: self.cells(units[i]))

    def cells(self, u: Unit) -> list[Cell]:
        style = "dim" if not u.active else ("bold" if u.hits or u.leftover_hits else "")
        armour = f"{u.armour}+" if u.armour else "-"
        describe = self.ruleset.describe_unit
        middle = (
            [_short(_profile(u, describe), 34)]
            if self.ruleset.unit_profile
            else [u.kind, u.attacks, armour]
        )
        return [u.side[:10], Text(u.name[:18], style=style), f"{u.strength}/{u.strength_start}",
                str(u.hits or ""), str(u.leftover_hits or ""), unit_state(u),
                str(u.casualties_total or ""), *middle]

    def refresh_from(self, enc: Encounter, units: set[str] | None = None) -> None:
        """Show ``enc``; ``units``, when known, are the only ones changed since the last
        refresh."""
        self._enc = enc
        self.table.sync(self.rows(enc), only=units)
        shown = self.table.total
        active = sum(1 for u in enc.units if u.active)
        view = "" if self.view == "all" else f" · {self.view}"
        sort = "" if self.sort == "listed" else f" · by {self.sort}"
        self.border_subtitle = f"{shown} shown, {active} in play{view}{sort}"

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        if self._enc is not None:
            self.refresh_from(self._enc)
        self.notify(f"roster sorted by {self.sort}", timeout=2)

    def action_cycle_view(self) -> None:
        if self._enc is None:
            return
        views = self.views(self._enc)
        i = views.index(self.view) if self.view in views else 0
        self.view = views[(i + 1) % len(views)]
        self.refresh_from(self._enc)
        self.notify(f"roster shows: {self.view}", timeout=2)
