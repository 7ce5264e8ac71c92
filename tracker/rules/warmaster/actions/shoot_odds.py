"""Exact odds of a shot: hits, unsaved hits and stands removed (WM).

When the shot is split (exposed stands first) the score to hit changes once the exposed
stands are destroyed, so the counts are walked die by die as a chain of states, which
gives the same chances as rolling in batches.
"""

from __future__ import annotations

from fractions import Fraction

from tracker.core import odds
from tracker.rules.base import Odds

from ..tables import remove_stands, to_hit
from .shoot import ShootParams, check_target, hits_to_clear_exposed


def _p_hit(score: int) -> Fraction:
    return odds.at_least_one_in(6, score)


def _p_save(armour: int | None) -> Fraction:
    return Fraction(0) if not armour else odds.at_least_one_in(6, armour)


def shoot_distributions(p: ShootParams) -> dict[str, list[float]]:
    """Distributions of ``hits``, ``unsaved`` and (with stands) ``stands_removed``,
    each indexed by the count."""
    check_target(p)
    n = p.attacks or 0
    s = _p_save(p.armour or None)
    protected = to_hit(p.position, p.target_kind)
    exposed = p.exposed or 0
    to_clear = hits_to_clear_exposed(p)
    if to_clear is None or to_clear == 0:
        score = 4 if exposed > 0 and to_clear is None and protected != 4 else protected
        hit = _p_hit(score)
        hits = odds.binomial(n, hit)
        unsaved = odds.chain(n, [hit, 1 - s])
    else:
        hits, unsaved = _split(n, to_clear, _p_hit(4), _p_hit(protected), s)
    out = {"hits": hits, "unsaved": unsaved}
    if p.hits_per_stand is not None and p.stands is not None:
        hps, stands, leftover = p.hits_per_stand, p.stands, p.leftover or 0
        out["stands_removed"] = odds.mapped(
            unsaved, lambda u: remove_stands(u, stands, hps, leftover)[0], stands + 1
        )
    return out


def _split(
    n: int, need: int, p1: Fraction, p2: Fraction, s: Fraction
) -> tuple[list[float], list[float]]:
    """Hits and unsaved hits when dice hit at ``p1`` until ``need`` unsaved, then at ``p2``."""
    miss1, sav1, uns1 = float(1 - p1), float(p1 * s), float(p1 * (1 - s))
    miss2, hit2 = float(1 - p2), float(p2)
    # rows[k][h]: k unsaved so far (capped at need), h hits so far
    rows = [[0.0] * (n + 2) for _ in range(need + 1)]
    rows[0][0] = 1.0
    for die in range(n):
        width = die + 2
        new = [[0.0] * (n + 2) for _ in range(need + 1)]
        for k in range(need + 1):
            row = rows[k]
            tgt = new[k]
            for h in range(width - 1):
                v = row[h]
                if not v:
                    continue
                if k < need:
                    tgt[h] += v * miss1
                    tgt[h + 1] += v * sav1
                    new[k + 1][h + 1] += v * uns1
                else:
                    tgt[h] += v * miss2
                    tgt[h + 1] += v * hit2
        rows = new
    hits = [sum(rows[k][h] for k in range(need + 1)) for h in range(n + 1)]
    # unsaved: one count, the score to hit switching once it reaches need
    q1, q2 = uns1, float(p2 * (1 - s))
    dist = [1.0] + [0.0] * n
    for die in range(n):
        nxt = [0.0] * (n + 1)
        for u in range(die + 1):
            v = dist[u]
            if v:
                q = q1 if u < need else q2
                nxt[u] += v * (1 - q)
                nxt[u + 1] += v * q
        dist = nxt
    return hits, dist


def odds_shoot(p: ShootParams) -> Odds:
    """Chance of each number of stands removed (or of unsaved hits without stands)."""
    dists = shoot_distributions(p)
    if "stands_removed" in dists:
        stands = p.stands or 0
        out: Odds = []
        for r, pr in enumerate(dists["stands_removed"]):
            if pr <= 0:
                continue
            label = "destroyed" if r == stands and stands else \
                f"{r} stand{'' if r == 1 else 's'} removed"
            out.append((label, pr))
        return out
    return [
        (f"{u} unsaved hit{'s' if u != 1 else ''}", pr)
        for u, pr in enumerate(dists["unsaved"])
        if pr > 0
    ]
