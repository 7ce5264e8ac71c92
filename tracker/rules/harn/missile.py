"""The missile attack, pure: range band from Base Range (BR), EML from ML and the
situational modifiers, the d100 test, then the Direct or Volley results.

Direct: CS/MS strike (Precision TA on still targets, TAs of choice on CS), MF miss
(target count within 5 ft, d20 & d10), CF mishap (CF0 fumble, CF5 stumble).
Volley: CS/MS potential strike (target count in the 15-ft area, d20 or volley
precision d10 & d10), MF deviation (d8 adjacent area), CF mishap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tracker.core.dice import Dice
from tracker.rules.base import Odds, ParamDict, Resolution, RuleError


@dataclass(frozen=True)
class Band:
    """A row of the Missile Range table."""

    attack_type: str
    label: str
    multiple: Fraction
    modifier: int
    zd: int
    impact: int
    charge: int | None
    """Impact modifier of a Charging Throw (None: no charging throw at this range)."""

    @property
    def volley(self) -> bool:
        return self.attack_type.startswith("volley")


BANDS: tuple[Band, ...] = (
    Band("direct-pb", "Direct PB", Fraction(1, 2), 10, 6, 2, 3),
    Band("direct", "Direct", Fraction(1), 0, 8, 0, 1),
    Band("volley2", "Volley 2", Fraction(2), 0, 10, -2, -2),
    Band("volley3", "Volley 3", Fraction(3), -20, 10, -3, -3),
    Band("volley4", "Volley 4", Fraction(4), -40, 10, -4, None),
)

SKILL = {"bow": "Archery", "crossbow": "Archery", "sling": "Slings", "thrown": "Throwing"}
VERB = {"bow": "shoots", "crossbow": "shoots", "sling": "shoots", "thrown": "throws"}
SPOIL_AT = -40
"""A final adjusted EML of -40 or worse spoils the attack."""


def fmt_num(value: Fraction | int | float) -> int | float:
    """A number for JSON: whole numbers as int."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def band_for(range_ft: int, br: Fraction) -> Band:
    """The shortest multiple of BR that reaches the target, or RuleError beyond 4 x BR."""
    if br <= 0:
        raise RuleError("br= must be more than 0 (the weapon's Base Range in feet)")
    for band in BANDS:
        if range_ft <= br * band.multiple:
            return band
    raise RuleError(
        f"range {range_ft} ft is out of range: beyond 4 x BR ({fmt_num(br * 4)} ft)"
    )


def _get(p: ParamDict, name: str, default: Any) -> Any:
    value = p.get(name)
    return default if value is None else value


@dataclass
class Plan:
    """Everything decided before the dice: band, skill, modifiers, EML."""

    weapon: str
    range_ft: int
    br: Fraction
    band: Band
    ml: int
    skill: str
    modifiers: list[tuple[str, int]]
    eml_adjusted: int
    eml: int
    spoiled: bool
    targets: int
    zone_die: int
    impact_mod: int
    notes: list[str] = field(default_factory=list)

    @property
    def volley(self) -> bool:
        return self.band.volley


