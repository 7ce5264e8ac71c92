"""edc values at every path in: Health no more than the fighter's full Health, and what the
exchange and the dice spent record (the CP spent this exchange, the initiative the exchange
passes on) is the tracker's, not a value the GM types."""

from __future__ import annotations

import re

import pytest

from tracker.rules.edc import EdcCombatant
from tracker.session.commands import CommandError
from tracker.session.domains import out_of_domain, out_of_place

from .test_edc_acting import two_bouts


@pytest.mark.parametrize(("line", "said"), [
    ("set Roland health=6", "health=6: must be at most 5 (the fighter's full Health)"),
    ("set Roland health_max=3", "health_max=3: health is 5, which must be at most 3 (the "
                                "fighter's full Health); set health first"),
    ("add combatant Jacques health=9 health_max=6",
     "health=9: must be at most 6 (the fighter's full Health)"),
])
def test_health_is_never_more_than_the_fighter_s_full_health(line: str, said: str) -> None:
    s = two_bouts()
    with pytest.raises(CommandError, match=f"^{re.escape(said)}$"):
        s.execute(line)
    assert not s.enc.log and len(s.enc.combatants) == 4
    s.execute("set Roland health=3 health_max=3")  # both at once: the GM's correction
    assert s.enc.find_combatant("Roland").health == 3  # type: ignore[attr-defined]


@pytest.mark.parametrize("typed", ["exchange_spent=9", "exchange_mark=banana",
                                   "exchange_mark=1.1", "next_initiative=takes"])
def test_what_the_exchange_records_is_the_tracker_s(typed: str) -> None:
    s = two_bouts()
    for line in (f"set Roland {typed}", f"add combatant Jacques {typed}"):
        with pytest.raises(CommandError, match=f"^{re.escape(typed)}: kept by the tracker "
                                               r"\(.*\); not set by hand$"):
            s.execute(line)
    assert not s.enc.log and len(s.enc.combatants) == 4


def test_the_exchange_records_the_cp_spent_and_undo_takes_it_back() -> None:
    s = two_bouts()
    s.execute("exchange Roland Guardsman attack_dice=3 defense_dice=3 "
              "--dice attack=2,3,4 defense=8,9,2")
    roland = s.enc.find_combatant("Roland")
    assert (roland.exchange_spent, roland.exchange_mark) == (3, "1.1")  # type: ignore[attr-defined]
    s.execute("undo")
    roland = s.enc.find_combatant("Roland")
    assert (roland.exchange_spent, roland.exchange_mark) == (0, "")  # type: ignore[attr-defined]


def test_a_save_s_impossible_values_are_named_by_the_check() -> None:
    s = two_bouts()
    s.enc.combatants[0] = EdcCombatant(id="roland", name="Roland", health=7, health_max=5)
    s.enc.combatants[1] = EdcCombatant(id="guard", name="Guardsman", exchange_mark="banana")
    assert out_of_domain(s.enc) == [
        "Roland: health=7: must be at most 5 (the fighter's full Health)",
        "Guardsman: exchange_mark=banana: must be ROUND.EXCHANGE (2.1), or empty",
    ]


# --- an opponent is another fighter of the encounter, or no one ------------------------------

PICK = "name Guardsman, Marguerite or Ruffian, or leave it blank"


@pytest.mark.parametrize(("line", "said"), [
    ("set Roland opponent=Gaston", f"opponent=Gaston: {PICK}"),
    ("set Roland opponent=Roland", f"opponent=Roland: {PICK}"),
    ("add combatant Jacques opponent=Gaston",
     "opponent=Gaston: name Roland, Guardsman, Marguerite or Ruffian, or leave it blank"),
])
def test_an_opponent_names_another_fighter_of_the_encounter(line: str, said: str) -> None:
    s = two_bouts()
    with pytest.raises(CommandError, match=f"^{re.escape(said)}$"):
        s.execute(line)
    assert not s.enc.log and len(s.enc.combatants) == 4
    assert s.enc.find_combatant("Roland").opponent == "guard"  # type: ignore[attr-defined]


def test_an_opponent_is_typed_by_name_in_any_case_and_kept_as_that_fighter() -> None:
    s = two_bouts()
    assert s.execute("set Roland opponent=rUFFIAN").message == "Roland: opponent Ruffian"
    assert s.enc.find_combatant("Roland").opponent == "ruffian"  # type: ignore[attr-defined]
    s.execute("add combatant Jacques opponent=guardsman")
    assert s.enc.find_combatant("Jacques").opponent == "guard"  # type: ignore[attr-defined]
    s.execute("set Roland opponent=")
    assert s.enc.find_combatant("Roland").opponent == ""  # type: ignore[attr-defined]


def test_an_opponent_who_leaves_is_faced_no_more_and_the_log_says_so() -> None:
    s = two_bouts()
    s.execute("remove Guardsman")
    assert s.enc.find_combatant("Roland").opponent == ""  # type: ignore[attr-defined]
    assert "Roland: no opponent (Guardsman left)" in s.enc.log[-1].text
    assert out_of_place(s.enc, s.ruleset) == []


def test_a_hand_edited_opponent_naming_no_one_is_named_by_the_check() -> None:
    s = two_bouts()
    assert out_of_place(s.enc, s.ruleset) == []
    s.enc.combatants[0].opponent = "gaston"  # type: ignore[attr-defined]
    s.enc.combatants[1].opponent = "guard"  # type: ignore[attr-defined]
    assert out_of_place(s.enc, s.ruleset) == [
        "Roland: opponent=gaston: must be the id of another combatant (guard, marguerite, "
        "ruffian), or empty",
        "Guardsman: opponent=guard: must be the id of another combatant (roland, marguerite, "
        "ruffian), or empty"]
