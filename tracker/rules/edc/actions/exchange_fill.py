"""What an exchange takes from the encounter (``fill``) and writes back to it (``apply``):
TNs, Toughness, armour and CP from the fighters, posture's free dice and activation costs;
CP spent, initiative, fumbles, the wound and its Shock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import Resolution, RuleError

from ..common import CP, combatant_or_none, missing
from ..later import tables
from ..pools import reduce_now, spend
from ..wounds import add_wound
from .exchange_params import ExchangeFigures, ExchangeParams, pool_cost

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


def fill_exchange(enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
    """The fighters' TNs and stats; posture on the first blow; refuses dice beyond the CP."""
    out: dict[str, Any] = {}
    posture = tables.tables().pool.posture_dice
    a = combatant_or_none(enc, given.get("attacker"))
    d = combatant_or_none(enc, given.get("defender"))
    if missing(given, "holder") and (a is not None or d is not None):
        out["holder"] = "attacker" if a is not None and a.holds_initiative else \
            "defender" if d is not None and d.holds_initiative else "neither"
    if a is not None:
        if missing(given, "atn"):
            out["atn"] = a.atn
        if missing(given, "weapon_damage"):
            out["weapon_damage"] = a.weapon_damage
        if a.posture == "aggressive" and missing(given, "attack_free"):
            out["attack_free"] = posture
        if a.posture == "defensive" and missing(given, "attack_cost"):
            out["attack_cost"] = posture
    if d is not None:
        for key, value in (("dtn", d.dtn), ("toughness", d.toughness), ("armour", d.armour),
                           ("defender_cp", d.pool(CP).left), ("defender_mounted", d.mounted)):
            if missing(given, key):
                out[key] = value
        if d.posture == "defensive" and missing(given, "defense_free"):
            out["defense_free"] = posture
        if d.posture == "aggressive" and missing(given, "defense_cost"):
            out["defense_cost"] = posture
    full = {q.name: q.default for q in ExchangeParams.spec() if not q.required}
    full.update({k: v for k, v in {**given, **out}.items() if v is not None})
    costs = {
        "attack": pool_cost(full.get("attack_dice", 0), full["attack_free"],
                            full["attack_cost"], full["press_dice"]),
        "defense": pool_cost(full.get("defense_dice", 0), full["defense_free"],
                             full["defense_cost"], full["defense_press_dice"]),
    }
    for who, side in ((a, "attack"), (d, "defense")):
        if who is None:
            continue
        left = who.pool(CP).left
        if costs[side] > left:
            raise RuleError(f"{who.name} has {max(left, 0)} CP left; the {side} needs "
                            f"{costs[side]}")
    return out


def apply_exchange(enc: Encounter, p: ExchangeParams, res: Resolution,
                   tx: Transaction) -> None:
    """CP spent (posture lasts until the first blow), who takes the initiative as the next
    exchange begins, the shield's block, fumbles, the wound."""
    a = combatant_or_none(enc, p.attacker)
    d = combatant_or_none(enc, p.defender)
    f = res.figures_as(ExchangeFigures)
    first_exchange = enc.position.phase == 0
    for who, cost, what in ((a, p.attack_cp(), "the attack"), (d, p.defense_cp(), "the defence")):
        if who is None:
            continue
        spend(who, cost, tx, what)
        if who.posture != "neutral":
            tx.set(["combatants", who.id, "posture"], "neutral")
    winner = a if f.winner == "attacker" else d
    for who in (a, d):
        if who is not None:
            tx.set(["combatants", who.id, "next_initiative"],
                   "takes" if who is winner else "loses")
    if d is not None and p.shield_block:
        tx.set(["combatants", d.id, "shield_used"], True)
    for who, pen in ((a, f.attack_fumble_penalty), (d, f.defense_fumble_penalty)):
        if who is None or not pen:
            continue
        if first_exchange:
            reduce_now(who, pen, tx, "Fumble")
        else:
            tx.set(["combatants", who.id, "fumble_penalty"], who.fumble_penalty + pen)
    wound = f.wound()
    if f.hit and d is not None and wound is not None and wound.wound_level > 0:
        add_wound(enc, d, wound, tx)
        if a is not None and a.reach < d.reach and not a.inside_reach:
            tx.set(["combatants", a.id, "inside_reach"], True)
