"""The d6battle turn: each side in turn shoots, fights its combats, then resolves (units
that failed a morale test from shooting flee: the resolution phase names them as it
begins). The shoot phase cannot end while a morale test queued by shooting casualties is
still to take (step 4 of resolving shooting)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.sequence import Duty, Phase, SequenceOfPlay

from .turn import fleeing, start_round

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def morale_tests_due(enc: Encounter) -> list[tuple[str, str]]:
    return [(u.id, "morale test") for u in enc.units if u.morale_test and u.active]


MORALE_TESTS = Duty("morale tests", morale_tests_due, action="morale")


def fleeing_now(enc: Encounter) -> str:
    """The units that flee in this resolution phase, for the GM to move on the table."""
    names = fleeing(enc)
    return f"flee now (move them): {', '.join(names)}" if names else ""


SEQUENCE = SequenceOfPlay(
    phases=(
        Phase("shoot", "side", duties=(MORALE_TESTS,)),
        Phase("combat", "side"),
        Phase("resolution", "side", reminder=fleeing_now),
    ),
    turns_by="side",
    round_start=start_round,
)
