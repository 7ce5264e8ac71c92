"""edc on the rules kit: dice asked for in the stages each action declares, in their order;
how often the text lets a fighter act; exact odds; actions loaded on first use; and
``tracker resolve edc`` without the encounter models, Textual or the odds module."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.rules.edc_helpers import resolve, run
from tracker import rules
from tracker.core.dice import Dice
from tracker.core.model import Pool
from tracker.rules.base import Action, Param, RuleError
from tracker.rules.edc import ACTIONS, EdcCombatant, EdcEncounter
from tracker.rules.edc.chances import botch_chance, success_odds
from tracker.rules.edc.common import effective_tn
from tracker.session.session import CommandError, Session

EDC = rules.get("edc")
NAMES = ("", "Roland", "Guard")


def value_of(p: Param) -> st.SearchStrategy[Any]:
    """Legal values of a parameter, kept small so pools stay quick to roll."""
    if p.kind in ("actor", "target", "str"):
        return st.sampled_from(NAMES)
    if p.kind == "bool":
        return st.booleans()
    if p.kind == "choice":
        return st.sampled_from(p.choices)
    lo = int(p.minimum) if p.minimum is not None else -2
    hi = int(p.maximum) if p.maximum is not None else lo + 14
    ints = st.integers(lo, min(hi, max(lo, 0) + 14))
    if p.kind == "ints":
        return st.lists(st.integers(max(lo, 0), 4), max_size=4).map(tuple)
    if p.kind == "strs":
        return st.lists(st.sampled_from(NAMES[1:]), max_size=3).map(tuple)
    return ints


@st.composite
def parameters(draw: st.DrawFn, action: Action[Any]) -> Any:
    values = {}
    for p in action.params:
        if p.required or draw(st.booleans()):
            values[p.name] = draw(value_of(p))
    try:
        return action.parse_params(values)
    except RuleError:
        return None


def _sides(die: str) -> int:
    return int(die.split("d")[-1])


@pytest.mark.parametrize("name", ACTIONS)
@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_dice_are_asked_for_in_the_declared_stages_in_order(
    name: str, data: st.DataObject, seed: int
) -> None:
    action = EDC.action(name)
    p = data.draw(parameters(action))
    assume(p is not None)  # the rules refused the parameters: no dice to look at
    dice = Dice(seed=seed)
    try:
        action.resolve(p, dice)
    except RuleError:
        assume(False)
    order = {s.role: i for i, s in enumerate(action.stages)}
    assert all(r.role in order for r in dice.requests), "a die role the action does not declare"
    ranks = [order[r.role] for r in dice.requests]
    assert ranks == sorted(ranks), "stages asked for out of the declared order"
    for s in action.stages:
        asked = [r for r in dice.requests if r.role == s.role]
        assert all(r.sides == _sides(s.die) and r.zero_is_ten == s.zero_is_ten for r in asked)
        if s.count is not None:
            assert sum(r.count for r in asked) == s.count(p)
        for r in asked:
            assert r.need is None or 1 <= r.need <= 10
            assert all(r.succeeds(v) == (v >= r.need) for v in range(1, 11) if r.need)


# Parameters and dice that roll every stage an action declares, in order.
EVERY_STAGE: dict[str, tuple[dict[str, object], dict[str, list[int]]]] = {
    "exchange": ({"attack_dice": 2, "atn": 6, "defense_dice": 1, "dtn": 6, "press_dice": 1,
                  "defense_press_dice": 1},
                 {"attack": [9, 2], "defense": [3], "press": [5], "defense_press": [1]}),
    "initiative": ({"a_reflex": 1, "a_atn": 6, "b_reflex": 1, "b_atn": 6},
                   {"a": [6], "b": [5]}),
    "hesitation": ({"reflex": 2}, {"reflex": [7, 1]}),
    "bloodloss": ({"toughness": 2, "tn": 6}, {"toughness": [6, 2]}),
    "knockdown": ({"dice": 2, "mos": 3}, {"knockdown": [6, 1]}),
    "knockout": ({"dice": 2}, {"knockout": [1, 1], "out": [4]}),
    "terrain": ({"dice": 1, "tn": 4, "oppose_dice": 1}, {"terrain": [4], "oppose": [9]}),
    "opponents": ({"dice": 1, "opponent_dice": "1,2"}, {"lone": [9], "opponent": [2, 9, 1]}),
    "ride_by": ({"dice": 1, "oppose_dice": 1}, {"ride": [8], "oppose": [3]}),
    "unhorse": ({"dice": 3, "mos": 1}, {"ride": [7, 2]}),
    "ride": ({"maneuver": "wheel", "dice": 1}, {"ride": [7]}),
    "missile_prep": ({"rounds": 2, "shorten": True, "reflex": 1}, {"reflex": [8]}),
    "missile": ({"dice": 1, "atn": 6, "defense": "duck", "defense_dice": 1},
                {"missile": [9], "defense": [2], "location": [3, 4]}),
}


@pytest.mark.parametrize("name", ACTIONS)
def test_every_declared_stage_is_rolled_in_order(name: str) -> None:
    action = EDC.action(name)
    if not action.stages:
        assert name in ("shock", "spend", "refresh", "hit")  # the GM's tools roll nothing
        return
    raw, entered = EVERY_STAGE[name]
    p = action.parse_params({k: str(v) for k, v in raw.items()})
    dice = Dice.from_spec(entered)
    action.resolve(p, dice)
    dice.check_all_used()
    roles = [k for k, _ in itertools.groupby(r.role for r in dice.requests)]
    assert roles == [s.role for s in action.stages]


def test_a_stage_says_what_the_dice_are_for() -> None:
    dice = Dice(seed=1)
    act = EDC.action("exchange")
    act.resolve(act.parse_params({"attacker": "Roland", "attack_dice": "6", "atn": "6",
                                  "dtn": "12", "defense_dice": "2"}), dice)
    attack, defence = dice.requests
    assert (attack.role, attack.count, attack.target, attack.why) == ("attack", 6, "6+", "Roland")
    assert (defence.count, defence.target) == (2, "10+")  # TN 12 capped at 10
    act = EDC.action("knockdown")
    dice = Dice(seed=1)
    act.resolve(act.parse_params({"dice": "2", "mos": "6", "tn_above_ten": "impossible"}), dice)
    assert dice.requests[0].need is None and "no die can succeed" in dice.requests[0].why


def test_known_stage_counts_come_before_any_die() -> None:
    from tracker.rules.stages import known_stages

    act = EDC.action("missile")
    p = act.parse_params({"dice": "4", "atn": "6", "defense": "evade_full",
                          "defense_dice": "3"})
    assert [(s["role"], s["count"]) for s in known_stages(act, p)] == [
        ("missile", 4), ("defense", 3), ("location", None)]


# --- how often a fighter may act -------------------------------------------------------------


def test_how_often_the_text_lets_a_fighter_act() -> None:
    assert EDC.phases == ["exchange 1", "exchange 2"]
    # "each combatant gets a single action" per exchange
    assert EDC.action("exchange").once_per == "exchange"
    assert EDC.action("exchange").phases == ("exchange 1", "exchange 2")
    # whom to face "for the round", and a ride-by "limits the combat round to a single
    # exchange": both settled before the round's first exchange
    for name in ("opponents", "ride_by"):
        assert EDC.action(name).once_per == "round"
        assert EDC.action(name).phases == ("exchange 1",)
    # fire "in the first exchange ... or on the second exchange/not this round"
    assert EDC.action("missile").once_per == "round"
    # Toughness vs BL "at the beginning of each Round"; one riding action "in any round"
    assert EDC.action("bloodloss").once_per == "round"
    assert EDC.action("ride").once_per == "round"
    # left open by the text: no limit
    for name in ("terrain", "initiative", "hesitation", "knockdown", "knockout", "unhorse",
                 "missile_prep", "shock", "spend", "refresh", "hit"):
        assert EDC.action(name).once_per is None


# --- odds ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [a for a in ACTIONS if EDC.action(a).has_odds])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_odds_sum_to_one(name: str, data: st.DataObject) -> None:
    action = EDC.action(name)
    p = data.draw(parameters(action))
    assume(p is not None)  # the rules refused the parameters: no odds to look at
    try:
        odds = action.odds(p)
    except RuleError:
        assume(False)
    assert abs(sum(q for _, q in odds) - 1) < 1e-9
    assert all(q >= -1e-12 for _, q in odds)


@pytest.mark.parametrize(("n", "tn"), [(1, 6), (2, 6), (3, 7), (2, 1), (3, 11), (2, 10)])
@pytest.mark.parametrize("rule", ["cap", "impossible"])
def test_botch_and_success_odds_match_every_face(n: int, tn: int, rule: str) -> None:
    """A botch: no successes and two or more 1s; counted over all 10**n rolls."""
    need = effective_tn(tn, rule)
    rolls = list(itertools.product(range(1, 11), repeat=n))
    botch = sum(1 for r in rolls if not any(v >= need for v in r) and r.count(1) >= 2)
    fail = sum(1 for r in rolls if not any(v >= need for v in r))
    assert botch_chance(n, tn, rule) == pytest.approx(botch / len(rolls), abs=1e-12)
    labels = dict(success_odds(n, tn, rule))
    assert labels["failure"] == pytest.approx((fail - botch) / len(rolls), abs=1e-12)
    assert labels["success"] == pytest.approx(1 - fail / len(rolls), abs=1e-12)


# --- the registry and the headless resolve ------------------------------------------------------


def test_the_registry_offers_every_action_by_its_name() -> None:
    assert list(EDC.actions) == list(ACTIONS) and len(EDC.actions) == 17
    assert all(EDC.actions[name].name == name for name in ACTIONS)
    with pytest.raises(RuleError, match="edc has no action 'parry' .*exchange"):
        EDC.action("parry")


def test_resolve_loads_only_the_action_it_runs() -> None:
    code = (
        "import sys; from tracker.cli import main\n"
        "main(['resolve', 'edc', 'exchange', 'attack_dice=3', 'atn=6', 'dtn=6', '--json'])\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", "import json\n" + code], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert json.loads(out[0])["action"] == "exchange"
    loaded = set(json.loads(out[-1]))
    for heavy in ("tracker.core.model", "textual", "icepool", "tracker.core.odds"):
        assert heavy not in loaded
    assert "tracker.rules.edc.actions.exchange" in loaded
    assert "tracker.rules.edc.actions.missile" not in loaded
    assert "tracker.rules.edc.tables" not in loaded  # no table read without a location


def test_spend_from_either_pool() -> None:
    """The pool was refused whatever was typed (CP, MP); either case now reads."""
    c = EdcCombatant(id="a", name="Archer", pools=[Pool(name="MP", size=4)])
    enc = EdcEncounter(name="x", combatants=[c])
    res = run(enc, "spend", actor="Archer", dice=2, pool="MP", what="a spare arrow")
    assert res.figures["pool"] == "MP" and c.missile_pool.spent == 2
    assert resolve("spend", dice=1, pool="cp").text == "fighter spends 1 CP"


# --- the limits in play ---------------------------------------------------------------------


def duel_session(tmp_path: Any) -> Session:
    a = EdcCombatant(id="a", name="Alan", reflex=6, proficiency=6, agility=4, ride=2,
                     mounted=True, gait="canter", pools=[Pool(name="MP", size=6)],
                     missile_ready=True)
    f = EdcCombatant(id="f", name="Ferro", reflex=5, proficiency=6, side="foes")
    return Session(EdcEncounter(name="deck", combatants=[a, f]), tmp_path / "deck.toml")


def test_one_action_each_per_exchange(tmp_path: Any) -> None:
    """The attack is the attacker's single action of the exchange, a defence the
    defender's; a defender who attacked instead rolls no defence and may attack."""
    s = duel_session(tmp_path)
    s.execute("exchange Alan Ferro attack_dice=2 atn=6 dtn=6 defense_dice=2 "
              "--dice attack=2,3 defense=4,5")
    with pytest.raises(CommandError, match="Ferro has already acted this exchange"):
        s.execute("exchange Ferro Alan attack_dice=2 atn=6 dtn=6 --dice attack=9,9")
    with pytest.raises(CommandError, match="Alan has already acted this exchange"):
        s.execute("exchange Alan Ferro attack_dice=1 atn=6 dtn=6 --dice attack=9")
    out = s.execute("exchange Ferro Alan attack_dice=1 atn=6 dtn=6 force=yes --dice attack=2")
    assert "forced by the GM" in out.message
    s.execute("next phase")
    s.execute("exchange Ferro Alan attack_dice=1 atn=6 dtn=6 --dice attack=2")
    s.execute("exchange Alan Ferro attack_dice=1 atn=6 dtn=6 --dice attack=2")


