"""Each side's colour and short tag, so a row says whose it is at any width.

A side's name shows whole where the table has room; on a narrow screen its tag (``HE``
for High Elves, ``Emp`` for Empire) in the same colour, and the pane's title names each
tag once. Colours come from the theme, in the order the sides first appear.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.color import Color, ColorParseError

from tracker.core.model import Combatant, Unit

TAG = 3
"""The most letters a tag takes."""
PALETTE = ("accent", "secondary", "success", "warning", "primary", "error")
"""The theme's colours given to the sides, in the order they first appear."""


def tags(sides: Sequence[str]) -> dict[str, str]:
    """A short tag for each side, no two alike: the initials of a name of several words
    (``High Elves``: ``HE``), else its first letters (``Empire``: ``Emp``)."""
    out: dict[str, str] = {}
    for side in sides:
        words = side.split()
        tag = "".join(w[0] for w in words)[:TAG].upper() if len(words) > 1 else \
            side[:TAG].capitalize()
        if not tag:
            tag = "?"
        base, n = tag, 2
        while tag in out.values():  # two sides alike: number them
            tag = f"{base[:TAG - len(str(n))]}{n}"
            n += 1
        out[side] = tag
    return out


def styles(app: App[object], sides: Sequence[str]) -> dict[str, Style]:
    """Each side's colour, from the app's theme."""
    theme = app.current_theme
    out: dict[str, Style] = {}
    for k, side in enumerate(sides):
        value = getattr(theme, PALETTE[k % len(PALETTE)], None) or theme.primary
        try:
            out[side] = Style(color=Color.parse(value).rich_color, bold=True)
        except ColorParseError:
            out[side] = Style(bold=True)
    return out


class SideMarks:
    """The sides of an encounter as one pane draws them: whole names and tags, coloured."""

    def __init__(self, app: App[object], sides: Sequence[str]) -> None:
        self.sides = list(sides)
        self.tags = tags(self.sides)
        self.styles = styles(app, self.sides)

    def whole(self, side: str) -> Text:
        return Text(side, style=self.styles.get(side, ""))

    def short(self) -> dict[str, Text]:
        """Each side's tag in its colour, by the side's whole name."""
        return {side: Text(tag, style=self.styles.get(side, ""))
                for side, tag in self.tags.items()}

    def detail(self, who: Combatant | Unit, parts: list[str], names: dict[str, str]) -> Text:
        """The line under a table: the name, the side in its colour, ``parts``, each
        effect with how long it lasts (names as the encounter has them), the GM's notes."""
        parts = [*parts, *(e.describe(names) for e in who.effects)]
        if who.notes:
            parts.append(who.notes)
        text = Text(who.name, style="bold")
        if parts and parts[0].startswith(f"{who.side} · "):  # the ruleset's summary says it
            parts[0] = parts[0][len(who.side) + 3:]
        text.append(" · ")
        text.append_text(self.whole(who.side))
        return text.append(": " + "; ".join(parts))

    def legend(self) -> Text:
        """Each tag and the side it stands for: ``HE High Elves · Emp Empire``."""
        out = Text()
        for k, side in enumerate(self.sides):
            if k:
                out.append(" · ")
            out.append(self.tags[side], style=self.styles.get(side, ""))
            out.append(f" {side}")
        return out
