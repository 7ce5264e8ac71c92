"""edc: Esprit de Corps duels (a Riddle-of-Steel-style system).

A fight is a set of bouts (duels); a round is two exchanges (the ruleset's phases,
"exchange 1" and "exchange 2"), and each combatant gets a single action per exchange;
bouts act in order of Reflex, highest first. Each fighter's Combat Pool (CP = Reflex +
proficiency, less the larger of Pain and spilled Shock, with footing, mount, reach,
lighting and fumble modifiers; Health 1 halves it) is spent die by die across the two
exchanges and refreshed by the start-of-round upkeep, which also rolls Toughness against
the Blood Loss TN (BL) and keeps the Missile Pool (MP). Dice are d10s; a die succeeds at
or above its target number (ATN / DTN / TN); margin of success (MoS) = attacker's -
defender's successes; a botch is no successes with two or more 1s.

Actions (one a file in ``actions/``): exchange, initiative, hesitation, shock, spend,
refresh, hit, bloodloss, knockdown, knockout, terrain, opponents, ride_by, unhorse, ride,
missile_prep, missile. Tables: ``tables.toml`` (terrain and multiple-opponents TNs, press
TNs, CP modifiers, reach, evasion DTNs, gaits) and ``damage.toml`` (the example damage
table). The fighter model is ``model.py``.

Settings (rule decisions the text leaves open):
- ``tn_above_ten`` (cap): a TN over 10 is capped at 10, or ``impossible``.
- ``damage_table`` (""): the damage table file; the text names the cutting, puncture,
  blunt and generic tables without printing them, so an example table ships in
  rules/edc/damage.toml (with the 2d6 missile hit locations).
- ``blood_loss_raise`` (add): how a wound to a new body part raises the BL TN.
- ``pain_resist`` (none): how Will Power resists Pain.
- ``fraction_rounding`` (loss_down): rounding of moonlight, darkness, prone and Health 1.
- ``knockout_tn`` (lower): "TN 7 or 10 - armour" read as the lower of the two.
- ``multiple_opponents_column`` (lone_first): the unlabelled columns of that table.
- ``ride_tn`` (7), ``engaged_ride_tn_bonus`` (3): AG/Ride check TNs.
- ``aim_shift_per_die`` (1): the missing range table for steering the hit location.
Also left to the GM, as parameters: the wound level (default MoS + weapon damage -
Toughness - armour), posture (+2 free dice or +2 activation cost on the first blow), and
the consequences of failed or botched terrain rolls.

How often: ``exchange`` once per exchange; ``opponents`` and ``ride_by`` once per round,
in its first exchange; ``missile``, ``ride`` and ``bloodloss`` once per round. Whether a
terrain roll takes the exchange's single action the text leaves open (a press is one made
with the attack), so it has no limit, nor have the GM's tools (shock, spend, refresh,
hit) and the rolls a blow calls for (knockdown, knockout, unhorse, hesitation).
"""

from __future__ import annotations

from tracker.rules.ruleset import Ruleset, lazy_models

from .describe import describe
from .pools import combat_pool, start_round

ACTIONS = (
    "exchange", "initiative", "hesitation", "shock", "spend", "refresh", "hit", "bloodloss",
    "knockdown", "knockout", "terrain", "opponents", "ride_by", "unhorse", "ride",
    "missile_prep", "missile",
)
"""In the order the GM is offered them; each in ``actions/<name>.py`` as ``<NAME>``,
imported when first used."""

RULESET = Ruleset.of_package(
    __name__, "EdcEncounter", ACTIONS, name="Esprit de Corps duels", scale="skirmish",
    panes=("combatants", "pools", "wounds", "log"), order_stat="reflex",
    describe_combatant=describe,  # type: ignore[arg-type]
)

__all__ = ["RULESET", "EdcCombatant", "EdcEncounter", "combat_pool", "start_round"]


__getattr__ = lazy_models(__name__, ("EdcCombatant", "EdcEncounter"))
