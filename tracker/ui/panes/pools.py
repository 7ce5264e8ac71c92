"""Pools: every fighter's dice pools as bars of spent and left, with the breakdown."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tracker.core.model import Encounter, Pool


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


class PoolsPane(Vertical):
    """One line per pool; the selected fighter's breakdown underneath."""

    def __init__(self, **kw: object) -> None:
        super().__init__(classes="pane", **kw)  # type: ignore[arg-type]
        self.border_title = "Pools"

    def compose(self) -> ComposeResult:
        yield Static(id="pools-body")

    def refresh_from(self, enc: Encounter, selected: str | None) -> None:
        text = Text()
        breakdown: list[str] = []
        for c in enc.combatants:
            if c.out:
                continue
            for pool in c.pools:
                if pool.size <= 0 and pool.spent == 0 and c.id != selected:
                    continue  # an empty Missile Pool is noise on a busy table
                mark = "▸" if c.id == selected else " "
                style = "bold" if c.id == selected else ""
                text.append(f"{mark}{c.name[:9]:<9} {pool.name:<2} ", style=style)
                text.append_text(bar(pool))
                text.append("\n")
                if c.id == selected and pool.breakdown:
                    breakdown.append(f"{pool.name}: " + ", ".join(pool.breakdown))
        for line in breakdown:
            text.append(line + "\n", style="dim")
        if not text.plain:
            text.append("no pools", style="dim")
        text.rstrip()
        self.query_one("#pools-body", Static).update(text)
