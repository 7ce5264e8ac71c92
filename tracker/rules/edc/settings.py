"""The rule decisions the text leaves open, as settings the GM can change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.rules.base import Setting

if TYPE_CHECKING:
    from tracker.core.model import Encounter, Scalar

SETTINGS = [
    Setting(
        "tn_above_ten",
        "cap",
        "a TN over 10: cap (only a 10 succeeds) or impossible (no die succeeds)",
        choices=("cap", "impossible"),
    ),
    Setting(
        "damage_table",
        "",
        "damage table TOML file (empty: the example table shipped in rules/data/edc_damage.toml)",
        path=True,
    ),
    Setting(
        "blood_loss_raise",
        "add",
        "a wound to a new body part raises the BL TN by its own BL (add) or by 1 (one)",
        choices=("add", "one"),
    ),
    Setting(
        "pain_resist",
        "none",
        "Will Power against Pain: none, will_power (Pain - WP) or half_will_power (Pain - WP/2)",
        choices=("none", "will_power", "half_will_power"),
    ),
    Setting(
        "fraction_rounding",
        "loss_down",
        "fractions of a pool (moonlight 1/4, darkness 1/2, prone 1/2, Health 1 halves): "
        "dice lost round down (loss_down) or up (loss_up)",
        choices=("loss_down", "loss_up"),
    ),
    Setting(
        "knockout_tn",
        "lower",
        "knockout TN with armour: lower of 7 and 10-AR, seven, or ten_minus_armour",
        choices=("lower", "seven", "ten_minus_armour"),
    ),
    Setting(
        "multiple_opponents_column",
        "lone_first",
        "the two columns of the multiple-opponents TN table: lone_first (first column is "
        "the outnumbered fighter's TN, second the opponents') or lone_second",
        choices=("lone_first", "lone_second"),
    ),
    Setting(
        "ride_tn",
        7,
        "TN of AG/Ride checks the text leaves open (ride-by, staying in the saddle, gaits)",
    ),
    Setting(
        "engaged_ride_tn_bonus",
        3,
        "TN increase for a gait change while engaged (the text: tentatively +3 to +6)",
    ),
    Setting(
        "aim_shift_per_die",
        1,
        "missile: how far each aim die set aside can shift the 2d6 hit location roll",
    ),
]

DEFAULTS: dict[str, Scalar] = {s.name: s.default for s in SETTINGS}


def setting(enc: Encounter, name: str) -> Scalar:
    return enc.settings.get(name, DEFAULTS[name])
