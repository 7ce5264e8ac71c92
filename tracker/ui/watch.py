"""The player view: a read-only window on an encounter another tracker is running.

It reloads the save within a second of each autosave (polling its modification time),
never takes the lock and never writes. GM-only information is removed before anything is
drawn: hidden combatants and units, secret log entries, and the secret fields (pools,
wounds, notes by default) of the GM's side.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from tracker.core.model import Encounter
from tracker.core.turns import acting_order, current_actor
from tracker.opening import load
from tracker.session import Session
from tracker.store import SaveError
from tracker.ui.errors import draw_or_report
from tracker.ui.footer import KeyFooter
from tracker.ui.panes.combatants import CombatantsPane
from tracker.ui.panes.log import SHOWN, LogPane
from tracker.ui.panes.roster import RosterPane
from tracker.ui.theme import install_themes, show_notices

POLL_SECONDS = 0.4


def redact(enc: Encounter, order_stat: str = "initiative") -> Encounter:
    """A copy of the encounter with everything the players must not see removed.

    The turn is carried over by who holds it: when a hidden combatant acts, the players
    see that someone unseen acts (no one in their order is marked), not the next in line.
    """
    view = enc.model_copy(deep=True)
    actor = current_actor(enc, order_stat)
    view.combatants = [c for c in view.combatants if not c.hidden]
    view.units = [u for u in view.units if not u.hidden]
    applied = view.log[max(0, view.cursor - SHOWN) : view.cursor]  # what the pane shows
    view.log = [e for e in applied if not e.secret]
    view.cursor = len(view.log)
    secret = set(enc.secret_fields)
    for c in view.combatants:
        if enc.gm_side and c.side != enc.gm_side:
            continue
        if "pools" in secret:
            c.pools = []
        if "wounds" in secret:
            c.wounds = []
        if "stats" in secret:
            c.stats = {}
        if "notes" in secret:
            c.notes = ""
    for u in view.units:
        if enc.gm_side and u.side != enc.gm_side:
            continue
        if "notes" in secret:
            u.notes = ""
    order = acting_order(view, order_stat)
    view.position.turn = order.index(actor) if actor in order else HIDDEN_TURN
    return view


HIDDEN_TURN = -1
"""The player view's turn index while someone hidden acts."""


class WatchApp(App[None]):
    """Refreshes from the save file; keys only scroll and quit."""

    CSS_PATH = "app.tcss"
    TITLE = "tracker · player view"
    BINDINGS = [Binding("q", "quit", "Quit", id="watch-quit")]

    def __init__(self, path: Path, theme: str | None = None) -> None:
        super().__init__()
        self.path = path
        self.requested_theme = theme
        self._theme_notices = install_themes(self, theme)
        self._mtime: tuple[int, int, int] | None = None
        enc = load(path)
        self.session = Session(enc, path, read_only=True)
        self.session.enc = redact(enc, self.session.ruleset.order_stat)

    def compose(self) -> ComposeResult:
        rs = self.session.ruleset
        enc = self.session.enc
        yield Static(id="topbar")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                if enc.combatants or rs.scale == "skirmish":
                    yield CombatantsPane(rs, id="combatants")
                if enc.units or rs.scale == "mass":
                    yield RosterPane(rs, id="roster")
            with Vertical(id="right"):
                yield LogPane(id="log", rewind=False)
        yield Static(id="status")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        show_notices(self, self._theme_notices)
        self.redraw()
        self.set_interval(POLL_SECONDS, self.poll)

    def poll(self) -> None:
        try:
            st = self.path.stat()
            mtime = (st.st_ino, st.st_mtime_ns, st.st_size)  # each atomic save is a new inode
        except OSError:
            self.query_one("#status", Static).update(f"{self.path} is not there (yet)")
            return
        if mtime == self._mtime:
            return
        try:
            enc = load(self.path)
        except SaveError as exc:
            self.query_one("#status", Static).update(f"waiting for a good save: {exc.expected}")
            return
        self._mtime = mtime
        self.session.enc = redact(enc, self.session.ruleset.order_stat)
        self.redraw()

    def redraw(self) -> None:
        problem = draw_or_report(self._redraw, f"player view of {self.path}")
        if problem:
            self.query_one("#status", Static).update(problem)

    def _redraw(self) -> None:
        from tracker.ui.app import topbar_text

        enc = self.session.enc
        rs = self.session.ruleset
        hidden_turn = enc.position.turn == HIDDEN_TURN
        if hidden_turn:
            bits = [enc.name, rs.id, f"Round {enc.position.round}", "▶ someone unseen acts"]
            top = " · ".join(bits)
        else:
            top = topbar_text(self.session).replace(" · READ-ONLY", "")
        self.query_one("#topbar", Static).update(top + " · player view")
        actor = None if hidden_turn else current_actor(enc, rs.order_stat)
        for pane in self.query(CombatantsPane):
            pane.refresh_from(enc, actor)
        for roster in self.query(RosterPane):
            roster.refresh_from(enc)
        self.query_one(LogPane).refresh_from(enc, show_secret=False)
        self.query_one("#status", Static).update(f"watching {self.path.name} · q quits")
