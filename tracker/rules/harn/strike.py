"""Which creature a missile finds and where: the Direct and Volley results after the test.

Dice are asked for as the GM rolls them at the table: the Zone Dice of one strike
together, the count die (d20, or the volley precision d10s) together and then the
impact d10 rolled with it, the deviation d8 on its own.
"""

from __future__ import annotations

from tracker.core.dice import Dice
from tracker.core.words import digits
from tracker.rules.errors import RuleError

from .attack import AttackFigures, AttackParams
from .plan import Plan, body_zones
from .tables import tables

COUNT_DIE = 20
PRECISION_DIE = 10
IMPACT_DIE = 10
IMPACT_KINDS = tuple(int(v in (5, 10)) for v in range(1, IMPACT_DIE + 1))
"""The impact die is read only as a 5 or 0 (an Impact TA) or not."""
DEVIATION_DIE = 8
AREAS = 8
"""Adjacent 15-foot areas a volley deviation picks from with the d8."""
STRIKE_ZONE_DIE = 10
"""A strike found by the count die uses a d10 ZD, or a die of the creature's body zones
if larger."""


class Strike:
    """Which creature a strike found and where (``hit``: target, nearby, area or
    deviation; ``struck``: the count value that picked it)."""

    def __init__(self, hit: str, struck: int | None, zone_die: int, zone_rolls: list[int],
                 zone_numbers: list[int], zone: int) -> None:
        self.hit, self.struck, self.zone_die = hit, struck, zone_die
        self.zone_rolls, self.zone_numbers, self.zone = zone_rolls, zone_numbers, zone


def pick(values: list[int], how: str, what: str) -> int:
    """Index of the die the attacker keeps: lowest, highest, first, or a 1-based number."""
    how = (how or "lowest").strip().lower()
    if how == "lowest":
        return values.index(min(values))
    if how == "highest":
        return values.index(max(values))
    if how == "first":
        return 0
    if digits(how) and 1 <= int(how) <= len(values):
        return int(how) - 1
    raise RuleError(f"{what}={how}: expected lowest, highest, first or 1..{len(values)}")


def _zones_for(p: AttackParams, struck: int, hit: str) -> int:
    """Body zones of the creature a count die picked (0: humanoid).

    ``count_zones`` gives them by count number; in the volley area the target's own
    ``zones`` stand in, while a creature near a Direct target or in a deviation area
    is someone else.
    """
    by_count = p.count_zones
    if len(by_count) == 1:
        return by_count[0]
    if struck <= len(by_count):
        return by_count[struck - 1]
    return (p.zones or 0) if hit == "area" else 0


def _zone_number(p: AttackParams, aim: int, roll: int, zones: int) -> int:
    zn = aim + roll - 1
    if zn <= zones:
        return zn
    if p.zone_overflow == "wrap":
        return (zn - 1) % zones + 1
    if p.zone_overflow == "open":
        return zn
    return zones


def _count_strike(
    p: AttackParams, dice: Dice, count: int, sides: int, n: int, hit: str
) -> tuple[Strike | None, list[int], int, str]:
    """Roll the count die (d20, or n volley-precision d10) and the impact d10."""
    keep = " (keep one)" if n > 1 else ""
    rolls = dice.roll_many("count", sides, n, under=count, why=f"target count {count}{keep}",
                           zero_is_ten=True)
    impact_roll = dice.roll_many("impact_ta", IMPACT_DIE, 1, why="Impact TA on 5 or 0",
                                 zero_is_ten=True, classes=IMPACT_KINDS)[0]
    kept = rolls[pick(rolls, p.count_pick, "count_pick")]
    if kept > count:
        return None, rolls, impact_roll, f"d{sides} {kept} > count {count}: miss"
    zones = body_zones(p, _zones_for(p, kept, hit))
    die = max(STRIKE_ZONE_DIE, zones)
    zone_roll = dice.roll_many("zone", die, 1, why=f"count {kept} struck", zero_is_ten=True)[0]
    zn = min(zone_roll, zones) if zone_roll > zones else zone_roll
    strike = Strike(hit, kept, die, [zone_roll], [zn], zn)
    return strike, rolls, impact_roll, f"d{sides} {kept} <= count {count}: strikes count {kept}"


def _strike_by_count(
    p: AttackParams, dice: Dice, f: AttackFigures, parts: list[str], lead: str,
    count: int, hit: str, sides: int = COUNT_DIE, n: int = 1,
) -> Strike | None:
    """Roll "d20 & d10" against a target count (d10s for volley precision)."""
    f.count_die = f"d{sides}" if n == 1 else f"{n}d{sides}"
    strike, rolls, impact_roll, said = _count_strike(p, dice, count, sides, n, hit)
    f.count_rolls, f.impact_roll = rolls, impact_roll
    parts.append(f"{lead}, {said}")
    if strike is not None:
        _impact_roll_ta(f, impact_roll, parts)
    return strike