def plan_attack(p: ParamDict) -> Plan:
    """Range band, missile skill and every situational modifier; RuleError if illegal."""
    weapon = _get(p, "weapon", "bow")
    target = _get(p, "target", "still")
    notes: list[str] = []
    range_ft = p.get("range")
    if range_ft is None:
        raise RuleError("range= is required (feet to the target)")
    if p.get("br") is None:
        raise RuleError("br= is required (the weapon's Base Range in feet)")
    br = Fraction(int(p["br"]))
    if _get(p, "wet", False):
        if weapon in ("bow", "crossbow"):
            br = br / 2
            notes.append("wet string: BR halved")
        else:
            notes.append("wet: no effect on slings and thrown weapons")
    band = band_for(int(range_ft), br)

    overhead = p.get("overhead")
    if overhead is not None and overhead < 10 and band.volley:
        raise RuleError(
            f"overhead {overhead} ft: under 10 ft forbids Volley ranges ({band.label})"
        )
    charge = bool(_get(p, "charge", False))
    if charge:
        if weapon != "thrown":
            raise RuleError("charge: only a thrown weapon attacks after a Charge")
        if range_ft < 5:
            raise RuleError("charge: the target must be at least 5 ft away")
        if band.charge is None:
            raise RuleError(f"charge: no Charging Throw at {band.label} range")

    ml, skill = _skill(p, weapon)
    mods: list[tuple[str, int]] = []
    if band.modifier:
        mods.append((band.label, band.modifier))
    mods += _target_mods(p, target, band)
    if _get(p, "shooter_moving", False):
        if weapon == "thrown":
            notes.append("moving shooter: no penalty for throwers")
        else:
            mods.append(("moving shooter", -10))
    mods += _thrown_mods(p, weapon)
    mods += _crosswind(p, band)
    trauma = abs(int(_get(p, "trauma", 0)))
    if trauma:
        mods.append(("trauma", -trauma))
    if _get(p, "aimed", False):
        _check_aim(p, weapon)
        mods.append(("aim", 10))
    tar = int(_get(p, "tar", 1))
    if tar >= 2 and not band.volley:
        per = tar if _get(p, "massive_target", "per_tar") == "per_tar" else tar - 1
        if per:
            mods.append((f"massive target TAR{tar}", 5 * per))
    if (
        overhead is not None
        and overhead < 5
        and weapon in ("bow", "crossbow")
        and band.attack_type == "direct"
    ):
        mods.append((f"overhead {overhead} ft", -20))

    adjusted = ml + sum(v for _, v in mods)
    eml = min(95, max(5, adjusted))
    spoiled = adjusted <= SPOIL_AT

    targets = p.get("targets")
    if targets is None:
        targets = max(1, tar) if band.volley else 0
    if band.volley:
        zone_die = 10
    elif band.attack_type == "direct-pb" and weapon == "thrown":
        zone_die = int(p.get("pb_zd") or _get(p, "thrown_pb_zd", 6))
    else:
        zone_die = band.zd
    impact_mod = band.charge if charge and band.charge is not None else band.impact
    zone_aim = int(_get(p, "zone_aim", 1))
    zones = _body_zones(p, int(_get(p, "zones", 0)))
    if zone_aim > zones:
        raise RuleError(f"zone_aim=ZN{zone_aim}: the target has only {zones} zones")
    return Plan(
        weapon, int(range_ft), br, band, ml, skill, mods, adjusted, eml, spoiled,
        int(targets), zone_die, impact_mod, notes,
    )


def _skill(p: ParamDict, weapon: str) -> tuple[int, str]:
    ml = p.get("ml")
    sb = p.get("sb")
    if weapon == "crossbow" and sb is not None:
        by_sb = int(sb) * 3
        if ml is None or by_sb > ml:
            return by_sb, f"Archery SB{sb} x 3"
    if ml is None:
        raise RuleError(f"ml= is required (the shooter's {SKILL[weapon]} ML)")
    return int(ml), f"{SKILL[weapon]} ML"


def _target_mods(p: ParamDict, target: str, band: Band) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    if target == "still":
        mods.append(("still target", 0))
    elif target == "moving":
        mods.append(("moving target area" if band.volley else "moving target", -10))
    else:
        dodge = int(_get(p, "dodge", 0))
        mods.append((f"evading target (Dodge {dodge} x 5)", -5 * dodge))
    if band.volley and target == "still" and _get(p, "area_moving", False):
        mods.append(("moving target area", -10))
    return mods


def _thrown_mods(p: ParamDict, weapon: str) -> list[tuple[str, int]]:
    heft = abs(int(_get(p, "heft", 0)))
    thrown_object = _get(p, "object", "none")
    if weapon != "thrown":
        if heft:
            raise RuleError("heft= applies to thrown weapons and objects only")
        if thrown_object != "none":
            raise RuleError("object= applies to thrown objects only (weapon=thrown)")
        return []
    mods: list[tuple[str, int]] = []
    if heft:
        mods.append(("heft", -heft))
    if thrown_object == "object":
        mods.append(("thrown object", -10))
    elif thrown_object == "oblong":
        mods.append(("thrown object (oblong)", -20))
    return mods


def _crosswind(p: ParamDict, band: Band) -> list[tuple[str, int]]:
    force = int(_get(p, "crosswind", 0))
    if not force:
        return []
    if band.volley:
        return [(f"crosswind {force} (Volley)", -20 * force)]
    if _get(p, "crosswind_direct", "per_force") == "above_one":
        per = force - 1
    else:
        per = force if force >= 2 else 0
    if not per:
        return []
    return [(f"crosswind {force} (Direct)", -10 * per)]


