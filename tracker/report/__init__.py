"""The battle report: the story of a battle from its journal, its losses and its luck.

``gather`` reads the facts from the log (nothing is resolved again); ``ledger`` weighs
the dice against their odds; ``render_md``, ``render_csv`` and ``render_json`` lay the
report out for ``tracker report``; the app's report screen draws the same facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def render(enc: Encounter, fmt: str = "md", side: str | None = None) -> str:
    """The report of ``enc`` in ``fmt`` (for the player of ``side``, if given)."""
    from tracker.report.gather import gather

    g = gather(enc, side)
    if fmt == "csv":
        from tracker.report.render_csv import render_csv

        return render_csv(g)
    if fmt == "json":
        from tracker.report.render_json import render_json

        return render_json(g)
    from tracker.report.render_md import render_md

    return render_md(g)
