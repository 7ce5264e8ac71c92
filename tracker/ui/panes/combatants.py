"""Combatants: the acting order, who acts now, their conditions and timed effects.

The side shows in its colour, as a tag where its name does not fit; the line under the
table says the whole of the combatant under the cursor: its conditions, and each effect
with how long it lasts."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.color import Color as TColor
from textual.containers import Vertical
from textual.widgets import Static

from tracker.core.model import Combatant, Encounter
from tracker.core.sequence import is_holder
from tracker.core.turns import acting_order, order_value, sides
from tracker.rules.columns import Column
from tracker.rules.plain.health import health_word, points
from tracker.rules.ruleset import Ruleset
from tracker.ui.errors import log_unexpected
from tracker.ui.grid import Row
from tracker.ui.sides import SideMarks
from tracker.ui.table import SyncTable

NOT_SHOWN = "not shown"
"""The wounds cell of another side's combatant in a player's view."""


def _blank(c: object) -> str:
    return ""


def fight_count(enc: Encounter) -> str:
    """The line on the pane's frame: how many still take turns, and how many are down or
    out beside them (each has a row, so the rows alone do not say it)."""
    if not enc.combatants:
        return "a: add a combatant"
    out = sum(1 for c in enc.combatants if c.out)
    fighting = f"{len(enc.combatants) - out} in the fight"
    return f"{fighting} · {out} out" if out else fighting


def state_of(c: Combatant) -> str:
    bits = [*c.conditions, *(e.name for e in c.effects)]
    if c.out and "down" not in bits:
        bits.insert(0, "down" if getattr(c, "hp", None) == 0 else "out")
    if c.hidden:
        bits.append("hidden")
    return ", ".join(bits)


def wounds_cell(c: Combatant) -> str:
    """How many wounds (blank: none); in a player's view, of another side: not shown."""
    if "wounds" in c.unseen:
        return NOT_SHOWN
    return str(len(c.wounds) or "")


class CombatantsPane(Vertical):
    """The acting order; the row under the cursor is the selected combatant."""

    def __init__(self, ruleset: Ruleset, **kw: object) -> None:
        super().__init__(classes="pane", **kw)  # type: ignore[arg-type]
        self.ruleset = ruleset
        self.border_title = "Combatants"
        self._sides: SideMarks | None = None
        self._shown: tuple[Encounter, str | None, dict[str, list[str]] | None] | None = None
        """What the pane shows: drawn again in a new theme's colours."""

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._recolour, init=False)

    def _recolour(self) -> None:
        """A new theme: the sides, the hit points and the detail line in its colours."""
        if self._shown is None:
            return
        enc, actor, marks = self._shown
        self._mark_sides(enc, anew=True)
        self.table.restyle(self.rows(enc, actor, marks))
        self.show_detail(enc, self.table.selected_key)

    def _mark_sides(self, enc: Encounter, anew: bool = False) -> None:
        """Colour each side (``anew``: in the theme as it is now), and give the table
        its tags for a narrow screen."""
        known = sides(enc)
        if anew or self._sides is None or self._sides.sides != known:
            self._sides = SideMarks(self.app, known)
            if self.table.grid.shorten("side", dict(self._sides.short())):
                self.table.refit()

    @property
    def hit_points(self) -> bool:
        """Whether the ruleset's combatants have hit points (a column of their own)."""
        return "hp" in self.ruleset.combatant_model.model_fields

    def compose(self) -> ComposeResult:
        stat = self.ruleset.order_stat
        label = {"initiative": "Init"}.get(stat, stat[:6].title())
        # hit points always show whole; beside them the side gives way whole, not cut
        hp = [("HP", "hp", 0)] if self.hit_points else []
        side = 3 if self.hit_points else 2
        columns = [Column(title, key, _blank, priority) for title, key, priority in (
            ("", "now", 0), ("Name", "name", 0), ("Side", "side", side), (label, "init", 0),
            *hp, ("Wnd", "wounds", 3), ("State", "state", 0))]
        yield SyncTable(columns, id="combatants-table")
        yield Static(id="combatant-detail", classes="detail")

    @property
    def table(self) -> SyncTable:
        return self.query_one(SyncTable)

    def rows(self, enc: Encounter, actor: str | None,
             marks: dict[str, list[str]] | None = None) -> list[Row]:
        stat = self.ruleset.order_stat
        by_id = {c.id: c for c in enc.combatants}
        # with no combatants the order is the units' sides, which this pane does not list
        seq = self.ruleset.sequence
        ruled = seq.order(enc) if seq is not None and seq.order is not None else None
        order = [cid for cid in ruled or acting_order(enc, stat) if cid in by_id]
        listed = order + [c.id for c in enc.combatants if c.id not in order]
        rows: list[Row] = []
        hp = self.hit_points
        for cid in listed:
            c = by_id[cid]
            acting = cid == actor or (actor is not None and actor.startswith(("group:", "side:"))
                                      and is_holder(enc, actor, c))
            mark = Text("▶", style="bold") if acting else Text("")
            name = Text(c.name, style="dim" if c.out else "")
            own = state_of(c)
            state = ", ".join([*(marks or {}).get(cid, []), *([own] if own else [])])
            points = [self.points_cell(c)] if hp else []
            side = self._sides.whole(c.side) if self._sides else c.side
            rows.append(
                (cid, [mark, name, side, str(order_value(c, stat)), *points,
                       wounds_cell(c), state])
            )
        return rows

    def points_cell(self, c: Combatant) -> Text:
        """``17/24 +5``, coloured as it falls: hurt, bloodied (half or less), down."""
        word = health_word(getattr(c, "hp", None), getattr(c, "max_hp", None))
        colour = {"hurt": "warning", "bloodied": "error", "down": "error"}.get(word)
        theme = self.app.current_theme
        value = getattr(theme, colour, None) if colour else None
        style = Style(color=TColor.parse(value).rich_color) if value else Style()
        return Text(points(c), style=style + Style(dim=word == "down"))

    def refresh_from(self, enc: Encounter, actor: str | None,
                     marks: dict[str, list[str]] | None = None) -> None:
        self._shown = (enc, actor, marks)
        self._mark_sides(enc)
        self.table.sync(self.rows(enc, actor, marks))
        self.show_detail(enc, self.table.selected_key)
        self.border_subtitle = fight_count(enc)

    def show_detail(self, enc: Encounter, selected: str | None) -> None:
        """One line on the selected combatant: the ruleset's own summary, and effects."""
        detail = self.query_one("#combatant-detail", Static)
        who = next((c for c in enc.combatants if c.id == selected), None)
        if who is None:
            detail.update("")
            return
        plain = f"{self.ruleset.order_stat} {order_value(who, self.ruleset.order_stat)}"
        describe = self.ruleset.describe_combatant
        try:
            parts = [describe(who) if describe else plain]
        except Exception as exc:  # a summary that cannot be made must not take the pane down
            log_unexpected(exc, f"summing up {who.name}")
            parts = [plain]
        own = [f"{k} {v}" for k, v in who.stats.items()
               if k != self.ruleset.order_stat and f"{k} {v}" not in parts[0]]
        if own:  # the GM's own stats (plain's dex=3), where the summary does not say them
            parts.append(", ".join(own))
        if who.conditions:
            parts.append(", ".join(who.conditions))
        names = {w.id: w.name for w in enc.everyone}
        marks = self._sides or SideMarks(self.app, [who.side])
        detail.update(marks.detail(who, parts, names))
