"""Wounds: the damage table (TOML data the GM can replace), Shock, Pain, Blood Loss (BL),
Knockdown and Knockout, and the actions ``hit``, ``bloodloss``, ``knockdown``, ``knockout``.

Wound level 0-5 comes from the exchange's margin of success (MoS) and the damage table
gives Shock, Pain and BL for a level, location and damage type (cutting, puncture, blunt,
generic). Shock comes off every pool at once; what the CP left cannot take spills into the
next round's refresh (unless Pain is larger). BL: the first wound sets the TN, each wound
to a different body part raises it (setting ``blood_loss_raise``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli

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

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter, Wound

    from .model import EdcCombatant

DAMAGE_TYPES = ("cutting", "puncture", "blunt", "generic")
BUILTIN_TABLE = Path(__file__).resolve().parent.parent / "data" / "edc_damage.toml"


# --- the damage table --------------------------------------------------------------------


@dataclass(frozen=True)
class WoundRow:
    """One line of the damage table: what a wound of this level does."""

    shock: int = 0
    pain: int = 0
    blood_loss: int = 0
    knockdown: bool = False
    knockout: bool = False
    note: str = ""


@lru_cache(maxsize=8)
def load_table(path: str = "") -> dict[str, Any]:
    """The damage table at ``path`` (empty: the example table shipped with the tracker)."""
    file = Path(path).expanduser() if path else BUILTIN_TABLE
    try:
        with open(file, "rb") as fh:
            data = tomli.load(fh)
    except OSError as exc:
        raise RuleError(f"damage table {file}: {exc.strerror or exc}") from None
    except tomli.TOMLDecodeError as exc:
        raise RuleError(f"damage table {file}: {exc}") from None
    return data


def table_locations(path: str = "", damage_type: str = "cutting") -> list[str]:
    return sorted(load_table(path).get(damage_type, {}))


def lookup(path: str, damage_type: str, location: str, level: int) -> WoundRow:
    """The table's row for a wound; level 0 has no effect."""
    if level <= 0:
        return WoundRow(note="bruise or scratch")
    table = load_table(path)
    by_type = table.get(damage_type)
    if not isinstance(by_type, dict):
        raise RuleError(f"damage table has no {damage_type} damage")
    loc = "any" if damage_type == "generic" and "any" in by_type else location.lower()
    entry = by_type.get(loc)
    if not isinstance(entry, dict):
        raise RuleError(
            f"damage table has no {damage_type} wound to '{location}' "
            f"(locations: {', '.join(sorted(by_type))})"
        )
    i = min(level, 5) - 1

    def col(key: str, default: Any) -> Any:
        values = entry.get(key)
        if not isinstance(values, list) or len(values) <= i:
            return default
        return values[i]

    return WoundRow(
        shock=int(col("shock", 0)),
        pain=int(col("pain", 0)),
        blood_loss=int(col("blood_loss", 0)),
        knockdown=bool(col("knockdown", False)),
        knockout=bool(col("knockout", False)),
        note=str(col("note", "")),
    )


def missile_location(path: str, roll: int) -> str:
    table = load_table(path).get("missile_location", {})
    return str(table.get(str(roll), "chest"))


# --- pain, blood loss, shock --------------------------------------------------------------


def effective_pain(c: EdcCombatant, pain_resist: str = "none") -> int:
    """Pain after Will Power (setting ``pain_resist``)."""
    pain = c.pain
    if pain_resist == "will_power":
        pain -= c.will_power
    elif pain_resist == "half_will_power":
        pain -= c.will_power // 2
    return max(pain, 0)


def blood_loss_tn(wounds: list[Wound], raise_rule: str = "add") -> int:
    """BL TN from the wounds in the order taken; 0 when nothing bleeds.

    The first bleeding wound sets the TN; a later one to a body part not yet bleeding
    raises it by its own BL (``add``) or by 1 (``one``); the same part again does not.
    """
    tn = 0
    parts: set[str] = set()
    for w in wounds:
        if w.blood_loss <= 0:
            continue
        part = w.location.strip().lower()
        if not parts:
            tn = w.blood_loss
        elif part not in parts:
            tn += w.blood_loss if raise_rule == "add" else 1
        parts.add(part)
    return tn


