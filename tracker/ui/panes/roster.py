"""Unit roster: each side's units with strength, attacks, armour, hits and state.

``o`` cycles the sort, ``v`` cycles the filter (by side, then by state); the table
updates only changed cells, so hundreds of units stay readable and quick. The side shows
in its colour, as a tag where its name does not fit (the title names the tags); the line
under the table says the whole of the unit under the cursor, with how long each effect
lasts.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from tracker.core.model import Encounter, Unit
from tracker.core.turns import sides
from tracker.rules.columns import SIDE, STATE, Roster, UnitTest, UnitText
from tracker.rules.ruleset import Ruleset
from tracker.ui import prefs
from tracker.ui.grid import Cell, Rows
from tracker.ui.sides import SideMarks
from tracker.ui.table import SyncTable

SORTS = ("listed", "side", "name", "strength")
STATE_FILTERS = ("active", "routed", "engaged")


def unit_state(u: Unit, ruleset: Ruleset | None = None) -> str:
    """What the GM must know of a unit, in the words of its ruleset."""
    roster = ruleset.roster if ruleset is not None else Roster()
    return roster.state(u)


def _matches(u: Unit, view: str, roster: Roster) -> bool:
    if view == "all":
        return True
    if view.startswith("side:"):
        return u.side == view[5:]
    tests: dict[str, UnitTest] = {
        "active": lambda u: u.active, **dict(roster.filters),
        "routed": lambda u: u.routed or u.removed, "engaged": lambda u: u.engaged}
    test = tests.get(view)
    return True if test is None else bool(test(u))


class RosterPane(Vertical):
    """Every unit of every side."""

    BINDINGS = [  # in `?` help; the GM's key bar at 80 columns keeps its room for n, f, u, ?
        Binding("o", "cycle_sort", "Sort", id="roster-sort", show=False),
        Binding("v", "cycle_view", "Filter", id="roster-filter", show=False),
    ]

    def __init__(self, ruleset: Ruleset, **kw: object) -> None:
        super().__init__(classes="pane", **kw)  # type: ignore[arg-type]
        self.ruleset = ruleset
        self.border_title = "Units"
        self.sort = prefs.of(self.app).get("roster_sort") or "listed"
        self.view = prefs.of(self.app).get("roster_filter") or "all"
        self._enc: Encounter | None = None
        self._profile: UnitText | None = None
        self._settings: dict[str, Any] = {}
        self._marks: dict[str, list[str]] = {}
        keys = [c.key for c in ruleset.roster.columns]
        self._name_at = keys.index("name")
        self._side_at = keys.index("side") if SIDE in ruleset.roster.columns else None
        self._sides: SideMarks | None = None

    @property
    def roster(self) -> Roster:
        return self.ruleset.roster

    def compose(self) -> ComposeResult:
        yield SyncTable(self.roster.columns, id="roster-table")
        yield Static(id="unit-detail", classes="detail", markup=False)

    def _read_settings(self) -> bool:
        """Take the encounter's settings as its domains read them (a Warlord profile
        sheet in the save's folder), for the ruleset's profile line; True where they
        changed since the last refresh (every row's profile is then made anew)."""
        describe = self.ruleset.describe_unit
        if describe is None:
            return False
        session = getattr(self.app, "session", None)  # the GM's screen or a player view
        settings = session.domain_settings() if session is not None else {}
        if self._profile is not None and settings == self._settings:
            return False
        self._settings = settings
        self._profile = partial(describe, settings=settings)
        return True

    def _texts(self, u: Unit) -> list[str]:
        roster = self.roster
        describe = self._profile
        out: list[str] = []
        for column in roster.columns:
            text = roster.cell(column, u, describe)
            if column is STATE and self._marks.get(u.id):
                marks = self._marks[u.id]
                # a duty the sequence names and the unit's own flag say one thing once
                own = [bit for bit in text.split(", ") if bit and bit not in marks]
                text = ", ".join([*marks, *own])
            out.append(text)
        return out

    @property
    def table(self) -> SyncTable:
        return self.query_one(SyncTable)

    def views(self, enc: Encounter) -> list[str]:
        extra = [name for name, _ in self.roster.filters]
        return ["all", *(f"side:{s}" for s in sides(enc)), "active", *extra, "routed", "engaged"]

    def sorts(self) -> tuple[str, ...]:
        return (*SORTS, *(name for name, _ in self.roster.sorts))

    def rows(self, enc: Encounter) -> Rows:
        units = [u for u in enc.units if _matches(u, self.view, self.roster)]
        key = {
            "side": lambda u: (u.side, u.name.lower()),
            "name": lambda u: u.name.lower(),
            "strength": lambda u: (-u.strength, u.name.lower()),
            **dict(self.roster.sorts),
        }.get(self.sort)
        if key is not None:
            units.sort(key=key)
        return Rows([u.id for u in units], lambda i: self.cells(units[i]))

    def cells(self, u: Unit) -> list[Cell]:
        """A unit's cells in the roster's columns; its name dim once out of play, bold
        when the ruleset marks it."""
        roster = self.roster
        emphasis = roster.emphasis is not None and roster.emphasis(u)
        style = "dim" if not u.active else ("bold" if emphasis else "")
        texts = self._texts(u)
        cells: list[Cell] = list(texts)
        if style:
            cells[self._name_at] = Text(texts[self._name_at], style=style)
        if self._side_at is not None and self._sides is not None:
            cells[self._side_at] = self._sides.whole(u.side)
        return cells

    def detail(self, u: Unit) -> Text:
        """The whole of a unit: its side, strength and state, each effect with how long
        it lasts, and the GM's notes."""
        enc = self._enc
        names = {w.id: w.name for w in enc.everyone} if enc is not None else {}
        state = self._texts(u)[[c.key for c in self.roster.columns].index("state")]
        effects = [e.name for e in u.effects]
        bits = [b for b in state.split(", ") if b]
        for name in effects:  # said again below with how long each lasts
            if name in bits:
                bits.remove(name)
        parts = [f"{u.strength}/{u.strength_start}", *([", ".join(bits)] if bits else [])]
        marks = self._sides or SideMarks(self.app, [u.side])
        return marks.detail(u, parts, names)

    def show_detail(self, key: str | None) -> None:
        enc = self._enc
        who = next((u for u in enc.units if u.id == key), None) if enc and key else None
        self.query_one("#unit-detail", Static).update(self.detail(who) if who else "")

    def on_sync_table_row_highlighted(self, event: SyncTable.RowHighlighted) -> None:
        self.show_detail(event.key)

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._recolour, init=False)

    def _recolour(self) -> None:
        """A new theme: the sides, their tags in the title and the detail line in its
        colours."""
        if self._enc is None:
            return
        self._mark_sides(self._enc, anew=True)
        self.table.restyle(self.rows(self._enc))
        self.show_detail(self.table.selected_key)
        self._title()

    def _mark_sides(self, enc: Encounter, anew: bool = False) -> bool:
        """Colour each side (``anew``: in the theme as it is now), and give the table
        its tags for a narrow screen; True if the sides changed (every row is made
        again)."""
        known = sides(enc)
        if not anew and self._sides is not None and self._sides.sides == known:
            return False
        self._sides = SideMarks(self.app, known)
        if self._side_at is not None:
            if self.table.grid.shorten("side", dict(self._sides.short())):
                self.table.refit()
        return True

    def refresh_from(self, enc: Encounter, units: set[str] | None = None,
                     marks: dict[str, list[str]] | None = None) -> None:
        """Show ``enc``; ``units``, when known, are the only ones changed since the last
        refresh. ``marks`` are the sequence's words for a unit (shot, a duty pending)."""
        self._enc = enc
        if self._read_settings():
            units = None
        if self.view not in self.views(enc):  # a side kept from another encounter
            self.view = "all"
        if self.sort not in self.sorts():
            self.sort = "listed"
        marks = marks or {}
        if units is not None and marks != self._marks:
            units = units | {k for k in marks.keys() | self._marks.keys()
                             if marks.get(k) != self._marks.get(k)}
        self._marks = marks
        if self._mark_sides(enc):
            units = None
        table = self.table
        table.sync(self.rows(enc), only=units)
        self.show_detail(table.selected_key)
        self._title()
        shown = table.row_count
        active = sum(1 for u in enc.units if u.active)
        view = "" if self.view == "all" else f" · {self.view}"
        sort = "" if self.sort == "listed" else f" · by {self.sort}"
        self.border_subtitle = f"{shown} shown, {active} in play{view}{sort}"

    def _title(self) -> None:
        """"Units", and each side's tag while the tags stand for the sides."""
        title = Text("Units")
        grid = self.table.grid
        if self._sides is not None and any(i in grid.shortened for i in grid.shown):
            title.append(" · ")
            title.append_text(self._sides.legend())
        self.border_title = title

    def on_resize(self) -> None:
        self.call_after_refresh(self._title)

    def action_cycle_sort(self) -> None:
        sorts = self.sorts()
        i = sorts.index(self.sort) if self.sort in sorts else 0
        self.sort = sorts[(i + 1) % len(sorts)]
        if self._enc is not None:
            self.refresh_from(self._enc, marks=self._marks)
        prefs.of(self.app).remember(roster_sort=self.sort)  # the subtitle says the sort

    def action_cycle_view(self) -> None:
        if self._enc is None:
            return
        views = self.views(self._enc)
        i = views.index(self.view) if self.view in views else 0
        self.view = views[(i + 1) % len(views)]
        self.refresh_from(self._enc, marks=self._marks)
        prefs.of(self.app).remember(roster_filter=self.view)  # and the filter


class ViewRosterPane(RosterPane):
    """The roster of a player view, whose key bar has room for its sort and filter keys."""

    BINDINGS = [
        Binding("o", "cycle_sort", "Sort", id="view-roster-sort"),
        Binding("v", "cycle_view", "Filter", id="view-roster-filter"),
    ]
