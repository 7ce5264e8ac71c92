"""Exact odds while the dice of an action land, stage by stage.

Two figures, both exact: the chances of the stage being entered (so many dice left,
so many successes so far against its target number), and the chances of each outcome
of the action given every die entered so far. The second runs the action's own
resolver over every way the dice still to fall can land. The dice of one stage are
rolled together, so each way counts once, weighted by how many orders of faces give
it: where the rules read a stage's dice only by kind (hits and misses, a botch's 1s,
a d100's success level; see :attr:`Request.classes`) a way is how many dice fall of
each kind, elsewhere a set of faces. The resolver's answers are kept by the dice
fallen so far, so a walk after one more die reads the walk before it; past ``budget``
resolver runs it gives up, and the dice step shows the odds before any die instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from tracker.core.dice import Answers, Dice, NeedDice, Request, read_face
from tracker.core.odds import binomial, kinds, multiset_count, multisets
from tracker.core.words import percent
from tracker.rules.base import Action, Figures

BUDGET = 20_000
"""Resolver runs one walk of the outcome odds may take (answers kept from walks before
it are not counted); past it they are not shown as moving. The walk runs off the UI
thread and stops as soon as newer dice land."""


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
        parts.append(f"{k}{'+' if k < left else ''} {percent(p)}")
    return f"{head}: " + " · ".join(parts[:6]) + (" …" if left > 6 else "")


def _flags(figures: Any, into: set[str]) -> None:
    """The yes/no figures that are yes, anywhere in an action's figures (``confused``
    in a unit's drive back, ``destroyed``), in the words its figures give them."""
    if isinstance(figures, Figures):
        words = type(figures).flag_words
        for f in fields(figures):
            value = getattr(figures, f.name)
            if value is True:
                into.add(words.get(f.name) or f.name.replace("_", " "))
            elif isinstance(value, Figures | dict | list | tuple):
                _flags(value, into)
    elif isinstance(figures, dict):
        for key, value in figures.items():
            if value is True:
                into.add(str(key).replace("_", " "))
            elif isinstance(value, Figures | dict | list | tuple):
                _flags(value, into)
    elif isinstance(figures, list | tuple):
        for item in figures:
            _flags(item, into)


Memo = dict[tuple[tuple[str, tuple[int, ...]], ...], "Node"]
"""What the resolver gave for dice fallen so far (each stage read by kind where it can
be): kept by the dice step between its walks, so a walk after one more die is read
from the walk before it."""


@dataclass(frozen=True, slots=True)
class Node:
    """The resolver's answer to some dice: the stage it asks for next (with the dice it
    has of it), or the outcome's word and the yes/no figures that are yes."""

    request: Request | None = None
    given: int = 0
    word: str = ""
    yes: frozenset[str] = frozenset()


def outcome_odds(action: Action[Any], params: Any, answers: dict[str, list[int]],
                 budget: int = BUDGET, stale: Callable[[], bool] = lambda: False,
                 flags: dict[str, float] | None = None,
                 labels: list[tuple[str, float]] | None = None,
                 memo: Memo | None = None) -> list[tuple[str, float]]:
    """The chance of each outcome given the dice entered so far (``answers``: values by
    role in the order the stages use them); raises :class:`TooMany` past ``budget``
    resolver runs or once ``stale()`` says newer dice have landed (asked at the first
    run and every 64 after). ``flags``, when given, receives the chance of each yes/no
    figure being yes. ``labels``, the action's odds before any die: each way the dice
    fall is told by the label of those odds it comes to (:meth:`Action.happened`), so
    the odds keep their words as the dice land; a way no label names keeps its
    outcome's word, and the outcomes come in the labels' order (the rest after them,
    most likely first). ``memo`` (for one action, parameters and labels) keeps the
    resolver's answers between calls."""
    out, yes = exact_odds(action, params, answers, budget=budget, stale=stale,
                          labels=labels, memo=memo)
    if flags is not None:
        flags.update({k: float(v) for k, v in sorted(yes.items())})
    # in the order of the odds before any die, so each outcome stays where the GM saw
    # it; the rest, most likely first
    place = {label: i for i, (label, _) in enumerate(labels or ())}
    return sorted(((k, float(v)) for k, v in out.items()),
                  key=lambda kv: (place.get(kv[0], len(place)), -kv[1], kv[0]))


