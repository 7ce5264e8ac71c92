"""Acting order and the march of rounds, for code that knows no ruleset's sequence.

The sequence of play itself is :mod:`tracker.core.sequence`; these are its plain cases:
skirmishes order combatants by a stat, highest first; battles of units take turns by
side, each turn walking the phases.
"""

from __future__ import annotations

from .dice import Dice
from .history import Transaction
from .model import Encounter
from .sequence import (
    RoundStart,
    Step,
    acting_order,
    current,
    holder_name,
    move,
    order_value,
    plain_sequence,
    sides,
)

__all__ = [
    "Step", "acting_order", "actor_name", "advance", "current_actor", "order_value",
    "plain_sequence", "sides",
]


def actor_name(enc: Encounter, actor: str) -> str:
    return holder_name(enc, actor)


def current_actor(enc: Encounter, stat: str = "initiative") -> str | None:
    """Who acts now, when combatants act in order (or units by side)."""
    return current(enc, plain_sequence(by_side=not enc.combatants), stat)


def advance(
    enc: Encounter,
    tx: Transaction,
    what: str,
    *,
    stat: str = "initiative",
    phases: list[str] | None = None,
    start_round: RoundStart | None = None,
    dice: Dice | None = None,
) -> Step:
    """Move to the next turn, phase or round inside ``tx``; returns the log line."""
    seq = plain_sequence(phases, start_round, by_side=not enc.combatants)
    return move(enc, tx, what, seq, stat=stat, dice=dice)
