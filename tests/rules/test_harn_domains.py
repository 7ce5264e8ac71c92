"""HârnMaster values at every path in: a weapon's base impact is dice the strike can roll,
spanning belongs to a crossbow and stays short of its span rounds, and the round's missile
action is the tracker's record, not a value the GM types."""

from __future__ import annotations

import re

import pytest

from tracker.core.domains import checking
from tracker.rules.harn import HarnCombatant, MissileWeapon
from tracker.session.commands import CommandError
from tracker.session.domains import out_of_domain

from .test_harn_edges import nolora, table, ulric


@pytest.mark.parametrize("typed", ["banana", "d0", "0d6", "d12kh1", "d12>=4", "12d"])
def test_a_weapon_impact_the_strike_cannot_roll_is_refused_by_set_and_add(typed: str) -> None:
    s = table(nolora())
    said = (f"weapon.impact={typed}: must be dice the strike can roll, like d12+4 or 2d6+1 "
            "(or a number)")
    with pytest.raises(CommandError, match=f"^{re.escape(said)}$"):
        s.execute(f"set Nolora weapon.impact={typed}")
    with pytest.raises(CommandError, match="must be dice the strike can roll"):
        s.execute(f"add combatant Brigand weapon.kind=bow weapon.impact={typed}")
    assert [c.name for c in s.enc.combatants] == ["Nolora"]
    assert s.enc.combatants[0].weapon.impact == "d12+4"  # type: ignore[union-attr]
    assert not s.enc.log


def test_an_impact_the_strike_rolls_is_taken_and_its_dice_are_asked_for() -> None:
    s = table(nolora(loaded=True), HarnCombatant(id="brigand", name="Brigand",
                                                 side="brigands", initiative=60))
    s.execute("set Nolora weapon.impact=2d6+1")
    out = s.execute("shoot Nolora Brigand range=30 --dice test=45 zone=1,2,3 impact=3,4")
    assert out.resolution is not None
    f = out.resolution.figures
    assert f["impact_rolls"] == [3, 4]  # two d6, as the weapon's impact says
    assert f["strike_impact"] == 3 + 4 + 1 + f["impact_mod"]


def test_add_gives_a_weapon_field_by_field() -> None:
    s = table(nolora())
    s.execute("add combatant Ulric weapon.kind=crossbow weapon.span_rounds=4 "
              "weapon.impact=d10+5 span_progress=2")
    ulric = s.enc.find_combatant("Ulric")
    assert isinstance(ulric, HarnCombatant) and ulric.weapon is not None
    assert (ulric.weapon.kind, ulric.weapon.span_rounds, ulric.weapon.impact,
            ulric.span_progress) == ("crossbow", 4, "d10+5", 2)


@pytest.mark.parametrize(("line", "said"), [
    ("set Ulric span_progress=4",
     "span_progress=4: must be at most 3 (short of the crossbow's 4 span rounds)"),
    ("set Nolora span_progress=1", "span_progress=1: must be at most 0 (only a crossbow is "
                                   "spanned)"),
    ("set Nolora spanned=yes", "spanned=yes: only a crossbow is spanned"),
    ("set Ulric span_progress=1 weapon.span_rounds=1",
     "span_progress=1: must be at most 0 (short of the crossbow's 1 span rounds)"),
])
def test_spanning_belongs_to_a_crossbow_and_stays_short_of_its_span_rounds(
        line: str, said: str) -> None:
    s = table(nolora(), ulric())
    with pytest.raises(CommandError, match=f"^{re.escape(said)}$"):
        s.execute(line)
    assert not s.enc.log


def test_a_weapon_changed_under_its_spanning_names_the_field_to_set_first() -> None:
    s = table(ulric(span_progress=3))
    with pytest.raises(CommandError, match="^span_progress=3: must be at most 1 .*; set "
                                           "span_progress first$"):
        s.execute("set Ulric weapon.span_rounds=2")
    s.execute("set Ulric span_progress=1")
    s.execute("set Ulric weapon.span_rounds=2")
    assert s.enc.combatants[0].span_progress == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("line", [
    "set Nolora last_action=dance", "set Nolora last_action=shoot", "set Nolora acted_round=7",
    "add combatant Brigand last_action=shoot", "add combatant Brigand acted_round=1",
])
def test_the_round_s_missile_action_is_the_tracker_s_record_not_set_by_hand(line: str) -> None:
    s = table(nolora())
    field = line.split()[-1].partition("=")[0]
    with pytest.raises(CommandError, match=f"^{line.split()[-1]}: kept by the tracker \\(.* "
                                           "the action records it\\); not set by hand$"):
        s.execute(line)
    assert [c.name for c in s.enc.combatants] == ["Nolora"] and not s.enc.log
    assert field in HarnCombatant.kept


def test_the_action_records_it_and_undo_takes_it_back() -> None:
    s = table(ulric())
    s.execute("next")
    s.execute("span Ulric")
    ulric_now = s.enc.combatants[0]
    assert (ulric_now.last_action, ulric_now.acted_round) == (  # type: ignore[attr-defined]
        "span", s.enc.position.round)
    s.execute("undo")
    ulric_now = s.enc.combatants[0]
    assert (ulric_now.last_action, ulric_now.acted_round) == ("", None)  # type: ignore[attr-defined]


def test_a_save_s_impossible_missile_state_is_named_by_the_check() -> None:
    """A save is read as it was; the check (``tracker check``) names what no rule allows."""
    bad = [
        nolora(weapon=MissileWeapon(kind="bow", impact="banana")),
        nolora(last_action="dance"),
        nolora(acted_round=0),
        ulric(span_progress=9),
    ]
    s = table(*[c.model_copy(update={"id": f"c{i}", "name": f"C{i}"}) for i, c in
                enumerate(bad)])
    said = out_of_domain(s.enc)
    assert said == [
        "C0: weapon.impact=banana: must be dice the strike can roll, like d12+4 or 2d6+1 "
        "(or a number)",
        "C1: last_action=dance: must be one of (empty), missile, fire, shoot, throw, charge, "
        "load, aim, span, defend",
        "C2: acted_round=0: must be at least 1 (or none)",
        "C3: span_progress=9: must be at most 3 (short of the crossbow's 4 span rounds)",
    ]
    assert HarnCombatant.model_validate(bad[0].model_dump())  # read as it was, unchecked
    with pytest.raises(ValueError):
        HarnCombatant.model_validate(bad[0].model_dump(), context=checking())
