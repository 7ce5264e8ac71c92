"""Hit points taken and healed, and health in words: the one place their rules live.

Damage comes off temporary hit points first, then hit points, never below 0; at 0 the
combatant is down: out of the fight, skipped in the order, until healed above 0 (undo
brings it back too). Healing stops at ``max_hp`` and never touches temporary points.
Health in words, for those who may not see the numbers: unhurt (at the maximum),
hurt, bloodied (at half or less), down (at 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tracker.core.history import Transaction

DEFENCE_WORD = r"[a-z_][a-z0-9_]*"
"""A defence's name: ``ac``, ``will``, ``dex_save``."""

WORDS = ("unhurt", "hurt", "bloodied", "down")
"""Health in words, best first."""


def health_word(hp: int | None, max_hp: int | None) -> str:
    """``unhurt``, ``hurt``, ``bloodied`` (half or less) or ``down``; "" when not tracked."""
    if hp is None:
        return ""
    if hp <= 0:
        return "down"
    if max_hp is None or hp >= max_hp:
        return "unhurt"
    return "bloodied" if 2 * hp <= max_hp else "hurt"


def tracked(who: Any) -> bool:
    """Whether ``who`` has hit points the tracker keeps."""
    return getattr(who, "hp", None) is not None


def standing(who: Any) -> int | None:
    """What damage must reach to put ``who`` down: hit points and temporary ones (None:
    not kept)."""
    return who.hp + who.temp_hp if tracked(who) else None


def points(who: Any) -> str:
    """``17/24 +5``: hit points, their maximum, temporary points."""
    if not tracked(who):
        return ""
    text = f"{who.hp}/{who.max_hp}" if who.max_hp is not None else str(who.hp)
    return f"{text} +{who.temp_hp}" if who.temp_hp else text


def defence(who: Any, name: str) -> int | None:
    """The defence ``name`` of a combatant (``ac`` or a stat), None where it has none."""
    if name == "ac":
        return getattr(who, "ac", None)
    value = who.stats.get(name)
    return value if isinstance(value, int) else None


@dataclass(frozen=True, slots=True)
class Hurt:
    """What damage did: temporary points lost, hit points before and after."""

    amount: int
    temp_lost: int
    before: int
    after: int

    def words(self) -> str:
        """``9 damage (5 temp), 7 → 3 hp`` or ``..., 7 → 0 hp: down``."""
        temp = f" ({self.temp_lost} temp)" if self.temp_lost else ""
        text = f"{self.amount} damage{temp}, {self.before} → {self.after} hp"
        return f"{text}: down" if self.after == 0 else text


def hurt_by(temp_hp: int, hp: int, amount: int) -> Hurt:
    """``amount`` damage to a combatant with these points (temporary ones first)."""
    temp_lost = min(temp_hp, amount)
    return Hurt(amount, temp_lost, hp, max(0, hp - (amount - temp_lost)))


def take_damage(tx: Transaction, who: Any, amount: int) -> str:
    """Damage through ``tx``: temporary points first, down at 0. The log's words."""
    hurt = hurt_by(who.temp_hp, who.hp, amount)
    path = ["combatants", who.id]
    tx.set([*path, "temp_hp"], who.temp_hp - hurt.temp_lost)
    tx.set([*path, "hp"], hurt.after)
    if hurt.after == 0:
        tx.set([*path, "out"], True)
    return f"{who.name}: {hurt.words()}"


def heal(tx: Transaction, who: Any, amount: int) -> str:
    """Healing through ``tx``, up to the maximum; a combatant down is back up above 0."""
    before = who.hp
    top = who.max_hp if who.max_hp is not None else before + amount
    after = min(top, before + amount)
    path = ["combatants", who.id]
    tx.set([*path, "hp"], after)
    gained = f"{amount}" if after - before == amount else f"{after - before} of {amount}"
    text = f"{who.name}: healed {gained}, {before} → {after} hp"
    if after - before < amount:
        text += " (its maximum)"
    if before == 0 and after > 0 and who.out:
        tx.set([*path, "out"], False)
        text += ": back up"
    return text


def describe(who: Any) -> str:
    """The detail line's summary: ``foes · hp 17/24 +5 (hurt) · AC 15 · attack +4 1d6+2 ·
    initiative 14 (+2)`` (the side first: a narrow row gives its column up)."""
    parts: list[str] = [who.side] if who.side else []
    if tracked(who):
        parts.append(f"hp {points(who)} ({health_word(who.hp, who.max_hp)})")
    for name in str(getattr(who, "defences", "ac")).split(","):
        value = defence(who, name) if name else None
        if value is not None:
            parts.append(f"{name.upper() if name == 'ac' else name} {value}")
    if getattr(who, "attack", ""):
        parts.append(f"attack {who.attack}")
    bonus = getattr(who, "init_bonus", 0)
    parts.append(f"initiative {who.initiative}" + (f" ({bonus:+d})" if bonus else ""))
    return " · ".join(parts)
