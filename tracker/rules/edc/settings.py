"""The rule decisions the edc text leaves open, as settings the GM can change."""

from __future__ import annotations

from tracker.core.domains import Domain
from tracker.rules.ruleset import PLAYER_HEALTH
from tracker.rules.setting import Setting

TN_ABOVE_TEN = Setting(
    "tn_above_ten",
    "cap",
    "a TN over 10: cap (only a 10 succeeds) or impossible (no die succeeds)",
    choices=("cap", "impossible"),
)
DAMAGE_TABLE = Setting(
    "damage_table",
    "",
    "damage table TOML file (empty: the example table shipped in rules/edc/damage.toml)",
    path=True,
)
BLOOD_LOSS_RAISE = Setting(
    "blood_loss_raise",
    "add",
    "a wound to a new body part raises the BL TN by its own BL (add) or by 1 (one)",
    choices=("add", "one"),
)
PAIN_RESIST = Setting(
    "pain_resist",
    "none",
    "Will Power against Pain: none, will_power (Pain - WP) or half_will_power (Pain - WP/2)",
    choices=("none", "will_power", "half_will_power"),
)
FRACTION_ROUNDING = Setting(
    "fraction_rounding",
    "loss_down",
    "fractions of a pool (moonlight 1/4, darkness 1/2, prone 1/2, Health 1 halves): "
    "dice lost round down (loss_down) or up (loss_up)",
    choices=("loss_down", "loss_up"),
)
KNOCKOUT_TN = Setting(
    "knockout_tn",
    "lower",
    "knockout TN with armour: lower of 7 and 10-AR, seven, or ten_minus_armour",
    choices=("lower", "seven", "ten_minus_armour"),
)
MULTIPLE_OPPONENTS_COLUMN = Setting(
    "multiple_opponents_column",
    "lone_first",
    "the two columns of the multiple-opponents TN table: lone_first (first column is "
    "the outnumbered fighter's TN, second the opponents') or lone_second",
    choices=("lone_first", "lone_second"),
)
RIDE_TN = Setting(
    "ride_tn",
    7,
    "TN of AG/Ride checks the text leaves open (ride-by, staying in the saddle, gaits)",
    domain=Domain(ge=1),
)
ENGAGED_RIDE_TN_BONUS = Setting(
    "engaged_ride_tn_bonus",
    3,
    "TN increase for a gait change while engaged (the text: tentatively +3 to +6)",
    domain=Domain(ge=0),
)
AIM_SHIFT_PER_DIE = Setting(
    "aim_shift_per_die",
    1,
    "missile: how far each aim die set aside can shift the 2d6 hit location roll",
    domain=Domain(ge=0),
)

SETTINGS = [
    TN_ABOVE_TEN, DAMAGE_TABLE, BLOOD_LOSS_RAISE, PAIN_RESIST, FRACTION_ROUNDING, KNOCKOUT_TN,
    MULTIPLE_OPPONENTS_COLUMN, RIDE_TN, ENGAGED_RIDE_TN_BONUS, AIM_SHIFT_PER_DIE,
    PLAYER_HEALTH,
]

