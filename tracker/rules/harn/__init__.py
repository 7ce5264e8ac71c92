"""HârnMaster (Kèthîra edition) missile sequence, pp. 163-164.

Missile actions per weapon (load, aim, span, shoot, throw, charge) with the missile
state kept across rounds; range bands from Base Range (BR): Direct PB, Direct, Volley
2/3/4; the missile test d100 <= EML (EML clamped 5..95, -40 or worse spoils; a roll
divisible by 5 is critical: CS/CF); Direct results (strike, Precision TA on still
targets, TAs of choice on CS, target count within 5 ft on a miss, mishap CF0 fumble /
CF5 stumble); zone aim with the Zone Die (ZD); Volley results (potential strike on the
target count, volley precision d10, deviation d8). No phases: combatants act by
Initiative Rating (IR, the ``initiative`` field), highest first, one missile action a
round each (setting ``one_action_per_round``).

Actions (one a file in ``actions/``): ``missile``/``fire``, ``shoot``, ``throw``,
``charge``, ``load``, ``aim``, ``span``, ``abandon``, ``status``, ``injury``,
``initiative`` (where the table rolls it). Tables
(Missile Actions, Missile Range, missile skill, the situational modifiers as rows):
``tables.toml``. The combatant model (``model.py``) carries the missile state.

Settings (rules the text leaves open or whose table it does not print; ``settings.py``):
- ``crosswind_direct`` (per_force): -10 x Windforce at WF 2-4, or -10 per WF above 1.
- ``massive_target`` (per_tar): +5 x TAR for TAR2+, or +5 per TAR above 1.
- ``spoiled_attack`` (fails): at EML -40 or worse the attack fails (d100 checks for CF),
  or is wasted (no roll).
- ``ta_choice`` (precision): a TA of choice not named in ``ta=``.
- ``zone_pick`` (lowest) / ``count_pick`` (lowest): which ZD / volley precision d10 the
  attacker keeps when several are rolled.
- ``zone_overflow`` (cap): zone aim counting past the last body zone.
- ``humanoid_zones`` (10): body zones of a creature with no count of its own.
- ``thrown_pb_zd`` (6): thrown ZD at Direct PB (Thrown Weapon table not printed).
- ``aim_needs_load`` (yes), ``one_action_per_round`` (yes), ``span_progress_kept`` (yes).
- ``initiative_dice`` (empty): tables that roll initiative anew each round name the dice
  (``d100``), plus each combatant's ``init_bonus`` stat; each one's die is then asked
  for as the fight begins and as each round begins.
Also open in the text and left to the GM as parameters: success steps beyond CS
(``steps``), Heft penalty (``heft``), fatigue/impairment (``trauma``), the injury level
(``injury``; Injury Sequence not printed), which adjacent area a deviation d8 names.
A moving volley area is the moving target -10 (``target=moving`` or ``area_moving``).
"""

from __future__ import annotations

from tracker.rules.ruleset import Ruleset, lazy_models

from .upkeep import describe_combatant

ACTIONS = (
    "missile", "fire", "shoot", "throw", "charge", "load", "aim", "span", "abandon", "status",
    "injury", "initiative",
)
"""In the order the GM's action list shows them; each module is imported when first used."""

RULESET = Ruleset.of_package(
    __name__, "HarnEncounter", ACTIONS, name="HârnMaster missile sequence", scale="skirmish",
    panes=("combatants", "wounds", "log"), describe_combatant=describe_combatant,
)


__getattr__ = lazy_models(
    __name__, ("HarnCombatant", "HarnEncounter", "MissileWeapon", "RangeNote")
)
