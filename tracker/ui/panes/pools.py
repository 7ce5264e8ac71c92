"""Pools: every fighter's dice pools as bars of spent and left, with the breakdown."""

from __future__ import annotations

from rich.text import Text

from tracker.core.model import Encounter, Pool
from tracker.session.redaction import FieldRule
from tracker.ui.panes.text_pane import TextPane


def bar(pool: Pool, width: int = 10) -> Text:
    size = max(pool.size, 0)
    left = max(min(pool.left, size), 0)
    scale = width / size if size > width else 1
    full = round(left * scale)
    used = round(min(pool.spent, size) * scale)
    out = Text()
    out.append("█" * full, style="bold green")
    out.append("░" * used, style="red")
    out.append(f" {pool.left}/{pool.size}")
    return out


class PoolsPane(TextPane):
    """One line per pool; the selected fighter's breakdown underneath."""

    BORDER_TITLE = "Pools"

    def refresh_from(self, enc: Encounter, selected: str | None,
                     rule: FieldRule | None = None) -> None:
        """Every fighter's pools; in a player's view (``rule``) only its own side's, and
        of the selected fighter of another side a line saying they are not shown."""
        text = Text()
        breakdown: list[str] = []
        shown = [(c, pool) for c in enc.combatants if not c.out for pool in c.pools
                 # an empty Missile Pool is noise on a busy table
                 if pool.size > 0 or pool.spent != 0 or c.id == selected]
        # names whole (as the acting order shows them); the bars give way first
        room = (self.size.width - 2) if self.size.width > 2 else 28
        name_width = max((len(c.name) for c, _ in shown), default=0)
        figures = max((len(f" {p.left}/{p.size}") for _, p in shown), default=0)
        bar_width = max(3, min(10, room - name_width - 5 - figures))
        for c, pool in shown:
            mark = "▸" if c.id == selected else " "
            style = "bold" if c.id == selected else ""
            text.append(f"{mark}{c.name:<{name_width}} {pool.name:<2} ", style=style)
            text.append_text(bar(pool, bar_width))
            text.append("\n")
            if c.id == selected and pool.breakdown:
                breakdown.append(f"{pool.name}: " + ", ".join(pool.breakdown))
        for line in breakdown:
            text.append(line + "\n", style="dim")
        chosen = next((c for c in enc.combatants if c.id == selected), None)
        if rule is not None and chosen is not None and not rule.shows(chosen.side, "pools"):
            text.append(f"{chosen.name}: pools not shown (another side's)\n", style="dim")
        if not text.plain:
            text.append("no pools", style="dim")
        text.rstrip()
        self.body.update(text)
