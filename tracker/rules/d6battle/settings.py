"""The rule decisions the d6battle text leaves open, with their defaults."""

from __future__ import annotations

from tracker.rules.setting import Setting

DICE_CHOICES = ("2d6", "1d6", "3d6", "1d10", "1d12")

MORALE_DICE = Setting(
    "morale_dice",
    "2d6",
    "Morale die (not printed): a morale test passes on this roll <= Mo (less the "
    "combat result in a combat morale test)",
    DICE_CHOICES,
)
COMMAND_DICE = Setting(
    "command_dice",
    "2d6",
    "Command test die (not printed): a unit charged in the flank passes on this roll "
    "<= its command value, or is disordered",
    DICE_CHOICES,
)
NATURAL_ONE = Setting(
    "natural_one",
    "hit",
    "Where a natural 1 always fails: 'hit' (to-hit rolls only, as printed) or 'all' "
    "(saves and kill rolls too)",
    ("hit", "all"),
)
SHOOTING_CASUALTIES = Setting(
    "shooting_casualties",
    "turn",
    "Casualties counted against the morale table: 'turn' (this turn's shooting, against "
    "the unit's size as its turn's shooting began; they stop counting as the shoot phase "
    "ends) or 'battle' (all casualties, starting size)",
    ("turn", "battle"),
)
MORALE_RETEST = Setting(
    "morale_retest",
    False,
    "A unit already at the morale table's number tests again each time it takes more "
    "shooting casualties (no: one test, when the number is first reached)",
)
RANK_BONUS_RANKS = Setting(
    "rank_bonus_ranks",
    "all",
    "Ranks of 6+ figures that give the rank bonus: 'all' (each such rank, as printed) "
    "or 'behind_front' (the front rank does not count)",
    ("all", "behind_front"),
)
DRILLED_RANK_BONUS = Setting(
    "drilled_rank_bonus",
    True,
    "Drilled infantry take the regular infantry rank bonus (up to +2)",
)
COUNTERCHARGE_CANCELS = Setting(
    "countercharge_cancels",
    False,
    "A counter charge also cancels the charger's impact bonus (the counter charger "
    "never gets it)",
)
OUTNUMBER_WHEN = Setting(
    "outnumber_when",
    "end",
    "Figures compared for outnumbering in combat results: 'end' (after this combat's "
    "kills) or 'start'",
    ("end", "start"),
)
ROUT_DESTROYED = Setting(
    "rout_destroyed",
    "3+",
    "When a routing unit engaged on more than one facing by battle formations is "
    "destroyed: '3+' (only on a result of 3+, where it is printed) or 'any' rout",
    ("3+", "any"),
)
BOWS_NO_MOVE_SHOOT = Setting(
    "bows_no_move_shoot",
    False,
    "The 'No move & shoot' line under Staff Sling also binds Shortbow, Bow and Longbow",
)

DISORDER_ENDS = Setting(
    "disorder_ends",
    "combat",
    "When disorder ends (the text gives no recovery; it disorders a unit charged in the "
    "flank for its combat): 'combat' (the end of the combat phase), 'turn' (the end of "
    "its own side's turn) or 'kept' (until the GM clears it)",
    ("combat", "turn", "kept"),
)
STRATEGIC_ADVANTAGE = Setting(
    "strategic_advantage",
    "",
    "The side with Strategic Advantage, which selects the order of the combats (how it "
    "is won is not printed); empty: the side whose round it is",
    names_side=True,
)

SETTINGS: list[Setting] = [
    MORALE_DICE,
    COMMAND_DICE,
    NATURAL_ONE,
    SHOOTING_CASUALTIES,
    MORALE_RETEST,
    RANK_BONUS_RANKS,
    DRILLED_RANK_BONUS,
    COUNTERCHARGE_CANCELS,
    OUTNUMBER_WHEN,
    ROUT_DESTROYED,
    BOWS_NO_MOVE_SHOOT,
    DISORDER_ENDS,
    STRATEGIC_ADVANTAGE,
]
