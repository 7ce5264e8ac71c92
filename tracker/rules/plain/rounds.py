"""What plain owes as a round begins: everyone's initiative die as the fight begins
(its first ``n``), and again as each round begins where ``initiative_each_round`` says
so (:mod:`tracker.rules.initiative`), while ``initiative_dice`` names any."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.rules.initiative import initiative_owed

from .settings import INITIATIVE_DICE, INITIATIVE_EACH_ROUND

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def each_round(enc: Encounter) -> bool:
    """Whether initiative is rolled again as each round begins."""
    return bool(INITIATIVE_EACH_ROUND.of(enc))


INITIATIVE_AGAIN = initiative_owed(INITIATIVE_DICE, each_round)
"""Initiative rolled as the fight begins and, where the setting says so, each round."""
