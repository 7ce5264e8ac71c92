"""The exchange of blows and initiative: ``exchange`` (with pressing), ``initiative``
(both threw red) and ``hesitation``.

Both sides roll the dice they spent from their Combat Pool (CP) against their target
numbers (ATN / DTN): successes are dice at or above the TN, the margin of success (MoS)
is attacker's minus defender's successes. The winner holds the initiative next exchange;
a tie goes to the attacker (the blow is turned aside). A roll with no successes and two
or more 1s is a botch (fumble): the CP is cut by half the dice used on the next exchange.

Pressing: press dice roll against TN 3 (attacking) or 4 (defending); the exchange winner
adds the MoS to his press successes; the most press successes moves the fight that many
feet more than the other side's (the press MoS). Without press dice the loser gives
ground one foot per point of MoS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import (
    REQUIRED,
    DieRole,
    FunctionAction,
    Param,
    ParamDict,
    Resolution,
    RuleError,
)

from .common import (
    CP,
    TN_ABOVE_TEN,
    binomial,
    combatant_or_none,
    count_successes,
    difference,
    is_botch,
    missing,
    p_success,
    roll_d10s,
    success_odds,
    successes_word,
)
from .pools import reduce_now, spend
from .wounds import DAMAGE_TYPES, TABLE_PARAM, add_wound, wound_figures

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

# --- exchange -------------------------------------------------------------------------------


def attack_cost(p: ParamDict) -> int:
    """CP the attacker spends: rolled dice not given free, the activation cost, press dice."""
    return max(p["attack_dice"] - p["attack_free"], 0) + p["attack_cost"] + p["press_dice"]


def defense_cost(p: ParamDict) -> int:
    return (
        max(p["defense_dice"] - p["defense_free"], 0)
        + p["defense_cost"]
        + p["defense_press_dice"]
    )


def wound_level(p: ParamDict, mos: int) -> int:
    """Level 0-5: as entered, else MoS + weapon damage - Toughness - armour."""
    if mos <= 0:
        return 0
    if p["wound_level"] >= 0:
        return int(p["wound_level"])
    return max(0, min(5, mos + p["weapon_damage"] - p["toughness"] - p["armour"]))


def _resolve_exchange(p: ParamDict, dice: Dice) -> Resolution:
    rule = p["tn_above_ten"]
    a_name = p["attacker"] or "attacker"
    d_name = p["defender"] or "defender"
    a_vals = roll_d10s(dice, "attack", p["attack_dice"])
    d_vals = roll_d10s(dice, "defense", p["defense_dice"])
    a_succ = count_successes(a_vals, p["atn"], rule)
    d_succ = count_successes(d_vals, p["dtn"], rule)
    mos = a_succ - d_succ
    winner = "attacker" if mos >= 0 else "defender"
    a_botch = is_botch(a_vals, a_succ)
    d_botch = is_botch(d_vals, d_succ)
    hit = mos > 0
    fig: dict[str, Any] = {
        "attack_successes": a_succ,
        "defense_successes": d_succ,
        "mos": mos,
        "winner": winner,
        "initiative": winner,
        "hit": hit,
        "attack_botch": a_botch,
        "defense_botch": d_botch,
        "attack_fumble_penalty": p["attack_dice"] // 2 if a_botch else 0,
        "defense_fumble_penalty": p["defense_dice"] // 2 if d_botch else 0,
        "attack_cp_spent": attack_cost(p),
        "defense_cp_spent": defense_cost(p),
    }
    maneuver = f" ({p['maneuver']})" if p["maneuver"] else ""
    at = f" at {p['location']}" if p["location"] else ""
    defense = f"defends ({p['defense']})" if p["defense"] else "defends"
    parts = [
        f"{a_name} attacks{maneuver}{at} with {p['attack_dice']} vs ATN {p['atn']}: "
        f"{successes_word(a_succ)}" + (" (botch)" if a_botch else ""),
        f"{d_name} {defense} with {p['defense_dice']} vs DTN {p['dtn']}: "
        f"{successes_word(d_succ)}" + (" (botch)" if d_botch else ""),
    ]
    if hit:
        result = f"MoS {mos}, hit; {a_name} keeps the initiative"
    elif mos == 0:
        result = f"tie, turned aside; {a_name} keeps the initiative"
    else:
        result = f"MoS {mos}, {d_name} wins and takes the initiative"
    parts.append(result)

    # pressing
    if p["press_dice"] or p["defense_press_dice"]:
        pa_vals = roll_d10s(dice, "press", p["press_dice"])
        pd_vals = roll_d10s(dice, "defense_press", p["defense_press_dice"])
        pa = count_successes(pa_vals, p["press_tn"], rule)
        pd = count_successes(pd_vals, p["defense_press_tn"], rule)
        a_total = pa + max(mos, 0)
        d_total = pd + max(-mos, 0)
        feet = abs(a_total - d_total)
        by = "attacker" if a_total > d_total else "defender" if d_total > a_total else "none"
        fig.update(
            press_successes=pa,
            defense_press_successes=pd,
            press_total=a_total,
            defense_press_total=d_total,
            press_feet=feet,
            press_by=by,
        )
        if by == "none":
            parts.append(f"press {a_total} vs {d_total}: the fight stays put")
        else:
            mover = a_name if by == "attacker" else d_name
            parts.append(
                f"press {a_total} vs {d_total}: {mover} moves the fight up to {feet} ft"
            )
    else:
        fig["drive_feet"] = abs(mos)
        if mos:
            loser = d_name if mos > 0 else a_name
            parts.append(f"{loser} gives {abs(mos)} ft")

    # the wound
    if hit:
        level = wound_level(p, mos)
        cp_left = p["defender_cp"]
        if cp_left >= 0:
            cp_left -= defense_cost(p)
        wf = wound_figures(
            level=level,
            location=p["location"],
            damage_type=p["damage_type"],
            table=p["damage_table"],
            mos=mos,
            cp_left=max(cp_left, -1) if p["defender_cp"] >= 0 else -1,
        )
        fig.update(wf)
        if level > 0 and not p["location"]:
            parts.append(f"level {level} wound (no location given: enter it with hit)")
        elif level > 0:
            w = f"level {level} {p['damage_type']} wound: Shock {wf['shock']}, Pain {wf['pain']}"
            w += f", BL {wf['blood_loss']}"
            if wf.get("spill"):
                w += f"; {wf['spill']} Shock spills into next round"
            if wf["knockdown_tn"]:
                w += f"; knockdown roll TN {wf['knockdown_tn']}"
            if wf["knockout_roll"]:
                w += "; knockout roll"
            if p["defender_mounted"]:
                w += f"; ride check at -{mos} dice to stay mounted"
            if wf["wound_note"] and p["location"]:
                w += f" ({wf['wound_note']})"
            parts.append(w)
        else:
            parts.append("no wound (level 0)")
        fig["ride_check_penalty"] = mos if p["defender_mounted"] else 0
    for who, botch, pen in (
        (a_name, a_botch, fig["attack_fumble_penalty"]),
        (d_name, d_botch, fig["defense_fumble_penalty"]),
    ):
        if botch:
            parts.append(f"{who} fumbles: -{pen} CP next exchange")
    outcome = "hit" if hit else "tie" if mos == 0 else "defended"
    return Resolution("exchange", outcome, "; ".join(parts), fig, dice.rolls)


def mos_odds(na: int, atn: int, nd: int, dtn: int, rule: str = "cap") -> dict[int, float]:
    """Exact distribution of the MoS of an exchange."""
    return difference(binomial(na, p_success(atn, rule)), binomial(nd, p_success(dtn, rule)))


def _odds_exchange(p: ParamDict) -> list[tuple[str, float]]:
    dist = mos_odds(p["attack_dice"], p["atn"], p["defense_dice"], p["dtn"], p["tn_above_ten"])
    out = []
    for m in sorted(dist, reverse=True):
        if m > 0:
            label = f"MoS {m}: hit"
        elif m == 0:
            label = "MoS 0: turned aside, attacker keeps initiative"
        else:
            label = f"MoS {m}: defender wins"
        out.append((label, dist[m]))
    return out


def _fill_exchange(enc: Encounter, p: ParamDict) -> ParamDict:
    out: ParamDict = {}
    a = combatant_or_none(enc, p.get("attacker"))
    d = combatant_or_none(enc, p.get("defender"))
    if a is not None:
        if missing(p, "atn"):
            out["atn"] = a.atn
        if missing(p, "weapon_damage"):
            out["weapon_damage"] = a.weapon_damage
        if a.posture == "aggressive" and missing(p, "attack_free"):
            out["attack_free"] = 2
        if a.posture == "defensive" and missing(p, "attack_cost"):
            out["attack_cost"] = 2
    if d is not None:
        if missing(p, "dtn"):
            out["dtn"] = d.dtn
        if missing(p, "toughness"):
            out["toughness"] = d.toughness
        if missing(p, "armour"):
            out["armour"] = d.armour
        if missing(p, "defender_cp"):
            out["defender_cp"] = d.pool(CP).left
        if missing(p, "defender_mounted"):
            out["defender_mounted"] = d.mounted
        if d.posture == "defensive" and missing(p, "defense_free"):
            out["defense_free"] = 2
        if d.posture == "aggressive" and missing(p, "defense_cost"):
            out["defense_cost"] = 2
    merged = {**p, **out}
    for who, cost in ((a, "attack"), (d, "defense")):
        if who is None:
            continue
        need = _cost_with_defaults(merged, cost)
        left = who.pool(CP).left
        if need > left:
            raise RuleError(f"{who.name} has {max(left, 0)} CP left; the {cost} needs {need}")
    return out


def _cost_with_defaults(p: ParamDict, side: str) -> int:
    full = {param.name: param.default for param in EXCHANGE.params if not param.required}
    full.update({k: v for k, v in p.items() if v is not None})
    full.setdefault("attack_dice", 0)
    full.setdefault("defense_dice", 0)
    return attack_cost(full) if side == "attack" else defense_cost(full)


def _apply_exchange(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    a = combatant_or_none(enc, p.get("attacker"))
    d = combatant_or_none(enc, p.get("defender"))
    fig = res.figures
    first_exchange = enc.position.phase == 0
    for who, cost, what in ((a, attack_cost(p), "the attack"), (d, defense_cost(p), "the defence")):
        if who is None:
            continue
        spend(who, cost, tx, what)
        if who.posture != "neutral":  # posture lasts until the first blow
            tx.set(["combatants", who.id, "posture"], "neutral")
    winner = a if fig["winner"] == "attacker" else d
    for who in (a, d):
        if who is not None:
            tx.set(["combatants", who.id, "holds_initiative"], who is winner)
    for who, pen in ((a, fig["attack_fumble_penalty"]), (d, fig["defense_fumble_penalty"])):
        if who is None or not pen:
            continue
        if first_exchange:
            reduce_now(who, pen, tx, "Fumble")
        else:
            tx.set(["combatants", who.id, "fumble_penalty"], who.fumble_penalty + pen)
    if fig["hit"] and d is not None and fig.get("wound_level", 0) > 0:
        add_wound(enc, d, fig, tx)
        if a is not None and a.reach < d.reach and not a.inside_reach:
            tx.set(["combatants", a.id, "inside_reach"], True)


EXCHANGE = FunctionAction(
    name="exchange",
    help="An exchange of blows: attack dice vs ATN against defence dice vs DTN, "
    "MoS, initiative, botches, pressing and the wound",
    params=[
        Param("attacker", "actor", "", "who attacks (spends CP)"),
        Param("defender", "target", "", "who defends (spends CP, takes the wound)"),
        Param("attack_dice", "int", REQUIRED, "dice rolled for the attack", minimum=0),
        Param("atn", "int", REQUIRED, "attack TN (weapon ATN with modifiers)", minimum=1),
        Param("defense_dice", "int", 0, "dice rolled for the defence", minimum=0),
        Param("dtn", "int", REQUIRED, "defence TN (DTN with modifiers)", minimum=1),
        Param("maneuver", "str", "", "attack maneuver (cut, thrust, bash ...)"),
        Param("location", "str", "", "target location (head, neck, chest, abdomen, arm, leg)"),
        Param("defense", "str", "", "defence maneuver (parry, block, evade ...)"),
        Param("attack_free", "int", 0, "attack dice not from the CP (aggressive posture 2)",
              minimum=0),
        Param("attack_cost", "int", 0, "attack activation cost in CP (defensive posture 2)",
              minimum=0),
        Param("defense_free", "int", 0, "defence dice not from the CP (defensive posture 2)",
              minimum=0),
        Param("defense_cost", "int", 0, "defence activation cost (aggressive posture 2)",
              minimum=0),
        Param("press_dice", "int", 0, "attacker's press dice", minimum=0),
        Param("press_tn", "int", 3, "attacker's press TN", minimum=1),
        Param("defense_press_dice", "int", 0, "defender's press dice", minimum=0),
        Param("defense_press_tn", "int", 4, "defender's press TN", minimum=1),
        Param("damage_type", "choice", "cutting", "damage type", choices=DAMAGE_TYPES),
        Param("weapon_damage", "int", 0, "weapon damage added to the MoS"),
        Param("toughness", "int", 0, "defender's Toughness taken off the MoS", minimum=0),
        Param("armour", "int", 0, "defender's armour at the location", minimum=0),
        Param("wound_level", "int", -1, "wound level 0-5 (-1: MoS + damage - TO - AR)",
              minimum=-1, maximum=5),
        Param("defender_cp", "int", -1, "defender's CP left before the exchange (-1: unknown)",
              minimum=-1),
        Param("defender_mounted", "bool", False, "defender is mounted (ride check if hit)"),
        TABLE_PARAM,
        TN_ABOVE_TEN,
    ],
    roles=[
        DieRole("attack", "d10", "attack dice"),
        DieRole("defense", "d10", "defence dice"),
        DieRole("press", "d10", "attacker's press dice"),
        DieRole("defense_press", "d10", "defender's press dice"),
    ],
    resolve=_resolve_exchange,
    odds=_odds_exchange,
    fill=_fill_exchange,
    apply=_apply_exchange,
    detail="figures: attack_successes, defense_successes, mos, winner (attacker on a tie), "
    "initiative (who holds it next), hit, attack_botch, defense_botch, "
    "attack_fumble_penalty, defense_fumble_penalty, attack_cp_spent, defense_cp_spent; "
    "drive_feet (no press) or press_successes, defense_press_successes, press_total, "
    "defense_press_total, press_feet, press_by; on a hit wound_level, location, "
    "damage_type, shock, pain, blood_loss, wound_note, knockdown_tn, knockout_roll, "
    "ride_check_penalty (and cp_now, spill when defender_cp is known).\n"
    "Roland's press: exchange attack_dice=6 atn=6 defense_dice=4 dtn=6 press_dice=6 "
    "--dice attack=... defense=... press=... -> press_feet 6.",
)


# --- initiative when both throw red ------------------------------------------------------------


def _resolve_initiative(p: ParamDict, dice: Dice) -> Resolution:
    rule = p["tn_above_ten"]
    a_dice = max(p["a_reflex"] - p["a_penalty"], 0)
    b_dice = max(p["b_reflex"] - p["b_penalty"], 0)
    a_vals = roll_d10s(dice, "a", a_dice)
    b_vals = roll_d10s(dice, "b", b_dice)
    a_s = count_successes(a_vals, p["a_atn"], rule)
    b_s = count_successes(b_vals, p["b_atn"], rule)
    a_name, b_name = p["a"] or "A", p["b"] or "B"
    a_score = p["a_reflex"] + (1 if p["a_thrust"] else 0)
    b_score = p["b_reflex"] + (1 if p["b_thrust"] else 0)
    if a_s != b_s:
        first, why = ("a" if a_s > b_s else "b"), "more successes"
    elif a_score != b_score:
        first, why = ("a" if a_score > b_score else "b"), "higher Reflex (thrust +1)"
    else:
        first, why = "simultaneous", "a dead tie"
    name = {"a": a_name, "b": b_name}.get(first, "both")
    text = (
        f"Both red: {a_name} {successes_word(a_s)}, {b_name} {successes_word(b_s)}; "
        + (f"{name}'s blow lands first ({why})" if first != "simultaneous"
           else "blows land together")
    )
    fig = {"a_successes": a_s, "b_successes": b_s, "first": first, "reason": why}
    return Resolution("initiative", first, text, fig, dice.rolls)


def _odds_initiative(p: ParamDict) -> list[tuple[str, float]]:
    rule = p["tn_above_ten"]
    dist = mos_odds(
        max(p["a_reflex"] - p["a_penalty"], 0), p["a_atn"],
        max(p["b_reflex"] - p["b_penalty"], 0), p["b_atn"], rule,
    )
    a_more = sum(q for m, q in dist.items() if m > 0)
    b_more = sum(q for m, q in dist.items() if m < 0)
    tie = dist.get(0, 0.0)
    a_score = p["a_reflex"] + (1 if p["a_thrust"] else 0)
    b_score = p["b_reflex"] + (1 if p["b_thrust"] else 0)
    if a_score > b_score:
        a_more += tie
        tie = 0.0
    elif b_score > a_score:
        b_more += tie
        tie = 0.0
    return [("A first", a_more), ("B first", b_more), ("simultaneous", tie)]


def _fill_initiative(enc: Encounter, p: ParamDict) -> ParamDict:
    out: ParamDict = {}
    for key in ("a", "b"):
        c = combatant_or_none(enc, p.get(key))
        if c is None:
            continue
        if missing(p, f"{key}_reflex"):
            out[f"{key}_reflex"] = c.reflex
        if missing(p, f"{key}_atn"):
            out[f"{key}_atn"] = c.atn
    a = combatant_or_none(enc, p.get("a"))
    b = combatant_or_none(enc, p.get("b"))
    if a is not None and b is not None:
        if missing(p, "a_penalty") and b.reach > a.reach and not a.inside_reach:
            out["a_penalty"] = b.reach - a.reach
        if missing(p, "b_penalty") and a.reach > b.reach and not b.inside_reach:
            out["b_penalty"] = a.reach - b.reach
    return out


def _apply_initiative(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    first = res.figures["first"]
    for key in ("a", "b"):
        c = combatant_or_none(enc, p.get(key))
        if c is not None:
            tx.set(["combatants", c.id, "marker"], "red")
            tx.set(["combatants", c.id, "holds_initiative"], first in (key, "simultaneous"))


INITIATIVE = FunctionAction(
    name="initiative",
    help="Both threw red: Reflex dice vs ATN (less weapon length penalty) decide whose "
    "blow lands first; ties by Reflex (thrust +1), then simultaneous",
    params=[
        Param("a", "actor", "", "first fighter"),
        Param("b", "target", "", "second fighter"),
        Param("a_reflex", "int", REQUIRED, "A's Reflex", minimum=0),
        Param("a_atn", "int", REQUIRED, "A's weapon ATN", minimum=1),
        Param("a_penalty", "int", 0, "A's weapon length penalty (dice)", minimum=0),
        Param("a_thrust", "bool", False, "A thrusts (+1 on a tie)"),
        Param("b_reflex", "int", REQUIRED, "B's Reflex", minimum=0),
        Param("b_atn", "int", REQUIRED, "B's weapon ATN", minimum=1),
        Param("b_penalty", "int", 0, "B's weapon length penalty (dice)", minimum=0),
        Param("b_thrust", "bool", False, "B thrusts (+1 on a tie)"),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("a", "d10", "A's Reflex dice"), DieRole("b", "d10", "B's Reflex dice")],
    resolve=_resolve_initiative,
    odds=_odds_initiative,
    fill=_fill_initiative,
    apply=_apply_initiative,
    detail="figures: a_successes, b_successes, first (a, b or simultaneous), reason. "
    "Markers are thrown at the start of a bout or after a break; set each fighter's "
    "marker (red, white, hesitating) with `set NAME marker=red`. Aggressors declare "
    "lowest Reflex first.",
)


# --- hesitation -----------------------------------------------------------------------------


def hesitation_tn(p: ParamDict) -> int:
    return max(7 + p["ambusher_successes"] - p["target_successes"], 1)


def _resolve_hesitation(p: ParamDict, dice: Dice) -> Resolution:
    tn = hesitation_tn(p)
    vals = roll_d10s(dice, "reflex", p["reflex"])
    succ = count_successes(vals, tn, p["tn_above_ten"])
    who = p["actor"] or "fighter"
    if succ:
        text = f"{who}: Reflex {p['reflex']} vs TN {tn}: {successes_word(succ)}, may defend"
        outcome = "defend"
    else:
        text = f"{who}: Reflex {p['reflex']} vs TN {tn}: no success, frozen for an exchange"
        outcome = "frozen"
    fig = {"tn": tn, "successes": succ, "can_defend": bool(succ)}
    return Resolution("hesitation", outcome, text, fig, dice.rolls)


def _odds_hesitation(p: ParamDict) -> list[tuple[str, float]]:
    botch, fail, ok = success_odds(p["reflex"], hesitation_tn(p), p["tn_above_ten"])
    return [("frozen", botch[1] + fail[1]), ("may defend (white)", ok[1])]


def _fill_hesitation(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    return {"reflex": c.reflex} if c is not None and missing(p, "reflex") else {}


def _apply_hesitation(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    if c is None:
        return
    tx.set(["combatants", c.id, "marker"], "white" if res.figures["can_defend"] else "hesitating")
    tx.set(["combatants", c.id, "holds_initiative"], False)


HESITATION = FunctionAction(
    name="hesitation",
    help="Hesitation: Reflex vs TN 7 + ambusher's surprise successes - target's; "
    "a success may defend only, none is frozen for an exchange",
    params=[
        Param("actor", "actor", "", "the fighter who hesitated or was surprised"),
        Param("reflex", "int", REQUIRED, "Reflex dice", minimum=0),
        Param("ambusher_successes", "int", 0, "ambusher's surprise successes", minimum=0),
        Param("target_successes", "int", 0, "target's surprise successes", minimum=0),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("reflex", "d10", "Reflex dice")],
    resolve=_resolve_hesitation,
    odds=_odds_hesitation,
    fill=_fill_hesitation,
    apply=_apply_hesitation,
    detail="figures: tn, successes, can_defend. A fighter who throws no marker "
    "hesitates: defend only for one exchange.",
)