def _check_aim(p: ParamDict, weapon: str) -> None:
    if weapon == "sling":
        raise RuleError("aimed: a sling has no Aim action")
    pull, draw = p.get("pull"), p.get("draw")
    if weapon == "bow" and pull is not None and draw is not None and pull - draw < 75:
        raise RuleError(
            f"aimed: a bow may be aimed only if Pull exceeds Draw by 75 (Pull {pull}, "
            f"Draw {draw})"
        )


def _body_zones(p: ParamDict, zones: int) -> int:
    return zones if zones > 0 else int(_get(p, "humanoid_zones", 10))


# --- the test ----------------------------------------------------------------------------


def success_level(roll: int, eml: int, auto_fail: bool = False) -> str:
    """d100 <= EML succeeds; a roll divisible by 5 is critical."""
    critical = roll % 5 == 0
    if roll <= eml and not auto_fail:
        return "CS" if critical else "MS"
    return "CF" if critical else "MF"


def _pick(values: list[int], how: str, what: str) -> int:
    """Index of the die the attacker keeps: lowest, highest, first, or a 1-based number."""
    how = (how or "lowest").strip().lower()
    if how == "lowest":
        return values.index(min(values))
    if how == "highest":
        return values.index(max(values))
    if how == "first":
        return 0
    if how.isdigit() and 1 <= int(how) <= len(values):
        return int(how) - 1
    raise RuleError(f"{what}={how}: expected lowest, highest, first or 1..{len(values)}")


_IMPACT = re.compile(r"^(?P<dice>\d*d\d+)?(?P<mod>[+-]\d+)?$")


def adjust_impact(base: str, delta: int) -> str:
    """``d12+4`` adjusted by -3 gives ``d12+1``; a plain number adds up."""
    text = base.replace(" ", "").lower()
    if not text:
        return ""
    m = _IMPACT.match(text)
    if not m or not (m["dice"] or m["mod"]):
        raise RuleError(f"base_impact={base}: expected dice like d12+4, or a number")
    total = int(m["mod"] or 0) + delta
    if not m["dice"]:
        return str(total)
    return m["dice"] + (f"{total:+d}" if total else "")


@dataclass
class Strike:
    """Which creature a strike found and where."""

    hit: str
    """target, nearby, area or deviation."""
    struck: int | None
    zone_die: int
    zone_rolls: list[int]
    zone_numbers: list[int]
    zone: int


def _zones_for(p: ParamDict, struck: int, hit: str) -> int:
    """Body zones of the creature a count die picked (0: humanoid).

    ``count_zones`` gives them by count number; in the volley area the target's own
    ``zones`` stand in, while a creature near a Direct target or in a deviation area
    is someone else.
    """
    by_count = p.get("count_zones") or []
    if len(by_count) == 1:
        return int(by_count[0])
    if struck <= len(by_count):
        return int(by_count[struck - 1])
    return int(_get(p, "zones", 0)) if hit == "area" else 0


def _roll_zones(dice: Dice, sides: int, n: int) -> list[int]:
    return [dice.roll("zone", sides, zero_is_ten=True) for _ in range(n)]


def _zone_number(p: ParamDict, aim: int, roll: int, zones: int) -> int:
    zn = aim + roll - 1
    if zn <= zones:
        return zn
    how = _get(p, "zone_overflow", "cap")
    if how == "wrap":
        return (zn - 1) % zones + 1
    if how == "open":
        return zn
    return zones


def _count_strike(
    p: ParamDict, dice: Dice, plan: Plan, count: int, sides: int, n: int, hit: str
) -> tuple[Strike | None, list[int], int, str]:
    """Roll the count die (d20, or n volley-precision d10) and the impact d10."""
    rolls = [dice.roll("count", sides, zero_is_ten=True) for _ in range(n)]
    impact_roll = dice.roll("impact", 10, zero_is_ten=True)
    kept = rolls[_pick(rolls, _get(p, "count_pick", "lowest"), "count_pick")]
    if kept > count:
        return None, rolls, impact_roll, f"d{sides} {kept} > count {count}: miss"
    zones = _body_zones(p, _zones_for(p, kept, hit))
    die = max(10, zones)
    zone_roll = dice.roll("zone", die, zero_is_ten=True)
    zn = min(zone_roll, zones) if zone_roll > zones else zone_roll
    strike = Strike(hit, kept, die, [zone_roll], [zn], zn)
    return strike, rolls, impact_roll, f"d{sides} {kept} <= count {count}: strikes count {kept}"


