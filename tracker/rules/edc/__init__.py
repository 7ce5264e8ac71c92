"""edc: Esprit de Corps duels (a Riddle-of-Steel-style system).

A fight is a set of bouts (duels); a round is two exchanges; bouts act in order of
Reflex, highest first. Each fighter's Combat Pool (CP = Reflex + proficiency, less the
larger of Pain and spilled Shock, with footing, mount, reach, lighting and fumble
modifiers; Health 1 halves it) is spent die by die across the two exchanges and refreshed
by the start-of-round upkeep, which also rolls Toughness against the Blood Loss TN (BL)
and keeps the Missile Pool (MP). Dice are d10s; a die succeeds at or above its target
number (ATN / DTN / TN); margin of success (MoS) = attacker's - defender's successes; a
botch is no successes with two or more 1s.

Actions: exchange, initiative, hesitation, shock, spend, refresh, hit, bloodloss,
knockdown, knockout, terrain, opponents, ride_by, unhorse, ride, missile_prep, missile.

Settings (rule decisions the text leaves open):
- ``tn_above_ten`` (cap): a TN over 10 is capped at 10, or ``impossible``.
- ``damage_table`` (""): the damage table file; the text names the cutting, puncture,
  blunt and generic tables without printing them, so an example table ships in
  rules/data/edc_damage.toml (with the 2d6 missile hit locations).
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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.rules.base import Ruleset, lazy_models

from .common import CP
from .exchange import EXCHANGE, HESITATION, INITIATIVE
from .missile import MISSILE, MISSILE_PREP
from .mounted import RIDE, RIDE_BY, UNHORSE
from .pools import REFRESH, SHOCK, SPEND, combat_pool, start_round
from .settings import SETTINGS
from .terrain import OPPONENTS, TERRAIN
from .wounds import BLOODLOSS, HIT, KNOCKDOWN, KNOCKOUT, blood_loss_tn

if TYPE_CHECKING:
    from .model import EdcCombatant, EdcEncounter


def describe(c: EdcCombatant) -> str:  # type: ignore[override]
    """The fighter in a line; the CP is left out where there is none (the player view
    hides pools)."""
    bits = [f"RX {c.reflex}"]
    cp = c.find_pool(CP)
    if cp is not None:
        bits.append(f"CP {cp.left}/{cp.size}")
    bits.append(f"HT {c.health}/{c.health_max}")
    if c.pain:
        bits.append(f"Pain {c.pain}")
    bl = blood_loss_tn(c.wounds)
    if bl:
        bits.append(f"BL {bl}")
    if c.shock_spill:
        bits.append(f"Shock carried {c.shock_spill}")
    if c.marker:
        bits.append(c.marker)
    if c.holds_initiative:
        bits.append("initiative")
    if c.posture != "neutral":
        bits.append(c.posture)
    if c.prone:
        bits.append("down")
    if c.mounted:
        bits.append(f"mounted ({c.gait})")
    return ", ".join(bits)


_ACTIONS = [
    EXCHANGE, INITIATIVE, HESITATION, SHOCK, SPEND, REFRESH, HIT, BLOODLOSS, KNOCKDOWN,
    KNOCKOUT, TERRAIN, OPPONENTS, RIDE_BY, UNHORSE, RIDE, MISSILE_PREP, MISSILE,
]

RULESET = Ruleset(
    id="edc",
    name="Esprit de Corps duels",
    scale="skirmish",
    model="tracker.rules.edc.model:EdcEncounter",
    actions={a.name: a for a in _ACTIONS},
    phases=["exchange 1", "exchange 2"],
    panes=("combatants", "pools", "wounds", "log"),
    settings=SETTINGS,
    order_stat="reflex",
    start_round=start_round,
    describe_combatant=describe,  # type: ignore[arg-type]
)

__all__ = ["RULESET", "EdcCombatant", "EdcEncounter", "combat_pool", "start_round"]


__getattr__ = lazy_models(__name__, ("EdcCombatant", "EdcEncounter"))
