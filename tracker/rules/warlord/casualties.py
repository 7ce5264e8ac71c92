"""The casualties held through phase eight, removed together when every unit has fired,
and the morale tests they make owed: one unit's removal, shared by ``endphase`` and by
the phase's end when the GM leaves fire orders unfired (``next force``)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from tracker.rules.base import Figures

from .numbers import json_number
from .settings import MORALE_TEST_WHEN, MORALE_THRESHOLDS, parse_thresholds
from .units import find_unit

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import WarlordUnit


class Removed(Figures):
    """One unit's casualties removed at the end of the phase."""
    flag_words = {"morale_test": "a morale test owed"}

    unit: str
    casualties: int
    strength: int
    strength_after: int
    lost_pct: int | float
    morale_class: str
    morale_test: bool
    wiped_out: bool


def removal(unit: str, killed: int, strength: int, cls: str, when: str,
            thresholds: dict[str, int], name: str = "") -> tuple[Removed, str] | None:
    """``killed`` figures of ``strength`` removed, whether the unit then tests its morale
    (``when``: any_loss, or class_threshold with ``thresholds``), and the log's words."""
    if killed == 0:
        return None
    lost = min(killed, strength)
    after = max(0, strength - killed)
    lost_pct = Fraction(100 * lost, strength) if strength else Fraction(100)
    note = ""
    if after == 0:
        test = False
    elif when == "any_loss":
        test = True
    elif cls in thresholds:
        test = lost_pct >= thresholds[cls]
    else:
        test = True
        note = f"no threshold for class '{cls}': tests"
    bit = f"{name or unit} loses {lost} ({strength} → {after})"
    if after == 0:
        bit += ", wiped out"
    elif test:
        bit += ", morale test"
    if note:
        bit += f" [{note}]"
    return Removed(unit=unit, casualties=lost, strength=strength, strength_after=after,
                   lost_pct=json_number(lost_pct), morale_class=cls, morale_test=test,
                   wiped_out=after == 0), bit


def apply_removed(enc: Encounter, tx: Transaction, r: Removed) -> None:
    """The unit's figures removed, its held casualties cleared, its morale test owed."""
    unit = find_unit(enc, r.unit)
    path: list[str | int] = ["units", unit.id]
    tx.set([*path, "strength"], r.strength_after)
    tx.set([*path, "held_casualties"], 0)
    tx.set([*path, "casualties_turn"], unit.casualties_turn + r.casualties)
    tx.set([*path, "casualties_total"], unit.casualties_total + r.casualties)
    if r.morale_test:
        tx.set([*path, "morale_test"], True)
    if r.wiped_out:
        tx.set([*path, "removed"], True)


def remove_held(enc: Encounter, tx: Transaction, unit: WarlordUnit) -> str:
    """Phase eight ends: this unit's held casualties are removed and its morale test is
    owed, as ``endphase`` does (the GM left fire orders unfired)."""
    when = str(MORALE_TEST_WHEN.of(enc))
    thresholds = (parse_thresholds(str(MORALE_THRESHOLDS.of(enc)))
                  if when == "class_threshold" else {})
    found = removal(unit.id, unit.held_casualties, unit.strength, unit.morale_class, when,
                    thresholds, unit.name)
    if found is None:
        return ""
    apply_removed(enc, tx, found[0])
    return f"held casualties removed: {found[1]}"
