"""The contract every action of every ruleset keeps, generated from the registry.

For each action: its odds sum to 1 over random legal parameters (hypothesis); the dice it
asks for are exactly the roles it declares, in stages, and every declared role is used by
some case; its ``--json`` keys are the checked-in list (``contract/json_keys.json``, the
keys the actions had before they moved onto the kit); a refusal is a RuleError (or a
DiceError for dice), never another exception.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from tracker import rules
from tracker.core.dice import Dice, DiceError
from tracker.rules.base import Action, Param, RuleError

HERE = Path(__file__).parent / "contract"
ALWAYS = {"action", "outcome", "text", "rolls"}


@cache
def cases() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads((HERE / "cases.json").read_text())
    return data


@cache
def json_keys() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads((HERE / "json_keys.json").read_text())
    return data


def every_action() -> list[tuple[str, str]]:
    return [(rid, name) for rid in rules.RULESETS for name in rules.get(rid).actions]


ACTIONS = every_action()


def action(rid: str, name: str) -> Action[Any]:
    return rules.get(rid).action(name)


def run(act: Action[Any], raw: dict[str, str], seed: int) -> tuple[dict[str, Any] | None, Dice]:
    """Resolve as `tracker resolve` does; a refusal must be a RuleError or a DiceError."""
    dice = Dice(seed=seed)
    try:
        params = act.parse_params(raw)
        res = act.resolve(params, dice)
    except (RuleError, DiceError):
        return None, dice
    return res.as_json(), dice


def test_the_registry_has_every_ruleset_and_the_cases_cover_every_action() -> None:
    assert {rid for rid, _ in ACTIONS} >= {"harn", "edc", "warlord", "d6battle", "warmaster"}
    missing = [f"{r}:{a}" for r, a in ACTIONS if f"{r}:{a}" not in cases()]
    assert not missing, f"actions without contract cases: {missing}"


@pytest.mark.parametrize(("rid", "name"), ACTIONS)
def test_json_keys_match_the_checked_in_list(rid: str, name: str) -> None:
    act = action(rid, name)
    listed = set(json_keys().get(f"{rid}:{name}", []))
    seen: set[str] = set()
    for case in cases()[f"{rid}:{name}"]:
        data, _ = run(act, case["raw"], case["seed"])
        if data is None:
            continue
        assert ALWAYS <= set(data)
        keys = set(data) - ALWAYS
        assert keys <= listed, f"new keys {sorted(keys - listed)}"
        seen |= keys
    assert seen == listed, f"keys never given: {sorted(listed - seen)}"


@pytest.mark.parametrize(("rid", "name"), ACTIONS)
def test_dice_are_the_declared_roles_in_stages_and_each_is_used(rid: str, name: str) -> None:
    act = action(rid, name)
    declared = {s.role for s in act.stages}
    used: set[str] = set()
    for case in cases()[f"{rid}:{name}"]:
        data, dice = run(act, case["raw"], case["seed"])
        if data is None:
            continue
        roles = {r.role for r in dice.rolls}
        assert roles <= declared, f"undeclared roles {sorted(roles - declared)}"
        assert [r.stage for r in dice.rolls] == sorted(r.stage for r in dice.rolls)
        used |= roles
    assert used == declared, f"declared roles never rolled: {sorted(declared - used)}"


def value_for(p: Param) -> st.SearchStrategy[str]:
    lo = int(p.minimum) if p.minimum is not None else -2
    hi = int(p.maximum) if p.maximum is not None else lo + 30
    hi = min(hi, lo + 60)
    if p.kind == "int":
        return st.integers(lo, hi).map(str)
    if p.kind == "float":
        return st.floats(lo, hi, allow_nan=False).map(lambda v: f"{v:.1f}")
    if p.kind == "bool":
        return st.sampled_from(["yes", "no"])
    if p.kind == "choice":
        return st.sampled_from(list(p.choices))
    if p.kind == "ints":
        return st.lists(st.integers(max(lo, 0), min(hi, 6)), max_size=3).map(
            lambda v: ",".join(map(str, v)))
    if p.name in DICE_WORDS:
        return st.sampled_from(["1d8+3", "2d6", "8", "3d6-1", "1d12+5", "8d6"])
    return st.sampled_from(["A", "B", "Knights"])


DICE_WORDS = ("damage", "base_impact")
"""Text parameters that are dice notation."""


def params_for(act: Action[Any]) -> st.SearchStrategy[dict[str, str]]:
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for p in act.params:
        value = value_for(p)
        fields[p.name] = value if p.required else st.one_of(st.none(), value)
    return st.fixed_dictionaries(fields).map(
        lambda d: {k: v for k, v in d.items() if v is not None})


ODDS = [(rid, name) for rid, name in ACTIONS if action(rid, name).has_odds]


@pytest.mark.parametrize("count", examples(full=40, quick=10))
@pytest.mark.parametrize(("rid", "name"), ODDS)
def test_odds_sum_to_one_over_random_legal_parameters(rid: str, name: str, count: int) -> None:
    act = action(rid, name)

    @settings(max_examples=count, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(params_for(act))
    def check(raw: dict[str, str]) -> None:
        try:
            params = act.parse_params(raw)
            odds = act.odds(params)
        except (RuleError, DiceError):
            assume(False)
            return
        assert odds, "no outcomes"
        assert all(0 <= p <= 1 + 1e-12 for _, p in odds)
        assert abs(sum(p for _, p in odds) - 1) < 1e-9

    check()


@pytest.mark.parametrize(("rid", "name"), ODDS)
def test_odds_of_the_recorded_cases_sum_to_one(rid: str, name: str) -> None:
    act = action(rid, name)
    summed = 0
    for case in cases()[f"{rid}:{name}"]:
        try:
            odds = act.odds(act.parse_params(case["raw"]))
        except (RuleError, DiceError):
            continue
        assert abs(sum(p for _, p in odds) - 1) < 1e-9, case
        summed += 1
    assert summed, "no recorded case has odds"
