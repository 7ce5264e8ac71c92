"""A strike's injury: the level the GM enters from the Injury Sequence (not printed in the
Missile Sequence), its domain, and the levels still owed as the round ends."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated

from pydantic import AfterValidator

if TYPE_CHECKING:
    from tracker.core.model import Encounter

_LEVEL = re.compile(r"\d+")
LEVELS = range(1, 6)
"""The Injury Sequence's levels, M1 to G5 (its table is not printed)."""
PENDING = "; injury level: GM to enter"
"""What a strike's wound notes until the GM enters its level (``injury``)."""


def injury_level(code: str) -> int:
    """The level number of an injury code: S2p -> 2, G4 -> 4, M1 -> 1."""
    m = _LEVEL.search(code or "")
    return int(m.group()) if m else 0


def injury_code(code: str) -> str:
    """An injury code as typed, refused where it names no level of 1 to 5: the domain of
    ``injury level=`` and of an attack's ``injury=`` (empty: not given)."""
    if code and injury_level(code) not in LEVELS:
        raise ValueError("an injury code with its level, 1 to 5 (M1, S2p, G4 ...)")
    return code


InjuryCode = Annotated[str, AfterValidator(injury_code)]
"""A parameter that takes an injury code (``injury level=``, an attack's ``injury=``)."""


def owed(enc: Encounter) -> list[tuple[str, str]]:
    """Who bears a wound struck this round whose injury level the GM has not entered yet
    (the wounds pane says which): owed as the round ends, since the Injury Sequence
    follows the strike."""
    out = []
    for c in enc.combatants:
        n = sum(1 for w in c.wounds if w.round == enc.position.round and PENDING in w.note)
        if n:
            out.append((c.id, "injury level owed" if n == 1 else f"{n} injury levels owed"))
    return out


def first_owed(wounds: list[object]) -> int | None:
    """The number (1 = first) of the first wound still owed its injury level."""
    return next((n for n, w in enumerate(wounds, 1) if PENDING in getattr(w, "note", "")),
                None)