def resolve_missile(p: ParamDict, dice: Dice, action: str = "missile") -> Resolution:
    """The whole missile test and its results, as the Missile Sequence gives them."""
    plan = plan_attack(p)
    band = plan.band
    actor = p.get("actor") or "shooter"
    at = p.get("at") or ""
    verb = VERB[plan.weapon]
    figures: dict[str, Any] = {
        "attack_type": band.attack_type,
        "range": plan.range_ft,
        "br": fmt_num(plan.br),
        "weapon": plan.weapon,
        "ml": plan.ml,
        "skill": plan.skill,
        "modifiers": [{"name": n, "value": v} for n, v in plan.modifiers],
        "eml_adjusted": plan.eml_adjusted,
        "eml": plan.eml,
        "spoiled": plan.spoiled,
        "roll": None,
        "success": None,
        "result": None,
        "hit": None,
        "zone_die": f"d{plan.zone_die}",
        "zone_aim": None if band.volley else int(_get(p, "zone_aim", 1)),
        "zone_rolls": [],
        "zone_numbers": [],
        "zone": None,
        "impact_mod": plan.impact_mod,
        "precision": False,
        "precision_ta": 0,
        "free_ta": 0,
        "ta": [],
        "impact_tas": 0,
        "impact_ta": False,
        "impact_total": 0,
        "impact": "",
        "area": "15'd" if band.volley else None,
        "target_count": plan.targets,
        "count_die": None,
        "count_rolls": [],
        "struck": None,
        "struck_name": None,
        "impact_roll": None,
        "deviation": None,
        "mishap": None,
        "notes": list(plan.notes),
    }
    head = f"{actor} {verb}" + (f" at {at}" if at else "")
    head += f": {band.label} ({plan.range_ft} ft, BR {fmt_num(plan.br)}), EML{plan.eml:02d}"
    spoil_how = _get(p, "spoiled_attack", "fails")
    if plan.spoiled and spoil_how == "wasted":
        figures.update(result="spoiled", success=None)
        text = f"{head} (adjusted {plan.eml_adjusted}): spoiled, no attack takes place"
        return Resolution(action, "spoiled", text, figures, dice.rolls)

    roll = dice.roll("test", 100)
    level = success_level(roll, plan.eml, auto_fail=plan.spoiled)
    figures.update(roll=roll, success=level)
    parts = [f"{head}, roll {roll:02d} {level}"]
    if plan.spoiled:
        parts[0] = f"{head} (adjusted {plan.eml_adjusted}: spoiled), roll {roll:02d} {level}"

    if level == "CF":
        mishap = "fumble" if roll % 10 == 0 else "stumble"
        figures.update(mishap=mishap, result="spoiled" if plan.spoiled else "mishap")
        parts.append(f"mishap: {mishap.capitalize()} Roll; the attack does not take place")
        return _finish(action, figures, parts, dice, "mishap")
    if plan.spoiled:
        figures.update(result="spoiled")
        parts.append("spoiled: the attack automatically fails")
        return _finish(action, figures, parts, dice, "spoiled")

    strike: Strike | None
    if band.volley:
        strike = _volley(p, dice, plan, level, figures, parts)
    else:
        strike = _direct(p, dice, plan, level, figures, parts)

    if strike is None:
        figures["result"] = "miss"
        return _finish(action, figures, parts, dice, "miss")
    figures.update(
        result="strike",
        hit=strike.hit,
        struck=strike.struck,
        zone_die=f"d{strike.zone_die}",
        zone_rolls=strike.zone_rolls,
        zone_numbers=strike.zone_numbers,
        zone=strike.zone,
    )
    numbering = p.get("numbering") or []
    if strike.struck is not None and strike.hit != "deviation" and strike.struck <= len(
        numbering
    ):
        figures["struck_name"] = numbering[strike.struck - 1]
    elif strike.hit == "target" and at:
        figures["struck_name"] = at
    bonus = int(_get(p, "impact_bonus", 0))
    total = plan.impact_mod + bonus * figures["impact_tas"]
    figures["impact_total"] = total
    base = str(_get(p, "base_impact", ""))
    if base:
        figures["impact"] = adjust_impact(base, total)
    who = figures["struck_name"] or (f"count {strike.struck}" if strike.struck else "target")
    zd = f"ZD d{strike.zone_die} " + ", ".join(map(str, strike.zone_rolls))
    parts.append(f"strike on {who}: {zd} -> ZN{strike.zone}")
    imp = f"impact {total:+d}"
    if figures["impact"]:
        imp = f"impact {figures['impact']} ({base} {total:+d})"
    parts.append(imp)
    return _finish(action, figures, parts, dice, "strike")


