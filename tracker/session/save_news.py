"""What saving tells the GM, as typed news (:mod:`tracker.session.saving` gives it, the
app shows it): loaded after the first screen, with the first save (see ``tracker.startup``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class SaveNews:
    """What saving has to tell the GM; ``message`` is for the status line ("": nothing
    to say, only the "saving…" marks to redraw)."""

    message: str = ""


@dataclass(frozen=True, slots=True)
class Saved(SaveNews):
    """Every change so far is on disk ("saved FILE" when a failed save came right)."""


@dataclass(frozen=True, slots=True)
class SaveFailed(SaveNews):
    """A save failed and is retried; ``committed``: the journal holds every change (only
    the state file is behind, and the next opening applies the journal)."""

    committed: bool = False


@dataclass(frozen=True, slots=True)
class Refused(SaveNews):
    """What was asked (quit, save-as, hand over, take over) cannot be done now."""


@dataclass(frozen=True, slots=True)
class ReadOnly(SaveNews):
    """This tracker writes the encounter no more: it handed it over or it was taken."""


@dataclass(frozen=True, slots=True)
class Reopened(SaveNews):
    """The encounter is written again, or elsewhere (save-as, a take-over): the whole
    screen is to be redrawn."""


@dataclass(frozen=True, slots=True)
class Leave(SaveNews):
    """The app is to end now; its lock is let go. ``rescued``: where the encounter was
    written when its own save could not be (the message says so); ``saved``: nothing
    was lost."""

    rescued: Path | None = None
    saved: bool = True
