"""Rule decisions the Missile Sequence leaves open, with their defaults."""

from __future__ import annotations

from tracker.rules.base import Setting

SETTINGS: list[Setting] = [
    Setting(
        "crosswind_direct",
        "per_force",
        "Direct crosswind: per_force = -10 x Windforce at WF 2-4 (WF1 none); "
        "above_one = -10 per WF above 1",
        ("per_force", "above_one"),
    ),
    Setting(
        "massive_target",
        "per_tar",
        "Massive target (TAR2+, Direct only): per_tar = +5 x TAR; above_one = +5 per TAR above 1",
        ("per_tar", "above_one"),
    ),
    Setting(
        "spoiled_attack",
        "fails",
        "EML -40 or worse: fails = the attack occurs and fails (d100 still checks for CF); "
        "wasted = no attack, the action is wasted",
        ("fails", "wasted"),
    ),
    Setting(
        "ta_choice",
        "precision",
        "How a TA of choice is spent when ta= does not say",
        ("precision", "impact"),
    ),
    Setting(
        "zone_pick",
        "lowest",
        "Which Zone Die the attacker keeps with Precision: lowest ZN (nearest the aim), "
        "highest, or first",
        ("lowest", "highest", "first"),
    ),
    Setting(
        "count_pick",
        "lowest",
        "Which volley precision d10 the attacker keeps: lowest (best chance) or first",
        ("lowest", "highest", "first"),
    ),
    Setting(
        "zone_overflow",
        "cap",
        "Zone aim counting past the last body zone: cap at the last zone, wrap to ZN1, "
        "or open (report the raw ZN)",
        ("cap", "wrap", "open"),
    ),
    Setting(
        "humanoid_zones",
        10,
        "Body zones of a creature with no zone count of its own (Body Location table)",
    ),
    Setting(
        "thrown_pb_zd",
        6,
        "Zone Die of a thrown weapon at Direct PB when the weapon gives none "
        "(Thrown Weapon table, page 110, not printed)",
    ),
    Setting(
        "aim_needs_load",
        True,
        "Bows and crossbows must be loaded to take the Aim action",
    ),
    Setting(
        "one_action_per_round",
        True,
        "A combatant takes one missile action a round (a free load does not count)",
    ),
    Setting(
        "span_progress_kept",
        True,
        "Spanning progress survives a round without spanning (off: it is lost)",
    ),
]

RESOLVER_SETTINGS = (
    "crosswind_direct",
    "massive_target",
    "spoiled_attack",
    "ta_choice",
    "zone_pick",
    "count_pick",
    "zone_overflow",
    "humanoid_zones",
    "thrown_pb_zd",
)
"""Settings that change the missile resolver; each is also a parameter of the attack."""

DEFAULTS = {s.name: s.default for s in SETTINGS}
