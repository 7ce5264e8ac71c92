"""The error log: what went wrong unexpectedly, kept for the GM (and a bug report)."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path


def log_unexpected(exc: BaseException, context: str) -> Path:
    """Append an unexpected error to the error log; the GM sees one line in the app."""
    from tracker.store.paths import data_dir

    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "errors.log"
    with path.open("a", encoding="utf-8") as fh:
        fh.write(f"--- {datetime.now().isoformat()} {context}\n")
        fh.write("".join(traceback.format_exception(exc)))
    return path


def draw_or_report(draw: Callable[[], None], context: str) -> str | None:
    """Redraw; if that fails unexpectedly, log it and return the line the GM is shown
    (a pane that cannot draw must not take the screen down)."""
    try:
        draw()
    except Exception as exc:
        return f"a pane could not be drawn; details in {log_unexpected(exc, context)}"
    return None
