"""Damage dice and a combatant's usual attack, as the GM types them: ``1d8+3``, ``2d6``,
``8``; an attack is its bonus and its damage, ``+4 1d6+2``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tracker.core.dice import DiceError, parse_notation
from tracker.rules.errors import RuleError

MOST_DICE = 100
"""No more damage dice than this in one roll (a critical hit may double them)."""


@dataclass(frozen=True, slots=True)
class Damage:
    """``count`` d ``sides`` plus ``modifier`` (a plain number has no dice)."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        if not self.count:
            return str(self.modifier)
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"


def read_damage(text: str, what: str = "damage") -> Damage:
    """Damage dice as typed; RuleError naming the value and what is expected."""
    try:
        n = parse_notation(text, what=what)
    except DiceError:
        n = None
    if n is None or n.keep or n.cmp:
        raise RuleError(f"{what}={text}: expected dice and a bonus, like 1d8+3, 2d6 or 8")
    if n.count and not (1 <= n.count <= MOST_DICE and 2 <= n.sides <= 100):
        raise RuleError(f"{what}={text}: 1 to {MOST_DICE} dice of 2 to 100 sides")
    return Damage(n.count, n.sides, n.modifier)


_ATTACK = re.compile(r"^\s*(?P<bonus>[+-]?\d+)\s+(?P<damage>\S+)\s*$")


def read_attack(text: str) -> tuple[int, Damage]:
    """``+4 1d6+2``: the attack bonus and the damage; RuleError saying what is expected."""
    m = _ATTACK.match(text)
    if m is None:
        raise RuleError(f"attack={text}: expected a bonus and damage dice, like +4 1d6+2")
    return int(m["bonus"]), read_damage(m["damage"])
