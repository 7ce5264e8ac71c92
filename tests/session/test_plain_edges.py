"""plain at its edges: a setting holds only what its rule can use, hit points set by hand
put a combatant down and back as damage and healing do, and an effect that ends on
someone's turn does not outlive them."""

from __future__ import annotations

import pytest

from tests.conftest import battle
from tests.session.test_plain import hp, table
from tracker.session.language import CommandError
from tracker.session.session import Session
from tracker.ui.topbar import where_text


@pytest.mark.parametrize("dice", ["banana", "4d6kh3", "d20>=10", "1000d1000", "2d1000"])
def test_initiative_dice_the_initiative_cannot_roll_are_refused_as_set(dice):
    s = table()
    with pytest.raises(CommandError, match=f"initiative_dice={dice}: "):
        s.execute(f"setting initiative_dice={dice}")
    assert "initiative_dice" not in s.enc.settings


@pytest.mark.parametrize("dice", ["", "d20", "2d6", "d20+2", "3d8"])
def test_initiative_dice_it_can_roll_are_taken(dice):
    s = table()
    s.execute(f"setting initiative_dice={dice}")
    assert s.enc.settings["initiative_dice"] == dice


def test_hit_points_set_to_0_put_a_combatant_down_and_above_0_bring_it_back():
    s = table()
    assert s.play.current() == "aria"
    out = s.execute("set Aria hp=0")
    assert hp(s, "Aria") == (0, 5, True)
    assert "down" in out.message
    assert s.play.order() == ["goblin", "tam"]
    assert s.play.current() == "goblin"  # her turn passes on, as when damage drops her
    s.execute("set Aria hp=5")
    assert hp(s, "Aria") == (5, 5, False)
    assert s.play.order() == ["aria", "goblin", "tam"]
    s.execute("undo")
    assert hp(s, "Aria")[2] is True


def test_out_set_by_hand_is_the_gm_s_word():
    s = table()
    s.execute("set Tam hp=0 out=no")  # the GM's table plays on at 0 (death saves)
    assert hp(s, "Tam") == (0, 0, False)


def test_an_effect_that_ends_on_the_turn_of_one_who_leaves_ends_as_they_leave():
    s = table()
    s.execute("effect Aria blessed until=Goblin at=end")
    out = s.execute("remove Goblin")
    assert "Aria: blessed ended (Goblin left)" in out.message
    assert s.enc.find_combatant("Aria").effects == []
    s.execute("undo")
    assert [e.name for e in s.enc.find_combatant("Aria").effects] == ["blessed"]


def test_the_last_in_the_order_dropped_on_their_turn_ends_the_rounds_turns():
    """Tam, last, goes down on his own turn: no one acts until n begins round 2. The one
    before him had acted already and was shown acting again (the turn stood past the
    order's end, read as its last)."""
    s = table()
    s.execute("next")
    s.execute("next")
    assert s.play.current() == "tam"
    out = s.execute("damage Tam 99")
    assert out.message.endswith("down; the round's turns are over (n begins the next)")
    assert s.play.current() is None
    assert where_text(s).endswith("· the round's turns are over")
    assert s.execute("next").message.startswith("Round 2, Aria first")
    s.execute("undo")
    assert s.play.current() is None


def test_one_who_acted_leaving_after_the_rounds_turns_are_over_leaves_them_over():
    """Tam, last, goes down on his own turn, then Aria, who acted, leaves: the round's
    turns are still over, and the save holds a turn the order has (tracker check finds
    nothing), not one past it."""
    from tracker.session.domains import out_of_place

    s = table()
    s.execute("next")
    s.execute("next")
    s.execute("damage Tam 99")
    out = s.execute("remove Aria")
    assert out.message == "Aria leaves the encounter"
    assert s.play.current() is None
    assert where_text(s).endswith("· the round's turns are over")
    assert s.enc.position.turn == len(s.play.order())
    assert out_of_place(s.enc, s.ruleset) == []
    assert s.execute("next").message.startswith("Round 2")


def effects(s, name):
    return [e.name for e in s.enc.find_combatant(name).effects]


@pytest.mark.parametrize("until", ["until=Goblin", "until=Goblin at=end", "until=Goblin rounds=3"])
def test_an_effect_until_the_turn_of_one_who_goes_down_ends_as_that_round_ends(until):
    s = table()  # Aria, Goblin, Tam: Aria's turn
    s.execute(f"effect Aria blessed {until}")
    s.execute("damage Goblin 7")  # down: its turn will not come
    s.execute("next")  # Tam
    assert effects(s, "Aria") == ["blessed"]  # the round is not over yet
    out = s.execute("next")  # round 2
    assert effects(s, "Aria") == []
    assert "Aria: blessed ended (Goblin's turn did not come: down, out or gone)" in out.message
    s.execute("undo")
    assert effects(s, "Aria") == ["blessed"]


def test_an_effect_until_its_own_bearer_s_turn_ends_with_the_round_the_bearer_is_out_in():
    s = table()
    s.execute("effect Tam stunned turn=yes")
    s.execute("set Tam out=yes")
    s.execute("next")  # the goblin
    out = s.execute("next")  # round 2
    assert effects(s, "Tam") == []
    assert "Tam: stunned ended (Tam's turn did not come: down, out or gone)" in out.message


def test_the_gm_may_keep_such_an_effect_until_cleared():
    s = table()
    s.execute("setting untaken_turn=kept")
    s.execute("effect Aria blessed until=Goblin")
    s.execute("damage Goblin 7")
    for _ in range(4):
        s.execute("next")
    assert effects(s, "Aria") == ["blessed"]


def test_an_effect_until_one_who_still_acts_is_not_ended_by_the_round():
    s = table()
    s.execute("effect Aria blessed until=Goblin rounds=3")
    s.execute("next")
    s.execute("next")
    s.execute("next")  # round 2: the goblin's turn has come once
    assert effects(s, "Aria") == ["blessed"]


def test_an_effect_until_the_turn_of_a_routed_unit_ends_as_the_round_ends():
    s = Session(battle(), None)
    s.execute("next")  # the empire's turn
    s.execute("effect Archers pinned until=Knights")
    s.execute("set Knights routed=yes")  # fled: no turn of the Knights' comes again
    out = s.execute("next")  # round 2
    assert "Archers: pinned ended (Knights' turn did not come: routed or removed)" in out.message
    assert s.enc.units[0].effects == []
    s.execute("undo")
    s.execute("set Knights routed=no")
    assert "pinned ended" not in s.execute("next").message  # rallied: kept to their turn
    assert [e.name for e in s.enc.units[0].effects] == ["pinned"]
