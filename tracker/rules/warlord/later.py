"""Warlord's modules that resolving a volley does not need, each imported when one of its
names is first read (:func:`tracker.startup.lazy`): the profile sheet and the models
(pydantic). The actions and the roster import them from here, so that `tracker resolve`
loads neither."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.startup import lazy

if TYPE_CHECKING:
    from tracker.rules.warlord import model, profiles
else:
    model = lazy("tracker.rules.warlord.model")
    profiles = lazy("tracker.rules.warlord.profiles")

__all__ = ["model", "profiles"]
