"""The missile test and its results, pure: the d100 against the EML, then the Direct or
Volley results.

Direct: CS/MS strike (Precision TA on still targets, TAs of choice on CS), MF miss
(target count within 5 ft, d20 & d10), CF mishap (CF0 fumble, CF5 stumble).
Volley: CS/MS potential strike (target count in the 15-ft area, d20 or volley
precision d10 & d10), MF deviation (d8 adjacent area), CF mishap.
"""

from __future__ import annotations

from tracker.core.dice import Dice, DiceError, parse_notation
from tracker.rules.base import Resolution, RuleError

from .attack import AttackFigures, AttackParams, ModifierFigure
from .plan import Plan, plan_attack
from .strike import Strike, strike
from .tables import attack_row, fmt_num, tables, weapon


def success_level(roll: int, eml: int, auto_fail: bool = False) -> str:
    """d100 <= EML succeeds; a roll divisible by 5 is critical."""
    critical = roll % tables().test.critical_multiple == 0
    if roll <= eml and not auto_fail:
        return "CS" if critical else "MS"
    return "CF" if critical else "MF"


def test_kinds(eml: int, auto_fail: bool) -> tuple[int, ...]:
    """The d100 read only by its success level, and a CF as fumble (a multiple of ten)
    or stumble: the kind of each face."""
    keys: dict[tuple[str, bool], int] = {}
    out = []
    for roll in range(1, 101):
        level = success_level(roll, eml, auto_fail)
        out.append(keys.setdefault((level, level == "CF" and roll % 10 == 0), len(keys)))
    return tuple(out)


def adjust_impact(base: str, delta: int) -> str:
    """``d12+4`` adjusted by -3 gives ``d12+1``; a plain number adds up."""
    if not base.strip():
        return ""
    try:
        notation = parse_notation(base, what="base_impact")
    except DiceError:
        notation = None
    if notation is None or notation.keep or notation.cmp:
        raise RuleError(f"base_impact={base}: expected dice like d12+4, or a number")
    return notation.with_modifier(delta)


def wasted(plan: Plan, p: AttackParams) -> bool:
    """A spoiled attack whose action is wasted: no attack takes place, no die is rolled."""
    return plan.spoiled and p.spoiled_attack == "wasted"


def resolve_missile(p: AttackParams, dice: Dice, action: str = "missile") -> Resolution:
    """The whole missile test and its results, as the Missile Sequence gives them."""
    plan = plan_attack(p)
    band = plan.band
    actor = p.actor or "shooter"
    at = p.at or ""
    f = AttackFigures(
        attack_type=band.attack_type,
        range=plan.range_ft,
        br=fmt_num(plan.br),
        weapon=plan.weapon,
        ml=plan.ml,
        skill=plan.skill,
        modifiers=[ModifierFigure(name=n, value=v) for n, v in plan.modifiers],
        eml_adjusted=plan.eml_adjusted,
        eml=plan.eml,
        spoiled=plan.spoiled,
        zone_die=f"d{plan.zone_die}",
        zone_aim=None if band.volley else p.zone_aim,
        impact_mod=plan.impact_mod,
        area=band.area or None,
        target_count=plan.targets,
        notes=list(plan.notes),
    )
    row = attack_row(plan.weapon, action)
    f.movement, f.time, f.defence = row.movement, row.time, row.defence
    head = f"{actor} {weapon(plan.weapon).verb}" + (f" at {at}" if at else "")
    head += f": {band.label} ({plan.range_ft} ft, BR {fmt_num(plan.br)}), EML{plan.eml:02d}"
    if wasted(plan, p):
        f.result = "spoiled"
        text = f"{head} (adjusted {plan.eml_adjusted}): spoiled, no attack takes place"
        return Resolution(action, "spoiled", text, f, dice.rolls)

    under = None if plan.spoiled else plan.eml
    why = "spoiled: checks for CF only" if plan.spoiled else f"EML{plan.eml:02d}"
    roll = dice.roll_many("test", 100, 1, under=under, why=why,
                          classes=test_kinds(plan.eml, plan.spoiled))[0]
    level = success_level(roll, plan.eml, auto_fail=plan.spoiled)
    f.roll, f.success = roll, level
    parts = [f"{head}, roll {roll:02d} {level}"]
    if plan.spoiled:
        parts[0] = f"{head} (adjusted {plan.eml_adjusted}: spoiled), roll {roll:02d} {level}"

    if level == "CF":
        mishap = "fumble" if roll % 10 == 0 else "stumble"
        f.mishap, f.result = mishap, "spoiled" if plan.spoiled else "mishap"
        parts.append(f"mishap: {mishap.capitalize()} Roll; the attack does not take place")
        return _finish(action, f, parts, dice, "mishap")
    if plan.spoiled:
        f.result = "spoiled"
        parts.append("spoiled: the attack automatically fails")
        return _finish(action, f, parts, dice, "spoiled")

    struck = strike(p, dice, plan, level, f, parts)
    if struck is None:
        f.result = "miss"
        return _finish(action, f, parts, dice, "miss")
    _record_strike(p, f, struck, plan, parts)
    _roll_impact(p, f, dice, parts)
    return _finish(action, f, parts, dice, "strike")


