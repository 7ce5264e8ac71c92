"""``initiative``: each combatant's initiative die, where the table rolls initiative anew
each round (``initiative_dice``, plus the ``init_bonus`` stat;
:mod:`tracker.rules.initiative_action`). The total is the round's rolled initiative,
which orders the turns in place of the Initiative Rating (IR); equal totals as
``initiative_ties`` says. Owed as the fight begins and as each round begins."""

from __future__ import annotations

from typing import ClassVar

from tracker.rules.base import param
from tracker.rules.initiative import INITIATIVE_DICE
from tracker.rules.initiative_action import Initiative, InitiativeParams


class HarnInitiativeParams(InitiativeParams):
    dice: str = param(help="the dice of initiative", setting=INITIATIVE_DICE)


class HarnInitiative(Initiative):
    params_model = HarnInitiativeParams
    field: ClassVar[str] = "rolled_initiative"


INITIATIVE = HarnInitiative()
