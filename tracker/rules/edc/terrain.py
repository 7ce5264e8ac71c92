"""Terrain rolls: ``terrain`` (the TN table, opposed terrain rolls, difficult fighting
conditions) and ``opponents`` (the multiple-opponents procedure).

A terrain roll spends CP dice against a TN the GM sets or reads from the table (difficult
terrain x movement); one success is enough. An opponent may spend CP against the same
TN: more successes than the actor cancel the benefit (a tie goes to the actor).
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
    is_botch,
    p_success,
    roll_d10s,
    success_odds,
    successes_word,
)
from .pools import reduce_now, spend

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

MOVEMENTS = ("standing", "crawling", "cautious", "normal", "defending", "hurried",
             "attacking", "sprinting")
_COLUMN = {"standing": 0, "crawling": 0, "cautious": 1, "normal": 2, "defending": 2,
           "hurried": 3, "attacking": 3, "sprinting": 4}

TERRAIN_TN: dict[str, tuple[int | None, ...]] = {
    "narrow": (1, 2, 3, 5, 7),
    "swampy": (2, 3, 4, 6, 8),
    "rocky": (2, 3, 4, 6, 8),
    "icy": (2, 4, 6, 8, 10),
    "slippery": (2, 4, 6, 8, 10),
    "tight": (2, 3, 4, 5, 6),
    "limited_room": (None, None, 5, 6, 8),
    "pressing": (None, None, 4, 3, 3),
}
"""Terrain Rolls - Difficult Terrain: TN by movement column (standing/crawling,
cautious, normal/defending, hurried/attacking, sprinting); None: not used."""

MULTIPLE_OPPONENTS_TN = ((2, 6, 5), (3, 8, 6), (6, 9, 7), (10, 10, 8))
"""(opponents from, first column, second column) of the multiple-opponents table."""


def terrain_tn(terrain: str, movement: str) -> int:
    row = TERRAIN_TN.get(terrain)
    if row is None:
        raise RuleError(f"terrain '{terrain}': one of {', '.join(TERRAIN_TN)}")
    tn = row[_COLUMN[movement]]
    if tn is None:
        raise RuleError(f"{terrain} has no TN when {movement} (only normal/defending and faster)")
    return tn


def _tn(p: ParamDict) -> int:
    if p["tn"] > 0:
        return p["tn"] + p["modifier"]
    if not p["terrain"]:
        raise RuleError("terrain: give tn= or terrain= with movement=")
    return terrain_tn(p["terrain"], p["movement"]) + p["modifier"]


def _resolve_terrain(p: ParamDict, dice: Dice) -> Resolution:
    tn = _tn(p)
    rule = p["tn_above_ten"]
    vals = roll_d10s(dice, "terrain", p["dice"])
    succ = count_successes(vals, tn, rule)
    botch = is_botch(vals, succ)
    who = p["actor"] or "fighter"
    fig: dict[str, Any] = {"tn": tn, "successes": succ, "botch": botch}
    text = f"{who}: terrain roll {p['dice']} vs TN {tn}: {successes_word(succ)}"
    opposed = p["oppose_dice"] > 0
    cancelled = False
    if opposed:
        ovals = roll_d10s(dice, "oppose", p["oppose_dice"])
        osucc = count_successes(ovals, tn, rule)
        cancelled = osucc > succ
        fig["opposed_successes"] = osucc
        opp = p["opponent"] or "opponent"
        text += f"; {opp} opposes with {p['oppose_dice']}: {successes_word(osucc)}"
    fig["cancelled"] = cancelled
    success = succ > 0 and not cancelled
    fig["success"] = success
    penalty = 0
    if botch:
        outcome = "botch"
        text += "; botch" + (f": {_EFFECT_TEXT[p['botch_effect']]}" if p["botch_effect"] != "none"
                             else "")
    elif cancelled:
        outcome = "cancelled"
        text += "; matched, the benefit is cancelled"
    elif success:
        outcome = "success"
        text += "; success" + (", gains higher footing" if p["gain"] == "higher_footing" else "")
    else:
        outcome = "failure"
        text += "; failure"
        if p["failure_effect"] != "none":
            text += f": {_EFFECT_TEXT[p['failure_effect']]}"
        if p["failure_effect"] == "half_dice":
            penalty = p["dice"] // 2
    fig["cp_penalty"] = penalty
    return Resolution("terrain", outcome, text, fig, dice.rolls)


_EFFECT_TEXT = {
    "half_dice": "next action -1/2 the dice",
    "half_cp": "loses half the CP",
    "prone": "falls (half CP on the ground)",
}


def _odds_terrain(p: ParamDict) -> list[tuple[str, float]]:
    tn = _tn(p)
    rule = p["tn_above_ten"]
    botch, fail, ok = success_odds(p["dice"], tn, rule)
    if p["oppose_dice"] <= 0:
        return [("botch", botch[1]), ("failure", fail[1]), ("success", ok[1])]
    mine = binomial(p["dice"], p_success(tn, rule))
    theirs = binomial(p["oppose_dice"], p_success(tn, rule))
    cum = [sum(theirs[: k + 1]) for k in range(len(theirs))]  # P(theirs <= k)
    win = sum(q * cum[min(k, len(cum) - 1)] for k, q in enumerate(mine) if k > 0)
    return [("botch", botch[1]), ("failure", fail[1]), ("cancelled", ok[1] - win),
            ("success", win)]


def _fill_terrain(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    o = combatant_or_none(enc, p.get("opponent"))
    for who, n in ((c, p.get("dice") or 0), (o, p.get("oppose_dice") or 0)):
        if who is not None and n > who.pool(CP).left:
            raise RuleError(f"{who.name} has {who.pool(CP).left} CP left; the roll needs {n}")
    return {}


def _apply_terrain(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    o = combatant_or_none(enc, p.get("opponent"))
    if c is not None:
        spend(c, p["dice"], tx, "the terrain roll")
    if o is not None:
        spend(o, p["oppose_dice"], tx, "opposing the terrain roll")
    if c is None:
        return
    fig = res.figures
    effect = "none"
    if fig["botch"]:
        effect = p["botch_effect"]
    elif fig["success"] and p["gain"] == "higher_footing":
        tx.set(["combatants", c.id, "footing"], "higher")
    elif not fig["success"] and not fig["cancelled"]:
        effect = p["failure_effect"]
    if effect == "half_dice":
        reduce_now(c, p["dice"] // 2, tx, "Stumble")
    elif effect == "half_cp":
        reduce_now(c, c.pool(CP).left // 2, tx, "Overbalanced")
    elif effect == "prone":
        reduce_now(c, c.pool(CP).left // 2, tx, "Fell")
        tx.set(["combatants", c.id, "prone"], True)


TERRAIN = FunctionAction(
    name="terrain",
    help="Terrain roll: CP dice vs a TN (set, or difficult terrain x movement), "
    "optionally opposed; one success is enough",
    params=[
        Param("actor", "actor", "", "who makes the roll (spends CP)"),
        Param("dice", "int", REQUIRED, "CP dice spent", minimum=0),
        Param("tn", "int", 0, "TN set by the GM (0: from terrain and movement)", minimum=0),
        Param("terrain", "choice", "", "difficult terrain",
              choices=("", *TERRAIN_TN)),
        Param("movement", "choice", "normal", "movement column", choices=MOVEMENTS),
        Param("modifier", "int", 0, "added to the TN (e.g. +0 to +4 for a stunt)"),
        Param("opponent", "target", "", "who opposes (spends CP)"),
        Param("oppose_dice", "int", 0, "opponent's CP dice against the same TN", minimum=0),
        Param("gain", "choice", "none", "what success gives", choices=("none", "higher_footing")),
        Param("failure_effect", "choice", "none", "GM's consequence of failure",
              choices=("none", "half_dice", "half_cp", "prone")),
        Param("botch_effect", "choice", "none", "GM's consequence of a botch",
              choices=("none", "half_dice", "half_cp", "prone")),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("terrain", "d10", "the actor's dice"),
           DieRole("oppose", "d10", "the opponent's dice")],
    resolve=_resolve_terrain,
    odds=_odds_terrain,
    fill=_fill_terrain,
    apply=_apply_terrain,
    detail="figures: tn, successes, botch, opposed_successes, cancelled, success, "
    "cp_penalty. Terrain TNs (standing/crawling, cautious, normal/defending, "
    "hurried/attacking, sprinting): narrow 1 2 3 5 7; swampy/rocky 2 3 4 6 8; "
    "icy/slippery 2 4 6 8 10; tight 2 3 4 5 6; limited_room - - 5 6 8; pressing - - 4 3 3. "
    "Difficult fighting conditions (a storm-tossed deck): a roll by each fighter, "
    "failure_effect=half_cp botch_effect=prone.",
)


# --- multiple opponents ------------------------------------------------------------------------


def opponents_tns(n: int, column: str) -> tuple[int, int]:
    """(outnumbered fighter's TN, opponents' TN) for ``n`` opponents."""
    first = second = 0
    for frm, a, b in MULTIPLE_OPPONENTS_TN:
        if n >= frm:
            first, second = a, b
    if not first:
        raise RuleError("opponents: at least 2 opponents")
    return (first, second) if column == "lone_first" else (second, first)


def _resolve_opponents(p: ParamDict, dice: Dice) -> Resolution:
    dice_each = list(p["opponent_dice"])
    n = p["opponents"] or len(dice_each)
    if n < 2:
        raise RuleError("opponents: at least 2 opponents (opponents=N or opponent_dice=...)")
    dice_each += [0] * (n - len(dice_each))
    if len(dice_each) > n:
        raise RuleError(f"opponents: {len(dice_each)} dice counts for {n} opponents")
    lone_tn, opp_tn = opponents_tns(n, p["multiple_opponents_column"])
    if p["tn"] > 0:
        lone_tn = p["tn"]
    if p["opponents_tn"] > 0:
        opp_tn = p["opponents_tn"]
    rule = p["tn_above_ten"]
    vals = roll_d10s(dice, "lone", p["dice"])
    succ = count_successes(vals, lone_tn, rule)
    botch = is_botch(vals, succ)
    theirs = [count_successes(roll_d10s(dice, "opponent", k), opp_tn, rule) for k in dice_each]
    beaten_by = [i + 1 for i, s in enumerate(theirs) if s > succ]
    who = p["actor"] or "outnumbered fighter"
    most = 4 if p["small_foes"] else 3
    fig: dict[str, Any] = {
        "tn": lone_tn,
        "opponents_tn": opp_tn,
        "successes": succ,
        "opponent_successes": theirs,
        "botch": botch,
        "may_choose": not botch and not beaten_by,
        "may_decline": beaten_by,
        "max_faced": most if botch else 1,
    }
    text = f"{who} vs {n}: {successes_word(succ)} (TN {lone_tn}); opponents " + ", ".join(
        str(s) for s in theirs
    ) + f" (TN {opp_tn})"
    if botch:
        outcome = "botch"
        text += f"; botch: faces up to {most} opponents of their choice"
    elif not beaten_by:
        outcome = "chooses"
        text += "; beats or ties all: chooses whom to face"
    else:
        outcome = "opponents choose"
        text += "; opponent " + ", ".join(map(str, beaten_by)) + " may engage or decline"
    return Resolution("opponents", outcome, text, fig, dice.rolls)


def _apply_opponents(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    if c is not None:
        spend(c, p["dice"], tx, "the multiple-opponents roll")
    for name, k in zip(p["opponent_names"], p["opponent_dice"], strict=False):
        o = combatant_or_none(enc, name)
        if o is not None:
            spend(o, k, tx, "the multiple-opponents roll")


OPPONENTS = FunctionAction(
    name="opponents",
    help="Multiple opponents: the outnumbered fighter's terrain roll against each "
    "opponent's, to face one at a time",
    params=[
        Param("actor", "actor", "", "the outnumbered fighter"),
        Param("dice", "int", 0, "outnumbered fighter's CP dice", minimum=0),
        Param("opponents", "int", 0, "number of opponents (0: count opponent_dice)", minimum=0),
        Param("opponent_dice", "ints", [], "each opponent's CP dice, e.g. 3,0,2", minimum=0),
        Param("opponent_names", "strs", [], "the opponents, in the same order"),
        Param("tn", "int", 0, "outnumbered fighter's TN (0: the table)", minimum=0),
        Param("opponents_tn", "int", 0, "opponents' TN (0: the table)", minimum=0),
        Param("small_foes", "bool", False, "small foes (dogs, wolves): up to 4 at once"),
        Param("multiple_opponents_column", "choice", "lone_first",
              "which table column is the outnumbered fighter's",
              choices=("lone_first", "lone_second")),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("lone", "d10", "the outnumbered fighter's dice"),
           DieRole("opponent", "d10", "opponents' dice, first opponent first")],
    resolve=_resolve_opponents,
    apply=_apply_opponents,
    detail="figures: tn, opponents_tn, successes, opponent_successes, botch, may_choose, "
    "may_decline (opponent numbers who beat him: they may engage or decline), max_faced. "
    "TNs (first, second column): 2 opponents 6 5; 3-5: 8 6; 6-9: 9 7; 10+: 10 8. "
    "An opponent who rolls no dice counts as no successes.",
)
