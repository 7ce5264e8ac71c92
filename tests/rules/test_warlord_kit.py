"""Fantasy Warlord on the rules kit: typed actions, declared stages and phases, the game
turn as a sequence of play, and its duties."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pydantic import ValidationError

from tests.conftest import load_sample
from tracker.core.dice import Dice
from tracker.rules import get
from tracker.rules.base import Params, RuleError
from tracker.rules.stages import known_stages
from tracker.rules.warlord import WarlordEncounter
from tracker.rules.warlord.actions.volley import FireParams
from tracker.session.commands import CommandError
from tracker.session.session import Session

RULES = get("warlord")
FIRE = RULES.action("fire")


def fire_params(**raw: object) -> FireParams:
    p: FireParams = FIRE.parse_params({k: str(v) for k, v in raw.items()})
    return p


def test_every_action_is_a_typed_class_with_a_frozen_model() -> None:
    assert set(RULES.actions) == {"fire", "endphase", "order", "holdfire", "movefire", "morale"}
    for action in RULES.actions.values():
        assert issubclass(action.params_model, Params), action.name
    p = fire_params(bfp=18, figures=10, range="short")
    with pytest.raises(ValidationError, match="frozen"):
        p.figures = 3  # type: ignore[misc]


def test_values_the_encounter_fills_are_optional_not_placeholders() -> None:
    p = fire_params(figures=10)
    assert (p.bfp, p.distance, p.target_figures, p.eligible, p.race) == (None,) * 5
    for action in RULES.actions.values():
        for param in action.params:
            assert param.default != -1, f"{action.name}.{param.name}"
    with pytest.raises(RuleError, match="must be at least 0"):
        fire_params(figures=10, bfp=18, range="short", target_figures=-1)


def test_the_d100_stage_counts_what_is_left_over() -> None:
    def count(**raw: object) -> int | None:
        return known_stages(FIRE, fire_params(**raw))[0]["count"]

    assert count(bfp=18, mods="-1,3,4", figures=10, range="medium") == 1  # 20% left
    assert count(bfp=20, figures=10, range="medium") == 0  # exactly 100%
    assert count(bfp=50, figures=10, range="short", target_figures=3) == 0  # all down
    assert count(figures=10, range="short") is None  # no BFP yet
    assert known_stages(FIRE, None)[0]["count"] is None


def test_resolve_stages_lists_the_d100_before_figures_are_given() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tracker", "resolve", "warlord", "fire", "--stages", "--json"],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(out.stdout)["stages"][0] | {"help": ""} == {
        "role": "d100", "die": "d100", "label": "for the percentage left over", "help": "",
        "count": None,
    }
    bad = subprocess.run(
        [sys.executable, "-m", "tracker", "resolve", "warlord", "fire", "figures=x", "--stages"],
        capture_output=True, text=True,
    )
    assert bad.returncode == 2 and "figures=x: expected a whole number" in bad.stderr


def test_the_game_turn_is_declared_as_data() -> None:
    seq = RULES.sequence
    assert seq is not None and seq.turns_by == "round"
    assert [(ph.name, ph.acting) for ph in seq.phases] == [
        ("before missile fire (1-7)", "all"), ("missile fire (8)", "all"),
        ("morale tests", "all")]
    assert [d.action for d in seq.phases[1].duties] == ["endphase"]
    assert [d.action for d in seq.phases[2].duties] == ["morale"]
    assert RULES.start_round is seq.round_start
    for name in ("fire", "holdfire", "endphase"):
        assert RULES.action(name).phases == ("missile fire (8)",)


def test_fire_is_refused_outside_phase_eight_with_the_reason() -> None:
    enc = load_sample("warlord-wood-elves.toml", WarlordEncounter)
    enc.position.phase = 0
    s = Session(enc)
    with pytest.raises(CommandError, match="fire is taken in the missile fire \\(8\\) phase"):
        s.execute("fire human orc range=long --dice d100=1")
    s.execute("fire human orc range=long force=yes --dice d100=1")
    assert "forced by the GM" in enc.log[-1].text


def test_phase_eight_waits_for_fire_orders_then_removes_the_casualties_together() -> None:
    enc = load_sample("warlord-wood-elves.toml", WarlordEncounter)
    s = Session(enc)
    assert "Human longbowmen: to fire" in s.execute("next").message  # a duty pending
    s.execute("holdfire human")
    s.execute("holdfire morgab")
    out = s.execute("next")
    assert out.message.startswith("End of missile fire: Orc warband loses 1 (20 → 19)")
    assert out.message.endswith("Phase: morale tests")
    pending = s.execute("next").pending
    assert pending is not None and "Orc warband: morale test" in pending.message
    s.execute("morale orc result=passed")
    assert s.execute("next").message == "Round 2, before missile fire (1-7)"


def test_endphase_names_units_in_the_log_and_refuses_a_bad_name_entry() -> None:
    action = RULES.action("endphase")
    params = action.parse_params({"held": "orcs:2:20", "names": "orcs=Orc warband"})
    res = action.resolve(params, Dice())
    assert res.text == "End of missile fire: Orc warband loses 2 (20 → 18), morale test"
    assert res.figures["removed"][0]["unit"] == "orcs"
    with pytest.raises(RuleError, match="UNIT=NAME"):
        action.resolve(params.replace(names=("orcs",)), Dice())
