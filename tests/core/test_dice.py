import pytest

from tracker.core.dice import (
    Dice,
    DiceError,
    Request,
    face_classes,
    parse_dice_spec,
    roll_expression,
)


def test_entered_dice_are_used_first_then_the_seeded_rng():
    dice = Dice.from_spec({"hit": [6, 1]}, seed=3, roll_rest=True)
    assert dice.roll("hit", 6) == 6
    assert dice.roll("hit", 6) == 1
    third = dice.roll("hit", 6)
    assert [r.source for r in dice.rolls] == ["entered", "entered", "rolled"]
    assert dice.rolls[2].value == third
    again = Dice(seed=3)
    assert again.roll("hit", 6) == third  # the seed alone decides rolled dice


def test_every_roll_is_recorded_with_its_role_and_size():
    dice = Dice.from_spec({"test": [45]}, roll_rest=True)
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


# --- stages: nothing topped up silently -------------------------------------------------


def test_a_short_stage_is_an_error_naming_stage_count_and_given() -> None:
    dice = Dice.from_spec({"hit": [4, 5, 6, 6, 6, 6], "save": [1, 1, 1, 1]})
    dice.roll_many("hit", 6, 6, need=4)
    with pytest.raises(DiceError) as err:
        dice.roll_many("save", 6, 6, need=4, why="6 hits")
    assert "save: stage 2 needs 6 d6 (6 hits), 4 given" in str(err.value)
    assert "--roll-rest" in str(err.value)


def test_no_dice_entered_means_the_tracker_rolls_them_all() -> None:
    dice = Dice.from_spec({}, seed=5)
    values = dice.roll_many("hit", 6, 3)
    assert len(values) == 3 and {r.source for r in dice.rolls} == {"rolled"}


def test_roll_rest_rolls_only_what_was_not_entered_and_marks_it() -> None:
    dice = Dice.from_spec({"hit": [6, 6]}, seed=5, roll_rest=True)
    dice.roll_many("hit", 6, 4)
    assert [r.source for r in dice.rolls] == ["entered", "entered", "rolled", "rolled"]


def test_ask_mode_raises_need_dice_with_the_request() -> None:
    from tracker.core.dice import NeedDice

    dice = Dice.from_answers({"hit": [(6, "entered"), (2, "entered")]})
    hits = sum(v >= 4 for v in dice.roll_many("hit", 6, 2, need=4))
    with pytest.raises(NeedDice) as err:
        dice.roll_many("save", 6, hits, need=5, why=f"{hits} hit")
    req = err.value.request
    assert (req.stage, req.role, req.count, req.sides, req.target) == (1, "save", 1, 6, "5+")
    assert req.succeeds(5) is True and req.succeeds(4) is False


def test_answers_keep_where_each_value_came_from() -> None:
    dice = Dice.from_answers({"drive": [(3, "entered"), (6, "rolled")]})
    dice.roll_many("drive", 6, 2)
    assert [(r.value, r.source, r.stage) for r in dice.rolls] == [
        (3, "entered", 0), (6, "rolled", 0)
    ]


def test_unused_dice_say_how_many_the_role_takes() -> None:
    dice = Dice.from_spec({"kill": [6, 6, 6]})
    dice.roll_many("kill", 6, 1)
    with pytest.raises(DiceError, match=r"kill=6,6 \(kill takes 1 die here\)"):
        dice.check_all_used()


def test_one_notation_parser_serves_roll_and_the_rules() -> None:
    from tracker.core.dice import parse_notation

    n = parse_notation("d12+4")
    assert (n.count, n.sides, n.modifier) == (1, 12, 4)
    assert n.with_modifier(-3) == "d12+1"
    assert parse_notation("4").with_modifier(2) == "6"
    assert parse_notation("2d6").plain and not parse_notation("2d6+1").plain
    assert parse_notation("6d10>=7").cmp == ">="
    with pytest.raises(DiceError):
        parse_notation("2x6")


def test_roll_counts_one_success_in_the_singular() -> None:
    result = roll_expression("2d10>=7", Dice.from_spec({"roll": [8, 2]}))
    assert result.describe() == "2d10>=7: [8, 2] -> 1 success"


def test_a_stage_is_certain_only_when_every_face_is_of_one_kind():
    assert Request(0, "save", 6, 3, need=1, classes=face_classes(6, need=1)).certain
    assert not Request(0, "save", 6, 3, need=4, classes=face_classes(6, need=4)).certain
    assert not Request(0, "drive", 6, 2).certain  # read face by face: every face counts
