"""Dice: a seeded RNG plus dice entered by role, with every roll recorded.

A resolver never calls ``random`` itself: it asks for a die by role (``test``,
``hit``, ``save``, ``drive`` ...). Values the GM entered for that role are used
first, in order; when they run out the seeded RNG rolls. Each roll is recorded
with its role, its number of sides and its source.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Source = Literal["rolled", "entered"]


class DiceError(ValueError):
    """An entered die value is impossible, or entered dice were left unused."""


@dataclass(frozen=True, slots=True)
class Roll:
    """One die as it fell: its role, its size, its value and where it came from."""

    role: str
    sides: int
    value: int
    source: Source

    def to_dict(self) -> dict[str, object]:
        return {"role": self.role, "sides": self.sides, "value": self.value, "source": self.source}


@dataclass
class Dice:
    """Dice for one action: entered values by role first, then a seeded RNG."""

    seed: int | None = None
    entered: dict[str, list[int]] = field(default_factory=dict)
    rolls: list[Roll] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self.entered = {role: list(values) for role, values in self.entered.items()}
        self._cursor: dict[str, int] = {role: 0 for role in self.entered}

    @classmethod
    def from_spec(cls, spec: Mapping[str, Iterable[int]] | None, seed: int | None = None) -> Dice:
        return cls(seed=seed, entered={k: list(v) for k, v in (spec or {}).items()})

    def roll(self, role: str, sides: int, *, zero_is_ten: bool = False) -> int:
        """One die of ``sides`` sides for ``role``; entered values are checked against the die.

        With ``zero_is_ten`` a d10 may be entered as 0 (as the die is printed) and reads as 10.
        """
        queue = self.entered.get(role)
        i = self._cursor.get(role, 0)
        if queue is not None and i < len(queue):
            value = queue[i]
            self._cursor[role] = i + 1
            if zero_is_ten and sides == 10 and value == 0:
                value = 10
            if sides == 100 and value == 0:
                value = 100  # percentile dice show 00 for 100
            if not 1 <= value <= sides:
                raise DiceError(f"{role}: a d{sides} cannot show {queue[i]}")
            source: Source = "entered"
        else:
            value = self._rng.randint(1, sides)
            source = "rolled"
        self.rolls.append(Roll(role, sides, value, source))
        return value

    def roll_many(self, role: str, sides: int, count: int) -> list[int]:
        return [self.roll(role, sides) for _ in range(max(0, count))]

    def unused(self) -> dict[str, list[int]]:
        """Entered values that no die asked for (a sign of a mistyped role or count)."""
        left: dict[str, list[int]] = {}
        for role, values in self.entered.items():
            rest = values[self._cursor.get(role, 0) :]
            if rest:
                left[role] = rest
        return left

    def check_all_used(self) -> None:
        left = self.unused()
        if left:
            parts = ", ".join(f"{r}={','.join(map(str, v))}" for r, v in left.items())
            raise DiceError(f"entered dice not used: {parts}")


_SPEC_ITEM = re.compile(r"^(?P<role>[a-z_][a-z0-9_]*)=(?P<values>-?\d+(?:,-?\d+)*)$")


def parse_dice_spec(items: Iterable[str]) -> dict[str, list[int]]:
    """Parse ``ROLE=V1,V2`` items (as typed after ``--dice``) into a role -> values map."""
    spec: dict[str, list[int]] = {}
    for item in items:
        m = _SPEC_ITEM.match(item.strip().lower())
        if not m:
            raise DiceError(f"bad dice '{item}': expected ROLE=V1,V2,... with whole numbers")
        spec.setdefault(m["role"], []).extend(int(v) for v in m["values"].split(","))
    return spec


# --- dice expressions for the `roll` command -------------------------------------------

_EXPR = re.compile(
    r"^(?P<count>\d*)d(?P<sides>\d+|%)"
    r"(?:(?P<keep>k[hl]?)(?P<keepn>\d+))?"
    r"(?:(?P<cmp>>=|<=|>|<|=)(?P<target>\d+))?"
    r"(?P<mod>(?:[+-]\d+)*)$"
)


@dataclass(frozen=True)
class ExprResult:
    expression: str
    dice: list[int]
    total: int
    successes: int | None

    def describe(self) -> str:
        shown = ", ".join(map(str, self.dice))
        if self.successes is not None:
            return f"{self.expression}: [{shown}] -> {self.successes} successes"
        return f"{self.expression}: [{shown}] = {self.total}"


def roll_expression(expr: str, dice: Dice, role: str = "roll") -> ExprResult:
    """Roll a dice expression: ``3d6+2``, ``d100``, ``6d10>=7`` (count successes), ``4d6kh3``."""
    text = expr.replace(" ", "").lower()
    m = _EXPR.match(text)
    if not m:
        raise DiceError(
            f"bad dice expression '{expr}': try d100, 3d6+2, 6d10>=7 (successes) or 4d6kh3"
        )
    count = int(m["count"] or 1)
    sides = 100 if m["sides"] == "%" else int(m["sides"])
    if not 1 <= count <= 1000 or not 2 <= sides <= 1000:
        raise DiceError(f"bad dice expression '{expr}': 1-1000 dice of 2-1000 sides")
    values = dice.roll_many(role, sides, count)
    kept = values
    if m["keep"]:
        n = int(m["keepn"])
        kept = sorted(values, reverse=m["keep"] != "kl")[:n]
    mod = sum(int(x) for x in re.findall(r"[+-]\d+", m["mod"] or ""))
    successes = None
    if m["cmp"]:
        target = int(m["target"])
        ops = {
            ">=": lambda v: v >= target,
            "<=": lambda v: v <= target,
            ">": lambda v: v > target,
            "<": lambda v: v < target,
            "=": lambda v: v == target,
        }
        successes = sum(1 for v in kept if ops[m["cmp"]](v))
    return ExprResult(text, values, sum(kept) + mod, successes)
