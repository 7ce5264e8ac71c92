"""Stages read by kind of face: the rules read those dice only by kind, and the walk of
the moving odds by kinds gives exactly the walk over every set of faces.

A stage whose dice the rules read only by kind (hits at 4+, saves, a botch's 1s, a d100's
success level) is walked as how many dice fall of each kind. Two checks, for every action
of every ruleset on the contract's parameters:

- where every set of faces can be walked (small pools), both walks give the same
  fractions, before any die and with a first die entered;
- on any pool, dice rolled, then each die of a stage read by kind turned into another
  face of its kind, leave the outcome, its words, the yes/no figures and the stages
  asked for after it as they were.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest

from tests.rules.test_contract import ACTIONS, action, cases
from tracker.core.dice import Dice, DiceError, NeedDice, Request, face_classes, read_face
from tracker.rules.base import RuleError
from tracker.rules.stage_odds import Memo, TooMany, exact_odds

FULL_BUDGET = 500
"""Resolver runs a full walk may take here (the slow walk; larger cases are left out)."""

SMALL = {
    "edc:exchange": [
        {"attack_dice": "2", "atn": "6", "defense_dice": "1", "dtn": "5"},
        {"attack_dice": "1", "atn": "7", "defense_dice": "2", "dtn": "4"},
        {"attack_dice": "1", "atn": "7", "defense_dice": "1", "dtn": "4", "press_dice": "1",
         "press_tn": "6"},
        {"attack_dice": "2", "atn": "12", "defense_dice": "1", "dtn": "1",
         "tn_above_ten": "impossible", "location": "arm", "weapon_damage": "2"},
    ],
    "d6battle:combat": [
        {"figures_a": "1", "figures_b": "1", "ca_a": "3", "ca_b": "3", "durability_a": "3",
         "durability_b": "3", "ka_a": "3", "ka_b": "3"},
        {"figures_a": "1", "figures_b": "1", "ca_a": "5", "ca_b": "2", "durability_a": "4",
         "durability_b": "2", "ka_a": "2", "ka_b": "4"},
    ],
    "harn:shoot": [  # a recorded contract case whose Pull was -3, which no shooter has
        {"actor": "B", "at": "x", "br": "8", "charge": "no", "count_pick": "Knights",
         "count_zones": "5,1", "crosswind": "4", "crosswind_direct": "per_force",
         "deviation_targets": "", "dodge": "1", "humanoid_zones": "10", "impact_bonus": "4",
         "massive_target": "per_tar", "ml": "2", "numbering": "A", "overhead": "10",
         "pb_zd": "13", "pull": "3", "range": "14", "steps": "10", "ta": "",
         "target": "moving", "targets": "1", "thrown_pb_zd": "14", "trauma": "1",
         "weapon": "sling", "wet": "no", "zone_aim": "7"},
    ],
    "warmaster:shoot": [
        {"attacks": "2", "armour": "5", "hits_per_stand": "1", "stands": "2"},
        {"attacks": "3", "armour": "4", "hits_per_stand": "2", "stands": "3", "leftover": "1"},
    ],
}
"""Pools small enough for the full walk where the contract's are not."""

READ_BY_KIND = ["warmaster:shoot", "d6battle:shoot", "d6battle:combat", "edc:exchange",
                "harn:shoot", "warlord:fire"]


def legal(rid: str, name: str) -> list[Any]:
    act = action(rid, name)
    out = []
    extra = [{"raw": raw} for raw in SMALL.get(f"{rid}:{name}", [])]
    for case in [*extra, *cases().get(f"{rid}:{name}", [])]:
        try:
            out.append(act.parse_params(case["raw"]))
        except (RuleError, DiceError, ValueError, LookupError):
            continue
    return out


def first_request(act: Any, params: Any) -> Request | None:
    try:
        act.resolve(params, Dice(mode="ask"))
    except NeedDice as need:
        return need.request
    except (RuleError, DiceError):
        return None
    return None


