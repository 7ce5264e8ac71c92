"""What a shot takes from the encounter (``fill``) and writes back to it (``apply``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import RuleError

from ..common import CP, MP, combatant_or_none, missing
from ..pools import spend
from ..wounds import add_wound

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .missile import MissileFigures, MissileParams


def fill_missile(enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
    """The shooter's Aim (refusing dice beyond the MP), the target's Toughness, armour, CP."""
    out: dict[str, Any] = {}
    c = combatant_or_none(enc, given.get("actor"))
    t = combatant_or_none(enc, given.get("target"))
    if c is not None:
        if missing(given, "aim"):
            out["aim"] = c.aim
        left = c.pool(MP).left
        need = (given.get("dice") or 0) + (given.get("aim_dice") or 0)
        if need > left:
            raise RuleError(f"{c.name} has {left} MP left; the shot needs {need}")
    if t is not None:
        for key, value in (("toughness", t.toughness), ("armour", t.armour),
                           ("target_cp", t.pool(CP).left)):
            if missing(given, key):
                out[key] = value
    return out


def not_ready(c: Any) -> list[str]:
    """A shooter with no missile ready and no MP to shoot with shoots not."""
    if c is None or c.missile_ready or c.pool(MP).left:
        return []
    return [f"{c.name} has no missile ready (missile_prep first)"]


def apply_missile(enc: Encounter, p: MissileParams, f: MissileFigures, tx: Transaction) -> None:
    """MP spent, the defence's CP, the shield's block, the wound and its Shock."""
    c = combatant_or_none(enc, p.actor)
    t = combatant_or_none(enc, p.target)
    if c is not None:
        spend(c, f.mp_spent, tx, "the shot", MP)
        tx.set(["combatants", c.id, "fired"], True)
        tx.set(["combatants", c.id, "missile_ready"], False)
    if t is None:
        return
    if p.defense != "none" and p.defense_from == "cp":
        spend(t, p.defense_dice, tx, "the defence")
    if p.defense == "block" and p.defended:
        tx.set(["combatants", t.id, "shield_used"], True)
    wound = f.wound()
    if f.hit and wound is not None and wound.wound_level > 0:
        add_wound(enc, t, wound, tx)
