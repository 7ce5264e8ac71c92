"""Dice: values entered by the GM, asked for stage by stage, and a seeded RNG only where the
GM asked for it; every roll is recorded with its role, stage and source.

A resolver never calls ``random`` itself: it asks for dice by role and stage,
``dice.roll_many("hit", 6, 6, need=4)``. Each such request is one *stage* (the dice rolled
together at the table). Where the values come from depends on the mode:

- ``roll``: values entered for the role are used first, then the seeded RNG rolls (the GM
  entered no dice at all, or asked the tracker to roll the rest);
- ``strict``: only entered values; a stage left short is an error naming the stage, the
  count it needs and the count given (nothing is topped up silently), except a stage no
  face can change (:attr:`Request.certain`, a save at 1+), which the tracker rolls and
  marks as rolled, as the dice step does;
- ``ask``: a stage left short raises :class:`NeedDice`, so a dialog can ask the GM for
  exactly those dice and run the resolver again.

This module also holds the one parser of dice notation (``3d6+2``, ``d100``, ``6d10>=7``,
``4d6kh3``), used by the ``roll`` command and by the rules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

Source = Literal["rolled", "entered"]
Mode = Literal["roll", "strict", "ask"]
Answers = dict[str, list[tuple[int, Source]]]
"""Values by role in the order the stages use them, each with where it came from."""


class DiceError(ValueError):
    """An entered die value is impossible, dice are missing, or entered dice were left over."""


MOST_DICE = 1000
"""The most dice one stage rolls (``roll`` takes 1 to 1000 dice): more is a slip of the
keys, a pool of toughness 999999999, that no table rolls and no odds are worked out for."""


@dataclass(frozen=True, slots=True)
class Roll:
    """One die as it fell: its role, its size, its value, where it came from, its stage."""

    role: str
    sides: int
    value: int
    source: Source
    stage: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "role": self.role,
            "sides": self.sides,
            "value": self.value,
            "source": self.source,
            "stage": self.stage,
        }


@dataclass(frozen=True, slots=True)
class Request:
    """One stage as a resolver asked for it: ``count`` dice of ``sides`` for ``role``.

    ``need`` (succeeds at this or more) or ``under`` (at this or less) say how the dice are
    read, so a dialog can count successes as they are typed; ``why`` leads the prompt
    ("4 hits").
    """

    stage: int
    role: str
    sides: int
    count: int
    need: int | None = None
    under: int | None = None
    why: str = ""
    zero_is_ten: bool = False
    classes: tuple[int, ...] = ()
    """Where the rules read these dice only by kind: the kind of each face
    (``classes[v - 1]``), so that how many dice fell of each kind is all that counts
    (hits at 4+ on a d6: ``(0, 0, 0, 1, 1, 1)``). Empty: every face counts as itself."""

    @property
    def target(self) -> str:
        if self.need is not None:
            return f"{self.need}+"
        if self.under is not None:
            return f"≤ {self.under}"
        return ""

    @property
    def certain(self) -> bool:
        """Whether no face can change what the stage decides: the rules read its dice
        only by kind, and every face is of one kind (a save at 1+)."""
        return bool(self.classes) and len(set(self.classes)) == 1

    def succeeds(self, value: int) -> bool | None:
        if self.need is not None:
            return value >= self.need
        if self.under is not None:
            return value <= self.under
        return None


class NeedDice(Exception):
    """In ``ask`` mode: the resolver needs dice for this stage that were not given."""

    def __init__(self, request: Request, given: list[int]) -> None:
        super().__init__(f"{request.role}: {request.count} d{request.sides} wanted")
        self.request = request
        self.given = given


@dataclass(slots=True)
class Dice:
    """Dice for one action: entered values by role, stage by stage, then per ``mode``."""

    seed: int | None = None
    entered: dict[str, list[int]] = field(default_factory=dict)
    rolls: list[Roll] = field(default_factory=list)
    mode: Mode = "roll"
    sources: dict[str, list[Source]] = field(default_factory=dict)
    """Where each entered value came from (default: the GM entered it)."""
    requests: list[Request] = field(default_factory=list, init=False)
    """The stages asked for so far, in order."""
    _rng: random.Random = field(init=False, repr=False, compare=False)
    _cursor: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self.entered = {role: list(values) for role, values in self.entered.items()}
        self._cursor = {role: 0 for role in self.entered}

    @classmethod
    def from_spec(
        cls,
        spec: Mapping[str, Iterable[int]] | None,
        seed: int | None = None,
        *,
        roll_rest: bool = False,
    ) -> Dice:
        """Dice from ``--dice`` values: with none given the tracker rolls them all; with
        some given, every stage must be entered unless ``roll_rest``."""
        entered = {k: list(v) for k, v in (spec or {}).items()}
        mode: Mode = "roll" if roll_rest or not entered else "strict"
        return cls(seed=seed, entered=entered, mode=mode)

    @classmethod
    def from_answers(cls, answers: Answers, seed: int | None = None, mode: Mode = "ask") -> Dice:
        """Dice from a dialog: each value with its source, in the order the stages use them."""
        entered = {role: [v for v, _ in vals] for role, vals in answers.items()}
        sources = {role: [s for _, s in vals] for role, vals in answers.items()}
        return cls(seed=seed, entered=entered, mode=mode, sources=sources)

    def roll_many(
        self,
        role: str,
        sides: int,
        count: int,
        *,
        need: int | None = None,
        under: int | None = None,
        why: str = "",
        zero_is_ten: bool = False,
        classes: Sequence[int] = (),
    ) -> list[int]:
        """One stage: ``count`` dice of ``sides`` for ``role``. ``classes``: the kind of
        each face, where the rules read the dice only by kind (see :func:`face_classes`)."""
        count = max(0, count)
        if count > MOST_DICE:
            raise DiceError(f"{role}: {count} dice at once: at most {MOST_DICE} in one roll")
        if classes and len(classes) != sides:
            raise ValueError(f"{role}: {len(classes)} face classes for a d{sides}")
        req = Request(len(self.requests), role, sides, count, need, under, why, zero_is_ten,
                      tuple(classes))
        self.requests.append(req)
        values: list[int] = []
        for _ in range(count):
            values.append(self._one(req, values))
        return values

    def roll(self, role: str, sides: int, *, zero_is_ten: bool = False,
             classes: Sequence[int] = (), **how: int | str) -> int:
        """A stage of one die. With ``zero_is_ten`` a d10 may be entered as 0 (as the die
        is printed) and reads as 10; a d100 entered as 0 (00) reads as 100."""
        return self.roll_many(role, sides, 1, zero_is_ten=zero_is_ten, classes=classes,
                              **how)[0]  # type: ignore[arg-type]

    def _one(self, req: Request, so_far: list[int]) -> int:
        role, sides = req.role, req.sides
        queue = self.entered.get(role)
        i = self._cursor.get(role, 0)
        source: Source
        if queue is not None and i < len(queue):
            raw = queue[i]
            self._cursor[role] = i + 1
            value = read_face(raw, sides, req.zero_is_ten)
            if not 1 <= value <= sides:
                raise DiceError(f"{role}: a d{sides} cannot show {raw}")
            source = self.sources.get(role, [])[i] if i < len(self.sources.get(role, [])) \
                else "entered"
        elif self.mode == "ask":
            raise NeedDice(req, so_far)
        elif self.mode == "strict" and not req.certain:
            given = len(so_far)
            raise DiceError(
                f"{role}: stage {req.stage + 1} needs {req.count} d{sides}"
                f"{' (' + req.why + ')' if req.why else ''}, {given} given"
                " (enter them all, or add --roll-rest)"
            )
        else:
            value = self._rng.randint(1, sides)
            source = "rolled"
        self.rolls.append(Roll(role, sides, value, source, req.stage))
        return value

    def certain_rolled(self) -> list[str]:
        """The roles of the stages no die could change that the tracker rolled, in order."""
        roles: list[str] = []
        for r in self.rolls:
            req = self.requests[r.stage] if r.stage < len(self.requests) else None
            if r.source == "rolled" and req is not None and req.certain and r.role not in roles:
                roles.append(r.role)
        return roles

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
        if not left:
            return
        parts = []
        roles = list(dict.fromkeys(r.role for r in self.requests))
        for role, values in left.items():
            asked = sum(r.count for r in self.requests if r.role == role)
            if role in roles:
                takes = f" ({role} takes {asked} {'die' if asked == 1 else 'dice'} here)"
            else:
                takes = f" (no {role} dice asked here; asked: {', '.join(roles) or 'none'})"
            parts.append(f"{role}={','.join(map(str, values))}{takes}")
        raise DiceError(f"entered dice not used: {'; '.join(parts)}")


def face_classes(sides: int, need: int | None = None, under: int | None = None,
                 apart: Iterable[int] = ()) -> tuple[int, ...]:
    """The kinds of the faces of a die the rules read only as a success or not (at
    ``need`` or more, or at ``under`` or less), with the faces ``apart`` each a kind of
    its own (a 1 that counts towards a botch)."""
    return _face_classes(sides, need, under, tuple(sorted(set(apart))))


@lru_cache(maxsize=256)
def _face_classes(sides: int, need: int | None, under: int | None,
                  apart: tuple[int, ...]) -> tuple[int, ...]:
    alone = {face: 2 + k for k, face in enumerate(apart)}
    out = []
    for v in range(1, sides + 1):
        if v in alone:
            out.append(alone[v])
        elif need is not None:
            out.append(int(v >= need))
        elif under is not None:
            out.append(int(v <= under))
        else:
            out.append(0)
    return tuple(out)


def read_face(raw: int, sides: int, zero_is_ten: bool = False) -> int:
    """A typed value as the face it stands for: a d10's 0 as 10 where the text reads it
    so, a d100's 00 as 100."""
    if raw == 0 and zero_is_ten and sides == 10:
        return 10
    if raw == 0 and sides == 100:
        return 100
    return raw


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


