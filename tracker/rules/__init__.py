"""Rulesets, found by id through a registry; each module is imported on first use."""

from __future__ import annotations

import importlib

from .errors import RuleError
from .ruleset import Ruleset

RULESETS: dict[str, str] = {
    "harn": "HârnMaster missile sequence",
    "edc": "Esprit de Corps duels",
    "warlord": "Fantasy Warlord missile fire",
    "d6battle": "d6 mass battle",
    "warmaster": "Warmaster Revolution shooting",
    "plain": "Plain, for any game (hit points, attacks, saves, initiative)",
}

_loaded: dict[str, Ruleset] = {}


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; its module defines ``RULESET``."""
    key = ruleset_id.lower()
    if key not in RULESETS:
        raise RuleError(f"unknown ruleset {ruleset_id!r} (known: {', '.join(RULESETS)})")
    if key not in _loaded:
        module = importlib.import_module(f"tracker.rules.{key}")
        _loaded[key] = module.RULESET
    return _loaded[key]


__all__ = ["Ruleset", "RuleError", "get", "RULESETS"]
