"""Exact odds of a shot: the chance of each number of kills and of forcing a morale test
(d6battle ``shoot``), on ``tracker.core.odds``."""

from __future__ import annotations

from typing import Any

from tracker.core import odds as exact
from tracker.rules.base import Odds

from . import chances
from .shoot_params import ShootParams
from .shoot_plan import ShotPlan, forces_test, plan

ODDS_ROWS = 10
TAIL = 1e-4


def kill_distribution(s: ShotPlan) -> list[float]:
    """Chance of each number of kills, capped at the figures left in the target."""
    return chances.kills(s.shots, s.needed, s.save_needed, s.kill_needed, s.remaining)


def summary(p: ShootParams) -> dict[str, Any]:
    """Expected kills, their distribution and the chance of forcing a morale test."""
    s = plan(p)
    dist = kill_distribution(s)
    out: dict[str, Any] = {"expected_kills": exact.mean(dist), "distribution": dist}
    if s.threshold is not None:
        threshold = s.threshold
        out["morale_test"] = sum(
            pr for k, pr in enumerate(dist) if forces_test(p, threshold, k)
        )
    return out


def _kill_words(lo: int, hi: int, last: int) -> str:
    if lo == hi:
        return f"{lo} kill" + ("" if lo == 1 else "s")
    if hi == last and lo > 0:
        return f"{lo}+ kills"
    return f"{lo}-{hi} kills"


def odds(p: ShootParams) -> Odds:
    """Chance of each number of kills (grouped to at most 10 rows, the rare tails folded
    in); rows that force a morale test say so."""
    s = plan(p)
    dist = kill_distribution(s)
    # the most kills the dice can give (none, where no roll kills), not the figures left
    last = max(k for k, pr in enumerate(dist) if pr > 0)
    test_from: int | None = None
    if s.threshold is not None:
        threshold = s.threshold
        test_from = next((k for k in range(last + 1) if forces_test(p, threshold, k)), None)
    lo = next(k for k in range(last + 1) if sum(dist[k + 1 :]) < 1 - TAIL or k == last)
    hi = next(k for k in range(last, -1, -1) if sum(dist[:k]) < 1 - TAIL or k == 0)
    hi = max(hi, lo)
    budget = ODDS_ROWS - (lo > 0) - (test_from is not None)
    width = -(-(hi - lo + 1) // budget)
    edge_set = {0, *range(lo, hi + 1, width)}
    if test_from is not None:
        edge_set.add(test_from)
    edges = sorted(edge_set)
    rows: Odds = []
    for i, start in enumerate(edges):
        stop = edges[i + 1] - 1 if i + 1 < len(edges) else last
        pr = sum(dist[start : stop + 1])
        if pr <= 0:
            continue
        label = _kill_words(start, stop, last)
        if test_from is not None and start >= test_from:
            label += ", morale test"
        rows.append((label, pr))
    return rows


def summary_text(p: ShootParams) -> str:
    """Before any die: the mean kills and the chance of forcing a morale test."""
    figures = summary(p)
    text = f"mean {figures['expected_kills']:.2f} kills"
    if "morale_test" in figures:
        text += f"; morale test {100 * figures['morale_test']:.1f}%"
    return text

