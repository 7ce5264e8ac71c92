import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.session.commands import CommandError, parse, split_lines


def test_words_pairs_and_dice():
    cmd = parse(':shoot "Archers I" knights attacks=6 --dice hit=1,2,4 save=2')
    assert cmd.verb == "shoot"
    assert cmd.args == ["Archers I", "knights"]
    assert cmd.params == {"attacks": "6"}
    assert cmd.dice == {"hit": [1, 2, 4], "save": [2]}


def test_seed_and_errors():
    assert parse("roll d100 --seed 4").seed == 4
    with pytest.raises(CommandError, match="whole number"):
        parse("roll d100 --seed x")
    with pytest.raises(CommandError, match="unknown option"):
        parse("next --fast")
    with pytest.raises(CommandError, match="cannot read"):
        parse('note "unclosed')
    with pytest.raises(CommandError, match="empty"):
        parse("   ")
    with pytest.raises(CommandError, match="given twice"):
        parse("set a x=1 x=2")


def test_note_keeps_equals_signs_as_text():
    assert parse("note the toll is x=3 silver").args == ["the", "toll", "is", "x=3", "silver"]


def test_scripts_split_on_lines_and_semicolons():
    assert split_lines("next ; undo\n# comment\nroll d6") == ["next", "undo", "roll d6"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_parses_or_gives_a_clean_error(text):
    try:
        parse(text)
    except CommandError as exc:
        assert str(exc)


def test_an_error_quoting_a_line_break_stays_one_line():
    with pytest.raises(CommandError) as caught:
        parse("' \n ' x")
    assert str(caught.value) == "' \\n ' is not a command: type help for the list"
