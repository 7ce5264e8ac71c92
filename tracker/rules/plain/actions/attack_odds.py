"""Exact odds of an attack, on icepool: the chance to hit and to hit critically, the
damage on a hit, and the chance that the target goes down."""

from __future__ import annotations

from fractions import Fraction

import icepool

from tracker.core.words import percent
from tracker.rules.base import Odds

from ..damage import Damage
from .attack import CRITICAL, HIT, KINDS, MISS, AttackParams, damage_of, drop_label, kind_of
from .common import damage_total


def attack_die(roll: str) -> icepool.Die:
    """The die that counts: one d20, or the higher (lower) of two."""
    if roll == "advantage":
        return icepool.d20.highest(2, 1)
    if roll == "disadvantage":
        return icepool.d20.lowest(2, 1)
    return icepool.d20


def kinds(p: AttackParams) -> dict[int, Fraction]:
    """The chance of a miss, a hit and a critical hit."""
    die = attack_die(p.roll)
    total = die.denominator()
    out = {MISS: Fraction(0), HIT: Fraction(0), CRITICAL: Fraction(0)}
    for face, weight in die.items():
        out[kind_of(int(face), p)] += Fraction(weight, total)
    return out


def damage_die(dmg: Damage, critical: bool, crit_damage: str) -> icepool.Die:
    """The damage on a hit (or a critical one) as a die of totals, never below 0."""
    count = dmg.count * 2 if critical and crit_damage == "dice" else dmg.count
    rolled = count @ icepool.d(dmg.sides) if count else icepool.Die([0])
    return rolled.map(lambda s: damage_total(dmg, [s], critical, crit_damage))


def at_least(die: icepool.Die, n: int) -> Fraction:
    return Fraction(die.probability(">=", n))


def odds(p: AttackParams) -> Odds:
    """Miss; a hit or a critical hit, each as the target stays up or goes down."""
    dmg = damage_of(p)
    chance = kinds(p)
    rows: Odds = [(KINDS[MISS], float(chance[MISS]))]
    for kind in (HIT, CRITICAL):
        if not chance[kind]:
            continue
        down = at_least(damage_die(dmg, kind == CRITICAL, p.crit_damage), p.hp) \
            if p.hp is not None else Fraction(0)
        rows.append((KINDS[kind], float(chance[kind] * (1 - down))))
        if p.hp is not None:
            rows.append((drop_label(KINDS[kind], p), float(chance[kind] * down)))
    return rows


def summary(p: AttackParams) -> str:
    """``10+ to hit: hit 55.0% (critical 5.0%) · damage 1d8+3 4-11, mean 7.5 · Goblin
    down 20.0%``."""
    dmg = damage_of(p)
    chance = kinds(p)
    hit = chance[HIT] + chance[CRITICAL]
    parts = [f"hit {percent(float(hit))} (critical {percent(float(chance[CRITICAL]))})"]
    normal = damage_die(dmg, False, p.crit_damage)
    parts.append(f"damage {dmg} {normal.min_outcome()}-{normal.max_outcome()}, "
                 f"mean {float(normal.mean()):.1f}")
    if p.hp is not None:
        crit = damage_die(dmg, True, p.crit_damage)
        down = chance[HIT] * at_least(normal, p.hp) + chance[CRITICAL] * at_least(crit, p.hp)
        parts.append(f"{p.target or 'the target'} ({p.hp} hp) down {percent(float(down))}")
    return " · ".join(parts)
