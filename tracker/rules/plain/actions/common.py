"""What the plain actions share: finding a combatant, and damage dice and damage as they
fall."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import Stage

from ..damage import Damage

if TYPE_CHECKING:
    from tracker.core.model import Combatant, Encounter

ROLLS = ("normal", "advantage", "disadvantage")
"""How a d20 is rolled: one die, or two and the higher (lower) counts."""
DAMAGE = "damage"
"""The role of the damage dice."""


def combatant(enc: Encounter, name: Any) -> Combatant | None:
    """The combatant ``name`` names, or None (a name the encounter does not know)."""
    if not isinstance(name, str) or not name:
        return None
    try:
        return enc.find_combatant(name)
    except LookupError:
        return None


def damage_stage(help: str) -> Stage:
    """The stage of the damage dice: the dice the damage names (``1d8+3``), for ``DAMAGE``."""
    return Stage(DAMAGE, "dice", help, label="for damage")


def damage_count(dmg: Damage, critical: bool, crit_damage: str) -> int:
    """How many damage dice are rolled: twice as many on a critical hit, where its
    damage is the dice rolled twice."""
    return dmg.count * 2 if critical and crit_damage == "dice" else dmg.count


def damage_total(dmg: Damage, faces: list[int], critical: bool, crit_damage: str) -> int:
    """The damage the dice make, never below 0: on a critical hit the dice at their
    most plus the roll (``max``) or the whole doubled (``total``)."""
    amount = sum(faces) + dmg.modifier
    if critical and crit_damage == "max":
        amount += dmg.count * dmg.sides
    elif critical and crit_damage == "total":
        amount *= 2
    return max(0, amount)


def halved(amount: int, rounds: str) -> int:
    """Half damage, rounded down or up."""
    return (amount + 1) // 2 if rounds == "up" else amount // 2
