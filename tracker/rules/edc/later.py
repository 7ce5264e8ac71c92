"""edc's modules that resolving a roll does not need, each imported when one of its names
is first read (:func:`tracker.startup.lazy`): the odds (icepool), the tables and damage
charts (TOML) and the models (pydantic). The actions import them from here, so that
`tracker resolve` loads none of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.startup import lazy

if TYPE_CHECKING:
    from tracker.rules.edc import chances, damage, model, tables
else:
    chances = lazy("tracker.rules.edc.chances")
    damage = lazy("tracker.rules.edc.damage")
    model = lazy("tracker.rules.edc.model")
    tables = lazy("tracker.rules.edc.tables")

__all__ = ["chances", "damage", "model", "tables"]
