"""HârnMaster on the rules kit: the tables as validated TOML (every row used), the
situational modifiers as rows, the dice stages in the order they are rolled, settings
declared once, typed figures with today's keys."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tests.rules.test_harn_missile import _text
from tracker.core.dice import Dice
from tracker.core.tables import TableError, applicable, load_table
from tracker.rules import get
from tracker.rules.base import Params, RuleError
from tracker.rules.harn import tables as harn_tables
from tracker.rules.harn.kinds import WEAPONS
from tracker.rules.harn.plan import facts, plan_attack
from tracker.rules.harn.results import adjust_impact
from tracker.rules.harn.tables import TABLES_FILE, Tables, abandonable, tables
from tracker.rules.stages import known_stages

RULES = get("harn")
MISSILE = RULES.action("missile")


def params(action: str = "missile", **given: Any) -> Any:
    raw = {k: _text(v) for k, v in given.items()}
    return RULES.action(action).parse_params(raw)


# --- the tables: validated, every row used -------------------------------------------


def broken(tmp_path: Path, old: str, new: str) -> Path:
    text = TABLES_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "tables.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "key", "expected"),
    [
        ("zd = 6\n", "", "bands[0].zd", "missing (it is required)"),
        ("modifier = -20\n", 'modifier = "-20"\n', "bands[3].modifier",
         "expected a whole number"),
        ("value = -10\nwhen = { target = \"moving\", volley = false }",
         "value = -10\nwhen = { target = \"moving\", volley = { above = 1 } }",
         "situational[1].when.volley", "unknown test 'above'"),
        ("multiple = 2\n", "multiple = 5\n", "", "rows must go from the shortest multiple"),
        ("[weapons.sling]", "[weapons.slingshot]", "", "weapons: no row for sling"),
        ("eml_max = 95", "eml_max = 95\neml_cap = 95", "test.eml_cap", "unknown key"),
    ],
)
def test_a_bad_table_names_file_key_and_what_was_expected(
    tmp_path: Path, old: str, new: str, key: str, expected: str
) -> None:
    with pytest.raises(TableError) as err:
        load_table(Tables, broken(tmp_path, old, new))
    assert err.value.path.endswith("tables.toml")
    assert err.value.key == key
    assert expected in err.value.expected
    assert str(err.value).startswith("tables.toml")


def test_every_range_band_row_is_used() -> None:
    """Each row of Missile Range at its furthest reach (BR 40): the band, its modifier, its
    ZD and its impact; a Charging Throw's impact where the row gives one."""
    bands = tables().bands
    assert [b.attack_type for b in bands] == [
        "direct-pb", "direct", "volley2", "volley3", "volley4"]
    for band in bands:
        reach = int(band.reach(40))
        plan = plan_attack(params(ml=50, range=reach, br=40))
        assert plan.band == band
        assert (plan.eml_adjusted, plan.zone_die, plan.impact_mod) == (
            50 + band.modifier, band.zd, band.impact)
        assert plan.volley == (band.area == "15'd")
        charge = params("charge", ml=50, range=max(5, reach // 2), br=20)
        if band.charge is None:
            with pytest.raises(RuleError, match="no Charging Throw"):
                RULES.action("charge").summary(charge)
        else:
            assert plan_attack(RULES.action("charge").prepared(charge)).impact_mod == band.charge


SCENARIOS: list[tuple[dict[str, Any], str, int]] = [
    (dict(target="still"), "still target", 0),
    (dict(target="moving"), "moving target", -10),
    (dict(target="moving", range=60), "moving target area", -10),
    (dict(target="evading", dodge=0), "evading target (Dodge 0 x 5)", 0),
    (dict(target="evading", dodge=3), "evading target (Dodge 3 x 5)", -15),
    (dict(area_moving=True, range=60), "moving target area", -10),
    (dict(shooter_moving=True), "moving shooter", -10),
    (dict(weapon="thrown", heft=15), "heft", -15),
    (dict(weapon="thrown", object="object"), "thrown object", -10),
    (dict(weapon="thrown", object="oblong"), "thrown object (oblong)", -20),
    (dict(crosswind=1, range=60), "crosswind 1 (Volley)", -20),
    (dict(crosswind=3), "crosswind 3 (Direct)", -30),
    (dict(crosswind=3, crosswind_direct="above_one"), "crosswind 3 (Direct)", -20),
    (dict(trauma=7), "trauma", -7),
    (dict(aimed=True), "aim", 10),
    (dict(tar=3), "massive target TAR3", 15),
    (dict(tar=3, massive_target="above_one"), "massive target TAR3", 10),
    (dict(overhead=4), "overhead 4 ft", -20),
]


@pytest.mark.parametrize(("given", "name", "value"), SCENARIOS)
def test_situational_modifier_rows(given: dict[str, Any], name: str, value: int) -> None:
    p = params(**{"ml": 50, "range": 30, "br": 40, **given})
    plan = plan_attack(p)
    assert (name, value) in plan.modifiers
    assert plan.eml_adjusted == 50 + sum(v for _, v in plan.modifiers)


def test_every_situational_row_is_used() -> None:
    rows = tables().situational
    used: set[int] = set()
    for given, _, _ in SCENARIOS:
        p = params(**{"ml": 50, "range": 30, "br": 40, **given})
        plan = plan_attack(p)
        for row, _ in applicable(rows, facts(p, plan.weapon, plan.band)):
            used.add(next(i for i, r in enumerate(rows) if r is row))
    assert used == set(range(len(rows)))


def test_every_row_names_only_facts_the_attack_knows() -> None:
    known = facts(params(ml=50, range=30, br=40), "bow", tables().bands[1])
    for row in tables().situational:
        assert set(row.when) <= set(known), row.name
        assert not row.per or row.per in known, row.name
        row.name.format_map(known)


def test_a_modifier_is_a_table_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A situational modifier added to the TOML file applies with no code."""
    path = tmp_path / "tables.toml"
    shutil.copyfile(TABLES_FILE, path)
    with path.open("a", encoding="utf-8") as fh:
        fh.write('\n[[situational]]\nname = "slinging at a runner"\nvalue = -5\n'
                 'when = { weapon = "sling", target = "moving" }\n')
    monkeypatch.setattr(harn_tables, "TABLES_FILE", path)
    plan = plan_attack(params(ml=50, range=30, br=40, weapon="sling", target="moving"))
    assert ("slinging at a runner", -5) in plan.modifiers
    assert plan.eml_adjusted == 35
    assert plan_attack(params(ml=50, range=30, br=40, target="moving")).eml_adjusted == 40


@pytest.mark.parametrize("kind", WEAPONS)
def test_every_missile_skill_row_is_used(kind: str) -> None:
    row = tables().weapons[kind]
    plan = plan_attack(params(ml=40, sb=20, range=30, br=40, weapon=kind))
    if row.sb_multiple:
        assert (plan.ml, plan.skill) == (20 * row.sb_multiple, f"Archery SB20 x {row.sb_multiple}")
    else:
        assert (plan.ml, plan.skill) == (40, f"{row.skill} ML")
    res = MISSILE.resolve(params(ml=40, range=30, br=40, weapon=kind, actor="Bran"),
                          Dice.from_spec({"test": [99]}))
    assert res.text.startswith(f"Bran {row.verb}:")


def test_every_missile_actions_row_is_used() -> None:
    """Load, aim and span report their row; the attacks take the weapons their rows name
    and refuse the rest; the rows that induce the Ignore defence are what abandon undoes."""
    for row in tables().missile_actions:
        action = RULES.action(row.action)
        for kind in row.weapons:
            if row.action in ("load", "aim"):
                res = action.resolve(params(row.action, weapon=kind), Dice())
            elif row.action == "span":
                res = action.resolve(params("span"), Dice())
            else:
                res = action.resolve(params(row.action, weapon=kind, ml=50, range=10, br=20),
                                     Dice.from_spec({"test": [99]}))
                assert res.figures["weapon"] == kind
                continue
            f = res.figures
            free = row.action == "load" and f["free"]
            assert (f["weapon"], f["movement"], f["defence"]) == (kind, row.movement, row.defence)
            assert f["time"] == ("free" if free else row.time)
    refused = {"shoot": "thrown", "throw": "bow", "charge": "sling", "load": "thrown",
               "aim": "sling"}
    for name, kind in refused.items():
        with pytest.raises(RuleError):
            RULES.action(name).resolve(params(name, weapon=kind, ml=50, range=10, br=20)
                                       if name in ("shoot", "throw", "charge")
                                       else params(name, weapon=kind), Dice())
    assert abandonable() == {"load", "aim", "span"}


@pytest.mark.parametrize("rounds", [1, 2, 4, 8])
def test_span_rows(rounds: int) -> None:
    res = RULES.action("span").resolve(params("span", span_rounds=rounds), Dice())
    assert res.figures["spanned"] == (rounds == 1)


def test_span_off_the_table_is_refused() -> None:
    with pytest.raises(RuleError, match="span_rounds=3: 1 by hand, or 2, 4 or 8 with a spanner"):
        RULES.action("span").resolve(params("span", span_rounds=3), Dice())


# --- the dice, in stages, in the order they are rolled ---------------------------------


STAGE_CASES: list[tuple[dict[str, Any], dict[str, list[int]], list[str]]] = [
    (dict(ml=75, range=20, ta="precision"), {"test": [45], "zone": [4, 2, 6]},
     ["test", "zone"]),
    (dict(targets=3), {"test": [51], "count": [2], "impact_ta": [5], "zone": [7]},
     ["test", "count", "impact_ta", "zone"]),
    (dict(range=60, targets=4, steps=1), {"test": [45], "count": [9, 3], "impact_ta": [4],
                                         "zone": [2]}, ["test", "count", "impact_ta", "zone"]),
    (dict(range=60, deviation_targets=[4]),
     {"test": [51], "deviation": [3], "count": [2], "impact_ta": [5], "zone": [6]},
     ["test", "deviation", "count", "impact_ta", "zone"]),
    (dict(), {"test": [60]}, ["test"]),
    (dict(base_impact="2d6+1"), {"test": [41], "zone": [3, 5], "impact": [4, 6]},
     ["test", "zone", "impact"]),
]


@pytest.mark.parametrize(("given", "entered", "roles"), STAGE_CASES)
def test_stages_are_asked_for_in_the_declared_order(
    given: dict[str, Any], entered: dict[str, list[int]], roles: list[str]
) -> None:
    dice = Dice.from_spec(entered)
    MISSILE.resolve(params(**{"ml": 50, "range": 30, "br": 40, **given}), dice)
    dice.check_all_used()
    asked = [r.role for r in dice.requests]
    assert asked == roles
    declared = [s.role for s in MISSILE.stages]
    order = [declared.index(role) for role in asked]
    assert order == sorted(order)
    # a pool is one stage: the Zone Dice of a Precision strike, the precision d10s
    for req in dice.requests:
        assert req.count == len(entered[req.role])


def test_every_declared_stage_is_used() -> None:
    used = {role for _, _, roles in STAGE_CASES for role in roles}
    assert used == {s.role for s in MISSILE.stages}


def test_stages_say_what_the_dice_are_read_against() -> None:
    dice = Dice.from_spec({"test": [51], "count": [2], "impact_ta": [5], "zone": [7]})
    MISSILE.resolve(params(ml=50, range=30, br=40, targets=3), dice)
    test, count, impact, zone = dice.requests
    assert (test.under, test.why, test.target) == (50, "EML50", "≤ 50")
    assert (count.under, count.why) == (3, "target count 3")
    assert impact.under is None and impact.need is None and "Impact TA" in impact.why
    assert (zone.sides, zone.why) == (10, "count 2 struck")
    spoiled = Dice.from_spec({"test": [3]})
    MISSILE.resolve(params(ml=10, range=150, br=40, target="moving"), spoiled)
    assert spoiled.requests[0].under is None and "spoiled" in spoiled.requests[0].why


def test_the_test_stage_count_is_known_before_any_die() -> None:
    counts = {s["role"]: s["count"] for s in known_stages(MISSILE, params(ml=50, range=30,
                                                                          br=40))}
    assert counts == {"test": 1, "deviation": None, "count": None, "impact_ta": None,
                      "zone": None, "impact": None}
    wasted = params(ml=10, range=150, br=40, target="moving", spoiled_attack="wasted")
    assert known_stages(MISSILE, wasted)[0]["count"] == 0
    assert known_stages(MISSILE, params(range=30, br=40))[0]["count"] is None


# --- the kit's declarations --------------------------------------------------------------


REQUIRED_GIVEN = {"level": "S2p"}
"""The one parameter of harn's kit with no default: the injury level the GM enters."""


def test_every_action_is_a_typed_class() -> None:
    for action in RULES.actions.values():
        assert issubclass(action.params_model, Params), action.name
        p = action.parse_params(REQUIRED_GIVEN if action.name == "injury" else {})
        with pytest.raises(ValidationError, match="frozen"):
            p.actor = "x"


def test_how_often_and_when() -> None:
    limited = {"missile", "fire", "shoot", "throw", "charge", "load", "aim", "span"}
    for action in RULES.actions.values():
        assert action.phases == ()
        assert action.once_per == ("round" if action.name in limited else None), action.name
    assert RULES.phases == [] and RULES.order_stat == "initiative"


def test_settings_are_declared_once() -> None:
    """A parameter that follows a setting takes its default from it, and every setting
    the attack reads is such a parameter."""
    by_name = {s.name: s for s in RULES.settings}
    linked: set[str] = set()
    for action in RULES.actions.values():
        for p in action.params:
            if p.name in by_name:
                assert p.setting is by_name[p.name], (action.name, p.name)
                assert p.default == by_name[p.name].default
                linked.add(p.name)
    assert linked == {"crosswind_direct", "massive_target", "spoiled_attack", "ta_choice",
                      "zone_pick", "count_pick", "zone_overflow", "humanoid_zones",
                      "thrown_pb_zd", "one_action_per_round"}


ATTACK_KEYS = [
    "attack_type", "range", "br", "weapon", "ml", "skill", "modifiers", "eml_adjusted", "eml",
    "spoiled", "roll", "success", "result", "hit", "zone_die", "zone_aim", "zone_rolls",
    "zone_numbers", "zone", "impact_mod", "precision", "precision_ta", "free_ta", "ta",
    "impact_tas", "impact_ta", "impact_total", "impact", "area", "target_count", "count_die",
    "count_rolls", "struck", "struck_name", "impact_roll", "deviation", "mishap", "notes",
    "impact_rolls", "strike_impact", "movement", "time", "defence",
]


@pytest.mark.parametrize("spoil", ["fails", "wasted"])
def test_attack_json_keeps_its_keys(spoil: str) -> None:
    p = params(ml=10, range=150, br=40, target="moving", spoiled_attack=spoil)
    data = MISSILE.resolve(p, Dice(seed=1)).as_json()
    assert list(data) == ["action", "outcome", *ATTACK_KEYS, "text", "rolls"]
    assert data["modifiers"][0] == {"name": "Volley 4", "value": -40}


def test_impact_dice_are_read_as_dice_notation() -> None:
    assert adjust_impact("d12+4", -3) == "d12+1"
    assert adjust_impact("2d6-1", 1) == "2d6"
    assert adjust_impact("D8 + 2", 2) == "d8+4"
    assert adjust_impact("7", -2) == "5"
    assert adjust_impact("", 3) == ""
    for bad in ("4d6kh3", "6d10>=7", "sword"):
        with pytest.raises(RuleError, match=f"base_impact={bad}: expected dice like d12\\+4"):
            adjust_impact(bad, 1)


def test_a_bad_deviation_count_list_is_refused_in_words() -> None:
    """Three counts for eight areas: refused whichever area the d8 names."""
    for d8 in (2, 7):
        with pytest.raises(RuleError, match="one count for all areas, or eight"):
            MISSILE.resolve(params(ml=50, range=60, br=40, deviation_targets=[5, 5, 5]),
                            Dice.from_spec({"test": [51], "deviation": [d8]}))


@pytest.mark.parametrize("argv", [["span", "span_rounds=2"], ["load", "weapon=sling"],
                                  ["throw", "ml=50", "range=10", "br=20"]])
def test_resolve_runs_every_kind_of_action_without_the_models(argv: list[str]) -> None:
    code = ("import sys, io, contextlib\nfrom tracker.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    code = main(['resolve', 'harn', *{argv!r}, '--seed', '1'])\n"
            "assert code == 0, code\n"
            "heavy = ('textual', 'tracker.core.model', 'icepool')\n"
            "loaded = [m for m in heavy if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_odds_of_the_wrong_weapon_are_refused_as_resolve_refuses() -> None:
    with pytest.raises(RuleError, match="use throw or charge"):
        RULES.action("shoot").odds(params("shoot", weapon="thrown", ml=50, range=10, br=20))
    with pytest.raises(RuleError, match="use shoot"):
        RULES.action("throw").odds(params("throw", weapon="bow", ml=50, range=10, br=20))


def _table(*combatants: Any) -> Any:
    from tracker.rules.harn.model import HarnEncounter
    from tracker.session.session import Session

    return Session(HarnEncounter(name="t", ruleset="harn", seed=5, combatants=list(combatants)))


def test_the_sequence_of_play_counts_one_missile_action_a_round() -> None:
    """The attacks, load, aim and span share one limit a round; a free load does not count,
    and the setting one_action_per_round switches the limit off."""
    from tracker.rules.harn.model import HarnCombatant, MissileWeapon
    from tracker.session.commands import CommandError

    bow = MissileWeapon(name="bow", kind="bow", br=40)
    s = _table(HarnCombatant(id="nolora", name="Nolora", initiative=76, archery=75, weapon=bow,
                             loaded=True, in_hand=True),
               HarnCombatant(id="brigand", name="Brigand", side="brigands", initiative=60))
    limits = {a.name: a.limit(a.parse_params({
        **{p.name: "Nolora" for p in a.params if p.kind == "actor"},
        **(REQUIRED_GIVEN if a.name == "injury" else {})}))
        for a in RULES.actions.values()}
    assert {k: v for k, v in limits.items() if v} == {
        name: ("round", "missile action")
        for name in ("missile", "fire", "shoot", "throw", "charge", "load", "aim", "span")}
    assert RULES.action("load").limit(params("load", free=True)) is None
    s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    s.execute("load Nolora")  # free: projectile in hand
    assert [(a.action, a.key) for a in s.enc.acted] == [("shoot", "missile action"),
                                                       ("load", "load")]
    with pytest.raises(CommandError, match="already acted this round"):
        s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    s.execute("setting one_action_per_round=no")
    assert RULES.action("shoot").limit(params("shoot", one_action_per_round=False)) is None
    s.execute("shoot Nolora Brigand range=30 --dice test=99 --roll-rest")
    assert [a.action for a in s.enc.acted] == ["shoot", "load", "shoot"]


@pytest.mark.parametrize(
    ("argv", "loaded", "not_loaded"),
    [(["missile", "ml=75", "range=20", "br=40"], ["actions.missile"],
      ["actions.load", "actions.span", "actions.status", "actions.injury"]),
     (["status", "moved=yes"], ["actions.status"],
      ["actions.missile", "attack", "plan", "tables"])],
)
def test_resolve_loads_only_the_action_it_runs(
    argv: list[str], loaded: list[str], not_loaded: list[str]
) -> None:
    code = ("import sys, io, contextlib\nfrom tracker.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main(['resolve', 'harn', *{argv!r}, '--seed', '1']) == 0\n"
            "print(' '.join(m[len('tracker.rules.harn.'):] for m in sys.modules"
            " if m.startswith('tracker.rules.harn.')))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    modules = set(run.stdout.split())
    assert set(loaded) <= modules
    assert not set(not_loaded) & modules, modules
