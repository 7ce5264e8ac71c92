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


def held_words(n: int) -> str:
    return f"{n} {'casualty' if n == 1 else 'casualties'}"


def casualties_due(enc: Encounter) -> list[tuple[str, str]]:
    """Units still to fire and units holding casualties: the phase ends when every unit
    has fired, with the casualties removed together."""
    out = [(u.id, "fire order to use") for u in still_to_fire(enc)]
    out += [(u.id, f"{held_words(u.held_casualties)} held")
            for u in warlord_units(enc) if u.held_casualties > 0 and not u.removed]
    return out


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


CASUALTIES = Duty("held casualties", casualties_due, action="endphase", always=True)
MORALE_TESTS = Duty("morale tests", morale_tests_due, action="morale")

SEQUENCE = SequenceOfPlay(
    phases=(
        Phase(BEFORE_FIRE, "all"),
        Phase(FIRE_PHASE, "all", duties=(CASUALTIES,)),
        Phase(MORALE_PHASE, "all", duties=(MORALE_TESTS,)),
    ),
    turns_by="round",
    round_start=start_round,
)
