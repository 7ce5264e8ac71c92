"""d6battle on the rules kit: typed parameters that follow the ruleset's settings, dice
stages declared in the order they are rolled and asked for in that order, phases and
limits, the roster's columns and duties, and a light `tracker resolve`."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from pydantic import ValidationError

from tests.conftest import load_sample
from tracker.core.dice import Dice
from tracker.rules import get
from tracker.rules.base import Action, Params
from tracker.rules.d6battle import D6Encounter, D6Unit
from tracker.rules.d6battle.actions.shoot_params import ShootParams
from tracker.rules.stages import known_stages
from tracker.session.session import Session

RS = get("d6battle")


def test_every_action_is_a_typed_class_with_a_frozen_model() -> None:
    for action in RS.actions.values():
        assert isinstance(action, Action)
        assert issubclass(action.params_model, Params)
    p = RS.action("shoot").parse_params(
        {"figures": "2", "sa": "3", "weapon": "bow", "durability": "4"})
    assert isinstance(p, ShootParams)
    with pytest.raises(ValidationError, match="frozen"):
        p.figures = 3  # type: ignore[misc]


def test_settings_backed_parameters_follow_their_setting() -> None:
    by_name = {s.name: s for s in RS.settings}
    for action in RS.actions.values():
        for p in action.params:
            if p.name in by_name:
                assert p.setting is by_name[p.name], (action.name, p.name)
                assert p.default == by_name[p.name].default
                assert p.choices == by_name[p.name].choices


def test_phases_and_limits() -> None:
    assert RS.phases == ["shoot", "combat", "resolution"]
    shoot, combat = RS.action("shoot"), RS.action("combat")
    assert (shoot.phases, shoot.once_per) == (("shoot",), "phase")
    assert (combat.phases, combat.once_per) == (("combat",), "phase")
    assert RS.action("morale").phases == ("shoot",)
    assert RS.action("command").phases == ("combat",)
    for action in RS.actions.values():
        assert set(action.phases) <= set(RS.phases)


def test_the_side_whose_turn_it_is_shoots_once_a_unit_in_its_shoot_phase(
    session: Session,
) -> None:
    from tracker.session.commands import CommandError

    volley = "shoot Longbowmen Foot figures=1"
    with pytest.raises(CommandError, match="shoot is taken in the shoot phase"):
        session.execute(volley)  # the sample stands in the French Combat phase
    session.execute("next phase")
    session.execute("next phase")  # the English Shoot phase
    session.execute(volley + " --dice hit=2")
    with pytest.raises(CommandError, match="Longbowmen has already shot this phase"):
        session.execute(volley + " --dice hit=2")
    assert "forced" in session.execute(volley + " force=yes --dice hit=2").message.lower()
    with pytest.raises(CommandError, match="Genoese Crossbowmen has routed: it does not shoot"):
        session.execute("shoot Genoese Billmen figures=1 --dice hit=2")
    session.execute('set "Genoese Crossbowmen" routed=no')
    with pytest.raises(CommandError, match="it is English's turn"):
        session.execute("shoot Genoese Billmen figures=1 --dice hit=2")
    # stand & shoot answers a charge: the charged side shoots in the charger's turn
    with pytest.raises(CommandError, match="acts in the other side's turn"):
        session.execute("shoot Billmen Foot fire=stand weapon=javelins sa=3 figures=1 "
                        "--dice hit=2")
    out = session.execute("shoot Genoese Billmen fire=stand figures=1 --dice hit=2")
    assert out.resolution is not None and out.resolution.figures["modifiers"] == ["chargers -1"]


def test_combat_and_command_in_the_combat_phase_morale_in_the_shoot_phase(
    session: Session,
) -> None:
    from tracker.session.commands import CommandError

    session.execute("command Billmen --dice command=1,1")
    session.execute('combat "French Knights" Billmen '
                    "--dice hit_a=1,1,1,1 hit_b=1,1,1,1,1,1 morale=1,1")
    with pytest.raises(CommandError, match="French Knights has already fought this phase"):
        session.execute('combat "French Knights" Billmen --dice hit_a=1,1,1,1')
    session.execute("set Billmen morale_test=yes")
    with pytest.raises(CommandError, match="morale is taken in the shoot phase"):
        session.execute("morale Billmen --dice morale=1,1")


# --- stages -----------------------------------------------------------------------------


def roles_asked(action: Action[Any], raw: dict[str, str], dice: dict[str, list[int]]) -> list:
    d = Dice.from_spec(dice)
    action.resolve(action.parse_params(raw), d)
    d.check_all_used()
    return d.requests


def in_declared_order(action: Action[Any], requests: list) -> bool:
    order = [s.role for s in action.stages]
    seen = [order.index(r.role) for r in requests]
    return seen == sorted(seen)


def test_shoot_asks_hit_then_save_then_kill_with_what_each_die_needs() -> None:
    shoot = RS.action("shoot")
    assert [s.role for s in shoot.stages] == ["hit", "save", "kill"]
    raw = {"figures": "3", "sa": "3", "weapon": "bow", "save": "3", "durability": "5"}
    asked = roles_asked(shoot, raw, {"hit": [4, 5, 1], "save": [3, 4], "kill": [3]})
    assert [(r.role, r.count, r.need) for r in asked] == [
        ("hit", 3, 4), ("save", 2, 4), ("kill", 1, 2)]
    assert asked[1].why == "2 hits" and asked[2].why == "1 unsaved hit"
    assert in_declared_order(shoot, asked)


def test_shoot_hit_count_is_known_before_any_die() -> None:
    shoot = RS.action("shoot")
    base = {"figures": "5", "sa": "3", "durability": "4"}
    stationary = known_stages(shoot, shoot.parse_params({**base, "weapon": "slings"}))
    assert [(s["role"], s["count"]) for s in stationary] == [
        ("hit", 10), ("save", None), ("kill", None)]
    assert stationary[0]["label"] == "to hit"
    moving = shoot.parse_params({**base, "weapon": "slings", "fire": "moving"})
    assert known_stages(shoot, moving)[0]["count"] == 5


def test_combat_asks_each_sides_dice_then_the_loser_morale_in_declared_order() -> None:
    combat = RS.action("combat")
    assert [s.role for s in combat.stages] == [
        "hit_a", "save_b", "kill_a", "hit_b", "save_a", "kill_b", "morale"]
    raw = {"figures_a": "2", "ca_a": "3", "ka_a": "3", "durability_a": "4", "save_a": "2",
           "figures_b": "2", "ca_b": "3", "ka_b": "3", "durability_b": "4", "save_b": "2",
           "mo_b": "7", "size_b": "10"}
    dice = {"hit_a": [5, 6], "save_b": [1, 2], "kill_a": [6, 6], "hit_b": [4, 1],
            "save_a": [1], "kill_b": [1], "morale": [3, 3]}
    asked = roles_asked(combat, raw, dice)
    assert [r.role for r in asked] == [
        "hit_a", "save_b", "kill_a", "hit_b", "save_a", "kill_b", "morale"]
    assert [r.need for r in asked[:6]] == [4, 5, 1, 4, 5, 1]
    assert asked[-1].count == 2 and asked[-1].sides == 6 and asked[-1].why == "2d6 <= 6"
    assert in_declared_order(combat, asked)
    counts = {s["role"]: s["count"] for s in known_stages(combat, combat.parse_params(raw))}
    assert counts["hit_a"] == 2 and counts["hit_b"] == 2 and counts["save_b"] is None


def test_combat_side_that_cannot_hit_declares_no_hit_dice() -> None:
    combat = RS.action("combat")
    p = combat.parse_params({"figures_a": "4", "ca_a": "0", "ka_a": "3", "durability_a": "4",
                             "figures_b": "3", "ca_b": "3", "ka_b": "3", "durability_b": "4"})
    counts = {s["role"]: s["count"] for s in known_stages(combat, p)}
    assert counts["hit_a"] == 0 and counts["hit_b"] == 3


@pytest.mark.parametrize(("name", "role", "spec", "count", "sides"), [
    ("morale", "morale", "2d6", 2, 6),
    ("morale", "morale", "1d10", 1, 10),
    ("command", "command", "3d6", 3, 6),
])
def test_test_dice_follow_the_setting(name: str, role: str, spec: str, count: int,
                                      sides: int) -> None:
    action = RS.action(name)
    value = "mo" if name == "morale" else "command"
    p = action.parse_params({value: "7", f"{role}_dice": spec})
    # the die is the setting's: the stage says so, the request carries its count and sides,
    # and the stages known before any die are the request's
    first = known_stages(action, p)[0]
    assert (first["count"], first["die"]) == (count, f"d{sides}")
    assert f"{role}_dice setting" in action.stages[0].help
    d = Dice.from_spec({}, seed=3)
    action.resolve(p, d)
    assert [(r.role, r.count, r.sides) for r in d.requests] == [(role, count, sides)]


# --- the roster -------------------------------------------------------------------------


@pytest.fixture
def session() -> Session:
    return Session(load_sample("d6battle-crossbow-duel.toml", D6Encounter))


def unit(s: Session, name: str) -> D6Unit:
    u = s.enc.find_unit(name)
    assert isinstance(u, D6Unit)
    return u


def test_roster_shows_name_strength_state_and_duties_first(session: Session) -> None:
    roster = RS.roster
    titles = [c.title for c in roster.columns]
    assert titles[:5] == ["Side", "Unit", "Str", "State", "Cas"]
    assert all(c.priority == 0 for c in roster.columns if c.title in ("Unit", "Str", "State"))
    assert all(c.priority > 0 for c in roster.columns[5:])
    genoese = unit(session, "Genoese Crossbowmen")
    assert roster.state(genoese) == "routed"  # fled in the English resolution phase
    assert roster.pending(genoese) == []
    session.execute('set "Genoese Crossbowmen" flee=morale')
    assert roster.state(genoese) == "routed, flees"
    assert roster.pending(genoese) == ["flee"]
    assert roster.pending(unit(session, "Billmen")) == []


def test_a_queued_morale_test_is_a_duty_and_a_filter(session: Session) -> None:
    session.execute("next phase")
    session.execute("next phase")  # the English turn's Shoot phase
    session.execute("shoot Longbowmen Foot figures=4 --dice hit=6,6,6,6 save=1,1,1,1 kill=1,1,1,1")
    roster = RS.roster
    sergeants = unit(session, "Foot Sergeants")
    assert roster.pending(sergeants) == ["morale test"]
    assert "morale test" in roster.state(sergeants)
    assert roster.emphasis is not None and roster.emphasis(sergeants)
    filters = dict(roster.filters)
    assert [u.name for u in session.enc.units if filters["morale test"](u)] == ["Foot Sergeants"]
    assert [u.name for u in session.enc.units if filters["fleeing"](u)] == []  # fled
    cells = {c.key: roster.cell(c, sergeants) for c in roster.columns}
    assert (cells["strength"], cells["casualties_turn"], cells["mo"]) == ("14/18", "4", "7")
    session.execute("morale Foot --dice morale=2,2")
    assert roster.pending(unit(session, "Foot Sergeants")) == []


def test_roster_words_for_disorder_and_push_and_shove(session: Session) -> None:
    session.execute('combat "French Knights" Billmen charge_a=yes '
                    "--dice hit_a=3,4,5,6 kill_a=1,2,3,4 hit_b=1,2,3,4,5,6 save_a=1,1,1 "
                    "morale=2,2")
    session.execute("command Billmen --dice command=6,6")
    roster = RS.roster
    assert roster.state(unit(session, "French Knights")) == "engaged, push +1"
    assert roster.state(unit(session, "Billmen")) == "engaged, disordered"
    sort = dict(roster.sorts)["casualties"]
    ordered = [u.name for u in sorted(session.enc.units, key=sort)]
    assert ordered[:3] == ["Billmen", "Genoese Crossbowmen", "Men-at-Arms"]


# --- tracker resolve stays light --------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["shoot", "weapon=bow", "figures=10", "sa=3", "durability=3", "unit_size=20"],
    ["combat", "figures_a=4", "ca_a=3", "ka_a=3", "durability_a=4", "figures_b=4",
     "ca_b=3", "ka_b=3", "durability_b=4", "mo_b=7"],
    ["morale", "mo=7"],
    ["command", "command=7"],
])
def test_resolve_loads_neither_the_models_nor_the_odds(argv: list[str]) -> None:
    code = ("import sys, io, contextlib\nfrom tracker.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    code = main(['resolve', 'd6battle', *{argv!r}, '--seed', '1'])\n"
            "assert code == 0, code\n"
            "heavy = ('textual', 'tracker.core.model', 'icepool')\n"
            "loaded = [m for m in heavy if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
