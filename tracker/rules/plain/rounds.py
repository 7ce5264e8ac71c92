"""What plain owes as each round begins: everyone's initiative die again, where the
setting says so (``initiative_each_round``). It is a duty of the round's phase owed as
it begins: ``next`` asks for its dice (the app's dice step, one die after another, ``R``
rolling the rest; ``next --dice initiative=...``; ``--roll-rest``), and ``next force``
begins the round without it (the log says so), the order standing as it was."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.sequence import Duty

from .settings import INITIATIVE_DICE, INITIATIVE_EACH_ROUND

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def each_round(enc: Encounter) -> bool:
    """Whether initiative is rolled again as each round begins."""
    again = enc.settings.get(INITIATIVE_EACH_ROUND.name, INITIATIVE_EACH_ROUND.default)
    dice = str(enc.settings.get(INITIATIVE_DICE.name, INITIATIVE_DICE.default)).strip()
    return bool(again) and bool(dice)


def rolling(enc: Encounter) -> list[tuple[str, str]]:
    """Who rolls initiative as this round begins: everyone still in the fight, with the
    die and bonus, where the setting says so."""
    if not each_round(enc):
        return []
    dice = str(enc.settings.get(INITIATIVE_DICE.name, INITIATIVE_DICE.default)).strip()
    out = []
    for c in enc.combatants:
        if not c.out:
            bonus = int(getattr(c, "init_bonus", 0) or 0)
            out.append((c.id, f"{dice}{bonus:+d}" if bonus else dice))
    return out


INITIATIVE_AGAIN = Duty("initiative", rolling, action="initiative", at="start")
"""Initiative rolled again as a round begins (``initiative_each_round``)."""
