"""The player view: a read-only window on an encounter another tracker is running.

A worker thread follows the save as the GM's tracker appends to it (see
``tracker.session.live``) and makes the view there (``Session.player_view``); the UI
thread only draws it, and only when the view changed: a change the view may not show
draws nothing. What it may show: for one side (``--side``), for a spectator
(``--public``), or for a shared table screen (every side but the save's ``gm_side``).
The view never takes the lock and never writes: its roster's sort and filter and its
theme are its own (kept in memory), and it has no command palette (no screenshots).
"""

from __future__ import annotations

import time
from pathlib import Path

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from tracker.core.model import Encounter
from tracker.core.turns import current_actor
from tracker.core.words import possessive
from tracker.session.live import Follower
from tracker.session.opening import load
from tracker.session.redaction import HIDDEN_TURN, FieldRule, table_sides
from tracker.session.session import Session
from tracker.store import SaveError
from tracker.ui.errors import draw_or_report, log_unexpected
from tracker.ui.footer import KeyFooter
from tracker.ui.panes import layout
from tracker.ui.panes.combatants import CombatantsPane
from tracker.ui.panes.log import LogPane
from tracker.ui.panes.pools import PoolsPane
from tracker.ui.panes.roster import RosterPane, ViewRosterPane
from tracker.ui.panes.wounds import WoundsPane
from tracker.ui.prefs import ViewPrefs
from tracker.ui.table import SyncTable
from tracker.ui.theme import install_themes, show_notices
from tracker.ui.topbar import topbar_text

POLL_SECONDS = 0.05
"""How often the follower looks at the save's modification time (a stat, in a worker)."""


