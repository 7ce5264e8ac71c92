"""The rule decisions a game the tracker does not know leaves to the table, each a
named setting with its default (the GM sees and changes them with ``s``)."""

from __future__ import annotations

from tracker.rules.initiative import initiative_dice
from tracker.rules.ruleset import PLAYER_HEALTH, secret_fields
from tracker.rules.setting import Setting

GROUP_INITIATIVE = Setting(
    "group_initiative",
    "none",
    "who acts together: none (each combatant), group (combatants sharing a group), or side",
    choices=("none", "group", "side"),
)
INITIATIVE_DICE = Setting(
    "initiative_dice",
    "d20",
    "the dice of initiative, plus each combatant's init_bonus (empty: initiative is typed)",
    check=initiative_dice,
)
INITIATIVE_EACH_ROUND = Setting(
    "initiative_each_round",
    False,
    "initiative rolled again as each round begins (no: once, at the start of the fight)",
)
INITIATIVE_TIES = Setting(
    "initiative_ties",
    "bonus",
    "equal initiative: bonus (the higher init_bonus first), players (every side but the "
    "GM's first, then bonus) or name",
    choices=("bonus", "players", "name"),
)
NATURAL_20 = Setting("natural_20", True, "an attack die showing 20 always hits")
NATURAL_1 = Setting("natural_1", True, "an attack die showing 1 always misses")
EQUAL_SUCCEEDS = Setting(
    "equal_succeeds",
    True,
    "an attack equal to the defence hits and a save equal to the DC succeeds (no: it must "
    "beat it)",
)
CRIT_DAMAGE = Setting(
    "crit_damage",
    "dice",
    "a critical hit's damage: dice (its dice rolled twice), max (the dice at their most, "
    "plus a roll), total (the whole damage doubled) or none",
    choices=("dice", "max", "total", "none"),
)
HALF_ROUNDS = Setting(
    "half_rounds",
    "down",
    "half damage on a save that succeeds rounds down or up",
    choices=("down", "up"),
)
SECRET_FIELDS = secret_fields("ac,attack,init_bonus")
"""A monster's numbers stay behind the GM's screen: players see its name, its place in the
order, its conditions and its health in words, not its AC, attack or initiative bonus."""
COMMON_CONDITIONS = Setting(
    "common_conditions",
    "blinded,charmed,deafened,frightened,grappled,incapacitated,invisible,paralyzed,"
    "petrified,poisoned,prone,restrained,stunned,unconscious",
    "the conditions the add-condition dialog offers, comma separated (any word is taken)",
)

SETTINGS = [
    GROUP_INITIATIVE, INITIATIVE_DICE, INITIATIVE_EACH_ROUND, INITIATIVE_TIES, NATURAL_20,
    NATURAL_1, EQUAL_SUCCEEDS, CRIT_DAMAGE, HALF_ROUNDS, PLAYER_HEALTH, SECRET_FIELDS,
    COMMON_CONDITIONS,
]
