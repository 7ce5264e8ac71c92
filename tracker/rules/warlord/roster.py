"""How the roster shows a Fantasy Warlord unit: its state leads with the casualties it
holds this phase (drawn in bold) and whether it has fired this turn; its profile last."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tracker.rules.columns import CASUALTIES, NAME, PROFILE, SIDE, STATE, STRENGTH, Roster
from tracker.rules.errors import RuleError

from .later import model, profiles

if TYPE_CHECKING:
    from tracker.core.model import Unit

    from .model import WarlordUnit


def _marks(u: WarlordUnit) -> list[str]:
    bits: list[str] = []
    if getattr(u, "held_casualties", 0):
        bits.append(f"{u.held_casualties} held")
    if getattr(u, "fired", False):
        # its fire order counter is off: it has finished firing (the word the fire
        # action marks a unit with in the phase, so the roster says it once)
        bits.append("fired")
    if getattr(u, "charged", False):
        bits.append("charged")
    return bits


def _held(u: Any) -> bool:
    return bool(getattr(u, "held_casualties", 0))


def _to_fire(u: Any) -> bool:
    return bool(u.active and getattr(u, "weapon", "") and u.has_fire_order())


def _orders(u: Any) -> str:
    """A unit still to fire shows its orders without the fire the "to fire" mark says
    ("to fire, advance", not "to fire, advance and fire")."""
    orders = str(u.orders)
    if _to_fire(u):
        orders = orders.replace(" and fire", "").strip()
        if orders.lower() == "fire":
            return ""
    return orders


ROSTER = Roster(
    columns=(
        SIDE, NAME, STRENGTH, STATE, CASUALTIES, PROFILE,
    ),
    marks=_marks,
    filters=(("held", _held), ("to fire", _to_fire)),
    sorts=(("held", lambda u: (-u.held_casualties, u.name.lower())),),
    emphasis=_held,
    orders=_orders,
)


def _profile_words(race: str, weapon: str, armour: str, sheet_path: str) -> list[str]:
    """The race's, weapon's and armour's names on the encounter's profile sheet (empty
    path: the shipped one), or their keys where the sheet does not have them or cannot
    be read."""

    words = [race or "?", weapon or "no missiles", armour]
    try:
        sheet = profiles.load_sheet(sheet_path)
    except RuleError:
        return words
    words[2] = sheet.armour.get(armour, armour).lower()
    try:
        profile = sheet.race(race) if race else None
        if profile is not None:
            words[0] = profile.name
            if weapon:
                words[1] = profile.weapon(weapon).name
    except RuleError:
        pass
    return words


def describe_unit(unit: Unit, settings: Mapping[str, Any] | None = None) -> str:
    """One line of a unit's profile, named as the encounter's profile sheet
    (``settings["profiles"]``, resolved in the save's folder) names them."""
    if not isinstance(unit, model.WarlordUnit):
        return unit.name
    sheet = str((settings or {}).get("profiles") or "")
    bits = _profile_words(unit.race, unit.weapon, unit.armour_class, sheet)
    line = f"{unit.name}: {', '.join(bits)}, {unit.strength}/{unit.strength_start}"
    if unit.ranks and unit.files:
        line += f" ({unit.ranks}×{unit.files})"
    if unit.orders:
        line += f", orders {unit.orders}"
    if unit.moved_cm:
        line += f", moved {unit.moved_cm:g} cm"
    if unit.held_casualties:
        line += f", {unit.held_casualties} killed (held)"
    if unit.morale_test:
        line += ", morale test"
    return line
