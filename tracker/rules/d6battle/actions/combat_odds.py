"""Exact odds of a close combat: each side winning, and the loser standing, routing or
being destroyed (d6battle ``combat``), on ``tracker.core.odds``."""

from __future__ import annotations

from tracker.core import odds
from tracker.rules.base import Odds

from . import chances
from .combat_params import SIDES, CombatParams, other
from .combat_rules import Judge, attack

ORDER = ("stands", "tests", "routs", "destroyed")


def kill_dists(p: CombatParams) -> dict[str, list[float]]:
    """Each side's kills: chance of each number, capped at the other side's figures."""
    out = {}
    for x in SIDES:
        a = attack(p, x)
        out[x] = chances.kills(a.dice, a.needed, a.save_needed, a.kill_needed, a.cap)
    return out


def odds_combat(p: CombatParams) -> Odds:
    """Chance of each side winning and of the loser standing, routing or being destroyed."""
    names = {x: p.name(x) for x in SIDES}
    dists = kill_dists(p)
    judge = Judge(p)
    totals: dict[str, float] = {}
    for ka, pa in enumerate(dists["a"]):
        if pa <= 0:
            continue
        for kb, pb in enumerate(dists["b"]):
            pr = pa * pb
            if pr <= 0:
                continue
            r = judge.result_of({"a": ka, "b": kb})
            if r.loser is None or r.winner is None:
                _add(totals, "draw, fight on", pr)
                continue
            lo, wi = r.loser, r.winner
            head = f"{names[wi]} wins, {names[lo]}"
            mo = judge.sides[lo].mo
            if r.left[lo] == 0:
                _add(totals, f"{head} destroyed", pr)
            elif mo == 0:
                _add(totals, f"{head} tests", pr)
            else:
                passed = chances.pass_chance(p.morale_dice, mo - r.result)
                fate, _ = judge.failed_test(r)
                _add(totals, f"{head} stands", pr * passed)
                _add(totals, f"{head} {fate}", pr * (1 - passed))

    def key(label: str) -> tuple[int, int]:
        if label.startswith("draw"):
            return (1, 0)
        side = 0 if label.startswith(f"{names['a']} wins") else 2
        return (side, next((i for i, w in enumerate(ORDER) if label.endswith(w)), 0))

    return [(label, totals[label]) for label in sorted(totals, key=key) if totals[label] > 0]


def summary_combat(p: CombatParams) -> str:
    """Before any die: the mean kills of each side."""
    dists = kill_dists(p)
    return "mean kills " + ", ".join(f"{p.name(x)} {odds.mean(dists[x]):.2f}" for x in SIDES)


def label(p: CombatParams, winner: str | None, loser_outcome: str) -> str:
    """The label of :func:`odds_combat` a resolved combat comes to."""
    if winner is None:
        return "draw, fight on"
    fate = "tests" if loser_outcome == "must test" else loser_outcome
    return f"{p.name(winner)} wins, {p.name(other(winner))} {fate}"


def _add(totals: dict[str, float], label: str, pr: float) -> None:
    totals[label] = totals.get(label, 0.0) + pr
