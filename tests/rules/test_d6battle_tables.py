"""d6battle tables as data: each TOML file beside the ruleset validates, a mistake names
the file, the key and what was expected, every row is used, and a row added to a table
changes the rules without code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tracker.core.dice import Dice
from tracker.core.tables import TableError, load_table
from tracker.rules import get
from tracker.rules.d6battle import tables
from tracker.rules.d6battle.tables import (
    ArmourTable,
    CombatTable,
    MoraleTable,
    ShootingTable,
    WeaponTable,
)

RS = get("d6battle")
SHOOT = RS.action("shoot")
COMBAT = RS.action("combat")
FILES = {
    "weapons.toml": WeaponTable,
    "armour.toml": ArmourTable,
    "shooting.toml": ShootingTable,
    "morale.toml": MoraleTable,
    "combat.toml": CombatTable,
}


def test_every_table_is_a_toml_file_beside_the_ruleset() -> None:
    here = Path(tables.__file__).parent
    assert sorted(p.name for p in here.glob("*.toml")) == sorted(FILES)
    for name, model in FILES.items():
        assert isinstance(load_table(model, here / name), model)


def copy_with(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """The ruleset's table ``name`` in ``tmp_path`` with ``old`` replaced once by ``new``."""
    text = (Path(tables.__file__).parent / name).read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "old", "new", "key", "expected"),
    [
        ("weapons.toml", "effective = { range = 12, ka = 3, ap = 0 }",
         'effective = { range = 12, ka = "three", ap = 0 }', "weapons.bow.effective.ka",
         "a whole number"),
        ("weapons.toml", 'rules = ["no_move_and_shoot"]\nnote = "No move & shoot"',
         'rules = ["no_move_and_shot"]\nnote = "No move & shoot"', "",
         "weapons.staff-sling: unknown rule 'no_move_and_shot'"),
        ("weapons.toml", "long = { range = 24, ka = 3, ap = 0 }",
         "long = { range = 10, ka = 3, ap = 0 }", "weapons.bow",
         "long range 10 is not beyond effective 12"),
        ("weapons.toml", 'name = "Bow"', 'nmae = "Bow"', "weapons.bow.nmae", "unknown key"),
        ("armour.toml", 'shield = { name = "Shield", value = 1 }',
         'shield = { name = "Shield", value = -1 }', "armour.shield", "expected 0 or more"),
        ("armour.toml", 'pavise = { name = "Pavise", value = 2 }',
         'pavise = { name = "Pavise" }', "armour.pavise.value", "missing"),
        ("morale.toml", "size = [6, 10]", "size = [7, 10]", "",
         "rows[1].size [7, 10]: expected sizes from 6 up"),
        ("morale.toml", "casualties = 3", 'casualties = "3"', "rows[2].casualties",
         "a whole number"),
        ("shooting.toml", "over = 8", "over = 8.5", "mass.over", "a whole number"),
        ("shooting.toml", "when = { skirmishers = { over = 0 } }",
         "when = { skirmishers = { more = 0 } }", "modifiers[0].when.skirmishers",
         "unknown test 'more'"),
        ("combat.toml", "max = { regular = 2, light = 1, drilled = 2, skirmish = 0 }",
         "max = { regular = 2, light = 1, skirmish = 0 }", "rank",
         "rank.max: no value for drilled"),
        ("combat.toml", "[push_shove]\nwin = 1", "[push_shove]\nwin = true", "push_shove.win",
         "a whole number"),
    ],
)
def test_a_mistake_names_the_file_the_key_and_what_was_expected(
    tmp_path: Path, name: str, old: str, new: str, key: str, expected: str
) -> None:
    path = copy_with(tmp_path, name, old, new)
    with pytest.raises(TableError) as err:
        load_table(FILES[name], path)
    assert err.value.key == key
    assert expected in err.value.expected
    assert str(err.value).startswith(name)


# --- a row added to a table, no code ----------------------------------------------------


