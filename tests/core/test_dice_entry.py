"""Dice as the GM types them: with or without separators, a d10's 0, a d100's tens."""

import pytest

from tracker.core.dice import DiceError
from tracker.core.dice_entry import entry_hint, read_entry, show_faces


@pytest.mark.parametrize(
    "typed", ["124566", "1 2 4 5 6 6", "1,2,4,5,6,6", "12 4,566", " 1;2/4566 "])
def test_d6_with_or_without_separators(typed):
    assert read_entry(typed, 6) == [1, 2, 4, 5, 6, 6]


def test_a_d10_whose_0_reads_as_ten():
    assert read_entry("0961", 10, zero_is_ten=True) == [10, 9, 6, 1]


def test_ten_on_a_d10_whose_0_reads_as_ten_typed_as_10_on_its_own():
    assert read_entry("10", 10, zero_is_ten=True) == [10]
    assert read_entry("10 3", 10, zero_is_ten=True) == [10, 3]
    assert read_entry("1 0", 10, zero_is_ten=True) == [1, 10]
    assert read_entry("103", 10, zero_is_ten=True) == [1, 10, 3]  # a run: a die a digit


def test_the_entry_says_how_to_type_the_die_asked():
    assert entry_hint(6) == "one digit a die: 124566 or 1 2 4"
    assert entry_hint(4) == "one digit a die: 124444 or 1 2 4"
    assert "0 (or 10 alone) a ten" in entry_hint(10, zero_is_ten=True)
    assert entry_hint(10) == "one digit a die, 10 a ten: 3 10 7 or 3107"
    assert "00 for 100" in entry_hint(100) and "tens and units: 4 5" in entry_hint(100)
    assert entry_hint(20) == "one number a die, separated: 12 3 20"
    # each example reads as the dice it says
    assert read_entry("3071", 10, zero_is_ten=True) == [3, 10, 7, 1]
    assert read_entry("3107", 10) == [3, 10, 7]


def test_a_d10_where_the_text_reads_10():
    assert read_entry("10 9 1", 10) == [10, 9, 1]
    assert read_entry("9101", 10) == [9, 10, 1]
    with pytest.raises(DiceError, match="a d10 shows 1 to 10, not 0; a ten is 10"):
        read_entry("0", 10)


@pytest.mark.parametrize(("typed", "faces"), [
    ("45", [45]), ("4 5", [45]), ("00", [100]), ("100", [100]), ("0 0", [100]),
    ("7", [7]), ("45 7", [45, 7]), ("4 5 9 1", [45, 91]),
])
def test_a_d100_as_one_number_or_tens_and_units(typed, faces):
    assert read_entry(typed, 100) == faces


def test_larger_dice_take_one_number_a_die():
    assert read_entry("12 3 20", 20) == [12, 3, 20]
    with pytest.raises(DiceError, match="a d20 shows 1 to 20, not 21"):
        read_entry("21", 20)


@pytest.mark.parametrize(("typed", "message"), [
    ("127", "a d6 shows 1 to 6, not 7"),
    ("1 0", "a d6 shows 1 to 6, not 0"),
    ("4x", "'4x': dice are whole numbers"),
    ("-3", "'-3': dice are whole numbers"),
])
def test_a_face_the_die_cannot_show_is_named(typed, message):
    with pytest.raises(DiceError, match=message):
        read_entry(typed, 6)


def test_nothing_typed_is_no_dice():
    assert read_entry("", 6) == [] and read_entry(" , ", 100) == []


def test_rolled_faces_are_marked():
    assert show_faces([(4, False), (6, True)]) == "4 6*"
