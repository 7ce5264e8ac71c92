"""Wounds: the selected combatant's injuries by location, with their effects."""

from __future__ import annotations

from rich.text import Text

from tracker.core.model import Encounter, Wound
from tracker.rules.plain.health import tracked
from tracker.session.redaction import FieldRule
from tracker.ui.panes.text_pane import TextPane

NOT_SHOWN = "wounds not shown (another side's)"
"""What a player's view says of the wounds of someone of another side."""


def describe(n: int, w: Wound) -> str:
    bits = [f"{n}. {w.location}"]
    if w.level:
        bits.append(f"L{w.level}")
    if w.kind:
        bits.append(w.kind)
    if w.impact is not None:
        bits.append(f"impact {w.impact}")
    for label, value in (("shock", w.shock), ("pain", w.pain), ("BL", w.blood_loss)):
        if value:
            bits.append(f"{label} {value}")
    if w.note:
        bits.append(f"({w.note})")
    return " ".join(bits)


class WoundsPane(TextPane):
    """Wounds of whoever is selected in the Combatants pane."""

    BORDER_TITLE = "Wounds"

    def refresh_from(self, enc: Encounter, selected: str | None,
                     rule: FieldRule | None = None) -> None:
        """The wounds of ``selected``; in a player's view (``rule``) those of another side
        are not shown, and the pane says so rather than "unhurt"."""
        who = next((c for c in enc.combatants if c.id == selected), None)
        body = self.body
        if who is None:
            self.border_title = self.BORDER_TITLE
            body.update(Text("select a combatant", style="dim"))
            return
        self.border_title = f"{self.BORDER_TITLE} · {who.name}"
        if rule is not None and not rule.shows(who.side, "wounds"):
            body.update(Text(NOT_SHOWN, style="dim"))
            return
        if not who.wounds:  # hit points, where kept, say how hurt it is
            body.update(Text("no wounds" if tracked(who) else "unhurt", style="dim"))
            return
        body.update("\n".join(describe(i, w) for i, w in enumerate(who.wounds, 1)))
