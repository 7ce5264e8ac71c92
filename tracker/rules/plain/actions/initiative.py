"""``initiative``: each combatant's initiative die, as rolled at the table
(:mod:`tracker.rules.initiative_action`): ``initiative_dice`` plus its ``init_bonus``,
the total its ``initiative``; equal totals as ``initiative_ties`` says, a group or a
side acting together (``group_initiative``) rolling once. Owed as the fight begins, and
as each round begins where ``initiative_each_round`` says so (``rounds.py``)."""

from __future__ import annotations

from tracker.rules.base import param
from tracker.rules.initiative_action import Initiative, InitiativeParams

from ..domains import InitBonus
from ..settings import INITIATIVE_DICE


class PlainInitiativeParams(InitiativeParams):
    bonuses: tuple[InitBonus, ...] | None = param(None, "each one's init_bonus, in that order "
                                                   "(default: their own)")
    dice: str = param(help="the dice of initiative", setting=INITIATIVE_DICE)


class PlainInitiative(Initiative):
    params_model = PlainInitiativeParams


INITIATIVE = PlainInitiative()
