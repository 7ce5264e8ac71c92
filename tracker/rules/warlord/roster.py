"""How the roster shows a Fantasy Warlord unit: casualties held this phase first, then
its state and its profile line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.columns import CASUALTIES, NAME, PROFILE, SIDE, STATE, STRENGTH, Column, Roster

if TYPE_CHECKING:
    from tracker.core.model import Unit

    from .model import WarlordUnit


def _marks(u: WarlordUnit) -> list[str]:
    bits: list[str] = []
    if getattr(u, "fired", False):
        bits.append("fire done")
    elif getattr(u, "figures_fired", 0):
        bits.append(f"{u.figures_fired} fired")
    if getattr(u, "charged", False):
        bits.append("charged")
    if getattr(u, "moved_cm", 0):
        bits.append(f"moved {u.moved_cm:g} cm")
    return bits


def _held(u: Any) -> bool:
    return bool(getattr(u, "held_casualties", 0))


def _to_fire(u: Any) -> bool:
    return bool(u.active and getattr(u, "weapon", "") and u.has_fire_order())


ROSTER = Roster(
    columns=(
        SIDE, NAME, STRENGTH,
        Column("Held", "held", lambda u: str(u.held_casualties or ""), priority=1),
        STATE, CASUALTIES, PROFILE,
    ),
    marks=_marks,
    filters=(("held", _held), ("to fire", _to_fire)),
    sorts=(("held", lambda u: (-u.held_casualties, u.name.lower())),),
    emphasis=_held,
)


def describe_unit(unit: Unit) -> str:
    from .model import WarlordUnit

    if not isinstance(unit, WarlordUnit):
        return unit.name
    bits = [unit.race or "?", unit.weapon or "no missiles", unit.armour_class]
    line = f"{unit.name}: {', '.join(bits)}, {unit.strength}/{unit.strength_start}"
    if unit.ranks and unit.files:
        line += f" ({unit.ranks}×{unit.files})"
    if unit.orders:
        line += f", orders {unit.orders}"
    if unit.held_casualties:
        line += f", {unit.held_casualties} killed (held)"
    if unit.morale_test:
        line += ", morale test"
    return line
