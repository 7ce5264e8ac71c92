import pytest

from tracker.core.dice import Dice, DiceError, parse_dice_spec, roll_expression


def test_entered_dice_are_used_first_then_the_seeded_rng():
    dice = Dice.from_spec({"hit": [6, 1]}, seed=3)
    assert dice.roll("hit", 6) == 6
    assert dice.roll("hit", 6) == 1
    third = dice.roll("hit", 6)
    assert [r.source for r in dice.rolls] == ["entered", "entered", "rolled"]
    assert dice.rolls[2].value == third
    again = Dice(seed=3)
    assert again.roll("hit", 6) == third  # the seed alone decides rolled dice


def test_every_roll_is_recorded_with_its_role_and_size():
    dice = Dice.from_spec({"test": [45]})
    dice.roll("test", 100)
    dice.roll("zone", 8)
    assert [(r.role, r.sides) for r in dice.rolls] == [("test", 100), ("zone", 8)]


def test_a_value_the_die_cannot_show_is_refused():
    with pytest.raises(DiceError, match="d6 cannot show 7"):
        Dice.from_spec({"hit": [7]}).roll("hit", 6)


def test_d10_zero_reads_ten_where_the_die_is_printed_that_way():
    assert Dice.from_spec({"impact": [0]}).roll("impact", 10, zero_is_ten=True) == 10
    with pytest.raises(DiceError):
        Dice.from_spec({"impact": [0]}).roll("impact", 10)


def test_unused_entered_dice_are_reported():
    dice = Dice.from_spec({"hit": [3, 4], "save": [2]})
    dice.roll("hit", 6)
    assert dice.unused() == {"hit": [4], "save": [2]}
    with pytest.raises(DiceError, match="not used"):
        dice.check_all_used()


def test_parse_dice_spec():
    assert parse_dice_spec(["hit=1,2,3", "save=6"]) == {"hit": [1, 2, 3], "save": [6]}
    with pytest.raises(DiceError):
        parse_dice_spec(["hit=1,x"])


@pytest.mark.parametrize(
    ("expr", "entered", "total", "successes"),
    [
        ("d100", [37], 37, None),
        ("3d6+2", [1, 2, 3], 8, None),
        ("6d10>=7", [9, 8, 7, 6, 2, 1], 33, 3),
        ("4d6kh3", [1, 6, 5, 2], 13, None),
        ("2d6-1", [3, 3], 5, None),
    ],
)
def test_roll_expressions(expr, entered, total, successes):
    result = roll_expression(expr, Dice.from_spec({"roll": entered}))
    assert result.total == total
    assert result.successes == successes


def test_bad_expression_says_what_to_type():
    with pytest.raises(DiceError, match="try d100"):
        roll_expression("banana", Dice())
