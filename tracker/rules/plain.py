"""Plain initiative: any game, no rules applied (``plain``).

Combatants act by initiative, highest first; wounds, conditions, timed effects, notes
and the ``roll`` command work as for every ruleset. For systems the tracker does not
model yet, and for a quick fight.
"""

from tracker.rules.base import Ruleset

RULESET = Ruleset(
    id="plain",
    name="Plain initiative",
    scale="skirmish",
    panes=("combatants", "wounds", "log"),
)
