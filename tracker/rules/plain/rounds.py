"""What plain does as each round begins: initiative rolled again, where the setting says
so (``initiative_each_round``), by the ``initiative`` action with the dice given to
``next`` (``--dice initiative=...``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .settings import INITIATIVE_DICE, INITIATIVE_EACH_ROUND

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


def each_round(enc: Encounter) -> bool:
    """Whether initiative is rolled again as each round begins."""
    again = enc.settings.get(INITIATIVE_EACH_ROUND.name, INITIATIVE_EACH_ROUND.default)
    dice = str(enc.settings.get(INITIATIVE_DICE.name, INITIATIVE_DICE.default)).strip()
    return bool(again) and bool(dice) and any(not c.out for c in enc.combatants)


def round_start(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """Initiative again, where the setting says so; the log's line."""
    if not each_round(enc):
        return []
    from .actions.initiative import INITIATIVE

    raw = INITIATIVE.fill(enc, {})
    raw["dice"] = enc.settings.get(INITIATIVE_DICE.name, INITIATIVE_DICE.default)
    params = INITIATIVE.parse_params(raw)
    res = INITIATIVE.resolve(params, dice)
    INITIATIVE.apply(enc, params, res, tx)
    return [res.text]