def shock_split(cp_left: int, shock: int) -> tuple[int, int]:
    """(dice lost now, dice spilled into next round) for ``shock`` on ``cp_left`` CP."""
    now = min(max(cp_left, 0), max(shock, 0))
    return now, max(shock, 0) - now


def apply_shock(c: EdcCombatant, shock: int, tx: Transaction) -> tuple[int, int]:
    """Take Shock off the CP (and MP) now; carry the rest to the next refresh."""
    if shock <= 0:
        return 0, 0
    path = ["combatants", c.id, "pools"]
    cp = c.pool(CP)
    now, spill = shock_split(cp.left, shock)
    if now:
        tx.set([*path, CP, "size"], cp.size - now)
        tx.set([*path, CP, "breakdown"], [*cp.breakdown, f"Shock -{now}"])
    if spill:
        tx.set(["combatants", c.id, "shock_spill"], c.shock_spill + spill)
    mp = c.pool(MP)
    lost = min(max(mp.left, 0), shock)
    if lost:
        tx.set([*path, MP, "size"], mp.size - lost)
        tx.set([*path, MP, "breakdown"], [*mp.breakdown, f"Shock -{lost}"])
    return now, spill


def wound_figures(
    *,
    level: int,
    location: str,
    damage_type: str,
    table: str,
    mos: int,
    cp_left: int,
    shock: int = -1,
    pain: int = -1,
    blood_loss: int = -1,
) -> dict[str, Any]:
    """Everything a GM needs about a wound: table values (or those entered) and the
    knockdown / knockout calls it makes."""
    if location:
        row = lookup(table, damage_type, location, level)
    else:
        row = WoundRow(note="no location: table not used")
    fig: dict[str, Any] = {
        "wound_level": level,
        "location": location,
        "damage_type": damage_type,
        "shock": row.shock if shock < 0 else shock,
        "pain": row.pain if pain < 0 else pain,
        "blood_loss": row.blood_loss if blood_loss < 0 else blood_loss,
        "wound_note": row.note,
    }
    knockdown_tn = 0
    if cp_left >= 0:
        now, spill = shock_split(cp_left, fig["shock"])
        fig["cp_now"] = cp_left - now
        fig["spill"] = spill
        if spill > 0:  # the blow drives the CP below 0
            knockdown_tn = (3 if damage_type == "blunt" else 2) * max(mos, 0)
    if row.knockdown and level > 0:
        knockdown_tn = max(knockdown_tn, fig["shock"])
    fig["knockdown_tn"] = knockdown_tn
    fig["knockout_roll"] = bool(row.knockout and level > 0)
    return fig


def add_wound(
    enc: Encounter, c: EdcCombatant, fig: dict[str, Any], tx: Transaction, note: str = ""
) -> None:
    """Record the wound on ``c`` and take its Shock."""
    from tracker.core.model import Wound

    if fig.get("wound_level", 0) <= 0 and not (fig.get("shock") or fig.get("pain")):
        return
    wound = Wound(
        location=fig.get("location") or "unspecified",
        level=fig.get("wound_level", 0),
        kind=fig.get("damage_type", ""),
        shock=fig.get("shock", 0),
        pain=fig.get("pain", 0),
        blood_loss=fig.get("blood_loss", 0),
        round=enc.position.round,
        note=note or fig.get("wound_note", ""),
    )
    tx.add(["combatants", c.id, "wounds"], wound)
    apply_shock(c, wound.shock, tx)


def lose_health(enc: Encounter, c: EdcCombatant, tx: Transaction, n: int = 1) -> str:
    health = max(c.health - n, 0)
    tx.set(["combatants", c.id, "health"], health)
    if health == 0:
        tx.set(["combatants", c.id, "out"], True)
        if "coma" not in c.conditions:
            tx.set(["combatants", c.id, "conditions"], [*c.conditions, "coma"])
        return f"{c.name} falls into a coma (Health 0)"
    if health == 1:
        return f"{c.name} Health 1: pools halved"
    return f"{c.name} Health {health}"


# --- hit: a wound entered by hand ------------------------------------------------------------


