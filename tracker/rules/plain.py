"""Plain initiative: any game, no rules applied (``plain``).

Combatants act by initiative, highest first; wounds, conditions, timed effects, notes
and the ``roll`` command work as for every ruleset. For systems the tracker does not
model yet, and for a quick fight.

Settings:
- ``group_initiative`` (none): ``group`` lets combatants with the same ``group`` act
  together, at the best initiative among them; ``side`` has each side act as one.
- ``initiative_dice`` (empty): dice to re-roll initiative with at the start of each round
  (``d20``), plus each combatant's ``init_bonus`` stat.
"""

from tracker.core.sequence import Phase, SequenceOfPlay
from tracker.rules.base import Ruleset
from tracker.rules.initiative import INITIATIVE_DICE, reroll
from tracker.rules.setting import Setting

GROUP_INITIATIVE = Setting(
    "group_initiative",
    "none",
    "who acts together: none (each combatant), group (combatants sharing a group), or side",
    choices=("none", "group", "side"),
)

RULESET = Ruleset(
    id="plain",
    name="Plain initiative",
    scale="skirmish",
    panes=("combatants", "wounds", "log"),
    settings=[GROUP_INITIATIVE, INITIATIVE_DICE],
    sequence=SequenceOfPlay(phases=(Phase(""),), round_start=reroll),
)
