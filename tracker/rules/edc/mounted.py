"""Mounted combat: ``ride_by`` attacks, ``unhorse`` (staying in the saddle when struck)
and ``ride`` (gait changes and turns).

Mounted modifiers are kept on the fighter: +2 CP height against ground opponents
(``mount_height``, it varies with the horse), the leg-armour penalty cancelled (enter
it in ``cp_modifier``), barding as an activation cost for evasions (``defense_cost`` of
the exchange), +4 CP to swivel and strike to the rear (``attack_cost``). AG/Ride checks
roll Agility + Ride dice; the text does not give their TN (setting ``ride_tn``).
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
    TN_ABOVE_TEN,
    binomial,
    combatant_or_none,
    count_successes,
    is_botch,
    missing,
    p_success,
    roll_d10s,
    success_odds,
    successes_word,
)
from .pools import spend

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import EdcCombatant

GAITS = ("stand", "walk", "trot", "canter", "gallop")
_STEP = {"stand": 0, "walk": 0, "trot": 1, "canter": 2, "gallop": 3}
_BY_STEP = {0: "stand", 1: "trot", 2: "canter", 3: "gallop"}
GAIT_MOVE = {"stand": 0.0, "walk": 0.5, "trot": 1.0, "canter": 2.0, "gallop": 3.0}
"""Gait as a multiple of the mount's Move."""