@cache
def walked(rid: str, name: str) -> int:
    """How many walks with a stage read by kind were compared with the full walk."""
    act = action(rid, name)
    compared = tried = 0
    for params in legal(rid, name):
        req = first_request(act, params)
        if req is None:
            continue
        firsts: list[dict[str, list[int]]] = [{}]
        if req.count:
            firsts += [{req.role: [v]} for v in sorted({1, (req.sides + 1) // 2, req.sides})]
        for answers in firsts:
            tried += 1
            memo: Memo = {}
            try:
                kinds = exact_odds(act, params, answers, budget=FULL_BUDGET, memo=memo)
                if not any(n.request is not None and n.request.classes for n in memo.values()):
                    break  # no stage read by kind: the two walks are one
                full = exact_odds(act, params, answers, budget=FULL_BUDGET, by_kind=False)
            except (TooMany, RuleError, DiceError):
                continue  # too many sets of faces for the full walk
            assert kinds == full, (rid, name, params, answers)
            compared += 1
        if compared >= 6 or tried >= 40:
            break
    return compared


@pytest.mark.parametrize(("rid", "name"), ACTIONS, ids=[f"{r}:{n}" for r, n in ACTIONS])
def test_the_walk_by_kinds_is_the_full_walk(rid: str, name: str) -> None:
    walked(rid, name)


@pytest.mark.parametrize("which", READ_BY_KIND)
def test_the_actions_that_read_by_kind_are_compared(which: str) -> None:
    assert walked(*which.split(":")) >= 1


def reading(act: Any, params: Any, answers: dict[str, list[int]]) -> tuple[Any, ...]:
    """What the rules make of these dice: the outcome, its words, the yes/no figures,
    and each stage asked for (its role, count and kinds)."""
    from tracker.rules.stage_odds import _flags

    dice = Dice.from_answers({r: [(v, "entered") for v in vs] for r, vs in answers.items()},
                             mode="strict")
    res = act.resolve(params, dice)
    found: set[str] = set()
    _flags(res.figures, found)
    stages = [(r.role, r.count, r.classes) for r in dice.requests]
    words = act.happened(params, res, act.odds(params)) if act.has_odds else ""
    return res.outcome, words, sorted(found), stages


@cache
def swapped(rid: str, name: str) -> int:
    """How many rolls had a stage read by kind whose faces were swapped."""
    act = action(rid, name)
    done = 0
    for params in legal(rid, name):
        for seed in range(4):
            dice = Dice(seed=seed)
            try:
                act.resolve(params, dice)
            except (RuleError, DiceError):
                break
            rolled: dict[str, list[int]] = {}
            for r in dice.rolls:
                rolled.setdefault(r.role, []).append(r.value)
            if not any(r.classes and r.count for r in dice.requests):
                break
            before = reading(act, params, rolled)
            rng = random.Random(seed)
            other = {role: list(vs) for role, vs in rolled.items()}
            cursor: dict[str, int] = {}
            for req in dice.requests:
                at = cursor.get(req.role, 0)
                cursor[req.role] = at + req.count
                if not req.classes:
                    continue
                for i in range(at, at + req.count):
                    kind = req.classes[read_face(other[req.role][i], req.sides) - 1]
                    same = [v for v in range(1, req.sides + 1) if req.classes[v - 1] == kind]
                    other[req.role][i] = rng.choice(same)
            assert reading(act, params, other) == before, (rid, name, params, rolled, other)
            done += 1
    return done


@pytest.mark.parametrize(("rid", "name"), ACTIONS, ids=[f"{r}:{n}" for r, n in ACTIONS])
def test_faces_of_one_kind_read_alike(rid: str, name: str) -> None:
    swapped(rid, name)


@pytest.mark.parametrize("which", READ_BY_KIND)
def test_the_actions_that_read_by_kind_are_swapped(which: str) -> None:
    assert swapped(*which.split(":")) >= 10


class SumSaidAsHits:
    """A resolver that reads two dice's sum but says it reads them as 4+ or not."""

    def resolve(self, params: Any, dice: Dice) -> Any:
        values = dice.roll_many("x", 6, 2, need=4, classes=face_classes(6, need=4))
        return SimpleNamespace(outcome="high" if sum(values) >= 9 else "low", figures={})


def test_a_stage_said_to_be_read_by_kind_that_is_not_is_caught() -> None:
    toy = SumSaidAsHits()
    full, _ = exact_odds(toy, None, {}, by_kind=False)  # type: ignore[arg-type]
    assert full == {"high": Fraction(10, 36), "low": Fraction(26, 36)}
    kinds, _ = exact_odds(toy, None, {})  # type: ignore[arg-type]
    assert kinds != full
