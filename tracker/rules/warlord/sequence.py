"""The Fantasy Warlord game turn, as far as missile fire needs it. Both sides play each
phase together. Phases one to seven (orders, movement and the rest, which the fire rules
do not print) come first; in phase eight every unit with a fire order fires, all at once,
and the kills are held; "when every unit has fired all casualties are removed and any
necessary Morale Tests are taken" (``endphase``, then ``morale`` for each unit flagged).

What the rules start, and when it ends (``LIFETIMES``):
- casualties held: the end of phase eight, by being removed, the units that lost figures
  owing their morale tests (what ``endphase`` does, done by the phase's end when the GM
  leaves fire orders unfired with ``next force``);
- a morale test owed: the end of the morale tests (the log says it was not taken);
- the figures fired, the targets fired on and the counter off: the end of the game turn
  ("each figure may only fire once per turn"); the distance moved and a charge: the end
  of the game turn ("this turn").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.lifetimes import Lasts, When
from tracker.core.sequence import Duty, Phase, SequenceOfPlay

from .casualties import remove_held
from .units import still_to_fire, warlord_units

if TYPE_CHECKING:
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


FIRE_ORDERS = Duty("fire orders", fire_orders_due, action="endphase", always=True)
"""Once no unit is still to fire, ``endphase`` removes the held casualties as the phase
ends; the app opens it while a fire order is left, to fire on or forfeit (force=yes)."""
MORALE_TESTS = Duty("morale tests", morale_tests_due, action="morale")

TURN_ENDS = When(at="end", of="round")
"""The end of the game turn: a round of the tracker."""

LIFETIMES = (
    Lasts("held_casualties", When(at="end", of="phase", who=FIRE_PHASE), "",
          then=remove_held),
    Lasts("morale_test", When(at="end", of="phase", who=MORALE_PHASE), "morale test not taken"),
    Lasts("fired", TURN_ENDS, ""),
    Lasts("figures_fired", TURN_ENDS, ""),
    Lasts("fire_targets", TURN_ENDS, ""),
    Lasts("moved_cm", TURN_ENDS, ""),
    Lasts("charged", TURN_ENDS, ""),
    Lasts("casualties_turn", TURN_ENDS, ""),
)

SEQUENCE = SequenceOfPlay(
    phases=(
        Phase(BEFORE_FIRE, "all", actions=("order", "movefire")),
        Phase(FIRE_PHASE, "all", actions=("fire", "holdfire", "endphase"),
              duties=(FIRE_ORDERS,)),
        Phase(MORALE_PHASE, "all", actions=("morale",), duties=(MORALE_TESTS,)),
    ),
    turns_by="round",
    lifetimes=LIFETIMES,
)
