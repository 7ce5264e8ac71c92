"""The Fantasy Warlord game turn, as far as missile fire needs it. Both sides play each
phase together. Phases one to seven (orders, movement and the rest, which the fire rules
do not print) come first; in phase eight every unit with a fire order fires, all at once,
and the kills are held; "when every unit has fired all casualties are removed and any
necessary Morale Tests are taken" (``endphase``, then ``morale`` for each unit flagged).
The turn's upkeep clears movement, charges and fire; casualties still held are named."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.sequence import Duty, Phase, SequenceOfPlay

from .units import still_to_fire, warlord_units

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

BEFORE_FIRE = "before missile fire (1-7)"
FIRE_PHASE = "missile fire (8)"
MORALE_PHASE = "morale tests"


def fire_orders_due(enc: Encounter) -> list[tuple[str, str]]:
    """Units still to fire: the phase ends when every unit has fired (or the GM takes
    its counter off); the held casualties are then removed together, by the tracker."""
    return [(u.id, "to fire") for u in still_to_fire(enc)]


def morale_tests_due(enc: Encounter) -> list[tuple[str, str]]:
    return [(u.id, "morale test") for u in warlord_units(enc) if u.morale_test and u.active]


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """A new game turn: movement, charges, fire and this turn's casualties start afresh."""
    lines: list[str] = []
    for unit in warlord_units(enc):
        path: list[str | int] = ["units", unit.id]
        tx.set([*path, "moved_cm"], 0)
        tx.set([*path, "charged"], False)
        tx.set([*path, "casualties_turn"], 0)
        tx.set([*path, "fired"], False)
        tx.set([*path, "figures_fired"], 0)
        if unit.fire_targets:
            tx.set([*path, "fire_targets"], [])
        if unit.held_casualties:
            lines.append(f"{unit.name} still holds {unit.held_casualties} casualties: run endphase")
        if unit.morale_test:
            lines.append(f"{unit.name} has a morale test still to take")
    return lines


FIRE_ORDERS = Duty("fire orders", fire_orders_due, action="endphase", always=True)
"""Once no unit is still to fire, ``endphase`` removes the held casualties as the phase
ends; the app opens it while a fire order is left, to fire on or forfeit (force=yes)."""
MORALE_TESTS = Duty("morale tests", morale_tests_due, action="morale")

SEQUENCE = SequenceOfPlay(
    phases=(
        Phase(BEFORE_FIRE, "all"),
        Phase(FIRE_PHASE, "all", duties=(FIRE_ORDERS,)),
        Phase(MORALE_PHASE, "all", duties=(MORALE_TESTS,)),
    ),
    turns_by="round",
    round_start=start_round,
)
