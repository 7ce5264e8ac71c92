"""The HârnMaster round: every combatant acts once, in order of Initiative Rating (IR),
highest first, after the round's upkeep (moved flags clear, old aims lapse). Tables that
roll initiative anew each round set ``initiative_dice``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.sequence import Phase, SequenceOfPlay
from tracker.rules.initiative import reroll

from .upkeep import start_round

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


def round_start(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    return [*start_round(enc, tx, dice), *reroll(enc, tx, dice)]


SEQUENCE = SequenceOfPlay(phases=(Phase(""),), round_start=round_start)
