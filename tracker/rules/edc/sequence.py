"""The Esprit de Corps round (EdC): two exchanges; in each, every fighter acts once, in
order of Reflex (highest first). The round begins with the blood loss tests ("at the
beginning of each Round, all wounded characters must roll Toughness vs. their current
accumulated BL": a duty of the first exchange, owed as it begins, whose dice `next` asks
for), then the upkeep: the Combat Pool refreshed, the Missile Pool kept. In each exchange
the holder of the initiative attacks first in his bout, and what an exchange or a round
starts ends there (``acting``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.sequence import Duty, Phase, SequenceOfPlay

from .acting import LIFETIMES, order
from .pools import start_round
from .settings import BLOOD_LOSS_RAISE
from .wounds import blood_loss_tn

if TYPE_CHECKING:
    from tracker.core.model import Encounter


def bleeding(enc: Encounter) -> list[tuple[str, str]]:
    """The wounded fighters still in the fight, by Reflex, with their Toughness test."""
    rule = str(BLOOD_LOSS_RAISE.of(enc))
    fighters = sorted((c for c in enc.combatants if not c.out),
                      key=lambda c: (-getattr(c, "reflex", 0), c.name.lower()))
    out = []
    for c in fighters:
        bl = blood_loss_tn(c.wounds, rule)
        if bl > 0:
            out.append((c.id, f"Toughness {getattr(c, 'toughness', 0)} vs BL {bl}"))
    return out


BLOOD_LOSS = Duty("blood loss tests", bleeding, action="bloodloss", at="start")

SEQUENCE = SequenceOfPlay(
    phases=(Phase("exchange 1", "each", duties=(BLOOD_LOSS,)), Phase("exchange 2", "each")),
    turns_by="round",
    round_start=start_round,
    lifetimes=LIFETIMES,
    order=order,
)