# --- dice notation ---------------------------------------------------------------------

_NOTATION = re.compile(
    r"^(?:(?P<count>\d*)d(?P<sides>\d+|%))?"
    r"(?:(?P<keep>k[hl]?)(?P<keepn>\d+))?"
    r"(?:(?P<cmp>>=|<=|>|<|=)(?P<target>\d+))?"
    r"(?P<mod>(?:[+-]\d+)*)$"
)


@dataclass(frozen=True, slots=True)
class Notation:
    """Dice notation read: ``count`` d ``sides``, keep, compare, then a modifier.

    A plain number (``4``) has no dice: ``count`` 0 and the number as ``modifier``.
    """

    text: str
    count: int
    sides: int
    keep: str = ""
    keep_n: int = 0
    cmp: str = ""
    target: int = 0
    modifier: int = 0

    @property
    def plain(self) -> bool:
        """Just ``NdS``: no keep, compare or modifier."""
        return bool(self.count) and not (self.keep or self.cmp or self.modifier)

    def with_modifier(self, delta: int) -> str:
        """The notation with ``delta`` added to its modifier (``d12+4`` - 3 = ``d12+1``)."""
        total = self.modifier + delta
        if not self.count:
            return str(total)
        dice = f"{self.count if self.count > 1 else ''}d{self.sides}"
        return dice + (f"{total:+d}" if total else "")


