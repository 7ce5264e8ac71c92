"""Words for counts and names in what the tracker says: one place for plurals and
possessives, so every message reads "1 casualty", "2 successes", "High Elves' turn";
chances as the dialogs show them; and which typed words are whole numbers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def digits(word: str) -> bool:
    """Whether ``word`` is a whole number as typed: the digits 0 to 9 only.
    ``str.isdigit`` also takes ² and ③, which ``int`` refuses, and ٣, which it reads."""
    return word.isascii() and word.isdigit()


IRREGULAR = {"die": "dice", "man": "men", "foot": "foot", "infantry": "infantry"}
"""Plurals no rule below makes."""


def plural_of(word: str) -> str:
    """The plural of a noun, or of a phrase's last noun ("unsaved hit" → "unsaved hits")."""
    head, _, last = word.rpartition(" ")
    lower = last.lower()
    if lower in IRREGULAR:
        many = IRREGULAR[lower]
    elif lower.endswith("y") and lower[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        many = last[:-1] + "ies"
    elif lower.endswith(("s", "x", "z", "ch", "sh")):
        many = last + "es"
    else:
        many = last + "s"
    return f"{head} {many}" if head else many


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` with the noun agreeing: "1 hit", "3 hits", "2 casualties"."""
    return f"{n} {word if n == 1 else (many or plural_of(word))}"


def article(word: str) -> str:
    """``a`` or ``an`` before ``word`` (``an exchange``, ``a phase``)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def possessive(name: str) -> str:
    """"Empire's", "High Elves'"."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def percent(p: float) -> str:
    """A chance as the dialogs show it, to one decimal; a possible outcome never reads as
    0.0% and an uncertain one never as 100.0%."""
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 < p < 1:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def dice_marks(rolls: Iterable[Any]) -> str:
    """The dice of a log entry as the log shows them, in the order they fell: ``[6 5 4*]``
    (``*``: a die the tracker rolled; the GM entered the others)."""
    return "[" + " ".join(f"{r.value}{'*' if r.source == 'rolled' else ''}" for r in rolls) + "]"