def _resolve_hit(p: ParamDict, dice: Dice) -> Resolution:
    fig = wound_figures(
        level=p["level"],
        location=p["location"],
        damage_type=p["damage_type"],
        table=p["damage_table"],
        mos=p["mos"],
        cp_left=p["cp"],
        shock=p["shock"],
        pain=p["pain"],
        blood_loss=p["blood_loss"],
    )
    who = p["target"] or "target"
    bits = [f"Shock {fig['shock']}", f"Pain {fig['pain']}", f"BL {fig['blood_loss']}"]
    text = f"{who}: level {p['level']} {p['damage_type']} wound to {p['location']}: "
    text += ", ".join(bits)
    if fig.get("spill"):
        text += f"; {fig['cp_now']} CP left, {fig['spill']} Shock spills into next round"
    if fig["knockdown_tn"]:
        text += f"; knockdown roll TN {fig['knockdown_tn']}"
    if fig["knockout_roll"]:
        text += "; knockout roll"
    if fig["wound_note"]:
        text += f" ({fig['wound_note']})"
    return Resolution("hit", f"level {p['level']}", text, fig, dice.rolls)


def _fill_target_cp(enc: Encounter, p: ParamDict, key: str = "cp") -> ParamDict:
    c = combatant_or_none(enc, p.get("target"))
    out: ParamDict = {}
    if c is not None and missing(p, key):
        out[key] = c.pool(CP).left
    return out


def _fill_hit(enc: Encounter, p: ParamDict) -> ParamDict:
    return _fill_target_cp(enc, p)


def _apply_hit(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("target"))
    if c is None:
        raise RuleError("hit: name the wounded fighter (target=NAME)")
    add_wound(enc, c, res.figures, tx, note=p.get("note", ""))


TABLE_PARAM = Param(
    "damage_table", "str", "", "damage table TOML (empty: the example table)"
)

HIT = FunctionAction(
    name="hit",
    help="Enter a wound by hand: level, location and type from the damage table, "
    "or Shock / Pain / BL typed in",
    params=[
        Param("target", "target", "", "the wounded fighter"),
        Param("location", "str", REQUIRED, "body part (head, neck, chest, abdomen, arm, leg)"),
        Param("level", "int", REQUIRED, "wound level 0-5", minimum=0, maximum=5),
        Param("damage_type", "choice", "cutting", "damage type", choices=DAMAGE_TYPES),
        Param("shock", "int", -1, "Shock (-1: from the table)", minimum=-1),
        Param("pain", "int", -1, "Pain (-1: from the table)", minimum=-1),
        Param("blood_loss", "int", -1, "BL (-1: from the table)", minimum=-1),
        Param("mos", "int", 0, "attacker's MoS (knockdown TN 2x, 3x blunt)", minimum=0),
        Param("cp", "int", -1, "CP the fighter has left (-1: unknown)", minimum=-1),
        Param("note", "str", "", "what the wound is"),
        TABLE_PARAM,
    ],
    roles=[],
    resolve=_resolve_hit,
    fill=_fill_hit,
    apply=_apply_hit,
    detail="figures: wound_level, location, damage_type, shock, pain, blood_loss, "
    "wound_note, cp_now and spill (when cp is known), knockdown_tn (0: none), knockout_roll",
)


# --- bloodloss: Toughness vs BL -------------------------------------------------------------


def bloodloss_roll(dice: Dice, toughness: int, tn: int, rule: str) -> tuple[list[int], int]:
    values = roll_d10s(dice, "toughness", toughness)
    return values, count_successes(values, tn, rule)


def _resolve_bloodloss(p: ParamDict, dice: Dice) -> Resolution:
    who = p["actor"] or "fighter"
    if p["tn"] <= 0:
        return Resolution("bloodloss", "not bleeding", f"{who}: not bleeding", {
            "successes": 0, "health_lost": 0, "tn": 0}, dice.rolls)
    values, succ = bloodloss_roll(dice, p["toughness"], p["tn"], p["tn_above_ten"])
    lost = 0 if succ else 1
    text = (
        f"{who}: Toughness {p['toughness']} vs BL {p['tn']}: {successes_word(succ)}"
        + (", loses 1 Health" if lost else ", holds")
    )
    fig = {"successes": succ, "health_lost": lost, "tn": p["tn"]}
    return Resolution("bloodloss", "failure" if lost else "success", text, fig, dice.rolls)


