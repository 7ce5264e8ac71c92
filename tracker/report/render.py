"""The report of an encounter laid out as ``tracker report`` writes it: Markdown, CSV or
JSON."""

from __future__ import annotations

from tracker.core.model import Encounter
from tracker.report.gather import gather
from tracker.report.render_csv import render_csv
from tracker.report.render_json import render_json
from tracker.report.render_md import render_md


def render(enc: Encounter, fmt: str = "md", side: str | None = None) -> str:
    """The report of ``enc`` in ``fmt`` (for the player of ``side``, if given)."""
    g = gather(enc, side)
    if fmt == "csv":
        return render_csv(g)
    if fmt == "json":
        return render_json(g)
    return render_md(g)