def _fill_ride_by(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    out: ParamDict = {}
    if c is not None:
        if missing(p, "dice"):
            out["dice"] = c.agility + c.ride
        if missing(p, "gait"):
            out["gait"] = c.gait
        if missing(p, "move"):
            out["move"] = c.mount_move
    return out


def _fill_unhorse(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    if c is not None and missing(p, "dice"):
        return {"dice": c.agility + c.ride}
    return {}


# --- ride-by ---------------------------------------------------------------------------------


def _resolve_ride_by(p: ParamDict, dice: Dice) -> Resolution:
    if p["gait"] not in ("canter", "gallop"):
        raise RuleError(f"ride_by: the mount must canter or gallop (it is at {p['gait']})")
    rule = p["tn_above_ten"]
    vals = roll_d10s(dice, "ride", p["dice"])
    tn = p["ride_tn"]
    succ = count_successes(vals, tn, rule)
    botch = is_botch(vals, succ)
    ovals = roll_d10s(dice, "oppose", p["oppose_dice"])
    osucc = count_successes(ovals, p["oppose_tn"] or tn, rule)
    success = succ > 0 and succ >= osucc
    yards = p["move"] * GAIT_MOVE[p["gait"]] / 2
    rider = p["actor"] or "rider"
    fig: dict[str, Any] = {
        "successes": succ,
        "opposed_successes": osucc,
        "botch": botch,
        "success": success and not botch,
        "exchanges": 1 if success and not botch else 2,
        "unhorsed": botch,
        "yards_after": yards,
    }
    text = f"{rider}: ride-by at a {p['gait']}, AG/Ride {p['dice']} vs TN {tn}: "
    text += successes_word(succ)
    if p["oppose_dice"]:
        text += f" against {successes_word(osucc)}"
    if p["both_mounted"]:
        fig["chooser"] = "rider" if succ >= osucc else "opponent"
        fig["exchanges"] = 0
        text += f"; {'the rider' if succ >= osucc else 'the other rider'} chooses 1 or 2 exchanges"
        outcome = "chooses"
    elif botch:
        text += "; botch: the rider topples from the horse"
        outcome = "unhorsed"
    elif success:
        text += "; one exchange, then the horse carries the rider past"
        outcome = "one exchange"
    else:
        text += "; two exchanges before the horse carries the rider past"
        outcome = "two exchanges"
    text += f" ({yards:g} yards on)"
    return Resolution("ride_by", outcome, text, fig, dice.rolls)


def _odds_ride_by(p: ParamDict) -> list[tuple[str, float]]:
    rule, tn = p["tn_above_ten"], p["ride_tn"]
    botch, _fail, _ok = success_odds(p["dice"], tn, rule)
    mine = binomial(p["dice"], p_success(tn, rule))
    theirs = binomial(p["oppose_dice"], p_success(p["oppose_tn"] or tn, rule))
    cum = [sum(theirs[: k + 1]) for k in range(len(theirs))]
    win = sum(q * cum[min(k, len(cum) - 1)] for k, q in enumerate(mine) if k > 0)
    return [("unhorsed (botch)", botch[1]), ("two exchanges", 1 - botch[1] - win),
            ("one exchange", win)]


def _unhorse(c: EdcCombatant, tx: Transaction) -> None:
    """The rider falls: off the horse, on the ground, no longer riding at any gait."""
    tx.set(["combatants", c.id, "mounted"], False)
    tx.set(["combatants", c.id, "prone"], True)
    tx.set(["combatants", c.id, "gait"], "stand")


def _apply_ride_by(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    o = combatant_or_none(enc, p.get("target"))
    if o is not None and p["oppose_dice"] and not p["both_mounted"]:
        spend(o, p["oppose_dice"], tx, "opposing the ride-by")
    if c is not None and res.figures["unhorsed"]:
        _unhorse(c, tx)


RIDE_BY = FunctionAction(
    name="ride_by",
    help="Ride-by attack: AG/Ride check at a canter or gallop; success limits the round to "
    "one exchange, failure gives two, a botch topples the rider",
    params=[
        Param("actor", "actor", "", "the rider"),
        Param("target", "target", "", "the opponent (spends CP to oppose)"),
        Param("dice", "int", REQUIRED, "Agility + Ride dice", minimum=0),
        Param("gait", "choice", "canter", "the mount's gait", choices=GAITS),
        Param("move", "int", 10, "the mount's Move", minimum=0),
        Param("oppose_dice", "int", 0, "opponent's terrain roll dice (CP, or AG/Ride)",
              minimum=0),
        Param("oppose_tn", "int", 0, "opponent's TN (0: the same)", minimum=0),
        Param("both_mounted", "bool", False, "two riders going different ways: opposed "
              "Ride checks, the winner chooses 1 or 2 exchanges"),
        Param("ride_tn", "int", 7, "AG/Ride TN", minimum=1),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("ride", "d10", "rider's AG/Ride dice"),
           DieRole("oppose", "d10", "opponent's dice")],
    resolve=_resolve_ride_by,
    odds=_odds_ride_by,
    fill=_fill_ride_by,
    apply=_apply_ride_by,
    detail="figures: successes, opposed_successes, botch, success, exchanges (1 or 2; 0 when "
    "two riders: see chooser), unhorsed, yards_after (half the gait's move, in yards), "
    "chooser (two riders).",
)


# --- unhorse: struck while mounted ------------------------------------------------------------


def _resolve_unhorse(p: ParamDict, dice: Dice) -> Resolution:
    n = max(p["dice"] - p["mos"], 0)
    vals = roll_d10s(dice, "ride", n)
    succ = count_successes(vals, p["ride_tn"], p["tn_above_ten"])
    rider = p["actor"] or "rider"
    off = succ == 0
    text = (
        f"{rider} struck (MoS {p['mos']}): AG/Ride {p['dice']} - {p['mos']} = {n} dice vs TN "
        f"{p['ride_tn']}: {successes_word(succ)}; "
        + ("knocked from the saddle (take a 10 ft fall)" if off else "stays mounted")
    )
    fig = {"dice_rolled": n, "successes": succ, "unhorsed": off, "fall_feet": 10 if off else 0}
    return Resolution("unhorse", "unhorsed" if off else "mounted", text, fig, dice.rolls)


def _odds_unhorse(p: ParamDict) -> list[tuple[str, float]]:
    botch, fail, ok = success_odds(max(p["dice"] - p["mos"], 0), p["ride_tn"], p["tn_above_ten"])
    return [("knocked from the saddle", botch[1] + fail[1]), ("stays mounted", ok[1])]


def _apply_unhorse(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    if c is not None and res.figures["unhorsed"]:
        _unhorse(c, tx)


UNHORSE = FunctionAction(
    name="unhorse",
    help="Struck while mounted: AG/Ride check with the attack's MoS taken off the dice; "
    "failure knocks the rider from the saddle (damage as a 10 ft fall)",
    params=[
        Param("actor", "actor", "", "the rider struck"),
        Param("dice", "int", REQUIRED, "Agility + Ride dice", minimum=0),
        Param("mos", "int", REQUIRED, "the attack's MoS", minimum=0),
        Param("ride_tn", "int", 7, "AG/Ride TN", minimum=1),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("ride", "d10", "AG/Ride dice")],
    resolve=_resolve_unhorse,
    odds=_odds_unhorse,
    fill=_fill_unhorse,
    apply=_apply_unhorse,
    detail="figures: dice_rolled, successes, unhorsed, fall_feet",
)


# --- ride: gaits and turns --------------------------------------------------------------------

MANEUVERS = ("accelerate", "accelerate2", "decelerate", "decelerate2", "decelerate3",
             "quarter_turn", "wheel")
_FREE = {"accelerate", "decelerate", "quarter_turn"}
_CHANGE = {"accelerate": 1, "accelerate2": 2, "decelerate": -1, "decelerate2": -2,
           "decelerate3": -3, "quarter_turn": 0, "wheel": 0}


def _gait_after(gait: str, maneuver: str) -> str:
    step = max(0, min(3, _STEP[gait] + _CHANGE[maneuver]))
    return _BY_STEP[step]


def _resolve_ride(p: ParamDict, dice: Dice) -> Resolution:
    rider = p["actor"] or "rider"
    m = p["maneuver"]
    after = _gait_after(p["gait"], m)
    needs_check = p["engaged"] or not p["skilled"] or m not in _FREE
    tn = p["ride_tn"] + (p["engaged_ride_tn_bonus"] if p["engaged"] else 0)
    fig: dict[str, Any] = {"check": needs_check, "tn": tn if needs_check else 0,
                           "successes": 0, "success": True, "gait_after": after}
    if not needs_check:
        text = f"{rider}: {m.replace('_', ' ')} without a check, now at a {after}"
        return Resolution("ride", "done", text, fig, dice.rolls)
    vals = roll_d10s(dice, "ride", p["dice"])
    succ = count_successes(vals, tn, p["tn_above_ten"])
    ok = succ > 0
    fig.update(successes=succ, success=ok, gait_after=after if ok else p["gait"])
    text = f"{rider}: {m.replace('_', ' ')}, AG/Ride {p['dice']} vs TN {tn}: "
    text += successes_word(succ) + (f", now at a {after}" if ok else f", stays at a {p['gait']}")
    return Resolution("ride", "success" if ok else "failure", text, fig, dice.rolls)


def _odds_ride(p: ParamDict) -> list[tuple[str, float]]:
    m = p["maneuver"]
    if not (p["engaged"] or not p["skilled"] or m not in _FREE):
        return [("done without a check", 1.0)]
    tn = p["ride_tn"] + (p["engaged_ride_tn_bonus"] if p["engaged"] else 0)
    botch, fail, ok = success_odds(p["dice"], tn, p["tn_above_ten"])
    return [("failure", botch[1] + fail[1]), ("success", ok[1])]


def _fill_ride(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    out: ParamDict = {}
    if c is not None:
        if missing(p, "dice"):
            out["dice"] = c.agility + c.ride
        if missing(p, "gait"):
            out["gait"] = c.gait
        if missing(p, "skilled"):
            out["skilled"] = c.ride > 0
    return out


def _apply_ride(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    if c is not None:
        tx.set(["combatants", c.id, "gait"], res.figures["gait_after"])


RIDE = FunctionAction(
    name="ride",
    help="Change gait or turn: a skilled rider out of combat accelerates, decelerates or "
    "quarter-turns without a check; two steps, wheeling or being engaged need AG/Ride",
    params=[
        Param("actor", "actor", "", "the rider"),
        Param("maneuver", "choice", REQUIRED, "what the rider does", choices=MANEUVERS),
        Param("gait", "choice", "stand", "gait now", choices=GAITS),
        Param("dice", "int", 0, "Agility + Ride dice", minimum=0),
        Param("skilled", "bool", True, "a skilled rider"),
        Param("engaged", "bool", False, "engaged in combat this round (TN raised)"),
        Param("ride_tn", "int", 7, "AG/Ride TN", minimum=1),
        Param("engaged_ride_tn_bonus", "int", 3, "TN increase when engaged", minimum=0),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("ride", "d10", "AG/Ride dice")],
    resolve=_resolve_ride,
    odds=_odds_ride,
    fill=_fill_ride,
    apply=_apply_ride,
    detail="figures: check, tn, successes, success, gait_after. Gaits: walk (1/2 Move, "
    "counts as standing), trot (1x), canter (2x), gallop (3x).",
)