def _finish(
    action: str, figures: dict[str, Any], parts: list[str], dice: Dice, outcome: str
) -> Resolution:
    return Resolution(action, outcome, "; ".join(parts), figures, dice.rolls)


def _direct(
    p: ParamDict, dice: Dice, plan: Plan, level: str, figures: dict[str, Any], parts: list[str]
) -> Strike | None:
    if level == "MF":
        if plan.eml <= 5:
            parts.append("miss")
            return None
        if plan.targets <= 0:
            parts.append("miss; no other target within 5 ft")
            return None
        figures["count_die"] = "d20"
        strike, rolls, impact_roll, said = _count_strike(
            p, dice, plan, plan.targets, 20, 1, "nearby"
        )
        figures.update(count_rolls=rolls, impact_roll=impact_roll)
        parts.append(f"miss; target count {plan.targets} within 5 ft, {said}")
        if strike is not None:
            _impact_roll_ta(figures, impact_roll, parts)
        return strike

    target_still = _get(p, "target", "still") == "still"
    steps = int(_get(p, "steps", 0))
    free = 1 + steps if level == "CS" else 0
    chosen = _choose_tas(p, free)
    precision_ta = int(target_still) + chosen.count("precision")
    impact_tas = chosen.count("impact")
    figures.update(
        precision=target_still,
        free_ta=free,
        ta=chosen,
        precision_ta=precision_ta,
        impact_tas=impact_tas,
        impact_ta=impact_tas > 0,
        hit="target",
    )
    said = "strike"
    if target_still:
        said += ", Precision TA"
    if free:
        said += f", {free} TA of choice ({', '.join(chosen)})"
    parts.append(said)
    aim = int(_get(p, "zone_aim", 1))
    zones = _body_zones(p, int(_get(p, "zones", 0)))
    rolls = _roll_zones(dice, plan.zone_die, 1 + precision_ta)
    numbers = [_zone_number(p, aim, r, zones) for r in rolls]
    keep = _pick(numbers, _get(p, "zone_pick", "lowest"), "zone_pick")
    parts.append(f"aim ZN{aim}")
    return Strike("target", None, plan.zone_die, rolls, numbers, numbers[keep])


def _choose_tas(p: ParamDict, free: int) -> list[str]:
    given = [t.strip().lower() for t in (p.get("ta") or [])]
    default = _get(p, "ta_choice", "precision")
    chosen: list[str] = []
    for i in range(free):
        word = given[i] if i < len(given) else default
        if word in ("p", "precision"):
            chosen.append("precision")
        elif word in ("i", "impact"):
            chosen.append("impact")
        else:
            raise RuleError(f"ta={word}: a TA is precision or impact")
    return chosen


def _impact_roll_ta(figures: dict[str, Any], impact_roll: int, parts: list[str]) -> None:
    if impact_roll in (5, 10):
        figures["impact_tas"] = figures["impact_tas"] + 1
        figures["impact_ta"] = True
        parts.append(f"impact d10 {impact_roll % 10}: Impact TA")
    else:
        parts.append(f"impact d10 {impact_roll}: no Impact TA")


def _volley(
    p: ParamDict, dice: Dice, plan: Plan, level: str, figures: dict[str, Any], parts: list[str]
) -> Strike | None:
    if level == "MF":
        if plan.eml <= 5:
            parts.append("the missile lands harmlessly")
            return None
        d8 = dice.roll("deviation", 8)
        figures["deviation"] = d8
        counts = p.get("deviation_targets") or []
        count = int(counts[0]) if len(counts) == 1 else int(counts[d8 - 1]) if counts else 0
        if len(counts) not in (0, 1, 8):
            raise RuleError("deviation_targets=: one count for all areas, or eight (d8 1-8)")
        figures["target_count"] = count
        if count <= 0:
            parts.append(f"deviation: d8 {d8}, the adjacent area holds no target")
            return None
        figures["count_die"] = "d20"
        strike, rolls, impact_roll, said = _count_strike(
            p, dice, plan, count, 20, 1, "deviation"
        )
        figures.update(count_rolls=rolls, impact_roll=impact_roll)
        parts.append(f"deviation: d8 {d8}, target count {count}, {said}")
        if strike is not None:
            _impact_roll_ta(figures, impact_roll, parts)
        return strike

    steps = int(_get(p, "steps", 0))
    if level == "CS":
        sides, n = 10, 1 + steps
        figures["precision"] = True
        parts.append("potential strike with volley precision")
    else:
        sides, n = 20, 1
        parts.append("potential strike")
    figures["count_die"] = f"d{sides}" if n == 1 else f"{n}d{sides}"
    strike, rolls, impact_roll, said = _count_strike(
        p, dice, plan, plan.targets, sides, n, "area"
    )
    figures.update(count_rolls=rolls, impact_roll=impact_roll)
    parts.append(f"target count {plan.targets}, {said}")
    if strike is not None:
        _impact_roll_ta(figures, impact_roll, parts)
    return strike


