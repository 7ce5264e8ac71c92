"""The HârnMaster round: every combatant acts once, in its own turn, in order of
Initiative Rating (IR), highest first (ties: setting ``initiative_ties``).

What the missile actions start ends where the Missile Sequence says: the half move, the
movement as a target and the round's missile action end with the round (declared here);
the aim's +10 ends with the shot that uses it or at the end of the next round, and the
Ignore defence of a load, aim or span at the start of the actor's next turn (timed
effects, ``effects.py``). Tables that roll initiative anew each round set
``initiative_dice``: everyone's die is then owed as the fight begins and as each round
begins (:mod:`tracker.rules.initiative`), asked for, never rolled unasked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.lifetimes import Lasts, When
from tracker.core.sequence import Duty, Phase, SequenceOfPlay
from tracker.rules.initiative import INITIATIVE_DICE, initiative_owed

from . import injuries
from .upkeep import start_round

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def every_round(enc: Encounter) -> bool:
    """Where the table rolls initiative, it does so each round."""
    return True


INITIATIVE = initiative_owed(INITIATIVE_DICE, every_round)
"""Each one's initiative die, where ``initiative_dice`` names any."""

ROUND_END = When(at="end", of="round")

LIFETIMES = (
    Lasts("moved", ROUND_END, "half move over"),
    Lasts("movement", ROUND_END, "a still target again"),
    Lasts("last_action", ROUND_END, "missile action of the round over"),
    Lasts("acted_round", ROUND_END, ""),
)
"""The fields the missile actions set that end with the round."""

INJURY_LEVELS = Duty("injury levels", injuries.owed, action="injury",
                     entered="the tracker rolls no injury level: the GM enters it from the "
                     "Injury Sequence table")
"""A strike's injury level, the GM's to enter (``injury``) before the round of the strike
ends: no die of the tracker's gives it (``--roll-rest`` cannot); ``next force`` leaves it
undone, and it is not owed again."""

SEQUENCE = SequenceOfPlay(phases=(Phase("", duties=(INITIATIVE, INJURY_LEVELS)),),
                          round_start=start_round, lifetimes=LIFETIMES)
