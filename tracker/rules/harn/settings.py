"""Rule decisions the Missile Sequence leaves open, with their defaults: one declaration
each; a parameter that follows one names it (``param(setting=...)``)."""

from __future__ import annotations

from typing import Any

from tracker.core.domains import Domain
from tracker.rules.initiative import INITIATIVE_DICE
from tracker.rules.params import param
from tracker.rules.setting import Setting

CROSSWIND_DIRECT = Setting(
    "crosswind_direct",
    "per_force",
    "Direct crosswind: per_force = -10 x Windforce at WF 2-4 (WF1 none); "
    "above_one = -10 per WF above 1",
    ("per_force", "above_one"),
)
MASSIVE_TARGET = Setting(
    "massive_target",
    "per_tar",
    "Massive target (TAR2+, Direct only): per_tar = +5 x TAR; above_one = +5 per TAR above 1",
    ("per_tar", "above_one"),
)
SPOILED_ATTACK = Setting(
    "spoiled_attack",
    "fails",
    "EML -40 or worse: fails = the attack occurs and fails (d100 still checks for CF); "
    "wasted = no attack, the action is wasted",
    ("fails", "wasted"),
)
TA_CHOICE = Setting(
    "ta_choice",
    "precision",
    "How a TA of choice is spent when ta= does not say",
    ("precision", "impact"),
)
ZONE_PICK = Setting(
    "zone_pick",
    "lowest",
    "Which Zone Die the attacker keeps with Precision: lowest ZN (nearest the aim), "
    "highest, or first",
    ("lowest", "highest", "first"),
)
COUNT_PICK = Setting(
    "count_pick",
    "lowest",
    "Which volley precision d10 the attacker keeps: lowest (best chance) or first",
    ("lowest", "highest", "first"),
)
ZONE_OVERFLOW = Setting(
    "zone_overflow",
    "cap",
    "Zone aim counting past the last body zone: cap at the last zone, wrap to ZN1, "
    "or open (report the raw ZN)",
    ("cap", "wrap", "open"),
)
HUMANOID_ZONES = Setting(
    "humanoid_zones",
    10,
    "Body zones of a creature with no zone count of its own (Body Location table)",
    domain=Domain(ge=1),
)
THROWN_PB_ZD = Setting(
    "thrown_pb_zd",
    6,
    "Zone Die of a thrown weapon at Direct PB when the weapon gives none "
    "(Thrown Weapon table, page 110, not printed)",
    domain=Domain(ge=2, said="must be a die of 2 sides or more"),
)
AIM_NEEDS_LOAD = Setting(
    "aim_needs_load",
    True,
    "Bows and crossbows must be loaded to take the Aim action",
)
ONE_ACTION_PER_ROUND = Setting(
    "one_action_per_round",
    True,
    "A combatant takes one missile action a round (a free load does not count)",
)
SPAN_PROGRESS_KEPT = Setting(
    "span_progress_kept",
    True,
    "Spanning progress survives a round without spanning (off: it is lost)",
)

INITIATIVE_TIES = Setting(
    "initiative_ties",
    "name",
    "Combatants of equal Initiative Rating (IR): name = act in order of name; listed = "
    "as the encounter lists them (the text says only that the higher IR acts first)",
    ("name", "listed"),
)

SETTINGS: list[Setting] = [
    CROSSWIND_DIRECT,
    MASSIVE_TARGET,
    SPOILED_ATTACK,
    TA_CHOICE,
    ZONE_PICK,
    COUNT_PICK,
    ZONE_OVERFLOW,
    HUMANOID_ZONES,
    THROWN_PB_ZD,
    AIM_NEEDS_LOAD,
    ONE_ACTION_PER_ROUND,
    SPAN_PROGRESS_KEPT,
    INITIATIVE_DICE,
    INITIATIVE_TIES,
]


def one_action_param() -> Any:
    """The parameter by which an action that takes the round knows the setting (the
    sequence of play reads its limit from it)."""
    return param(help="one missile action a round (setting)", setting=ONE_ACTION_PER_ROUND)
