"""How the roster shows a d6battle unit: its figures, its state with the duties it still
has (a morale test due, fleeing in the resolution phase), then its profile."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tracker.rules.columns import CASUALTIES, NAME, SIDE, STATE, STRENGTH, Column, Roster

from .later import model
from .tables import weapon
from .turn import flees

if TYPE_CHECKING:
    from tracker.core.model import Unit


def _marks(u: Any) -> list[str]:
    """Its own words, after routed and engaged (a queued morale test follows them)."""
    bits: list[str] = []
    if flees(u):
        bits.append("flees")
    if getattr(u, "disordered", False):
        bits.append("disordered")
    if getattr(u, "push_shove", 0):
        bits.append(f"push +{u.push_shove}")
    return bits


def pending(u: Any) -> list[str]:
    """Duties a unit still has: a morale test queued by shooting casualties, and the
    flight of a unit that failed one or routed in combat (it flees in the resolution
    phase)."""
    duties: list[str] = []
    if u.morale_test and u.active:
        duties.append("morale test")
    if flees(u):
        duties.append("flee")
    return duties


def _stat(key: str) -> Any:
    return lambda u: str(getattr(u, key, ""))


def _weapon(u: Any) -> str:
    return weapon(u.weapon).name if getattr(u, "weapon", "") else ""


def _save(u: Any) -> str:
    return str(u.save) if hasattr(u, "save") else ""


ROSTER = Roster(
    # at 80 columns: side, name, figures, state (its duties among them) and casualties;
    # the profile gives way first
    columns=(
        SIDE, NAME, STRENGTH, STATE, CASUALTIES,
        Column("Turn", "casualties_turn", lambda u: str(u.casualties_turn or ""), priority=4),
        Column("SA", "sa", _stat("sa"), priority=6),
        Column("CA", "ca", _stat("ca"), priority=6),
        Column("Mo", "mo", _stat("mo"), priority=5),
        Column("D", "durability", _stat("durability"), priority=6),
        Column("Sv", "save", _save, priority=6),
        Column("Weapon", "weapon", _weapon, priority=7),
        Column("Formation", "formation", lambda u: f"{u.formation} {u.kind}", priority=7),
    ),
    marks=_marks,
    filters=(
        ("morale test", lambda u: bool(u.morale_test) and u.active),
        ("fleeing", flees),
    ),
    sorts=(("casualties", lambda u: (-u.casualties_turn, -u.casualties_total,
                                     u.name.lower())),),
    emphasis=lambda u: bool(pending(u)),
    pending=pending,
)


def describe_unit(unit: Unit, settings: Mapping[str, Any] | None = None) -> str:
    """One line of a unit's profile."""
    if not isinstance(unit, model.D6Unit):
        return ""
    bits = [f"SA{unit.sa} CA{unit.ca} Mo{unit.mo} D{unit.durability} Sv{unit.save}"]
    if unit.weapon:
        bits.append(weapon(unit.weapon).name)
    bits.append(f"{unit.formation} {unit.kind}")
    if unit.disordered:
        bits.append("disordered")
    if unit.morale_test:
        bits.append("MORALE TEST")
    if unit.flee:
        bits.append("ROUTED" if unit.flee == "rout" else "FLEES")
    return ", ".join(bits)
