"""The rule decisions the Warmaster text leaves to the table."""

from __future__ import annotations

from tracker.rules.setting import Setting

SPLIT_BATCHES = Setting(
    "split_batches",
    True,
    "exposed stands are hit at 4+ first, the rest at the position's score",
)

SETTINGS = [SPLIT_BATCHES]