def exact_odds(action: Action[Any], params: Any, answers: dict[str, list[int]], *,
               budget: int = BUDGET, stale: Callable[[], bool] = lambda: False,
               labels: list[tuple[str, float]] | None = None, memo: Memo | None = None,
               by_kind: bool = True) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """The outcomes' and the yes/no figures' chances as fractions. Where a stage reads
    its dice only by kind (:attr:`Request.classes`) the walk goes over how many dice
    fall of each kind, one face standing for its kind; elsewhere over each set of faces
    (the dice of one stage are rolled together). ``by_kind=False`` walks every set of
    faces even there (to check the kinds against)."""
    out: dict[str, Fraction] = {}
    yes: dict[str, Fraction] = {}
    seen: Memo = {} if memo is None else memo
    runs = 0

    def node(given: dict[str, list[int]]) -> Node:
        nonlocal runs
        key = tuple(sorted((r, tuple(v)) for r, v in given.items() if v))
        found = seen.get(key)
        if found is not None:
            return found
        runs += 1
        if runs > budget or (runs % 64 == 1 and stale()):
            raise TooMany
        dice = Dice.from_answers({r: [(v, "entered") for v in vs] for r, vs in given.items()})
        try:
            res = action.resolve(params, dice)
        except NeedDice as need:
            found = Node(need.request, len(need.given))
        else:
            word = (action.happened(params, res, labels) if labels else "") or res.outcome
            named: set[str] = set()
            figures = res.figures
            _flags(figures, named)
            found = Node(word=word, yes=frozenset(named))
        seen[key] = found
        return found

    def walk(given: dict[str, list[int]], weight: Fraction) -> None:
        at = node(given)
        req = at.request
        if req is None:
            out[at.word] = out.get(at.word, Fraction(0)) + weight
            for name in at.yes:
                yes[name] = yes.get(name, Fraction(0)) + weight
            return
        have = given.get(req.role, [])
        before, stage = have[: len(have) - at.given], have[len(have) - at.given :]
        left = req.count - at.given
        whole = req.sides**left
        if by_kind and req.classes:
            face = _stand_ins(req)
            stage = sorted(face[req.classes[read_face(v, req.sides, req.zero_is_ten) - 1]]
                           for v in stage)
            order = sorted(face)
            sizes = [req.classes.count(k) for k in order]
            for counts, ways in kinds(sizes, left):
                fell = [face[kind] for kind, k in zip(order, counts, strict=True)
                        for _ in range(k)]
                walk({**given, req.role: [*before, *sorted(stage + fell)]},
                     weight * Fraction(ways, whole))
            return
        sets = multiset_count(req.sides, left)
        start = runs
        for k, (faces, ways) in enumerate(multisets(req.sides, left)):
            walk({**given, req.role: [*have, *faces]}, weight * Fraction(ways, whole))
            if k == 0 and start + (runs - start) * sets > budget:
                raise TooMany from None  # the first way's share, times the ways

    walk(_by_kind(action, params, answers) if by_kind else
         {r: list(v) for r, v in answers.items()}, Fraction(1))
    return out, yes


def _stand_ins(req: Request) -> dict[int, int]:
    """The face standing for each kind of face: its lowest."""
    face: dict[int, int] = {}
    for v, kind in enumerate(req.classes, start=1):
        face.setdefault(kind, v)
    return face


def _by_kind(action: Action[Any], params: Any,
             answers: dict[str, list[int]]) -> dict[str, list[int]]:
    """The dice entered, those of a stage read by kind each turned into the face that
    stands for its kind (in order, lowest first), so walks that differ only in faces of
    one kind meet in the memo."""
    dice = Dice.from_answers({r: [(v, "entered") for v in vs] for r, vs in answers.items()})
    try:
        action.resolve(params, dice)
    except NeedDice:
        pass
    except Exception:  # the walk itself says what the rules refuse
        return {r: list(v) for r, v in answers.items()}
    out: dict[str, list[int]] = {r: [] for r in answers}
    cursor = {r: 0 for r in answers}
    for req in dice.requests:
        have = answers.get(req.role, [])
        at = cursor.get(req.role, 0)
        stage = have[at : at + req.count]
        cursor[req.role] = at + len(stage)
        if req.classes:
            face = _stand_ins(req)
            stage = sorted(face[req.classes[read_face(v, req.sides, req.zero_is_ten) - 1]]
                           for v in stage)
        out.setdefault(req.role, []).extend(stage)
    for role, have in answers.items():
        out[role].extend(have[cursor.get(role, 0):])
    return out


__all__ = ["BUDGET", "Answers", "Memo", "Node", "TooMany", "exact_odds", "outcome_odds",
           "stage_line"]
