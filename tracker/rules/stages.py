"""An action's dice stages as far as they are known before any die falls.

The rules are walked stage by stage: the first stage is asked for with no die rolled, and
a later one is known when the dice before it, however they fall, lead to the same stage
(its role, die, count and target). "However they fall" is tried as the lowest faces, the
highest, the middle ones and a mix of the lowest and highest: a duty over several units
(Warmaster's end of the shooting phase) asks for each unit's drive back whatever the
dice of the units before it showed, so each is counted; the saves after a volley of hits
depend on how many hit, so they are not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tracker.core.dice import Answers, Dice, NeedDice, Request
from tracker.rules.base import Action, RuleError

MOST = 64
"""Stages walked at most (a resolver that asks for ever is cut off here)."""

Fill = Callable[[Request], list[int]]

FILLS: tuple[Fill, ...] = (
    lambda r: [1] * r.count,
    lambda r: [r.sides] * r.count,
    lambda r: [r.sides // 2 + 1] * r.count,
    lambda r: [r.sides if i % 2 else 1 for i in range(r.count)],
)
"""The ways the dice of a stage are made to fall while walking: a later stage is known
when every one of them leads to it."""


def known_stages(action: Action[Any], params: Any) -> list[dict[str, Any]]:
    """The stages the rules will ask for, in order, each with its count and target
    (``4+``, ``≤ 85``) and what it is for (``why``: the unit it drives back); then the
    declared stages not reached, with the count their declaration gives, or None when an
    earlier die decides it (or, with ``params`` None, a parameter the count needs is not
    given yet). When the walk reaches the end, a declared stage never asked for has 0."""
    labels = {st.role: st for st in action.stages}
    walked, complete = walk(action, params) if params is not None else ([], False)
    out: list[dict[str, Any]] = []
    for req in walked:
        st = labels.get(req.role)
        out.append({"role": req.role, "die": f"d{req.sides}",
                    "label": st.label if st is not None else "",
                    "help": st.help if st is not None else "", "count": req.count,
                    "target": req.target, "why": req.why})
    seen = {req.role for req in walked}
    for st in action.stages:
        if st.role in seen:
            continue
        if complete:
            count: int | None = 0
        else:
            count = st.count(params) if st.count is not None and params is not None else None
        out.append({"role": st.role, "die": st.die, "label": st.label, "help": st.help,
                    "count": count})
    return out


def walk(action: Action[Any], params: Any) -> tuple[list[Request], bool]:
    """The stages known before any die, in order, and whether they are all there are
    (the rules asked for nothing more however the dice fell)."""
    known: list[Request] = []
    answers: list[Answers] = [{} for _ in FILLS]
    while len(known) < MOST:
        asked = [_next(action, params, given) for given in answers]
        first = asked[0]
        if first is False or any(_key(r) != _key(first) for r in asked[1:]):
            return known, False
        if not isinstance(first, Request):
            return known, True
        known.append(first)
        for fill, given in zip(FILLS, answers, strict=True):
            given.setdefault(first.role, []).extend((v, "entered") for v in fill(first))
    return known, False


def _next(action: Action[Any], params: Any, given: Answers) -> Request | None | bool:
    """The stage the rules ask for after ``given``: None when they ask for no more,
    False when they refuse the parameters or the dice."""
    try:
        action.resolve(params, Dice.from_answers(given, mode="ask"))
    except NeedDice as need:
        return need.request
    except Exception:  # parameters or dice the rules refuse: nothing more is known
        return False
    return None


def _key(asked: Request | bool | None) -> tuple[Any, ...] | bool | None:
    if isinstance(asked, Request):
        return (asked.role, asked.sides, asked.count, asked.need, asked.under,
                asked.zero_is_ten)
    return asked


def check_dice_roles(action: Action[Any], dice: Mapping[str, Sequence[int]]) -> None:
    """Every word after ``--dice`` is read as dice: one that names a parameter of the
    action and none of its dice was meant as ``name=value`` (RuleError saying so)."""
    roles = {stage.role for stage in action.stages}
    params = {p.name for p in action.params}
    for role, values in dice.items():
        if role in params and role not in roles:
            typed = f"{role}={','.join(map(str, values))}"
            raise RuleError(f"{typed} comes after --dice, so it was read as dice: "
                            f"put {action.name}'s name=value words before --dice")