def _odds_bloodloss(p: ParamDict) -> list[tuple[str, float]]:
    if p["tn"] <= 0:
        return [("not bleeding", 1.0)]
    botch, fail, ok = success_odds(p["toughness"], p["tn"], p["tn_above_ten"])
    return [("loses 1 Health", botch[1] + fail[1]), ("holds", ok[1])]


def _fill_bloodloss(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    out: ParamDict = {}
    if c is not None:
        if missing(p, "toughness"):
            out["toughness"] = c.toughness
        if missing(p, "tn"):
            out["tn"] = blood_loss_tn(c.wounds, str(enc.settings.get("blood_loss_raise", "add")))
    return out


def _apply_bloodloss(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    if c is not None and res.figures["health_lost"]:
        lose_health(enc, c, tx, res.figures["health_lost"])


BLOODLOSS = FunctionAction(
    name="bloodloss",
    help="Toughness vs the Blood Loss TN (BL); a failure costs 1 Health (run each round "
    "by the upkeep)",
    params=[
        Param("actor", "actor", "", "the wounded fighter"),
        Param("toughness", "int", REQUIRED, "Toughness dice", minimum=0),
        Param("tn", "int", REQUIRED, "Blood Loss TN (0: not bleeding)", minimum=0),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("toughness", "d10", "Toughness dice")],
    resolve=_resolve_bloodloss,
    odds=_odds_bloodloss,
    fill=_fill_bloodloss,
    apply=_apply_bloodloss,
    detail="figures: successes, health_lost (0 or 1), tn",
)


# --- knockdown ----------------------------------------------------------------------------


def knockdown_tn(p: ParamDict) -> tuple[int, str]:
    if p["tn"] > 0:
        return p["tn"], "as set"
    if p["fumble_dice"] > 0:
        return p["fumble_dice"], f"fumble of {p['fumble_dice']} dice"
    if p["shock"] > 0:
        return p["shock"], f"head or leg blow, Shock {p['shock']}"
    mult = 3 if p["blunt"] else 2
    return mult * p["mos"], f"{mult} x MoS {p['mos']}"


def _resolve_knockdown(p: ParamDict, dice: Dice) -> Resolution:
    tn, why = knockdown_tn(p)
    who = p["actor"] or "fighter"
    if tn <= 0:
        raise RuleError("knockdown: give mos=, shock=, fumble_dice= or tn=")
    values = roll_d10s(dice, "knockdown", p["dice"])
    succ = count_successes(values, tn, p["tn_above_ten"])
    down = succ == 0
    text = f"{who}: Knockdown {p['dice']} vs TN {tn} ({why}): {successes_word(succ)}, "
    text += "knocked down" if down else "stays up"
    fig = {"tn": tn, "successes": succ, "knocked_down": down}
    return Resolution("knockdown", "down" if down else "up", text, fig, dice.rolls)


def _odds_knockdown(p: ParamDict) -> list[tuple[str, float]]:
    tn, _ = knockdown_tn(p)
    odds = success_odds(p["dice"], tn, p["tn_above_ten"])
    return [("knocked down", odds[0][1] + odds[1][1]), ("stays up", odds[2][1])]


def _fill_knockdown(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    return {"dice": c.knockdown} if c is not None and missing(p, "dice") else {}


def _apply_knockdown(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = combatant_or_none(enc, p.get("actor"))
    if c is not None and res.figures["knocked_down"]:
        tx.set(["combatants", c.id, "prone"], True)


KNOCKDOWN = FunctionAction(
    name="knockdown",
    help="Knockdown roll: TN 2 x attacker's MoS (3 x blunt), Shock for a head or leg blow, "
    "or the dice of a fumble",
    params=[
        Param("actor", "actor", "", "who may fall"),
        Param("dice", "int", REQUIRED, "Knockdown dice", minimum=0),
        Param("mos", "int", 0, "attacker's MoS", minimum=0),
        Param("blunt", "bool", False, "blunt weapon (TN 3 x MoS)"),
        Param("shock", "int", 0, "head or leg blow: TN = Shock", minimum=0),
        Param("fumble_dice", "int", 0, "fumble: TN = dice spent on it", minimum=0),
        Param("tn", "int", 0, "TN set by the GM (0: from the above)", minimum=0),
        TN_ABOVE_TEN,
    ],
    roles=[DieRole("knockdown", "d10", "Knockdown dice")],
    resolve=_resolve_knockdown,
    odds=_odds_knockdown,
    fill=_fill_knockdown,
    apply=_apply_knockdown,
    detail="figures: tn, successes, knocked_down. A fighter knocked down is prone "
    "(half CP at each refresh) until the GM sets prone=no.",
)


# --- knockout -----------------------------------------------------------------------------


def knockout_tn(armour: int, rule: str) -> int:
    if armour <= 0 or rule == "seven":
        return 7
    if rule == "ten_minus_armour":
        return 10 - armour
    return min(7, 10 - armour)


def _resolve_knockout(p: ParamDict, dice: Dice) -> Resolution:
    tn = p["tn"] if p["tn"] > 0 else knockout_tn(p["armour"], p["knockout_tn"])
    who = p["actor"] or "fighter"
    values = roll_d10s(dice, "knockout", p["dice"])
    succ = count_successes(values, tn, p["tn_above_ten"])
    fumble = is_botch(values, succ)
    fig: dict[str, Any] = {"tn": tn, "successes": succ, "botch": fumble, "seconds_out": 0}
    text = f"{who}: Knockout roll {p['dice']} vs TN {tn}: {successes_word(succ)}"
    if succ:
        return Resolution("knockout", "conscious", text + ", stays conscious", fig, dice.rolls)
    d = dice.roll("out", 10, zero_is_ten=True)
    if fumble:
        fig["seconds_out"] = d * 600
        text += f", fumble: out for {d * 10} minutes"
        return Resolution("knockout", "out long", text, fig, dice.rolls)
    fig["seconds_out"] = d
    text += f", out for {d} seconds"
    return Resolution("knockout", "out", text, fig, dice.rolls)


def _odds_knockout(p: ParamDict) -> list[tuple[str, float]]:
    tn = p["tn"] if p["tn"] > 0 else knockout_tn(p["armour"], p["knockout_tn"])
    botch, fail, ok = success_odds(p["dice"], tn, p["tn_above_ten"])
    return [("out 1d10 x 10 minutes", botch[1]), ("out 1d10 seconds", fail[1]),
            ("stays conscious", ok[1])]


def _fill_knockout(enc: Encounter, p: ParamDict) -> ParamDict:
    c = combatant_or_none(enc, p.get("actor"))
    out: ParamDict = {}
    if c is not None:
        if missing(p, "dice"):
            out["dice"] = c.toughness
        if missing(p, "armour"):
            out["armour"] = c.armour
    return out


def _apply_knockout(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    from tracker.core.model import Effect

    c = combatant_or_none(enc, p.get("actor"))
    secs = res.figures["seconds_out"]
    if c is None or not secs:
        return
    rounds = -(-secs // 2)  # a round is about 2 seconds
    effect = Effect(
        name="unconscious",
        until_round=enc.position.round + rounds,
        note=f"knocked out for {secs} seconds",
    )
    tx.add(["combatants", c.id, "effects"], effect)


KNOCKOUT = FunctionAction(
    name="knockout",
    help="Knockout roll vs TN 7 (or 10 - armour): failure 1d10 seconds out, "
    "a fumble 1d10 x 10 minutes",
    params=[
        Param("actor", "actor", "", "who was struck"),
        Param("dice", "int", REQUIRED, "dice rolled (default: Toughness)", minimum=0),
        Param("armour", "int", 0, "armour rating (AR) at the blow", minimum=0),
        Param("tn", "int", 0, "TN set by the GM (0: 7 or 10 - AR)", minimum=0),
        Param(
            "knockout_tn",
            "choice",
            "lower",
            "TN rule: lower of 7 and 10-AR, seven, or ten_minus_armour",
            choices=("lower", "seven", "ten_minus_armour"),
        ),
        TN_ABOVE_TEN,
    ],
    roles=[
        DieRole("knockout", "d10", "the knockout roll"),
        DieRole("out", "d10", "seconds (or x 10 minutes on a fumble) out"),
    ],
    resolve=_resolve_knockout,
    odds=_odds_knockout,
    fill=_fill_knockout,
    apply=_apply_knockout,
    detail="figures: tn, successes, botch, seconds_out (0: conscious). "
    "Applied as an 'unconscious' effect for the rounds it lasts (a round is 2 seconds).",
)
