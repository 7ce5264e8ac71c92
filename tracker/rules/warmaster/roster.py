"""How the roster shows a Warmaster unit: hits and leftover hits first, then its state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tracker.rules.columns import CASUALTIES, KIND, NAME, SIDE, STATE, STRENGTH, Column, Roster

if TYPE_CHECKING:
    from tracker.core.model import Unit

    from .model import WarmasterUnit


def _marks(u: WarmasterUnit) -> list[str]:
    bits: list[str] = []
    if getattr(u, "confused", False):
        bits.append("confused: no move")
    if getattr(u, "driven_back", 0):
        bits.append(f"back {u.driven_back}")
    if getattr(u, "position", "open") != "open":
        bits.append(u.position)
    if getattr(u, "carried_hits", 0):
        bits.append(f"+{u.carried_hits} to combat")
    return bits


def _hit(u: Any) -> bool:
    return bool(getattr(u, "hits", 0) or getattr(u, "leftover_hits", 0))


ROSTER = Roster(
    # what changes in play first, the unit's profile last: at 80 columns the roster shows
    # hits, leftover hits and state, and the profile gives way
    columns=(
        SIDE, NAME, STRENGTH,
        Column("Hits", "hits", lambda u: str(u.hits or ""), priority=1),
        Column("Left", "leftover", lambda u: str(u.leftover_hits or ""), priority=1),
        STATE, CASUALTIES, KIND,
        Column("Att", "attacks", lambda u: u.attacks, priority=7),
        Column("Arm", "armour", lambda u: f"{u.armour}+" if u.armour else "-", priority=7),
    ),
    marks=_marks,
    filters=(("hit", _hit), ("confused", lambda u: bool(getattr(u, "confused", False)))),
    sorts=(("hits", lambda u: (-(u.hits + u.leftover_hits), u.name.lower())),),
    emphasis=_hit,
)


def describe_unit(unit: Unit, settings: Mapping[str, Any] | None = None) -> str:
    u: WarmasterUnit = unit  # type: ignore[assignment]
    armour = f"{u.armour}+" if u.armour else "0"
    bits = [
        f"{u.kind} {u.strength}/{u.strength_start} stands",
        f"A {u.attacks}",
        f"H {u.hits_per_stand}",
        f"Arm {armour}",
        f"pace {u.pace if u.pace is not None else '?'}",
    ]
    if u.hits or u.leftover_hits:
        bits.append(f"hits {u.hits} (leftover {u.leftover_hits})")
    if u.carried_hits:
        bits.append(f"carried {u.carried_hits}")
    if u.position != "open":
        bits.append(u.position + (f", {u.exposed} exposed" if u.exposed else ""))
    for flag in ("engaged", "confused", "routed", "removed"):
        if getattr(u, flag):
            bits.append(flag)
    if u.driven_back:
        bits.append(f"driven back {u.driven_back} cm")
    return ", ".join(bits)
