"""The rules kit itself: typed parameters from one declaration, typed figures."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Omit, Params, Resolution, RuleError, Setting, param

SPLIT = Setting("split", True, "split the batch")


class ShotParams(Params):
    target: str | None = param(None, "the unit shot at", kind="target")
    attacks: int = param(help="attack dice", ge=0, le=60)
    armour: int | None = param(None, "armour save", ge=0, le=6)
    cover: str = param("open", "cover", choices=("open", "defended"))
    in_range: tuple[int, ...] = param((), "stands in range per unit")
    split: bool = param(help="split", setting=SPLIT)


class ShotFigures(Figures):
    hits: int
    saves: list[int]
    batches: Omit[list[int]] = None


class Shot(Action[ShotParams]):
    name = "shot"
    help = "a test shot"
    params_model = ShotParams

    def resolve(self, p: ShotParams, dice: Dice) -> Resolution:
        rolled = dice.roll_many("hit", 6, p.attacks, need=4)
        hits = sum(v >= 4 for v in rolled)
        figures = ShotFigures(hits=hits, saves=[], batches=[1, 2] if p.split and hits else None)
        return Resolution(self.name, "hit" if hits else "miss", f"{hits} hits", figures,
                          dice.rolls)


def test_the_parameter_list_comes_from_the_field_declarations() -> None:
    spec = {p.name: p for p in Shot().params}
    assert spec["target"].kind == "target" and spec["target"].default is None
    assert spec["attacks"].kind == "int" and spec["attacks"].required
    assert (spec["attacks"].minimum, spec["attacks"].maximum) == (0, 60)
    assert spec["cover"].kind == "choice" and spec["cover"].choices == ("open", "defended")
    assert spec["in_range"].kind == "ints"
    assert spec["split"].kind == "bool" and spec["split"].default is True
    assert spec["split"].setting is SPLIT


def test_text_is_parsed_once_into_a_frozen_typed_model() -> None:
    p = Shot().parse_params({"attacks": "6", "in_range": "2,3", "cover": "Defended"})
    assert isinstance(p, ShotParams)
    assert (p.attacks, p.in_range, p.cover, p.split) == (6, (2, 3), "defended", True)
    with pytest.raises(ValidationError, match="frozen"):
        p.attacks = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({}, "attacks= is required"),
        ({"attacks": "61"}, "must be at most 60"),
        ({"attacks": "six"}, "expected a whole number"),
        ({"attacks": "6", "cover": "wood"}, "expected one of open, defended"),
        ({"attacks": "6", "colour": "red"}, "no parameter 'colour'"),
    ],
)
def test_refusals_are_rule_errors_with_the_reason(raw: dict[str, str], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        Shot().parse_params(raw)


def test_figures_keep_their_keys_and_leave_out_what_does_not_apply() -> None:
    shot = Shot()
    res = shot.resolve(shot.parse_params({"attacks": "2", "split": "no"}),
                       Dice.from_spec({"hit": [4, 5]}))
    data = res.as_json()
    assert data["hits"] == 2 and "batches" not in data
    assert res.figures["hits"] == 2 and dict(res.figures.items())["saves"] == []
    res = shot.resolve(shot.parse_params({"attacks": "1"}), Dice.from_spec({"hit": [6]}))
    assert res.as_json()["batches"] == [1, 2]
    assert [r["stage"] for r in res.as_json()["rolls"]] == [0]
