"""The Combat Pool (CP) and its refresh; spending dice; the ``shock``, ``spend`` and
``refresh`` actions and the start-of-round upkeep.

CP = Reflex + proficiency - max(Pain, spilled Shock) + higher footing (+2) + mounted
height (+2 against ground opponents) - reach (1 per step against a longer weapon, until
the shorter one lands a damaging strike) - a carried fumble penalty, then lighting (dim -1,
moonlight -1/4, darkness -1/2), on the ground -1/2, and Health 1 halves it. Posture is not
a pool modifier: it changes the dice of the first attack or defence (see ``exchange``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import Dice
from tracker.rules.base import REQUIRED, FunctionAction, Param, ParamDict, Resolution, RuleError

from .common import CP, MP, combatant_or_none, count_successes, roll_d10s, successes_word
from .settings import setting
from .wounds import blood_loss_tn, effective_pain, lose_health, shock_split

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import EdcCombatant


def _loss(total: int, fraction_den: int, rounding: str) -> int:
    """Dice lost to a 1/den cut of ``total``."""
    if total <= 0:
        return 0
    return -(-total // fraction_den) if rounding == "loss_up" else total // fraction_den


def opponent_of(enc: Encounter, c: EdcCombatant) -> EdcCombatant | None:
    if not c.opponent:
        return None
    for o in enc.combatants:
        if o.id == c.opponent:
            return o  # type: ignore[return-value]
    return None


def combat_pool(c: EdcCombatant, enc: Encounter) -> tuple[int, list[str]]:
    """The CP ``c`` refreshes to, with one breakdown line per term."""
    rounding = str(setting(enc, "fraction_rounding"))
    lines = [f"Reflex {c.reflex}", f"Proficiency {c.proficiency}"]
    total = c.reflex + c.proficiency
    pain = effective_pain(c, str(setting(enc, "pain_resist")))
    if pain or c.shock_spill:
        if c.shock_spill > pain:
            lines.append(f"Shock carried -{c.shock_spill} (Pain {pain})")
        else:
            lines.append(f"Pain -{pain}")
        total -= max(pain, c.shock_spill)
    if c.footing == "higher":
        lines.append("Higher footing +2")
        total += 2
    opp = opponent_of(enc, c)
    if c.mounted and c.mount_height and not (opp is not None and opp.mounted):
        lines.append(f"Mounted height +{c.mount_height}")
        total += c.mount_height
    if opp is not None and opp.reach > c.reach and not c.inside_reach:
        steps = opp.reach - c.reach
        lines.append(f"Reach {c.reach} vs {opp.reach} -{steps}")
        total -= steps
    if c.cp_modifier:
        lines.append(f"Other {c.cp_modifier:+d}")
        total += c.cp_modifier
    if c.fumble_penalty:
        lines.append(f"Fumble -{c.fumble_penalty}")
        total -= c.fumble_penalty
    total = max(total, 0)
    if not c.dark_sight and c.lighting != "normal":
        cut = {"dim": min(1, total), "moonlight": _loss(total, 4, rounding),
               "darkness": _loss(total, 2, rounding)}[c.lighting]
        if cut:
            lines.append(f"{c.lighting.capitalize()} -{cut}")
            total -= cut
    if c.prone:
        cut = _loss(total, 2, rounding)
        if cut:
            lines.append(f"On the ground -{cut}")
            total -= cut
    if c.health == 1:
        cut = _loss(total, 2, rounding)
        if cut:
            lines.append(f"Health 1 halves -{cut}")
            total -= cut
    return total, lines


def refresh(enc: Encounter, c: EdcCombatant, tx: Transaction) -> str:
    """Refresh the CP for a new round; spilled Shock and a carried fumble are used up."""
    size, lines = combat_pool(c, enc)
    base = ["combatants", c.id]
    tx.set([*base, "pools", CP, "size"], size)
    tx.set([*base, "pools", CP, "spent"], 0)
    tx.set([*base, "pools", CP, "breakdown"], lines)
    tx.set([*base, "shock_spill"], 0)
    tx.set([*base, "fumble_penalty"], 0)
    return f"{c.name} CP {size}"


def spend(c: EdcCombatant, n: int, tx: Transaction, what: str, pool: str = CP) -> None:
    """Spend ``n`` dice of ``pool``; refuses more dice than are left."""
    if n <= 0:
        return
    p = c.pool(pool)
    if n > p.left:
        raise RuleError(f"{c.name} has {max(p.left, 0)} {pool} left; {what} needs {n}")
    tx.set(["combatants", c.id, "pools", pool, "spent"], p.spent + n)
    if pool == CP:
        pos = tx.enc.position
        before = c.spent_in_exchange(pos.round, pos.phase)
        tx.set(["combatants", c.id, "exchange_mark"], f"{pos.round}.{pos.phase + 1}")
        tx.set(["combatants", c.id, "exchange_spent"], before + n)


def reduce_now(c: EdcCombatant, n: int, tx: Transaction, why: str, pool: str = CP) -> int:
    """Take up to ``n`` dice off what is left of ``pool`` this round."""
    p = c.pool(pool)
    cut = min(max(n, 0), max(p.left, 0))
    if cut:
        path = ["combatants", c.id, "pools", pool]
        tx.set([*path, "size"], p.size - cut)
        tx.set([*path, "breakdown"], [*p.breakdown, f"{why} -{cut}"])
    return cut


# --- start of round -----------------------------------------------------------------------


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """Upkeep, by Reflex: Toughness vs BL for the wounded, refresh CP, missile upkeep."""
    from tracker.rules.edc.model import EdcCombatant

    from .missile import missile_upkeep

    lines: list[str] = []
    rule = str(setting(enc, "tn_above_ten"))
    raise_rule = str(setting(enc, "blood_loss_raise"))
    fighters = sorted(
        (c for c in enc.combatants if isinstance(c, EdcCombatant) and not c.out),
        key=lambda c: (-c.reflex, c.name.lower()),
    )
    for c in fighters:
        bl = blood_loss_tn(c.wounds, raise_rule)
        if bl > 0:
            values = roll_d10s(dice, "toughness", c.toughness)
            succ = count_successes(values, bl, rule)
            line = f"{c.name} Toughness vs BL {bl}: {successes_word(succ)}"
            if succ == 0:
                line += "; " + lose_health(enc, c, tx)
            lines.append(line)
        if c.out:
            continue
        lines.append(refresh(enc, c, tx))
        line = missile_upkeep(enc, c, tx)
        if line:
            lines.append(line)
    return lines


# --- shock: the arithmetic of a blow --------------------------------------------------------


def _resolve_shock(p: ParamDict, dice: Dice) -> Resolution:
    now, spill = shock_split(p["cp"], p["shock"])
    cp_now = p["cp"] - now
    penalty = max(p["pain"], spill)
    nxt = max(p["base"] - penalty, 0)
    if p["halved"]:
        nxt -= nxt // 2
    knockdown = p["shock"] > p["cp"] or p["base"] - p["pain"] < 0
    fig = {
        "cp_now": cp_now,
        "shock_taken": now,
        "spill": spill,
        "next_cp": nxt,
        "next_penalty": penalty,
        "knockdown_roll": knockdown,
    }
    why = "spilled Shock" if spill > p["pain"] else "Pain"
    text = (
        f"Shock {p['shock']} on {p['cp']} CP: {now} lost now, {cp_now} left this round, "
        f"{spill} spills over; next round CP {p['base']} - {penalty} ({why}) = {nxt}"
    )
    if p["halved"]:
        text += " (halved, Health 1)"
    if knockdown:
        text += "; CP below 0: knockdown roll"
    return Resolution("shock", "spill" if spill else "absorbed", text, fig, dice.rolls)


def _fill_shock(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("target"))
    if c is None:
        return {}
    out: ParamDict = {}
    if "cp" not in p:
        out["cp"] = c.pool(CP).left
    if "pain" not in p:
        out["pain"] = effective_pain(c, str(setting(enc, "pain_resist")))
    if "base" not in p:
        probe = c.model_copy(update={"shock_spill": 0, "wounds": [], "health": 2})
        out["base"] = combat_pool(probe, enc)[0]
    if "halved" not in p:
        out["halved"] = c.health == 1
    return out


SHOCK = FunctionAction(
    name="shock",
    help="Shock on the CP left: lost now, spilled into next round, and next round's CP",
    params=[
        Param("target", "target", "", "the fighter struck (fills cp, pain, base)"),
        Param("cp", "int", REQUIRED, "CP left now", minimum=0),
        Param("shock", "int", REQUIRED, "Shock of the blow", minimum=0),
        Param("pain", "int", 0, "Pain next round (all wounds, this one included)", minimum=0),
        Param("base", "int", REQUIRED, "next round's CP before Pain and Shock", minimum=0),
        Param("halved", "bool", False, "Health 1: the pool is halved"),
    ],
    roles=[],
    resolve=_resolve_shock,
    fill=_fill_shock,
    detail="figures: cp_now (left this round), shock_taken, spill (carried to next round), "
    "next_cp (base - the larger of Pain and spill), next_penalty, knockdown_roll. "
    "Example: shock cp=5 shock=7 pain=2 base=12 -> cp_now 0, spill 2, next_cp 10.",
)


# --- spend and refresh by hand ----------------------------------------------------------------


def _resolve_spend(p: ParamDict, dice: Dice) -> Resolution:
    who = p["actor"] or "fighter"
    what = f" on {p['what']}" if p["what"] else ""
    text = f"{who} spends {p['dice']} {p['pool']}{what}"
    return Resolution("spend", "spent", text, {"dice": p["dice"], "pool": p["pool"]}, dice.rolls)


def _apply_spend(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    if c is None:
        raise RuleError("spend: name the fighter")
    spend(c, p["dice"], tx, p["what"] or "this", p["pool"])


SPEND = FunctionAction(
    name="spend",
    help="Spend pool dice on anything else (an activation cost, a maneuver)",
    params=[
        Param("actor", "actor", "", "who spends"),
        Param("dice", "int", REQUIRED, "dice spent", minimum=0),
        Param("pool", "choice", CP, "which pool", choices=(CP, MP)),
        Param("what", "str", "", "what for"),
    ],
    roles=[],
    resolve=_resolve_spend,
    apply=_apply_spend,
    detail="figures: dice, pool",
)


def _resolve_refresh(p: ParamDict, dice: Dice) -> Resolution:
    who = f"{p['actor']}'s CP" if p["actor"] else "Every fighter's CP"
    return Resolution("refresh", "refreshed", f"{who} refreshed", {}, dice.rolls)


def _apply_refresh(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    from tracker.rules.edc.model import EdcCombatant

    c = combatant_or_none(enc, p.get("actor"))
    targets = [c] if c is not None else [x for x in enc.combatants if not x.out]
    for x in targets:
        if isinstance(x, EdcCombatant):
            refresh(enc, x, tx)


REFRESH = FunctionAction(
    name="refresh",
    help="Refresh a fighter's CP now (everyone's if no name): after a break, or a change "
    "of footing, lighting or posture the GM wants counted at once",
    params=[Param("actor", "actor", "", "whose CP (empty: everyone)")],
    roles=[],
    resolve=_resolve_refresh,
    apply=_apply_refresh,
    detail="The CP breakdown shows each term.",
)