def parse_notation(expr: str, *, what: str = "dice") -> Notation:
    """Read dice notation, or raise DiceError saying what is expected."""
    text = expr.replace(" ", "").lower()
    if re.fullmatch(r"[+-]?\d+", text):
        return Notation(text, 0, 0, modifier=int(text))
    m = _NOTATION.match(text)
    if not text or not m or not (m["sides"] or m["mod"]):
        raise DiceError(
            f"bad {what} '{expr}': try d100, 3d6+2, 6d10>=7 (successes) or 4d6kh3"
        )
    if m["sides"] is None:
        if m["keep"] or m["cmp"]:
            raise DiceError(f"bad {what} '{expr}': keep and compare need dice, like 4d6kh3")
        return Notation(text, 0, 0, modifier=_modifier(m["mod"]))
    count = int(m["count"] or 1)
    sides = 100 if m["sides"] == "%" else int(m["sides"])
    return Notation(
        text, count, sides, m["keep"] or "", int(m["keepn"] or 0), m["cmp"] or "",
        int(m["target"] or 0), _modifier(m["mod"]),
    )


def _modifier(text: str | None) -> int:
    return sum(int(x) for x in re.findall(r"[+-]\d+", text or ""))


@dataclass(frozen=True, slots=True)
class ExprResult:
    expression: str
    dice: list[int]
    total: int
    successes: int | None

    def describe(self) -> str:
        shown = ", ".join(map(str, self.dice))
        if self.successes is not None:
            word = "success" if self.successes == 1 else "successes"
            return f"{self.expression}: [{shown}] -> {self.successes} {word}"
        return f"{self.expression}: [{shown}] = {self.total}"


_COMPARE = {
    ">=": lambda v, t: v >= t,
    "<=": lambda v, t: v <= t,
    ">": lambda v, t: v > t,
    "<": lambda v, t: v < t,
    "=": lambda v, t: v == t,
}


def roll_expression(expr: str, dice: Dice, role: str = "roll") -> ExprResult:
    """Roll a dice expression: ``3d6+2``, ``d100``, ``6d10>=7`` (count successes), ``4d6kh3``."""
    n = parse_notation(expr, what="dice expression")
    if not n.count:
        raise DiceError(f"bad dice expression '{expr}': it rolls no dice (try d6+{n.modifier})")
    if not 1 <= n.count <= MOST_DICE or not 2 <= n.sides <= 1000:
        raise DiceError(f"bad dice expression '{expr}': 1-{MOST_DICE} dice of 2-1000 sides")
    need = n.target if n.cmp == ">=" else None
    under = n.target if n.cmp == "<=" else None
    values = dice.roll_many(role, n.sides, n.count, need=need, under=under)
    kept = values
    if n.keep:
        kept = sorted(values, reverse=n.keep != "kl")[: n.keep_n]
    successes = None
    if n.cmp:
        successes = sum(1 for v in kept if _COMPARE[n.cmp](v, n.target))
    return ExprResult(n.text, values, sum(kept) + n.modifier, successes)
