"""Exact odds of a missile attack: the d100 test read against the EML, then the chance
the count die (or the kept one of several) finds a creature. Loaded when odds are first
asked for (it imports the odds module)."""

from __future__ import annotations

from fractions import Fraction

from tracker.core import odds
from tracker.rules.base import Odds

from .attack import AttackParams
from .plan import plan_attack
from .results import success_level, wasted
from .strike import COUNT_DIE, PRECISION_DIE, deviation_counts
from .tables import tables


def success_odds(eml: int, auto_fail: bool = False) -> dict[str, Fraction]:
    """Exact chance of CS, MS, MF, CF0 and CF5 on d100 against EML (5..95)."""
    counts = {"CS": 0, "MS": 0, "MF": 0, "CF0": 0, "CF5": 0}
    for roll in range(1, 101):
        level = success_level(roll, eml, auto_fail)
        if level == "CF":
            level = "CF0" if roll % 10 == 0 else "CF5"
        counts[level] += 1
    return {k: Fraction(v, 100) for k, v in counts.items()}


def _hit(count: int, sides: int) -> Fraction:
    """Chance one die of ``sides`` shows ``count`` or less."""
    return Fraction(min(max(count, 0), sides), sides)


def _kept_hit(count: int, sides: int, n: int, pick: str) -> float:
    """Chance the die the attacker keeps of ``n`` shows ``count`` or less."""
    single = _hit(count, sides)
    if pick == "lowest":
        return 1 - odds.binomial(n, single)[0]  # the lowest is in: any one is
    if pick == "highest":
        return odds.binomial(n, single)[n]  # the highest is in: all are
    return float(single)  # the first, or a named die: one die's chance


def _deviation_hit(counts: tuple[int, ...]) -> Fraction:
    spread = deviation_counts(counts)
    if not spread:
        return Fraction(0)
    return sum((_hit(c, COUNT_DIE) for c in spread), Fraction(0)) / len(spread)


def missile_odds(p: AttackParams) -> Odds:
    """The exact chance of each end of the missile attack; the entries sum to 1."""
    plan = plan_attack(p)
    if wasted(plan, p):
        return [("spoiled: no attack", 1.0)]
    s = success_odds(plan.eml, auto_fail=plan.spoiled)
    eml_min = tables().test.eml_min  # above it a miss may still strike someone
    out: list[tuple[str, Fraction | float]] = []
    if plan.spoiled:
        out.append(("MF: spoiled", s["MF"]))
    elif plan.volley:
        cs_hit = _kept_hit(plan.targets, PRECISION_DIE, 1 + p.steps, p.count_pick)
        ms_hit = _hit(plan.targets, COUNT_DIE)
        dev = _deviation_hit(p.deviation_targets) if plan.eml > eml_min else Fraction(0)
        out += [
            ("CS: strike", s["CS"] * cs_hit),
            ("CS: miss", s["CS"] * (1 - cs_hit)),
            ("MS: strike", s["MS"] * ms_hit),
            ("MS: miss", s["MS"] * (1 - ms_hit)),
            ("MF: deviation strike", s["MF"] * dev),
            ("MF: miss", s["MF"] * (1 - dev)),
        ]
    else:
        near = _hit(plan.targets, COUNT_DIE) if plan.eml > eml_min and plan.targets > 0 \
            else Fraction(0)
        out += [
            ("CS: strike", s["CS"]),
            ("MS: strike", s["MS"]),
            ("MF: nearby strike", s["MF"] * near),
            ("MF: miss", s["MF"] * (1 - near)),
        ]
    out += [("CF0: fumble", s["CF0"]), ("CF5: stumble", s["CF5"])]
    return [(label, float(prob)) for label, prob in out if prob > 0]
