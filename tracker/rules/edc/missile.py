"""Missile combat with the Missile Pool (MP): ``missile_prep`` (preparation, shortened by
paying MP and a Reflex test), ``missile`` (loosing: MP dice vs ATN against the target's
evade or shield block, aim dice set aside to steer the 2d6 hit location) and the MP
upkeep at the start of each round (proficiency dice when preparation is done, Aim dice
after a round without firing, pool max = Aim + proficiency).
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
    MP,
    TN_ABOVE_TEN,
    combatant_or_none,
    count_successes,
    is_botch,
    missing,
    roll_d10s,
    success_odds,
    successes_word,
)
from .exchange import mos_odds, wound_level
from .pools import spend
from .wounds import DAMAGE_TYPES, TABLE_PARAM, add_wound, missile_location, wound_figures

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import EdcCombatant

EVADE_DTN = {"evade_full": 4, "evade_partial": 7, "duck": 9}
DEFENCES = ("none", "evade_full", "evade_partial", "duck", "block")


# --- upkeep ----------------------------------------------------------------------------------


def missile_upkeep(enc: Encounter, c: EdcCombatant, tx: Transaction) -> str:
    """Count preparation down, add proficiency or Aim dice, clear the fired flag."""
    mp = c.pool(MP)
    path = ["combatants", c.id]
    cap = c.aim + c.missile_proficiency
    dice = max(mp.left, 0)
    lines = [f"Carried {dice}"] if dice else []
    note = ""
    if c.preparing:
        left = max(c.missile_prep - 1, 0)
        tx.set([*path, "missile_prep"], left)
        if left == 0:
            gain = c.missile_proficiency - c.missile_prep_cost
            dice = min(max(dice + gain, 0), cap)
            lines.append(f"Proficiency {c.missile_proficiency:+d}")
            if c.missile_prep_cost:
                lines.append(f"Shortened preparation -{c.missile_prep_cost}")
            tx.set([*path, "preparing"], False)
            tx.set([*path, "missile_ready"], True)
            tx.set([*path, "missile_prep_cost"], 0)
            note = f"{c.name} ready to loose, MP {dice}"
        else:
            note = f"{c.name} preparing, {left} round{'s' if left > 1 else ''} to go"
    elif c.missile_ready and not c.fired and c.aim:
        before = dice
        dice = min(dice + c.aim, cap)
        if dice > before:
            lines.append(f"Aim +{dice - before}")
            note = f"{c.name} aims, MP {dice}"
    if c.fired:
        tx.set([*path, "fired"], False)
    if dice or mp.size or mp.spent:
        tx.set([*path, "pools", MP, "size"], dice)
        tx.set([*path, "pools", MP, "spent"], 0)
        tx.set([*path, "pools", MP, "breakdown"], lines + ([f"Max {cap}"] if cap else []))
    return note


# --- preparation ------------------------------------------------------------------------------


def _resolve_prep(p: ParamDict, dice: Dice) -> Resolution:
    who = p["actor"] or "shooter"
    rounds = p["rounds"]
    fig: dict[str, Any] = {"prep_rounds": rounds, "shortened": False, "mp_cost": 0,
                           "successes": 0}
    text = f"{who} prepares to loose: {rounds} round{'s' if rounds != 1 else ''}"
    if not p["shorten"]:
        return Resolution("missile_prep", "preparing", text, fig, dice.rolls)
    vals = roll_d10s(dice, "reflex", p["reflex"])
    succ = count_successes(vals, p["reflex_tn"], p["tn_above_ten"])
    ok = succ > 0 and rounds > 1
    fig.update(successes=succ, shortened=ok, mp_cost=p["mp_cost"],
               prep_rounds=rounds - 1 if ok else rounds)
    text += (
        f"; shortening for {p['mp_cost']} MP, Reflex {p['reflex']} vs TN {p['reflex_tn']}: "
        f"{successes_word(succ)}, "
        + (f"{rounds - 1} round{'s' if rounds - 1 != 1 else ''}" if ok else "not shortened")
    )
    return Resolution("missile_prep", "shortened" if ok else "preparing", text, fig, dice.rolls)


def _odds_prep(p: ParamDict) -> list[tuple[str, float]]:
    if not p["shorten"] or p["rounds"] <= 1:
        return [("not shortened", 1.0)]
    botch, fail, ok = success_odds(p["reflex"], p["reflex_tn"], p["tn_above_ten"])
    return [("not shortened", botch[1] + fail[1]), ("shortened", ok[1])]


def _fill_prep(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    return {"reflex": c.reflex} if c is not None and missing(p, "reflex") else {}


def _apply_prep(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    if c is None:
        return
    path = ["combatants", c.id]
    tx.set([*path, "preparing"], True)
    tx.set([*path, "missile_ready"], False)
    tx.set([*path, "missile_prep"], res.figures["prep_rounds"])
    tx.set([*path, "missile_prep_cost"], res.figures["mp_cost"])


MISSILE_PREP = FunctionAction(
    name="missile_prep",
    help="Start preparing a missile weapon (rounds); may shorten by 1 round (min 1) by "
    "paying MP (taken from the proficiency refresh) and a Reflex test",
    params=[
        Param("actor", "actor", "", "the shooter"),
        Param("rounds", "int", REQUIRED, "the weapon's preparation time in rounds", minimum=1),
        Param("shorten", "bool", False, "try to shorten it by a round"),
        Param("mp_cost", "int", 0, "the weapon's MP cost to shorten", minimum=0),
        Param("reflex", "int", 0, "Reflex dice", minimum=0),
        Param("reflex_tn", "int", 7, "the weapon's Reflex TN to shorten", minimum=1),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("reflex", "d10", "Reflex test to shorten")],
    resolve=_resolve_prep,
    odds=_odds_prep,
    fill=_fill_prep,
    apply=_apply_prep,
    detail="figures: prep_rounds, shortened, mp_cost, successes. Each round's upkeep counts "
    "a round down; when done the MP gains proficiency dice (less the cost), ready to "
    "loose next round.",
)


# --- loosing -----------------------------------------------------------------------------------


def _defence_tn(p: ParamDict) -> int:
    if p["dtn"] > 0:
        return p["dtn"]
    if p["defense"] == "block":
        if p["shield_dtn"] <= 0:
            raise RuleError("missile: a block needs the shield's missile DTN (shield_dtn=)")
        return p["shield_dtn"]
    return EVADE_DTN.get(p["defense"], 10)


def _resolve_missile(p: ParamDict, dice: Dice) -> Resolution:
    if p["aim_dice"] > p["aim"]:
        raise RuleError(f"missile: at most {p['aim']} aim dice (Aim {p['aim']})")
    rule = p["tn_above_ten"]
    shooter = p["actor"] or "shooter"
    target = p["target"] or "target"
    vals = roll_d10s(dice, "missile", p["dice"])
    succ = count_successes(vals, p["atn"], rule)
    botch = is_botch(vals, succ)
    d_succ = 0
    dtn = 0
    text = f"{shooter} looses {p['dice']} MP vs ATN {p['atn']}: {successes_word(succ)}"
    if p["defense"] != "none" and p["defense_dice"]:
        dtn = _defence_tn(p)
        dvals = roll_d10s(dice, "defense", p["defense_dice"])
        d_succ = count_successes(dvals, dtn, rule)
        text += f"; {target} {p['defense'].replace('_', ' ')}s with {p['defense_dice']} vs "
        text += f"DTN {dtn}: {successes_word(d_succ)}"
    mos = succ - d_succ
    hit = mos > 0
    fig: dict[str, Any] = {"successes": succ, "defense_successes": d_succ, "dtn": dtn,
                           "mos": mos, "hit": hit, "botch": botch,
                           "mp_spent": p["dice"] + p["aim_dice"]}
    if not hit:
        text += "; misses" + (" (botch)" if botch else "")
        return Resolution("missile", "miss", text, fig, dice.rolls)
    roll = dice.roll("location", 6) + dice.roll("location", 6)
    shift = 0
    if p["aim_at"]:
        most = p["aim_dice"] * p["aim_shift_per_die"]
        shift = max(-most, min(most, p["aim_at"] - roll))
    final = roll + shift
    location = p["location"] or missile_location(p["damage_table"], final)
    fig.update(location_roll=roll, location_shift=shift, location=location)
    text += f"; MoS {mos}, hits {location} (2d6 {roll}"
    text += f", aimed {shift:+d})" if shift else ")"
    level = wound_level(p, mos)
    wf = wound_figures(level=level, location=location, damage_type=p["damage_type"],
                       table=p["damage_table"], mos=mos, cp_left=p["target_cp"])
    fig.update(wf)
    if level > 0:
        text += f"; level {level} {p['damage_type']} wound: Shock {wf['shock']}, "
        text += f"Pain {wf['pain']}, BL {wf['blood_loss']}"
        if wf.get("spill"):
            text += f"; {wf['spill']} Shock spills into next round"
        if wf["knockdown_tn"]:
            text += f"; knockdown roll TN {wf['knockdown_tn']}"
        if wf["knockout_roll"]:
            text += "; knockout roll"
    else:
        text += "; no wound (level 0)"
    return Resolution("missile", "hit", text, fig, dice.rolls)


def _odds_missile(p: ParamDict) -> list[tuple[str, float]]:
    rule = p["tn_above_ten"]
    nd = p["defense_dice"] if p["defense"] != "none" else 0
    dist = mos_odds(p["dice"], p["atn"], nd, _defence_tn(p) if nd else 10, rule)
    miss = sum(q for m, q in dist.items() if m <= 0)
    out = [("miss", miss)]
    out += [(f"hit, MoS {m}", dist[m]) for m in sorted(dist) if m > 0]
    return out


def _fill_missile(enc: Encounter, p: ParamDict) -> ParamDict:
    out: ParamDict = {}
    c = combatant_or_none(enc, p.get("actor"))
    t = combatant_or_none(enc, p.get("target"))
    if c is not None:
        if missing(p, "aim"):
            out["aim"] = c.aim
        left = c.pool(MP).left
        need = (p.get("dice") or 0) + (p.get("aim_dice") or 0)
        if need > left:
            raise RuleError(f"{c.name} has {left} MP left; the shot needs {need}")
        if not c.missile_ready and not c.pool(MP).left:
            raise RuleError(f"{c.name} has no missile ready (missile_prep first)")
    if t is not None:
        for key, value in (("toughness", t.toughness), ("armour", t.armour),
                           ("target_cp", t.pool(CP).left)):
            if missing(p, key):
                out[key] = value
    return out


def _apply_missile(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    t = combatant_or_none(enc, p.get("target"))
    if c is not None:
        spend(c, res.figures["mp_spent"], tx, "the shot", MP)
        tx.set(["combatants", c.id, "fired"], True)
        tx.set(["combatants", c.id, "missile_ready"], False)
    if t is not None:
        if p["defense"] != "none" and p["defense_from"] == "cp":
            spend(t, p["defense_dice"], tx, "the defence")
        if res.figures["hit"] and res.figures.get("wound_level", 0) > 0:
            add_wound(enc, t, res.figures, tx)


MISSILE = FunctionAction(
    name="missile",
    help="Loose a missile: MP dice vs ATN, against the target's evade (DTN 4 / 7 / 9) or "
    "shield block; a hit rolls 2d6 for location, steered by aim dice set aside",
    params=[
        Param("actor", "actor", "", "the shooter (spends MP)"),
        Param("target", "target", "", "the target"),
        Param("dice", "int", REQUIRED, "MP dice rolled", minimum=0),
        Param("atn", "int", REQUIRED, "ATN with range, movement and environment", minimum=1),
        Param("aim_dice", "int", 0, "MP dice set aside to aim a location (max Aim)", minimum=0),
        Param("aim", "int", 0, "the shooter's Aim", minimum=0),
        Param("aim_at", "int", 0, "2d6 location score aimed at (0: none)", minimum=0,
              maximum=12),
        Param("aim_shift_per_die", "int", 1, "location shift per aim die", minimum=0),
        Param("location", "str", "", "location struck, if the GM sets it"),
        Param("defense", "choice", "none", "target's defence: evade_full (DTN 4), "
              "evade_partial (7), duck (9), block (shield)", choices=DEFENCES),
        Param("defense_dice", "int", 0, "target's dice (CP in melee, else Reflex)", minimum=0),
        Param("defense_from", "choice", "cp", "defence dice from the CP (in melee) or Reflex",
              choices=("cp", "reflex")),
        Param("shield_dtn", "int", 0, "the shield's missile DTN", minimum=0),
        Param("dtn", "int", 0, "DTN set by the GM (0: from the defence)", minimum=0),
        Param("damage_type", "choice", "puncture", "damage type", choices=DAMAGE_TYPES),
        Param("weapon_damage", "int", 0, "weapon damage added to the MoS"),
        Param("toughness", "int", 0, "target's Toughness", minimum=0),
        Param("armour", "int", 0, "target's armour", minimum=0),
        Param("wound_level", "int", -1, "wound level (-1: MoS + damage - TO - AR)",
              minimum=-1, maximum=5),
        Param("target_cp", "int", -1, "target's CP left (-1: unknown)", minimum=-1),
        TABLE_PARAM,
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("missile", "d10", "MP dice"), DieRole("defense", "d10", "evade/block dice"),
           DieRole("location", "d6", "2d6 hit location")],
    resolve=_resolve_missile,
    odds=_odds_missile,
    fill=_fill_missile,
    apply=_apply_missile,
    detail="figures: successes, defense_successes, dtn, mos, hit, botch, mp_spent; on a hit "
    "location_roll, location_shift, location and the wound figures (wound_level, shock, "
    "pain, blood_loss, knockdown_tn, knockout_roll). A shield blocks once per exchange.",
)
