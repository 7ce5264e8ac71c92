"""Plain: the table for any game (``plain``).

Combatants act by initiative, highest first; hit points (``hp``, ``max_hp``,
``temp_hp``: damage takes temporary points first, at 0 a combatant is down and skipped
in the order), defences (``ac`` and any the GM names), an attack of a d20 and a bonus
against a defence, a saving throw for several targets against a DC, initiative rolled
from the table's dice at the start of the fight (and of each round where the setting
says so), with wounds, conditions, timed effects, notes and ``roll`` as for every
ruleset. For the games the tracker does not model, and for a quick fight.

Actions (one a file in ``actions/``): ``attack``, ``save``, ``initiative``. The
combatant model (``model.py``) carries hit points and defences; ``health.py`` how
they are taken and healed, and health in words.

Settings (``settings.py``; rule decisions each game makes its own way):
- ``group_initiative`` (none): ``group`` lets combatants with the same ``group`` act
  together, at the best initiative among them; ``side`` has each side act as one.
- ``initiative_dice`` (d20), ``initiative_each_round`` (no), ``initiative_ties`` (bonus).
- ``natural_20`` (yes), ``natural_1`` (yes), ``equal_succeeds`` (yes), ``crit_damage``
  (dice), ``half_rounds`` (down): how attacks and saves read.
- ``player_health`` (words): what players see of another side's hit points.
- ``secret_fields`` (ac, attack, init_bonus): what they never see of another side,
  beside its pools, wounds, notes and stats (the encounter's ``secret_fields`` list).
- ``common_conditions``: what the add-condition dialog offers.

Readings the tracker makes (not settings): a die in the critical range is a critical
hit when the attack hits; bloodied is half the maximum or less; damage is never below
0; one damage roll serves every target of a save.
"""

from __future__ import annotations

from tracker.core.sequence import Phase, SequenceOfPlay
from tracker.rules.ruleset import Ruleset, lazy_models

from .health import describe
from .rounds import INITIATIVE_AGAIN

ACTIONS = ("attack", "save", "initiative")
"""In the order the GM's action list shows them; each module is imported when first used."""

RULESET = Ruleset.of_package(
    __name__, "PlainEncounter", ACTIONS, name="Plain (any game)", scale="skirmish",
    panes=("combatants", "wounds", "log"), describe_combatant=describe,
    sequence=SequenceOfPlay(phases=(Phase("", duties=(INITIATIVE_AGAIN,)),)),
)


__getattr__ = lazy_models(__name__, ("PlainCombatant", "PlainEncounter"))
