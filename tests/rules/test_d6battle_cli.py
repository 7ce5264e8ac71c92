"""d6battle headless: `tracker resolve d6battle ...` as the issue states it, and
properties of the shooting and combat resolvers over many inputs."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.cli import main
from tracker.core.dice import Dice
from tracker.rules import get
from tracker.rules.d6battle.actions.combat import COMBAT as combat
from tracker.rules.d6battle.actions.shoot import SHOOT as shooting
from tracker.rules.d6battle.tables import weapon_table

WEAPONS = weapon_table().weapons

RS = get("d6battle")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_issue_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "resolve", "d6battle", "shoot", "figures=5", "sa=3", "weapon=crossbow",
        "range=long", "save=2", "durability=6", "--dice", "hit=1,4,5,6,6", "save=6,2,5",
        "kill=2,5", "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert {k: data[k] for k in ("hits", "saved", "kills", "ka", "ap", "needed")} == {
        "hits": 3, "saved": 1, "kills": 1, "ka": 3, "ap": 1, "needed": 5}
    assert "morale_test" not in data


def test_morale_test_in_json_with_unit_size(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "resolve", "d6battle", "shoot", "figures=2", "sa=3", "weapon=Light-Crossbow",
        "durability=4", "unit_size=6", "casualties_before=1", "--dice", "hit=6,6",
        "kill=6,6", "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["kills"] == 2 and data["morale_test"] is True


def test_combat_help_documents_the_params(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "resolve", "d6battle", "combat", "--help")
    assert code == 0
    for name in ("figures_a", "ca_b", "mo_b", "ranks_a", "charge_a", "facing_b", "push_a",
                 "facings_b", "score_a", "loser", "loser_outcome", "hit_a", "morale"):
        assert name in out


def test_combat_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "resolve", "d6battle", "combat", "figures_a=2", "ca_a=3", "ka_a=3",
        "durability_a=4", "figures_b=2", "size_b=6", "ca_b=3", "ka_b=3", "durability_b=4",
        "mo_b=7", "ranks_a=1", "--dice", "hit_a=6,6", "kill_a=6,6", "hit_b=1,2", "morale=6,5",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert (data["score_a"], data["score_b"], data["result"], data["loser"]) == (3, 0, 3, "b")
    assert data["morale"] == "failed" and data["loser_outcome"] == "routs"


def test_refusal_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "resolve", "d6battle", "shoot", "figures=5", "sa=3",
                    "weapon=javelins", "range=long", "durability=4")
    assert code != 0 and "no long range" in out


# --- properties ---------------------------------------------------------------------------


def shoot_params(**raw: object) -> dict:
    return RS.action("shoot").parse_params({k: str(v) for k, v in raw.items()})


@settings(max_examples=60, deadline=None)
@given(
    figures=st.integers(0, 30),
    sa=st.integers(-2, 7),
    weapon=st.sampled_from(sorted(WEAPONS)),
    save=st.integers(0, 8),
    durability=st.integers(1, 10),
    size=st.integers(0, 40),
    seed=st.integers(0, 10_000),
)
def test_shoot_properties(figures: int, sa: int, weapon: str, save: int, durability: int,
                          size: int, seed: int) -> None:
    p = shoot_params(figures=figures, sa=sa, weapon=weapon, save=save,
                     durability=durability, unit_size=size)
    res = shooting.resolve(p, Dice(seed=seed))
    f = res.figures
    assert 0 <= f["kills"] <= f["hits"] - f["saved"] <= f["shots"]
    if size:
        assert f["kills"] <= size
    rows = shooting.odds(p)
    assert sum(pr for _, pr in rows) == pytest.approx(1)
    assert len(rows) <= 10


@settings(max_examples=40, deadline=None)
@given(
    fa=st.integers(0, 12), fb=st.integers(0, 12), ca=st.integers(0, 6),
    ranks=st.integers(0, 4), mo=st.integers(0, 12), seed=st.integers(0, 10_000),
)
def test_combat_properties(fa: int, fb: int, ca: int, ranks: int, mo: int, seed: int) -> None:
    p = RS.action("combat").parse_params({
        "figures_a": str(fa), "ca_a": str(ca), "ka_a": "3", "durability_a": "4",
        "figures_b": str(fb), "ca_b": "3", "ka_b": "3", "durability_b": "4",
        "ranks_a": str(ranks), "mo_a": str(mo), "mo_b": str(mo), "size_a": "12",
        "size_b": "12",
    })
    f = combat.resolve(p, Dice(seed=seed)).figures
    assert f["result"] == abs(f["score_a"] - f["score_b"])
    assert (f["loser"] is None) == (f["result"] == 0)
    assert sum(pr for _, pr in combat.odds(p)) == pytest.approx(1)
