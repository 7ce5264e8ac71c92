"""The Warmaster turn (WM): each side in turn takes its command, movement, shooting and
combat phases. The shooting phase ends with the drive backs of every unit hit, then its
leftover hits are discarded (``endphase``); the tracker runs that end itself when no unit
took hits, and stops the turn while any drive back is still to roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.sequence import Duty, Phase, SequenceOfPlay
from tracker.core.words import plural

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


def drive_backs_due(enc: Encounter) -> list[tuple[str, str]]:
    """Units hit this phase whose drive back is still to roll."""
    out: list[tuple[str, str]] = []
    for u in enc.units:
        hits = getattr(u, "hits", 0)
        if hits > 0 and u.active and not getattr(u, "drive_back_done", False):
            out.append((u.id, f"{plural(hits, 'hit')} to drive back"))
    return out


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """New turn: last turn's drive-back distances, casualties and carried hits are cleared."""
    for unit in enc.units:
        path: list[str | int] = ["units", unit.id]
        tx.set([*path, "driven_back"], 0)
        tx.set([*path, "casualties_turn"], 0)
        tx.set([*path, "carried_hits"], 0)
    return []


DRIVE_BACKS = Duty("drive backs", drive_backs_due, action="endphase", always=True)

SEQUENCE = SequenceOfPlay(
    phases=(
        Phase("command", "side"),
        Phase("movement", "side"),
        Phase("shooting", "side", duties=(DRIVE_BACKS,)),
        Phase("combat", "side"),
    ),
    turns_by="side",
    round_start=start_round,
)
