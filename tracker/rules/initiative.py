"""Initiative rolled anew each round, for rulesets whose tables want it (a setting).

Each combatant in the fight rolls the setting's dice (``d20``, ``d100``, ``2d6``) plus its
``init_bonus`` stat; the roll orders this round's turns (highest first) and is kept on the
combatant as ``rolled_initiative``. The dice are asked for by role ``initiative`` (one
stage per combatant, in the order they are listed), so the GM can enter them; the log
names every roll.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import DiceError, parse_notation
from tracker.rules.setting import Setting

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

INITIATIVE_DICE = Setting(
    "initiative_dice",
    "",
    "dice rolled for initiative at the start of each round, plus the combatant's init_bonus"
    " stat (empty: initiative is not re-rolled)",
)

BONUS = "init_bonus"


def reroll(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """Roll every combatant's initiative for the new round, if the setting asks for it."""
    spec = str(enc.settings.get(INITIATIVE_DICE.name, INITIATIVE_DICE.default)).strip()
    if not spec:
        return []
    try:
        n = parse_notation(spec, what="initiative_dice")
    except DiceError as exc:
        return [f"initiative not re-rolled: {exc}"]
    if not n.count:
        return [f"initiative not re-rolled: initiative_dice={spec} rolls no dice"]
    parts: list[str] = []
    for c in enc.combatants:
        if c.out:
            continue
        values = dice.roll_many("initiative", n.sides, n.count, why=f"{c.name}'s initiative")
        bonus = c.stats.get(BONUS, 0) + n.modifier
        total = sum(values) + bonus
        tx.set(["combatants", c.id, "rolled_initiative"], total)
        shown = "+".join(map(str, values)) + (f"{bonus:+d}" if bonus else "")
        parts.append(f"{c.name} {total} ({shown})")
    return [f"Initiative: {', '.join(parts)}"] if parts else []
