"""The state file's text is ``tomli_w.dumps`` of the state, to the byte, though the text
of units and combatants written before is reused."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import tomli_w

from tests.conftest import SAMPLES, battle, skirmish
from tracker.core.model import Effect, Unit
from tracker.session.opening import load
from tracker.store.toml_store import dump_state, state_doc

SAVES = Path(__file__).resolve().parents[2] / "saves"


def same_as_tomli_w(enc) -> str:  # type: ignore[no-untyped-def]
    text = dump_state(enc)
    assert text == tomli_w.dumps(state_doc(enc))
    assert tomllib.loads(text) == state_doc(enc)
    return text


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_sample_is_written_as_tomli_w_writes_it(sample: str) -> None:
    enc = load(SAVES / sample)
    first = same_as_tomli_w(enc)
    assert same_as_tomli_w(enc) == first  # all reused
    items = enc.units or enc.combatants
    items[0] = items[0].model_copy(update={"notes": "a note " * 30})  # one item changed
    assert same_as_tomli_w(enc) != first


def test_short_units_go_inline_and_back_to_tables_when_one_grows() -> None:
    enc = battle()  # two short units: an inline array
    assert "units = [" in same_as_tomli_w(enc)
    enc.units.append(Unit(id="cannon", name="Cannon", notes="loaded " * 20,
                          effects=[Effect(name="smoke", until_round=2)]))
    text = same_as_tomli_w(enc)  # the short ones kept, written now as tables
    assert text.count("[[units]]") == 3
    enc.units.pop()
    assert "units = [" in same_as_tomli_w(enc)


def test_combatants_changed_one_by_one() -> None:
    enc = skirmish()
    same_as_tomli_w(enc)
    for i, c in enumerate(list(enc.combatants)):
        enc.combatants[i] = c.model_copy(update={"conditions": ["prone", "stunned"] * 8})
        same_as_tomli_w(enc)
