"""The Esprit de Corps round (EdC): two exchanges; in each, every fighter acts once, in
order of Reflex (highest first). The round starts with the upkeep: Toughness against the
Blood Loss TN for the wounded, the Combat Pool refreshed, the Missile Pool kept."""

from __future__ import annotations

from tracker.core.sequence import Phase, SequenceOfPlay

from .pools import start_round

SEQUENCE = SequenceOfPlay(
    phases=(Phase("exchange 1", "each"), Phase("exchange 2", "each")),
    turns_by="round",
    round_start=start_round,
)
