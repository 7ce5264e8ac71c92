"""Dice as the GM types them at the table, read into faces.

- dice of up to nine sides, and a d10 whose 0 reads as ten: one digit a die, with or
  without separators (``124566``, ``1 2 4``, ``1,2,4``); on that d10 ``10`` typed on its
  own (between separators) is a ten too, as ``0`` is (``10 3`` is a ten and a 3);
- a d10 where the text reads 10: ``10`` is a ten, any other digit one die;
- a d100: one number a die (``45``, ``00`` or ``100`` for a hundred), or tens and units
  typed apart (``4 5``);
- any other die: one number a die, separated (``12 3 20``).
"""

from __future__ import annotations

import re

from tracker.core.words import digits

from .dice import DiceError

_SEPARATORS = re.compile(r"[\s,;/]+")


def read_entry(text: str, sides: int, zero_is_ten: bool = False) -> list[int]:
    """The faces typed, in order; DiceError naming the first that the die cannot show."""
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    for token in tokens:
        if not digits(token):
            raise DiceError(f"'{token}': dice are whole numbers, like 1 2 4 or 124")
    if sides == 100:
        faces = _percentile(tokens)
    elif sides == 10 and zero_is_ten:
        faces = [10 if c == "0" else int(c)
                 for t in tokens for c in (["0"] if t == "10" else t)]
    elif sides < 10:
        faces = [int(c) for t in tokens for c in t]
    elif sides == 10:
        faces = [int(x) for t in tokens for x in re.findall(r"10|\d", t)]
    else:
        faces = [int(t) for t in tokens]
    for face in faces:
        if not 1 <= face <= sides:
            shown = "0" if face == 0 else str(face)
            ten = "; a ten is 10" if sides == 10 else ""
            raise DiceError(f"a d{sides} shows 1 to {sides}, not {shown}{ten}")
    return faces


def entry_hint(sides: int, zero_is_ten: bool = False) -> str:
    """How to type the dice of this die, as the dice step's empty entry says it."""
    if sides < 10:
        run = "".join(str(min(f, sides)) for f in (1, 2, 4, 5, 6, 6))
        return f"one digit a die: {run} or {' '.join(run[:3])}"
    if sides == 10 and zero_is_ten:
        return "one digit a die, 0 (or 10 alone) a ten: 3071 or 3 0 7 1"
    if sides == 10:
        return "one digit a die, 10 a ten: 3 10 7 or 3107"
    if sides == 100:
        return "one number a die: 45, 00 for 100; or tens and units: 4 5"
    return f"one number a die, separated: {min(12, sides)} 3 {sides}"


def _percentile(tokens: list[str]) -> list[int]:
    """d100s: each number one die; two single digits in a row are its tens and units."""
    faces: list[int] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if len(token) == 1 and i + 1 < len(tokens) and len(tokens[i + 1]) == 1:
            value = int(token) * 10 + int(tokens[i + 1])
            i += 2
        else:
            value = int(token)
            i += 1
        faces.append(100 if value == 0 else value)
    return faces


def show_faces(faces: list[tuple[int, bool]]) -> str:
    """Faces as the dice step and the log show them: a tracker-rolled die marked ``*``."""
    return " ".join(f"{v}{'*' if rolled else ''}" for v, rolled in faces)
