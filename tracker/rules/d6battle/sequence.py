"""The d6battle turn: each side in turn shoots, fights its combats, then resolves (units
that failed a morale test from shooting flee). The shoot phase cannot end while a morale
test queued by shooting casualties is still to take (step 4 of resolving shooting)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.sequence import Duty, Phase, SequenceOfPlay

from .turn import start_round

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def morale_tests_due(enc: Encounter) -> list[tuple[str, str]]:
    return [(u.id, "morale test") for u in enc.units if u.morale_test and u.active]


MORALE_TESTS = Duty("morale tests", morale_tests_due, action="morale")

SEQUENCE = SequenceOfPlay(
    phases=(
        Phase("shoot", "side", duties=(MORALE_TESTS,)),
        Phase("combat", "side"),
        Phase("resolution", "side"),
    ),
    turns_by="side",
    round_start=start_round,
)
