"""Exact odds while the dice of an action land, stage by stage.

Two figures, both exact: the chances of the stage being entered (so many dice left,
so many successes so far against its target number), and the chances of each outcome
of the action given every die entered so far. The second runs the action's own
resolver over every way the dice still to fall can land (the dice of one stage are
rolled together, so each way counts once as a set of faces, weighted by how many
orders give it); past ``budget`` resolver runs it gives up, and the dice step shows
the odds before any die instead.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from tracker.core.dice import Answers, Dice, NeedDice, Request
from tracker.core.odds import binomial, multiset_count, multisets
from tracker.rules.base import Action

BUDGET = 3000
"""Resolver runs the outcome odds may take; past it they are not shown as moving."""


class TooMany(Exception):
    """The dice still to fall can land in more ways than the budget allows."""


def faces_left(req: Request, given: list[int]) -> list[float]:
    """The count of successes still possible and the chance of each: index k is the
    chance of exactly k more successes among the dice left in the stage."""
    left = max(0, req.count - len(given))
    hit = sum(1 for v in range(1, req.sides + 1) if req.succeeds(v))
    return binomial(left, Fraction(hit, req.sides))


def stage_line(req: Request, given: list[int]) -> str:
    """``3 dice left on 5+ (1 so far): 1+ 70.4% · 2+ 25.9% · 3 3.7%``; without a target
    number, only how many dice are left."""
    left = max(0, req.count - len(given))
    dice = f"{left} {'die' if left == 1 else 'dice'} left"
    if req.need is None and req.under is None:
        return dice if left else "all dice in: Enter goes on"
    so_far = sum(1 for v in given if req.succeeds(v))
    head = f"{dice} on {req.target}" + (f" ({so_far} of {len(given)} so far)" if given else "")
    if not left:
        return f"all in: {so_far} of {req.count} at {req.target}"
    dist = faces_left(req, given)
    parts = []
    for k in range(1, left + 1):
        p = float(sum(dist[k:]))
        parts.append(f"{k}{'+' if k < left else ''} {_pct(p)}")
    return f"{head}: " + " · ".join(parts[:6]) + (" …" if left > 6 else "")


def _pct(p: float) -> str:
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 < p < 1:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def _flags(figures: Any, into: set[str]) -> None:
    """The yes/no figures that are yes, anywhere in an action's figures (``confused``
    in a unit's drive back, ``destroyed``)."""
    if isinstance(figures, dict):
        for key, value in figures.items():
            if value is True:
                into.add(str(key).replace("_", " "))
            elif isinstance(value, dict | list):
                _flags(value, into)
    elif isinstance(figures, list):
        for item in figures:
            _flags(item, into)


def outcome_odds(action: Action[Any], params: Any, answers: dict[str, list[int]],
                 budget: int = BUDGET, stale: Callable[[], bool] = lambda: False,
                 flags: dict[str, float] | None = None,
                 labels: list[tuple[str, float]] | None = None) -> list[tuple[str, float]]:
    """The chance of each outcome given the dice entered so far (``answers``: values by
    role in the order the stages use them); raises :class:`TooMany` past ``budget``
    or once ``stale()`` says newer dice have landed (checked every 64 runs).
    ``flags``, when given, receives the chance of each yes/no figure being yes.
    ``labels``, the action's odds before any die: each way the dice fall is told by the
    label of those odds it comes to (:meth:`Action.happened`), so the odds keep their
    words as the dice land; a way no label names keeps its outcome's word."""
    out: dict[str, Fraction] = {}
    yes: dict[str, Fraction] = {}
    runs = 0

    def walk(given: dict[str, list[int]], weight: Fraction) -> None:
        nonlocal runs
        runs += 1
        if runs > budget or (runs % 64 == 0 and stale()):
            raise TooMany
        dice = Dice.from_answers({r: [(v, "entered") for v in vs] for r, vs in given.items()})
        try:
            res = action.resolve(params, dice)
        except NeedDice as need:
            req = need.request
            left = req.count - len(need.given)
            sets = multiset_count(req.sides, left)
            if runs + sets > budget:
                raise TooMany from None
            whole = req.sides**left
            start = runs
            for k, (faces, ways) in enumerate(multisets(req.sides, left)):
                more = dict(given)
                more[req.role] = [*given.get(req.role, []), *faces]
                walk(more, weight * Fraction(ways, whole))
                if k == 0 and start + (runs - start) * sets > budget:
                    raise TooMany from None  # the first way's share, times the ways
            return
        key = (action.happened(params, res, labels) if labels else "") or res.outcome
        out[key] = out.get(key, Fraction(0)) + weight
        if flags is not None:
            found: set[str] = set()
            figures = res.figures
            _flags(figures.as_json() if hasattr(figures, "as_json") else dict(figures), found)
            for name in found:
                yes[name] = yes.get(name, Fraction(0)) + weight

    walk({r: list(v) for r, v in answers.items()}, Fraction(1))
    if flags is not None:
        flags.update({k: float(v) for k, v in sorted(yes.items())})
    return sorted(((k, float(v)) for k, v in out.items()), key=lambda kv: (-kv[1], kv[0]))


__all__ = ["BUDGET", "TooMany", "outcome_odds", "stage_line", "Answers"]
