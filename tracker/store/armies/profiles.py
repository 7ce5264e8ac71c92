"""A BattleScribe profile's characteristics as the fields of a ruleset's unit.

Warmaster's Unit profile has Type, Attacks (close, or close/shooting: ``3``, ``3/1``),
Hits, Armour (``6+`` ... ``3+``; ``0`` or ``-`` for none) and Unit Size (stands); they
become ``kind``, ``close_attacks`` / ``shoot_attacks``, ``hits_per_stand``, ``armour``
and ``strength`` / ``strength_start``. Any other characteristic whose name is a field of
the unit model (``SA`` -> ``sa``) is taken as it is. Whatever the unit model has no field
for, and any value that does not read, is reported rather than guessed: the unit keeps
that field's default and the message names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

KIND_NAMES = {"chariot": "chariots"}
"""Profile types spelled otherwise than the ruleset's kinds (Warmaster: chariots)."""

NOT_FROM_PROFILES = frozenset({
    "id", "name", "side", "strength_start", "hidden", "conditions", "effects", "notes",
    "removed", "routed", "stats", "pools", "wounds",
})
"""Fields no characteristic may set by sharing their name."""


@dataclass
class Mapped:
    fields: dict[str, Any] = field(default_factory=dict)
    unread: list[str] = field(default_factory=list)
    """Values that did not read: "Armour '45' (3+ to 6+, 0 or -)"."""
    unmapped: list[str] = field(default_factory=list)
    """Characteristics the unit model has no field for."""


def _whole(text: str) -> int | None:
    return int(text) if re.fullmatch(r"\d+", text) else None


def _type(value: str, out: dict[str, Any]) -> str | None:
    kind = value.strip().casefold()
    if not kind:
        return "a troop type"
    out["kind"] = KIND_NAMES.get(kind, kind)
    return None


def _attacks(value: str, out: dict[str, Any]) -> str | None:
    close, slash, shoot = value.replace(" ", "").partition("/")
    if _whole(close) is None:
        return "3 or 3/1"
    out["close_attacks"] = _whole(close)
    if not slash:
        out["shoot_attacks"] = 0
    elif _whole(shoot) is not None:
        out["shoot_attacks"] = _whole(shoot)
    else:
        return "3 or 3/1"
    return None


def _hits(value: str, out: dict[str, Any]) -> str | None:
    hits = _whole(value)
    if not hits:
        return "a whole number from 1"
    out["hits_per_stand"] = hits
    return None


def _armour(value: str, out: dict[str, Any]) -> str | None:
    text = value.strip()
    if text in ("", "0", "-", "—", "none", "None"):
        out["armour"] = None
        return None
    m = re.fullmatch(r"([2-6])\+", text)
    if m is None:
        return "3+ to 6+, 0 or -"
    out["armour"] = int(m[1])
    return None


def _unit_size(value: str, out: dict[str, Any]) -> str | None:
    size = _whole(value)
    if not size:
        return "a whole number of stands from 1"
    out["strength"] = out["strength_start"] = size
    return None


MAPPINGS: dict[str, tuple[tuple[str, ...], Callable[[str, dict[str, Any]], str | None]]] = {
    "type": (("kind",), _type),
    "attacks": (("close_attacks", "shoot_attacks"), _attacks),
    "hits": (("hits_per_stand",), _hits),
    "armour": (("armour",), _armour),
    "armor": (("armour",), _armour),
    "unit size": (("strength", "strength_start"), _unit_size),
}
"""Characteristic name (casefolded) -> the fields it sets and how it reads."""


def field_name(characteristic: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", characteristic.casefold()).strip("_")


def map_profile(characteristics: dict[str, str], model: type[BaseModel]) -> Mapped:
    """The fields of ``model`` a profile gives, and what it could not give."""
    fields = model.model_fields
    out = Mapped()
    for name, value in characteristics.items():
        key = name.strip().casefold()
        if key in MAPPINGS:
            targets, read = MAPPINGS[key]
            if not any(t in fields for t in targets):
                out.unmapped.append(name)
                continue
            got: dict[str, Any] = {}
            problem = read(value, got)
            if problem is not None:
                out.unread.append(f"{name} '{value}' ({problem})")
            out.fields.update({k: v for k, v in got.items() if k in fields})
            continue
        direct = field_name(name)
        if direct in fields and direct not in NOT_FROM_PROFILES:
            try:
                annotation: Any = fields[direct].annotation
                out.fields[direct] = TypeAdapter(annotation).validate_python(value.strip())
            except ValidationError as exc:
                out.unread.append(f"{name} '{value}' ({exc.errors()[0]['msg'].lower()})")
            continue
        out.unmapped.append(name)
    return out
