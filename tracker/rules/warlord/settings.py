"""The rule decisions the Fantasy Warlord fire rules leave to the table."""

from __future__ import annotations

from tracker.rules.errors import RuleError
from tracker.rules.setting import Setting

from .numbers import ROUNDINGS

MORALE_WHEN = ("any_loss", "class_threshold")
SAMPLE_THRESHOLDS = "A:50,B:40,C:30,D:20,E:10"
"""Morale classes and thresholds are not printed in the fire rules: sample values."""

REMAINDER_ROUNDING = Setting(
    "remainder_rounding",
    "down",
    "round the FFP remainder for the d100: down, nearest or up",
    choices=ROUNDINGS,
)
MORALE_TEST_WHEN = Setting(
    "morale_test_when",
    "any_loss",
    "which units test morale after fire: any_loss or class_threshold (not printed)",
    choices=MORALE_WHEN,
)
def parse_thresholds(text: str) -> dict[str, int]:
    """``"A:50,B:40"``: the percent of a unit's figures lost in the phase that makes it test
    (RuleError naming a pair that is not CLASS:PERCENT, 0 to 100)."""
    out: dict[str, int] = {}
    for part in str(text).split(","):
        if not part.strip():
            continue
        cls, sep, pct = part.partition(":")
        try:
            value = int(pct)
        except ValueError:
            value = -1
        if not sep or not cls.strip() or not 0 <= value <= 100:
            raise RuleError(f"morale_thresholds: '{part}' should read CLASS:PERCENT, a percent "
                            "of 0 to 100, e.g. A:50")
        out[cls.strip()] = value
    return out


MORALE_THRESHOLDS = Setting(
    "morale_thresholds",
    SAMPLE_THRESHOLDS,
    "CLASS:PERCENT of figures lost that makes a unit test (sample values)",
    check=parse_thresholds,
)
REQUIRE_FIRE_ORDER = Setting(
    "require_fire_order", True, "units fire only while they hold a fire order"
)
PROFILES = Setting("profiles", "", "profile sheet TOML (empty: the sample sheet)", path=True)

SETTINGS = [REMAINDER_ROUNDING, MORALE_TEST_WHEN, MORALE_THRESHOLDS, REQUIRE_FIRE_ORDER, PROFILES]
