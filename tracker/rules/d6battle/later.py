"""d6battle's modules that resolving a roll does not need, each imported when one of its
names is first read (:func:`tracker.startup.lazy`): the odds (icepool) and the models
(pydantic). The actions import them from here, so that `tracker resolve` loads neither."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.startup import lazy

if TYPE_CHECKING:
    from tracker.rules.d6battle import model
    from tracker.rules.d6battle.actions import chances
else:
    chances = lazy("tracker.rules.d6battle.actions.chances")
    model = lazy("tracker.rules.d6battle.model")

__all__ = ["chances", "model"]
