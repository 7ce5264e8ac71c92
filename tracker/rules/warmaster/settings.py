"""The rule decisions the Warmaster text leaves to the table."""

from __future__ import annotations

from tracker.core.domains import Domain
from tracker.rules.setting import Setting

SPLIT_BATCHES = Setting(
    "split_batches",
    True,
    "exposed stands are hit at 4+ first, the rest at the position's score",
)

CONFUSION_ENDS = Setting(
    "confusion_ends",
    "own_turn",
    "when a unit confused by a drive back recovers: own_turn (the end of its side's"
    " following turn, when it could not move) or movement (the end of its next movement"
    " phase); the Confusion section the shooting text refers to is not in it",
    choices=("own_turn", "movement"),
)
"""The shooting text says a confused unit is "unable to move in their following turn" and
refers to a section on Confusion it does not print: its end is a setting, by default the
end of that following turn."""

CONFUSED_SHOOT = Setting(
    "confused_shoot",
    False,
    "a unit confused by a drive back may still shoot (the shooting text says only that it"
    " cannot move; the Confusion section it refers to is not in it)",
)
"""Whether a confused unit shoots: the shooting text is silent, so a setting; by default
it does not (the app greys its shot, force=yes takes it anyway)."""

PACES = {
    kind: Setting(f"pace_{kind}", cm, f"full pace in cm of {kind} that arrive without one "
                  "(the Warmaster rules' movement chart; the shooting text gives none)",
                  domain=Domain(ge=1))
    for kind, cm in (("infantry", 20), ("cavalry", 30), ("chariots", 30), ("artillery", 10),
                     ("monster", 20))
}
"""A unit that arrives without a pace (a BattleScribe profile has none) takes its type's.
Machines and other units have a pace of their own: the tracker asks for it."""

SETTINGS = [SPLIT_BATCHES, CONFUSION_ENDS, CONFUSED_SHOOT, *PACES.values()]