def test_attacking_instead_of_defending_leaves_the_defender_his_action(tmp_path: Any) -> None:
    s = duel_session(tmp_path)
    out = s.execute("exchange Alan Ferro attack_dice=2 atn=6 dtn=6 --dice attack=2,3")
    assert out.resolution is not None
    assert [r.role for r in out.resolution.rolls] == ["attack", "attack"]  # no defence
    assert "Ferro defends with 0" in out.message
    assert s.enc.find_combatant("Ferro").combat_pool.spent == 0
    out = s.execute("exchange Ferro Alan attack_dice=2 atn=6 dtn=6 --dice attack=9,3")
    assert out.resolution is not None and out.resolution.figures.attack_successes == 1
    assert s.enc.log[-1].text.startswith("Ferro attacks with 2 vs ATN 6: 1 success")
    assert s.enc.find_combatant("Ferro").combat_pool.spent == 2
    with pytest.raises(CommandError, match="Ferro has already acted this exchange"):
        s.execute("exchange Ferro Alan attack_dice=1 atn=6 dtn=6 --dice attack=9")


def test_ride_by_and_multiple_opponents_before_the_first_exchange(tmp_path: Any) -> None:
    s = duel_session(tmp_path)
    s.execute("next phase")
    with pytest.raises(CommandError, match="ride_by is taken in the exchange 1 phase"):
        s.execute("ride_by Alan Ferro --dice ride=8,2,3,4,5,6")
    with pytest.raises(CommandError, match="opponents is taken in the exchange 1 phase"):
        s.execute("opponents Alan dice=1 opponents=2 --dice lone=9")


def test_one_shot_and_one_riding_action_a_round(tmp_path: Any) -> None:
    s = duel_session(tmp_path)
    s.execute("missile Alan Ferro dice=1 atn=6 --dice missile=2")
    s.execute("next phase")
    with pytest.raises(CommandError, match="Alan has already acted this round"):
        s.execute("missile Alan Ferro dice=1 atn=6 --dice missile=2")
    s.execute("ride Alan maneuver=decelerate")
    with pytest.raises(CommandError, match="once a round"):
        s.execute("ride Alan maneuver=decelerate")
    s.execute("next round")
    s.execute("missile Alan Ferro dice=1 atn=6 --dice missile=2")