# --- odds --------------------------------------------------------------------------------


def success_odds(eml: int, auto_fail: bool = False) -> dict[str, Fraction]:
    """Exact chance of CS, MS, MF, CF0 and CF5 on d100 against EML (5..95)."""
    counts = {"CS": 0, "MS": 0, "MF": 0, "CF0": 0, "CF5": 0}
    for roll in range(1, 101):
        level = success_level(roll, eml, auto_fail)
        if level == "CF":
            level = "CF0" if roll % 10 == 0 else "CF5"
        counts[level] += 1
    return {k: Fraction(v, 100) for k, v in counts.items()}


def _hit(count: int, sides: int, n: int = 1) -> Fraction:
    """Chance that the kept die of n (the lowest) is <= count."""
    miss = Fraction(max(0, sides - min(count, sides)), sides)
    return 1 - miss**n


def missile_odds(p: ParamDict) -> Odds:
    """The exact chance of each end of the missile attack; the entries sum to 1."""
    plan = plan_attack(p)
    out: list[tuple[str, Fraction]] = []
    if plan.spoiled and _get(p, "spoiled_attack", "fails") == "wasted":
        return [("spoiled: no attack", 1.0)]
    s = success_odds(plan.eml, auto_fail=plan.spoiled)
    if plan.spoiled:
        out.append(("MF: spoiled", s["MF"]))
    else:
        steps = int(_get(p, "steps", 0))
        pick = _get(p, "count_pick", "lowest")
        if plan.volley:
            cs_hit = _precision_hit(plan.targets, 1 + steps, pick)
            ms_hit = _hit(plan.targets, 20)
            dev = _deviation_hit(p) if plan.eml > 5 else Fraction(0)
            out += [
                ("CS: strike", s["CS"] * cs_hit),
                ("CS: miss", s["CS"] * (1 - cs_hit)),
                ("MS: strike", s["MS"] * ms_hit),
                ("MS: miss", s["MS"] * (1 - ms_hit)),
                ("MF: deviation strike", s["MF"] * dev),
                ("MF: miss", s["MF"] * (1 - dev)),
            ]
        else:
            near = _hit(plan.targets, 20) if plan.eml > 5 and plan.targets > 0 else Fraction(0)
            out += [
                ("CS: strike", s["CS"]),
                ("MS: strike", s["MS"]),
                ("MF: nearby strike", s["MF"] * near),
                ("MF: miss", s["MF"] * (1 - near)),
            ]
    out += [("CF0: fumble", s["CF0"]), ("CF5: stumble", s["CF5"])]
    return [(label, float(prob)) for label, prob in out if prob > 0]


def _precision_hit(count: int, n: int, pick: str) -> Fraction:
    """Chance the kept volley precision d10 of n is <= count."""
    single = Fraction(min(max(count, 0), 10), 10)
    if pick == "lowest":
        return 1 - (1 - single) ** n
    if pick == "highest":
        return single**n
    return single  # the first, or a named die: one d10's chance


def _deviation_hit(p: ParamDict) -> Fraction:
    counts = p.get("deviation_targets") or []
    if not counts:
        return Fraction(0)
    if len(counts) == 1:
        counts = counts * 8
    if len(counts) != 8:
        raise RuleError("deviation_targets=: one count for all areas, or eight (d8 1-8)")
    return sum((_hit(int(c), 20) if c > 0 else Fraction(0) for c in counts), Fraction(0)) / 8


def strike_chance(p: ParamDict) -> float:
    """Chance that the attack strikes some creature."""
    return sum(prob for label, prob in missile_odds(p) if label.endswith("strike"))
