"""The Warmaster turn (WM): each side in turn takes its command, movement, shooting and
combat phases. The shooting phase ends with the drive backs of every unit hit (a duty:
``endphase`` rolls them, or ``driveback`` unit by unit); the phase's end then discounts
the odd hits and clears the phase's marks, whether the drive backs were rolled or the GM
skipped them.

What the rules start, and when it ends (``LIFETIMES``):
- hits, leftover hits, who shot and who was shot by whom, drive backs done: the end of
  the Shooting phase ("Once the Shooting phase is over, any odd hits are discounted.
  Hits are not recorded from one phase to another").
- hits carried into combat (shooting at chargers, engaged units hit): the end of the
  combat phase, the first combat round being fought in it ("count as having been struck
  in the first combat round").
- confusion: the end of the unit's side's following turn ("unable to move in their
  following turn"), or, with the setting ``confusion_ends=movement``, the end of its next
  movement phase.
- the distance driven back: the end of the unit's side's following turn (shown until
  then).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tracker.core.lifetimes import Lasts, When
from tracker.core.sequence import Duty, Phase, SequenceOfPlay, phasing_side
from tracker.core.words import plural

from .settings import CONFUSION_ENDS

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def drive_backs_due(enc: Encounter) -> list[tuple[str, str]]:
    """Units hit this phase whose drive back is still to roll."""
    out: list[tuple[str, str]] = []
    for u in enc.units:
        hits = getattr(u, "hits", 0)
        if hits > 0 and u.active and not getattr(u, "drive_back_done", False):
            out.append((u.id, f"{plural(hits, 'hit')} to drive back"))
    return out


def _confusion_ends(choice: str) -> Callable[[Encounter], bool]:
    def applies(enc: Encounter) -> bool:
        return CONFUSION_ENDS.of(enc) == choice

    return applies


def no_move(enc: Encounter) -> str:
    """The phasing side's confused units, named as its movement phase begins: a unit
    confused by a drive back cannot move in its following turn (the tracker keeps no
    moves: the GM holds them)."""
    side = phasing_side(enc, SEQUENCE)
    names = [u.name for u in enc.units
             if u.side == side and u.active and getattr(u, "confused", False)]
    return f"Confused, no move this turn: {', '.join(names)}" if names else ""


DRIVE_BACKS = Duty("drive backs", drive_backs_due, action="endphase")

SHOOTING_ENDS = When(at="end", of="phase", who="shooting")
COMBAT_ENDS = When(at="end", of="phase", who="combat")
OWN_TURN_ENDS = When(at="end", of="turn")
"""The end of the bearer's side's turn: drive backs fall in the other side's turn, so the
first such end is that of its following turn."""

LIFETIMES = (
    Lasts("hits", SHOOTING_ENDS, ""),
    Lasts("leftover_hits", SHOOTING_ENDS, "odd hits discounted"),
    Lasts("shot", SHOOTING_ENDS, ""),
    Lasts("shot_by", SHOOTING_ENDS, ""),
    Lasts("drive_back_done", SHOOTING_ENDS, ""),
    Lasts("carried_hits", COMBAT_ENDS, "hits carried into the first combat round counted"),
    Lasts("confused", OWN_TURN_ENDS, "no longer confused",
          applies=_confusion_ends("own_turn")),
    Lasts("confused", When(at="end", of="phase", who="movement"), "no longer confused",
          applies=_confusion_ends("movement")),
    Lasts("driven_back", OWN_TURN_ENDS, ""),
    Lasts("casualties_turn", When(at="end", of="round"), ""),
)

SEQUENCE = SequenceOfPlay(
    phases=(
        Phase("command", "side", actions=()),
        Phase("movement", "side", actions=("shoot",), reminder=no_move),
        Phase("shooting", "side", duties=(DRIVE_BACKS,)),
        Phase("combat", "side", actions=()),
    ),
    turns_by="side",
    lifetimes=LIFETIMES,
)
