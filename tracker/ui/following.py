"""The GM's app while another tracker writes the encounter: read-only, and live.

A second GM (a second connection with the GM's key, or `tracker open` beside a running
tracker) gets the app read-only, with the take-over offered. Until it takes over, the
app follows the save as the player views do (``tracker.session.live``) and redraws
with each change, so the second GM sees the fight as it goes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.worker import get_current_worker

from tracker.core.model import Encounter
from tracker.session.live import Follower
from tracker.session.opening import load
from tracker.session.session import Session
from tracker.store import SaveError

POLL_SECONDS = 0.1


def follow_while_read_only(app: App[Any], session: Session, redraw: Callable[[], object]) -> None:
    """Follow ``session``'s save in a worker while the session is read-only; each change
    is put in the session and ``redraw()`` called (on the UI thread)."""
    path = session.path
    if path is None:
        return

    def changed(enc: Encounter) -> None:
        if session.read_only:
            session.enc = enc
            redraw()

    def follow() -> None:
        worker = get_current_worker()
        follower = Follower(Path(path), load)
        while not worker.is_cancelled and session.read_only:
            time.sleep(POLL_SECONDS)
            try:
                if follower.poll():
                    app.call_from_thread(changed, follower.enc)
            except SaveError:
                continue

    app.run_worker(follow, thread=True, group="follow", exclusive=True, exit_on_error=False)


def read_only_notice(held_by: str) -> str:
    return f"read-only: {held_by} writes this encounter; this view follows it live"
