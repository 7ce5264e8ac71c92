"""Fantasy Warlord (1990) missile fire, phase eight of the game turn.

All missile fire is simultaneous: each unit with a fire order (``order``) fires at up to
three targets, each figure once (``fire``: BFP + modifiers = MFP, × figures = FFP, medium
range halves it and long range divides it by three, each full 100% kills one figure and
the remainder is a d100 roll-under for one more). The kills are held on the targets until
every unit has fired; ``endphase`` then removes them together and flags the units that
lost figures for morale tests. ``movefire`` works out how far a unit may move and fire.

Profile sheets (ranks for firing, weapons with range bands, the weapon × armour BFP
chart, firing modifiers) are TOML data: ``tracker/rules/data/warlord_profiles.toml`` is a
sample sheet; only the values it lists as ``printed`` come from the rules text.

Settings (what the text leaves open or does not print):
- ``remainder_rounding``: down (default) / nearest / up: how the remainder left after
  dividing the FFP is rounded to the whole percent the d100 is rolled against. The exact
  fraction is always kept and shown.
- ``morale_test_when``: any_loss (default: every unit that lost figures tests) or
  class_threshold (a unit tests when its loss reaches its class's percentage).
- ``morale_thresholds``: CLASS:PERCENT list for class_threshold; the morale classes and
  thresholds are not printed in the fire rules, so the default A:50 ... E:10 is sample data.
- ``require_fire_order``: a unit may only fire while it holds a fire order counter.
- ``profiles``: the profile sheet TOML to use (empty: the sample sheet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.rules.base import Ruleset, Setting, lazy_models

from .fire import FIRE, ROUNDINGS, target_problem, valid_targets
from .phase import ENDPHASE, HOLDFIRE, MORALE, MORALE_WHEN, MOVEFIRE, ORDER, SAMPLE_THRESHOLDS
from .phase import start_round as _start_round
from .profiles import ProfileSheet, load_sheet

if TYPE_CHECKING:
    from tracker.core.model import Unit

    from .model import WarlordEncounter, WarlordUnit


def _profile_names(race: str, weapon: str) -> tuple[str, str]:
    """The race's and weapon's names on the shipped profile sheet (the keys when the
    sheet does not have them)."""
    from tracker.rules.errors import RuleError
    from tracker.rules.warlord.profiles import load_sheet

    race_name, weapon_name = race or "?", weapon or "no missiles"
    try:
        profile = load_sheet().race(race) if race else None
        if profile is not None:
            race_name = profile.name
            if weapon:
                weapon_name = profile.weapon(weapon).name
    except RuleError:
        pass
    return race_name, weapon_name


def _armour_name(key: str) -> str:
    from tracker.rules.warlord.profiles import load_sheet

    try:
        return load_sheet().armour.get(key, key).lower()
    except Exception:  # a sheet that cannot be read leaves the key as it is
        return key


def describe_unit(unit: Unit) -> str:
    from tracker.rules.warlord.model import WarlordUnit

    if not isinstance(unit, WarlordUnit):
        return unit.name
    bits = [*_profile_names(unit.race, unit.weapon), _armour_name(unit.armour_class)]
    line = f"{unit.name}: {', '.join(bits)}, {unit.strength}/{unit.strength_start}"
    if unit.ranks and unit.files:
        line += f" ({unit.ranks}×{unit.files})"
    if unit.orders:
        line += f", orders {unit.orders}"
    if unit.held_casualties:
        line += f", {unit.held_casualties} killed (held)"
    if unit.morale_test:
        line += ", morale test"
    return line


SETTINGS = [
    Setting(
        "remainder_rounding",
        "down",
        "round the FFP remainder for the d100: down, nearest or up",
        choices=ROUNDINGS,
    ),
    Setting(
        "morale_test_when",
        "any_loss",
        "which units test morale after fire: any_loss or class_threshold (not printed)",
        choices=MORALE_WHEN,
    ),
    Setting(
        "morale_thresholds",
        SAMPLE_THRESHOLDS,
        "CLASS:PERCENT of figures lost that makes a unit test (sample values)",
    ),
    Setting("require_fire_order", True, "units fire only while they hold a fire order"),
    Setting("profiles", "", "profile sheet TOML (empty: the sample sheet)", path=True),
]

RULESET = Ruleset(
    id="warlord",
    name="Fantasy Warlord missile fire",
    scale="mass",
    model="tracker.rules.warlord.model:WarlordEncounter",
    actions={a.name: a for a in (FIRE, ENDPHASE, ORDER, HOLDFIRE, MOVEFIRE, MORALE)},
    phases=["before missile fire (1-7)", "missile fire (8)", "casualties and morale tests"],
    panes=("roster", "log"),
    settings=SETTINGS,
    order_stat="initiative",
    start_round=_start_round,
    describe_unit=describe_unit,
    unit_profile=True,
)

__all__ = [
    "RULESET",
    "WarlordEncounter",
    "WarlordUnit",
    "ProfileSheet",
    "load_sheet",
    "target_problem",
    "valid_targets",
]


__getattr__ = lazy_models(__name__, ("WarlordEncounter", "WarlordUnit"))
