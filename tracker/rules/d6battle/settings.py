"""d6battle settings: the rule decisions the text leaves open, with their defaults."""

from __future__ import annotations

from tracker.rules.base import Param, Setting

DICE_CHOICES = ("2d6", "1d6", "3d6", "1d10", "1d12")

SETTINGS: list[Setting] = [
    Setting(
        "morale_dice",
        "2d6",
        "Morale die (not printed): a morale test passes on this roll <= Mo (less the "
        "combat result in a combat morale test)",
        DICE_CHOICES,
    ),
    Setting(
        "command_dice",
        "2d6",
        "Command test die (not printed): a unit charged in the flank passes on this roll "
        "<= its command value, or is disordered",
        DICE_CHOICES,
    ),
    Setting(
        "natural_one",
        "hit",
        "Where a natural 1 always fails: 'hit' (to-hit rolls only, as printed) or 'all' "
        "(saves and kill rolls too)",
        ("hit", "all"),
    ),
    Setting(
        "shooting_casualties",
        "turn",
        "Casualties counted against the morale table: 'turn' (this turn, unit size at the "
        "start of the turn) or 'battle' (all casualties, starting size)",
        ("turn", "battle"),
    ),
    Setting(
        "morale_retest",
        False,
        "A unit already at the morale table's number tests again each time it takes more "
        "shooting casualties (no: one test, when the number is first reached)",
    ),
    Setting(
        "rank_bonus_ranks",
        "all",
        "Ranks of 6+ figures that give the rank bonus: 'all' (each such rank, as printed) "
        "or 'behind_front' (the front rank does not count)",
        ("all", "behind_front"),
    ),
    Setting(
        "drilled_rank_bonus",
        True,
        "Drilled infantry take the regular infantry rank bonus (up to +2)",
    ),
    Setting(
        "countercharge_cancels",
        False,
        "A counter charge also cancels the charger's impact bonus (the counter charger "
        "never gets it)",
    ),
    Setting(
        "outnumber_when",
        "end",
        "Figures compared for outnumbering in combat results: 'end' (after this combat's "
        "kills) or 'start'",
        ("end", "start"),
    ),
    Setting(
        "rout_destroyed",
        "3+",
        "When a routing unit engaged on more than one facing by battle formations is "
        "destroyed: '3+' (only on a result of 3+, where it is printed) or 'any' rout",
        ("3+", "any"),
    ),
    Setting(
        "bows_no_move_shoot",
        False,
        "The 'No move & shoot' line under Staff Sling also binds Shortbow, Bow and Longbow",
    ),
]

_BY_NAME = {s.name: s for s in SETTINGS}


def setting_param(name: str, help_: str | None = None) -> Param:
    """The action parameter that mirrors a setting (the session fills it from settings)."""
    s = _BY_NAME[name]
    text = help_ or s.help
    if isinstance(s.default, bool):
        return Param(name, "bool", s.default, text)
    return Param(name, "choice", s.default, text, choices=s.choices)