def _record_strike(
    p: AttackParams, f: AttackFigures, strike: Strike, plan: Plan, parts: list[str]
) -> None:
    f.result, f.hit, f.struck = "strike", strike.hit, strike.struck
    f.zone_die = f"d{strike.zone_die}"
    f.zone_rolls, f.zone_numbers, f.zone = strike.zone_rolls, strike.zone_numbers, strike.zone
    numbering = p.numbering
    if strike.struck is not None and strike.hit != "deviation" and strike.struck <= len(
        numbering
    ):
        f.struck_name = numbering[strike.struck - 1]
    elif p.at and (strike.hit == "target" or strike.hit == "area" and p.targets is None):
        # a volley's count with no target count given is the TAR of the one shot at:
        # every count of it is that creature
        f.struck_name = p.at
    bonus = p.impact_bonus or 0
    total = plan.impact_mod + bonus * f.impact_tas
    f.impact_total = total
    base = p.base_impact
    if base:
        f.impact = adjust_impact(base, total)
    who = f.struck_name or (f"count {strike.struck}" if strike.struck else "target")
    zd = f"ZD d{strike.zone_die} " + ", ".join(map(str, strike.zone_rolls))
    parts.append(f"strike on {who}: {zd} -> ZN{strike.zone}")
    imp = f"impact {total:+d}"
    if f.impact:
        imp = f"impact {f.impact} ({base} {total:+d})"
    parts.append(imp)


def _roll_impact(p: AttackParams, f: AttackFigures, dice: Dice, parts: list[str]) -> None:
    """The strike's impact, rolled as the range and the TAs left it (``d12+1``): its dice
    are asked for like the others (role ``impact``); a ``strike_impact`` the GM gives
    stands instead."""
    if p.strike_impact is not None:
        f.strike_impact = p.strike_impact
        parts[-1] += f" = {p.strike_impact} (given)"
        return
    if not f.impact:
        return
    n = parse_notation(f.impact, what="base_impact")
    rolls = dice.roll_many("impact", n.sides, n.count, why=f"strike impact {f.impact}")
    f.impact_rolls = list(rolls)
    f.strike_impact = max(0, sum(rolls) + n.modifier)
    shown = "+".join(map(str, rolls)) + (f"{n.modifier:+d}" if n.modifier else "")
    parts[-1] += f" = {f.strike_impact}" + (f" ({shown})" if rolls else "")


def _finish(
    action: str, f: AttackFigures, parts: list[str], dice: Dice, outcome: str
) -> Resolution:
    return Resolution(action, outcome, "; ".join(parts), f, dice.rolls)
