"""harn's modules that resolving a roll does not need, each imported when one of its names
is first read (:func:`tracker.startup.lazy`): the tables (TOML) and the models (pydantic).
The actions import them from here, so that `tracker resolve` loads neither."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.startup import lazy

if TYPE_CHECKING:
    from tracker.rules.harn import model, tables
else:
    model = lazy("tracker.rules.harn.model")
    tables = lazy("tracker.rules.harn.tables")

__all__ = ["model", "tables"]
