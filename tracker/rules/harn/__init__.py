"""HârnMaster (Kèthîra edition) missile sequence, pp. 163-164.

Missile actions per weapon (load, aim, span, shoot, throw, charge) with the missile
state kept across rounds; range bands from Base Range (BR): Direct PB, Direct, Volley
2/3/4; the missile test d100 <= EML (EML clamped 5..95, -40 or worse spoils; a roll
divisible by 5 is critical: CS/CF); Direct results (strike, Precision TA on still
targets, TAs of choice on CS, target count within 5 ft on a miss, mishap CF0 fumble /
CF5 stumble); zone aim with the Zone Die (ZD); Volley results (potential strike on the
target count, volley precision d10, deviation d8). Combatants act by Initiative Rating
(IR, the ``initiative`` field), highest first.

Settings (rules the text leaves open or whose table it does not print):
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
Also open in the text and left to the GM as parameters: success steps beyond CS
(``steps``), Heft penalty (``heft``), fatigue/impairment (``trauma``), the injury level
(``injury``; Injury Sequence not printed), which adjacent area a deviation d8 names.
A moving volley area is the moving target -10 (``target=moving`` or ``area_moving``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import Dice
from tracker.rules.base import Ruleset, lazy_models

from .actions import attack_actions, state_actions
from .missile import missile_odds, plan_attack, resolve_missile, success_odds
from .settings import SETTINGS

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Combatant, Encounter

    from .model import HarnCombatant, HarnEncounter, MissileWeapon, RangeNote


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """Upkeep: moved flags clear, an aim older than last round lapses, idle spanning may
    lose its progress."""
    from tracker.rules.harn.model import HarnCombatant

    rnd = enc.position.round
    keep_span = enc.settings.get("span_progress_kept", True)
    lines: list[str] = []
    for c in enc.combatants:
        if not isinstance(c, HarnCombatant):
            continue
        base: list[str | int] = ["combatants", c.id]
        if c.moved:
            tx.set(base + ["moved"], False)
        if c.aimed_round is not None and c.aimed_round < rnd - 1:
            tx.set(base + ["aimed_round"], None)
            lines.append(f"{c.name}'s aim lapses")
        spanned_last = c.last_action == "span" and c.acted_round == rnd - 1
        if not keep_span and c.span_progress and not spanned_last:
            tx.set(base + ["span_progress"], 0)
            lines.append(f"{c.name} stopped spanning: progress lost")
    return lines


def describe_combatant(c: Combatant) -> str:
    """IR, weapon and missile state in a few words."""
    from tracker.rules.harn.model import HarnCombatant

    if not isinstance(c, HarnCombatant):
        return f"IR{c.initiative}"
    bits = [f"IR{c.initiative}"]
    w = c.weapon
    if w is not None:
        bits.append(f"{w.name} BR{w.br}")
        if w.kind == "crossbow" and not c.loaded:
            if c.spanned:
                bits.append("spanned")
            elif c.span_progress:
                bits.append(f"spanning {c.span_progress}/{w.span_rounds}")
        if w.kind != "thrown":
            bits.append("loaded" if c.loaded else "unloaded")
    if c.aimed_round is not None:
        bits.append(f"aimed r{c.aimed_round}")
    if c.in_hand:
        bits.append("in hand")
    if c.movement != "still":
        bits.append(c.movement)
    if c.moved:
        bits.append("moved")
    return ", ".join(bits)


RULESET = Ruleset(
    id="harn",
    name="HârnMaster missile sequence",
    scale="skirmish",
    model="tracker.rules.harn.model:HarnEncounter",
    actions={**attack_actions(), **state_actions()},
    phases=[],
    panes=("combatants", "wounds", "log"),
    settings=SETTINGS,
    order_stat="initiative",
    start_round=start_round,
    describe_combatant=describe_combatant,
)

__all__ = [
    "RULESET",
    "HarnCombatant",
    "HarnEncounter",
    "MissileWeapon",
    "RangeNote",
    "missile_odds",
    "plan_attack",
    "resolve_missile",
    "success_odds",
]


__getattr__ = lazy_models(
    __name__, ("HarnCombatant", "HarnEncounter", "MissileWeapon", "RangeNote")
)