def _strike_found(
    p: AttackParams, dice: Dice, f: AttackFigures, parts: list[str], count: int, hit: str,
    lead: str, no_one: str,
) -> Strike | None:
    """A miss's strike on whoever the target count finds (``lead`` says where), or
    ``no_one`` said where the count is 0."""
    if count <= 0:
        parts.append(no_one)
        return None
    return _strike_by_count(p, dice, f, parts, lead, count, hit)


def _impact_roll_ta(f: AttackFigures, impact_roll: int, parts: list[str]) -> None:
    if impact_roll in (5, 10):
        f.impact_tas += 1
        f.impact_ta = True
        parts.append(f"impact d10 {impact_roll % 10}: Impact TA")
    else:
        parts.append(f"impact d10 {impact_roll}: no Impact TA")


def _choose_tas(p: AttackParams, free: int) -> list[str]:
    given = [t.strip().lower() for t in p.ta]
    chosen: list[str] = []
    for i in range(free):
        word = given[i] if i < len(given) else p.ta_choice
        if word in ("p", "precision"):
            chosen.append("precision")
        elif word in ("i", "impact"):
            chosen.append("impact")
        else:
            raise RuleError(f"ta={word}: a TA is precision or impact")
    return chosen


def _finds_no_one(plan: Plan, parts: list[str], words: str) -> bool:
    """A miss at EML 05 or less finds no one: no creature nearby, no adjacent area."""
    if plan.eml > tables().test.eml_min:
        return False
    parts.append(words)
    return True


def strike(
    p: AttackParams, dice: Dice, plan: Plan, level: str, f: AttackFigures, parts: list[str]
) -> Strike | None:
    """The results of a test that did not fail critically, direct or volley as the range
    band says; a miss at EML 05 or less finds no one in either (before any deviation)."""
    if level == "MF" and _finds_no_one(
        plan, parts, "the missile lands harmlessly" if plan.volley else "miss"
    ):
        return None
    return (volley if plan.volley else direct)(p, dice, plan, level, f, parts)


def direct(
    p: AttackParams, dice: Dice, plan: Plan, level: str, f: AttackFigures, parts: list[str]
) -> Strike | None:
    """Direct results: a strike on the target, or on a miss maybe a creature nearby."""
    if level == "MF":
        return _strike_found(p, dice, f, parts, plan.targets, "nearby",
                             f"miss; target count {plan.targets} within 5 ft",
                             "miss; no other target within 5 ft")

    target_still = (p.target or "still") == "still"
    free = 1 + p.steps if level == "CS" else 0
    chosen = _choose_tas(p, free)
    precision_ta = int(target_still) + chosen.count("precision")
    impact_tas = chosen.count("impact")
    f.precision, f.free_ta, f.ta = target_still, free, chosen
    f.precision_ta, f.impact_tas, f.impact_ta = precision_ta, impact_tas, impact_tas > 0
    f.hit = "target"
    said = "strike"
    if target_still:
        said += ", Precision TA"
    if free:
        said += f", {free} TA of choice ({', '.join(chosen)})"
    parts.append(said)
    aim = p.zone_aim
    zones = body_zones(p, p.zones or 0)
    keep = ", keep one" if precision_ta else ""
    rolls = dice.roll_many("zone", plan.zone_die, 1 + precision_ta, why=f"aim ZN{aim}{keep}",
                           zero_is_ten=True)
    numbers = [_zone_number(p, aim, r, zones) for r in rolls]
    kept = pick(numbers, p.zone_pick, "zone_pick")
    parts.append(f"aim ZN{aim}")
    return Strike("target", None, plan.zone_die, rolls, numbers, numbers[kept])


def volley(
    p: AttackParams, dice: Dice, plan: Plan, level: str, f: AttackFigures, parts: list[str]
) -> Strike | None:
    """Volley results: a potential strike in the area, or on a miss a deviation."""
    if level == "MF":
        d8 = dice.roll_many("deviation", DEVIATION_DIE, 1, why="which adjacent area")[0]
        f.deviation = d8
        count = deviation_count(p.deviation_targets, d8)
        f.target_count = count
        return _strike_found(p, dice, f, parts, count, "deviation",
                             f"deviation: d8 {d8}, target count {count}",
                             f"deviation: d8 {d8}, the adjacent area holds no target")

    if level == "CS":
        sides, n = PRECISION_DIE, 1 + p.steps
        f.precision = True
        parts.append("potential strike with volley precision")
    else:
        sides, n = COUNT_DIE, 1
        parts.append("potential strike")
    lead = f"target count {plan.targets}"
    return _strike_by_count(p, dice, f, parts, lead, plan.targets, "area", sides, n)


def deviation_counts(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Target counts of the eight adjacent areas: one count for all, or eight (d8 1-8)."""
    if len(counts) == 1:
        return counts * AREAS
    if len(counts) not in (0, AREAS):
        raise RuleError("deviation_targets=: one count for all areas, or eight (d8 1-8)")
    return counts


def deviation_count(counts: tuple[int, ...], d8: int) -> int:
    spread = deviation_counts(counts)
    return spread[d8 - 1] if spread else 0
