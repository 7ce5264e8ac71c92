"""The tracker's own army lists: TOML with an optional ``side`` and ``[[units]]`` tables.

Every key of a unit table is a field of the ruleset's unit; ``strength_start``
defaults to ``strength``. ``name`` (the list's) is optional and only shown.
"""

from __future__ import annotations

from typing import Any

import tomli

from .files import ArmyError


def read_toml_list(file: str, data: bytes) -> tuple[str, list[dict[str, Any]], str]:
    """The list's name, its units (plain data, not yet checked) and its default side."""
    try:
        doc = tomli.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ArmyError(file, "", "UTF-8 text") from None
    except tomli.TOMLDecodeError as exc:
        raise ArmyError(file, "", f"valid TOML ({exc})") from None
    if "schema" in doc:
        raise ArmyError(file, "", "an army list ([[units]] tables), found an encounter save")
    units = doc.get("units")
    if not isinstance(units, list) or not units:
        raise ArmyError(file, "units", "[[units]] tables")
    out: list[dict[str, Any]] = []
    for i, raw in enumerate(units):
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            raise ArmyError(file, f"units[{i}].name", "a unit name")
        item = dict(raw)
        item.pop("id", None)
        if "strength" in item:
            item.setdefault("strength_start", item["strength"])
        out.append(item)
    side = doc.get("side")
    name = doc.get("name")
    return (name if isinstance(name, str) else file), out, (side if isinstance(side, str) else "")


def looks_like_army_list(data: bytes) -> bool:
    """A TOML army list rather than an encounter save (``tracker list`` tells them apart)."""
    try:
        doc = tomli.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomli.TOMLDecodeError):
        return False
    return "schema" not in doc and isinstance(doc.get("units"), list)