@pytest.fixture
def table_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The ruleset reads its tables from a copy the test may change."""
    for name in FILES:
        shutil.copy(Path(tables.__file__).parent / name, tmp_path / name)
    monkeypatch.setattr(tables, "HERE", tmp_path)
    return tmp_path


def shoot(**raw: object) -> dict:
    text = {k: str(v) for k, v in raw.items()}
    res = SHOOT.resolve(SHOOT.parse_params(text), Dice.from_spec({}, seed=1))
    return res.as_json()


def test_a_shooting_modifier_added_as_a_row_applies(table_dir: Path) -> None:
    base = {"figures": 0, "sa": 4, "weapon": "bow", "durability": 6, "terrain": "yes"}
    assert shoot(**base)["modifiers"] == ["target in terrain -1"]
    with open(table_dir / "shooting.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[[modifiers]]\nname = "dense terrain"\nvalue = -2\n'
                 'when = { terrain = true, range = "long" }\n')
    assert shoot(**base)["modifiers"] == ["target in terrain -1"]
    out = shoot(**base, range="long")
    assert out["modifiers"] == ["long range -1", "target in terrain -1", "dense terrain -2"]
    assert out["sa_modified"] == 0 and out["impossible_odds"] is True


def test_a_combat_result_row_changes_who_stands(table_dir: Path) -> None:
    raw = {"figures_a": "0", "figures_b": "0", "ca_a": "3", "ka_a": "3", "durability_a": "4",
           "ca_b": "3", "ka_b": "3", "durability_b": "4", "size_a": "10", "size_b": "10",
           "mo_b": "7", "push_a": "2", "formation_b": "light"}
    dice = {"morale": [6, 6]}
    p = COMBAT.parse_params(raw)
    assert COMBAT.resolve(p, Dice.from_spec(dice)).as_json()["loser_outcome"] == "routs"
    with open(table_dir / "combat.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[[stands]]\nname = "light formation"\nvalue = 3\n'
                 'when = { result = 2, formation = "light" }\n')
    out = COMBAT.resolve(p, Dice.from_spec(dice)).as_json()
    assert (out["result"], out["loser_outcome"], out["push_shove"]) == (2, "stands", 3)


# --- every row is used ------------------------------------------------------------------

SHOOTING_ROWS = {
    # row name: (parameters that make it apply, the modifier shown)
    "skirmishers": ({"skirmishers": 2}, "skirmishers x2 -2"),
    "chargers": ({"chargers": "yes"}, "chargers -1"),
    "long range": ({"range": "long"}, "long range -1"),
    "moving": ({"fire": "moving"}, "moving -1"),
    "target in terrain": ({"terrain": "yes"}, "target in terrain -1"),
}


def test_every_shooting_modifier_row_has_a_case() -> None:
    assert [m.name for m in tables.shooting_table().modifiers] == list(SHOOTING_ROWS)


@pytest.mark.parametrize("row", SHOOTING_ROWS)
def test_each_shooting_modifier_row(row: str) -> None:
    extra, shown = SHOOTING_ROWS[row]
    out = shoot(figures=0, sa=5, weapon="bow", durability=6, **extra)
    assert out["modifiers"] == [shown]
    assert out["sa_modified"] == 5 + int(shown.rsplit(" ", 1)[1])


BONUS_ROWS = [
    # (row name, side A's parameters, the bonus shown)
    ("rank", {"ranks_a": 3}, "rank +2"),
    ("impact", {"charge_a": "yes"}, "impact +1"),
    ("impact", {"charge_a": "yes", "formation_a": "skirmish", "formation_b": "skirmish"},
     "impact +1"),
    ("flank", {"facing_a": "flank"}, "flank +1"),
    ("rear", {"facing_a": "rear"}, "rear +2"),
    ("push & shove", {"push_a": 2}, "push & shove +2"),
    ("special", {"bonus_a": -2}, "special -2"),
]


def test_every_combat_bonus_row_has_a_case() -> None:
    assert [m.name for m in tables.combat_table().bonuses] == [r for r, _, _ in BONUS_ROWS]


def fight(**raw: object) -> dict:
    base = {"figures_a": 0, "figures_b": 0, "size_a": 10, "size_b": 10}
    for x in "ab":
        base.update({f"ca_{x}": 3, f"ka_{x}": 3, f"durability_{x}": 4})
    base.update(raw)
    p = COMBAT.parse_params({k: str(v) for k, v in base.items()})
    return COMBAT.resolve(p, Dice.from_spec({}, seed=1)).as_json()


@pytest.mark.parametrize(("row", "extra", "shown"), BONUS_ROWS)
def test_each_combat_bonus_row(row: str, extra: dict, shown: str) -> None:
    out = fight(**extra)
    assert out["bonuses_a"] == [shown]
    assert out["bonus_a"] == int(shown.rsplit(" ", 1)[1])


STAND_ROWS = [
    # (result, loser's figures left, winner's figures left, loser's formation, push)
    (1, 12, 9, "regular", 2),
    (1, 18, 9, "regular", 1),
    (1, 5, 9, "drilled", 2),
    (1, 18, 9, "drilled", 1),
    (2, 18, 9, "regular", 2),
    (2, 10, 9, "drilled", 2),
]


def test_every_combat_result_row_has_a_case() -> None:
    assert len(tables.combat_table().stands) == len(STAND_ROWS)


@pytest.mark.parametrize(("result", "loser", "winner", "formation", "push"), STAND_ROWS)
def test_each_combat_result_row_stands_the_loser(
    result: int, loser: int, winner: int, formation: str, push: int
) -> None:
    out = _failed(result, loser, winner, formation)
    assert out["loser"] == "b" and out["result"] == result and out["morale"] == "failed"
    assert (out["left_b"], out["left_a"]) == (loser, winner)
    assert out["loser_outcome"] == "stands" and out["push_shove"] == push


def _failed(result: int, loser: int, winner: int, formation: str) -> dict:
    """A kills ``result`` figures of B, B kills none and fails its test at Mo 7 - result."""
    raw = {"figures_a": result, "size_a": winner, "size_b": loser + result, "mo_b": 7,
           "formation_b": formation, "figures_b": 0}
    for x in "ab":
        raw.update({f"ca_{x}": 3, f"ka_{x}": 3, f"durability_{x}": 4})
    dice = {"hit_a": [6] * result, "kill_a": [6] * result, "morale": [6, 6]}
    p = COMBAT.parse_params({k: str(v) for k, v in raw.items()})
    return COMBAT.resolve(p, Dice.from_spec(dice)).as_json()


@pytest.mark.parametrize(("result", "facings", "setting", "fate"), [
    (3, 2, "3+", "destroyed"),
    (3, 1, "3+", "routs"),
    (2, 2, "3+", "routs"),
    (2, 2, "any", "destroyed"),
])
def test_the_destroyed_row(result: int, facings: int, setting: str, fate: str) -> None:
    raw = {"figures_a": result, "figures_b": 0, "size_a": 10, "size_b": 10, "mo_b": 9,
           "facings_b": facings, "rout_destroyed": setting, "formation_b": "light"}
    for x in "ab":
        raw.update({f"ca_{x}": 3, f"ka_{x}": 3, f"durability_{x}": 4})
    dice = {"hit_a": [6] * result, "kill_a": [6] * result, "morale": [6, 6]}
    out = COMBAT.resolve(COMBAT.parse_params({k: str(v) for k, v in raw.items()}),
                         Dice.from_spec(dice)).as_json()
    assert out["result"] == result and out["loser_outcome"] == fate


def test_rank_maximum_of_each_formation_is_the_tables() -> None:
    rank = tables.combat_table().rank
    for formation in tables.FORMATIONS:
        out = fight(ranks_a=5, formation_a=formation)
        assert out["bonus_a"] == rank.max[formation]


def test_morale_table_rows_cover_every_size_up_to_the_last() -> None:
    rows = tables.morale_table().rows
    assert rows[0].size[0] == 0
    for size in range(rows[-1].size[1] + 1):
        assert sum(r.size[0] <= size <= r.size[1] for r in rows) == 1