class WatchApp(App[None]):
    """Refreshes from the save file; keys only scroll and quit."""

    CSS_PATH = "app.tcss"
    TITLE = "tracker · player view"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("q", "quit", "Quit", id="watch-quit"),
                Binding("ctrl+l", "redraw", "Redraw", show=False, id="watch-redraw")]

    def __init__(
        self,
        path: Path,
        theme: str | None = None,
        *,
        side: str | None = None,
        public: bool = False,
        follower: Follower | None = None,
    ) -> None:
        super().__init__()
        self.path = path
        self.side = side
        self.public = public
        self.requested_theme = theme
        self._theme_notices = install_themes(self, theme)
        self.prefs = ViewPrefs()
        self.follower = follower or Follower(path, load)
        self.source = Session(self.follower.enc, path, read_only=True)
        """The GM's encounter as followed; what is shown is made from it."""
        self.session = Session(self.follower.enc, path, read_only=True)
        self.session.enc = self.view_of(self.follower.enc)
        self._drawn = seen(self.session.enc)
        self.selected: str | None = None
        self.shown = 0
        """Views drawn since the start (the first one included)."""

    @property
    def who(self) -> str:
        if self.side is not None:
            return f"{possessive(self.side)} view"
        return "spectator view" if self.public else "player view"

    def view_of(self, enc: Encounter) -> Encounter:
        """What this view may show of the GM's encounter."""
        self.source.enc = enc
        return self.source.player_view(self.side,
                                       table=self.side is None and not self.public)

    def action_redraw(self) -> None:
        """Draw the whole screen again (Ctrl+L, as in other terminal programs)."""
        self.refresh(layout=True)

    def compose(self) -> ComposeResult:
        left, right = self._pane_names()
        yield Static(id="topbar")
        yield layout.body(left, right, self._pane, LogPane(id="log", rewind=False))
        yield Static(id="status")
        yield KeyFooter(compact=True)

    def _pane_names(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The left column's tables, and above the log a side's own pools and wounds:
        the only ones its view carries."""
        own = self.side is not None and self.session.ruleset.scale == "skirmish"
        return layout.pane_names(self.session.ruleset, self.session.enc, own)

    def _pane(self, name: str) -> Widget:
        return layout.pane(name, self.session.ruleset, roster=ViewRosterPane)

    async def _join_panes(self) -> None:
        """Panes for what joined since the view was made, then drawn."""
        left, right = self._pane_names()
        if await layout.join(self, left, right, self._pane):
            self.redraw()

    def on_sync_table_row_highlighted(self, event: SyncTable.RowHighlighted) -> None:
        if event.table.id == "combatants-table":
            self.selected = event.key
            for pane in self.query(CombatantsPane):  # the line under it reads this row
                pane.show_detail(self.session.enc, event.key)
            self._own_panes()

    def _own_panes(self) -> None:
        enc = self.session.enc
        selected = self.selected
        if selected is None or all(c.id != selected for c in enc.combatants):
            selected = next((c.id for c in enc.combatants if c.side == self.side), None)
        rule = self.rule()
        for pools in self.query(PoolsPane):
            pools.refresh_from(enc, selected, rule)
        for wounds in self.query(WoundsPane):
            wounds.refresh_from(enc, selected, rule)

    def rule(self) -> FieldRule:
        """Which field of whom this view shows (the panes say what they do not show)."""
        enc = self.session.enc
        if self.side is not None:
            own = [self.side]
        else:
            own = [] if self.public else table_sides(enc)
        return FieldRule.of(enc, own, self.session.ruleset.order_stat)

    def on_mount(self) -> None:
        show_notices(self, self._theme_notices)
        self.redraw()
        self.follow()

    @work(thread=True, exclusive=True, group="follow", exit_on_error=False)
    def follow(self) -> None:
        """Poll the save; make each new view here, off the UI thread, and hand it over."""
        worker = get_current_worker()
        while not worker.is_cancelled:
            time.sleep(POLL_SECONDS)
            try:
                changed = self.follower.poll()
                view = self.view_of(self.follower.enc) if changed else None
                if view is not None:
                    now = seen(view)
                    view, self._drawn = (view, now) if now != self._drawn else (None, now)
            except SaveError as exc:
                self.call_from_thread(self._status, f"waiting for a good save: {exc.expected}")
                continue
            except Exception as exc:  # a bug must not take the view down
                where = log_unexpected(exc, f"following {self.path}")
                self.call_from_thread(self._status, f"could not follow the save; see {where}")
                time.sleep(1)
                continue
            if view is not None and not worker.is_cancelled:
                self.call_from_thread(self.show, view)

    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def show(self, view: Encounter) -> None:
        self.session.enc = view
        self.redraw()

    def redraw(self) -> None:
        problem = draw_or_report(self._redraw, f"player view of {self.path}")
        if problem:
            self.query_one("#status", Static).update(problem)

    def _redraw(self) -> None:
        enc = self.session.enc
        rs = self.session.ruleset
        hidden_turn = enc.position.turn == HIDDEN_TURN
        if hidden_turn:
            bits = [enc.name, rs.id, f"Round {enc.position.round}", "▶ someone unseen acts"]
            top = " · ".join(bits)
        else:
            top = topbar_text(self.session).replace(" · READ-ONLY", "")
        self.query_one("#topbar", Static).update(f"{top} · {self.who}")
        actor = None if hidden_turn else current_actor(enc, rs.order_stat)
        for pane in self.query(CombatantsPane):
            pane.refresh_from(enc, actor)
        for roster in self.query(RosterPane):
            roster.refresh_from(enc)
        self._own_panes()
        self.query_one(LogPane).refresh_from(enc, show_secret=False)
        self.query_one("#status", Static).update(f"watching {self.path.name} · q quits")
        if layout.missing(self, layout.left_panes(rs, enc)):
            self.call_later(self._join_panes)
        self.shown += 1


def seen(view: Encounter) -> str:
    """Everything a view shows, as one text: two views that show the same are equal."""
    return view.model_dump_json() + "".join(e.model_dump_json() for e in view.log)
