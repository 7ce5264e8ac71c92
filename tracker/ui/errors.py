"""The error log: what went wrong unexpectedly, kept for the GM (and a bug report)."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from tracker.store import fs
from tracker.store.paths import data_dir


def log_unexpected(exc: BaseException, context: str) -> Path:
    """Append an unexpected error to the error log (0600 in a 0700 data folder, never
    through a link); the GM sees one line in the app."""
    path = data_dir() / "errors.log"
    text = f"--- {datetime.now().isoformat()} {context}\n" + "".join(
        traceback.format_exception(exc))
    fs.append_private(path, text.encode("utf-8"))
    return path


def draw_or_report(draw: Callable[[], None], context: str) -> str | None:
    """Redraw; if that fails unexpectedly, log it and return the line the GM is shown
    (a pane that cannot draw must not take the screen down)."""
    try:
        draw()
    except Exception as exc:
        return f"a pane could not be drawn; details in {log_unexpected(exc, context)}"
    return None
