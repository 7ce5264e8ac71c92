"""Exact odds of a save for several targets, on icepool: each one's chance to save, and
how many go down (or fail, where no hit points are kept) as one damage roll falls on
them all."""

from __future__ import annotations

from fractions import Fraction

import icepool

from tracker.core.words import percent
from tracker.rules.base import Odds

from .attack_odds import attack_die
from .save import SaveParams, bonuses, damage_of, lowest_save, outcome_word, points, taken, targets


def save_chances(p: SaveParams) -> list[Fraction]:
    """Each target's chance to save, in order."""
    die = attack_die(p.roll)
    return [Fraction(die.probability(">=", lowest_save(p, bonus))) for bonus in bonuses(p)]


def count_of(chances: list[Fraction]) -> list[Fraction]:
    """How many of independent events happen: the chance of each count."""
    dist = [Fraction(1)]
    for q in chances:
        nxt = [Fraction(0)] * (len(dist) + 1)
        for k, pk in enumerate(dist):
            nxt[k] += pk * (1 - q)
            nxt[k + 1] += pk * q
        dist = nxt
    return dist


def damage_die(p: SaveParams) -> icepool.Die | None:
    dmg = damage_of(p)
    if dmg is None:
        return None
    rolled = dmg.count @ icepool.d(dmg.sides) if dmg.count else icepool.Die([0])
    return rolled.map(lambda s: max(0, s + dmg.modifier))


def down_counts(p: SaveParams, saves: list[Fraction], die: icepool.Die) -> list[Fraction]:
    """The chance that each number of targets goes down."""
    hp = points(p)
    total = die.denominator()
    out = [Fraction(0)] * (len(saves) + 1)
    for amount, weight in die.items():
        drop = [
            Fraction(0) if left is None else
            (1 - q) * (amount > 0 and amount >= left)
            + q * (0 < taken(p, amount, True) and taken(p, amount, True) >= left)
            for q, left in zip(saves, hp, strict=True)
        ]
        for k, pk in enumerate(count_of(drop)):
            out[k] += Fraction(weight, total) * pk
    return out


def odds(p: SaveParams) -> Odds:
    """How many go down (or fail), each count as the resolution words it."""
    saves = save_chances(p)
    die = damage_die(p)
    if die is not None and any(v is not None for v in points(p)):
        dist = down_counts(p, saves, die)
        return [(outcome_word(p, 0, k), float(pk)) for k, pk in enumerate(dist)]
    fails = count_of([1 - q for q in saves])
    return [(outcome_word(p, k, 0), float(pk)) for k, pk in enumerate(fails)]


def summary(p: SaveParams) -> str:
    """``saves: Goblin 1 40.0%, Orc 55.0% · damage 8d6 8-48, mean 28.0``."""
    each = ", ".join(f"{name} {percent(float(q))}"
                     for name, q in zip(targets(p), save_chances(p), strict=True))
    parts = [f"DC {p.dc}, saves: {each}"]
    die = damage_die(p)
    if die is not None:
        parts.append(f"damage {damage_of(p)} {die.min_outcome()}-{die.max_outcome()}, "
                     f"mean {float(die.mean()):.1f}")
    return " · ".join(parts)
