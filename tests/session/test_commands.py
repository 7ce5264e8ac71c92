import re
from dataclasses import fields

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from tracker import rules
from tracker.session import commands
from tracker.session.commands import (
    APP_ONLY,
    VERBS,
    Act,
    Add,
    Army,
    Command,
    CommandError,
    Damage,
    Effect,
    Heal,
    Help,
    Next,
    Note,
    Quit,
    Remove,
    Rewind,
    Roll,
    SaveAs,
    Set,
    Setting,
    Wound,
    parse,
    parse_pairs,
    split_lines,
)
from tracker.session.language import read_words
from tracker.session.session import handlers


def test_words_pairs_and_dice():
    cmd = parse(':shoot "Archers I" knights attacks=6 --dice hit=1,2,4 save=2')
    assert cmd == Act("shoot", names=["Archers I", "knights"], params={"attacks": "6"},
                      dice={"hit": [1, 2, 4], "save": [2]})


def test_each_verb_reads_into_its_command():
    assert parse("add unit Halberdiers II side=Empire") == \
        Add("unit", "Halberdiers II", {"side": "Empire"})
    assert parse("add c Goblin") == Add("combatant", "Goblin")
    assert parse("set orc initiative=16 +prone -stunned") == \
        Set("orc", {"initiative": "16"}, ["+prone", "-stunned"])
    assert parse("remove Sir Roland") == Remove("Sir Roland")
    assert parse("next") == Next("turn")
    assert parse("next round force --dice morale=3,4") == \
        Next("round", True, dice={"morale": [3, 4]})
    assert parse("next phase force=yes --roll-rest") == Next("phase", True, roll_rest=True)
    assert parse("roll 6d10>=7 attack --seed 3") == Roll("6d10>=7", "attack", seed=3)
    assert parse("note! the ambush x=3") == Note("the ambush x=3", secret=True)
    assert parse("effect bree pinned until=grak at=end") == \
        Effect("bree", "pinned", {"until": "grak", "at": "end"})
    assert parse("wound aldo left arm level=2") == Wound("aldo", "left arm", {"level": "2"})
    assert parse("wound aldo remove=1") == Wound("aldo", remove=1)
    assert parse("heal aldo 7") == Heal(["aldo"], 7)
    assert parse("damage goblin 1 goblin 2 7") == Damage(["goblin", "1", "goblin", "2"], 7)
    assert parse("damage Aria 5 Tam") == Damage(["Aria", "Tam"], 5)
    assert parse("settings") == parse("setting") == Setting()
    assert parse("army 'The Empire.cat' Halberdiers=2 'Steam Tank' side=Empire") == \
        Army("The Empire.cat", ["Halberdiers=2", "Steam Tank"], "Empire")
    assert parse("rewind round 2 phase shooting") == Rewind(round=2, phase="shooting")
    assert parse("rewind 3") == Rewind(round=3)
    assert parse("rewind entry 0") == Rewind(entry=0)
    assert parse("help shoot") == Help("shoot")
    assert parse("?") == parse("help") == Help()
    assert parse("q") == parse("quit") == Quit()
    assert parse("save-as my battle") == SaveAs("my battle")


def test_seed_and_errors():
    assert parse("roll d100 --seed 4") == Roll("d100", seed=4)
    with pytest.raises(CommandError, match="whole number"):
        parse("roll d100 --seed x")
    with pytest.raises(CommandError, match="unknown option"):
        parse("next --fast")
    with pytest.raises(CommandError, match="cannot read"):
        parse('set "unclosed hp=3')
    with pytest.raises(CommandError) as refused:
        parse("effect Tam Bree's blessing rounds=2")
    assert str(refused.value) == ("cannot read the line: a quote is not closed (a word with "
                                  "an apostrophe goes in double quotes: \"Tam's dog\")")
    with pytest.raises(CommandError, match="empty"):
        parse("   ")
    with pytest.raises(CommandError, match="given twice"):
        parse("set a x=1 x=2")


@pytest.mark.parametrize(("line", "message"), [
    ("add goblin", "add combatant NAME [field=value ...] or add unit NAME [...]"),
    ("set", "set NAME field=value ... [+condition] [-condition]"),
    ("remove", "remove NAME"),
    ("next sideways", "next sideways: expected turn, phase or round (and force to skip "
                      "what is pending)"),
    ("roll", "roll EXPR: e.g. roll d100, roll 3d6+2, roll 6d10>=7"),
    ("note", "note TEXT: the note is empty"),
    ("effect bree", commands.GENERIC_HELP["effect"]),
    ("wound aldo", commands.GENERIC_HELP["wound"]),
    ("heal aldo", commands.GENERIC_HELP["heal"]),
    ("heal aldo x", commands.GENERIC_HELP["heal"]),
    ("damage 7", commands.GENERIC_HELP["damage"]),
    ("damage aldo 3 x=1", f"damage: did not expect 'x=1' ({commands.GENERIC_HELP['damage']})"),
    ("wound aldo remove=x", "remove=x: expected a whole number"),
    ("wound aldo arm remove=1", f"wound: did not expect 'arm' ({commands.GENERIC_HELP['wound']})"),
    ("army", commands.GENERIC_HELP["army"]),
    ("army list.toml --seed 3", "army: unknown option --seed (use side=NAME)"),
    ("rewind", "rewind round N [phase P] or rewind entry K"),
    ("rewind entry", "rewind round N [phase P] or rewind entry K"),
    ("rewind round x", "round=x: expected a whole number"),
    ("save-as", "save-as FILE: where to write the encounter"),
])
def test_a_line_that_does_not_fit_its_verb_says_how_it_is_typed(line, message):
    with pytest.raises(CommandError) as caught:
        parse(line)
    assert str(caught.value) == message


@pytest.mark.parametrize("line", [
    "undo --seed 3", "remove orc --roll-rest",
    "setting x=1 --dice a=1", "help --seed 1",
])
def test_dice_options_are_refused_where_nothing_rolls(line):
    verb = line.split()[0]
    with pytest.raises(CommandError, match=f"^{verb}: --.* is for actions, next and roll$"):
        parse(line)


def test_a_note_is_text_even_where_it_looks_like_an_option():
    """A GM writes dashes in a note ("Tam falls -- out cold"): they are the note's words."""
    cmd = parse("note Tam falls -- out cold --dice")
    assert isinstance(cmd, commands.Note) and cmd.body == "Tam falls -- out cold --dice"
    assert parse(cmd.text()) == cmd


@pytest.mark.parametrize("line", ["undo 3", "redo now", "remove orc x=1", "q now",
                                  "next x=1", "roll d6 hit extra", "setting round_resets"])
def test_words_a_verb_does_not_take_are_refused(line):
    with pytest.raises(CommandError, match="did not expect"):
        parse(line)


def test_note_keeps_equals_signs_as_text():
    assert parse("note the toll is x=3 silver") == Note("the toll is x=3 silver")


@pytest.mark.parametrize("body", ["Tam's sword breaks", 'the sign reads "keep out', "a  b",
                                  "the toll; 3 silver"])
def test_a_note_is_its_text_as_typed_apostrophes_and_quotes_too(body):
    """A note is what the GM wrote: an apostrophe or an unclosed quote is its own (the
    line was refused as 'cannot read the line: No closing quotation'), and the text
    reads back as the same note."""
    cmd = parse(f"note {body}")
    assert cmd == Note(body)
    assert parse(cmd.text()) == cmd
    assert parse(f"note! {body}") == Note(body, secret=True)


def test_a_script_splits_at_semicolons_outside_quotes_and_a_note_s_own():
    """A name in quotes may hold '; ' (it is one command); a note's apostrophes are its
    own, so its '; ' ends it."""
    assert split_lines('damage "Rear; guard" 3; next') == ['damage "Rear; guard" 3', "next"]
    assert split_lines("note Tam's sword breaks; next; note it's late") == [
        "note Tam's sword breaks", "next", "note it's late"]
    assert split_lines("set 'A; B' hp=3 ; undo") == ["set 'A; B' hp=3", "undo"]


def test_form_pairs():
    assert parse_pairs("reflex=5 Tough-ness=4") == {"reflex": "5", "tough_ness": "4"}
    assert parse_pairs("  ") == {}
    with pytest.raises(CommandError, match="'reflex': expected name=value"):
        parse_pairs("reflex")


def test_an_action_is_read_with_the_flags_its_caller_allows():
    words = read_words(["shoot", "x=1", "--json", "--seed", "2"], flags=("--json",))
    assert (words.params, words.flags, words.seed) == ({"x": "1"}, {"--json"}, 2)
    with pytest.raises(CommandError, match="unknown option --json"):
        read_words(["shoot", "--json"])


def test_scripts_split_on_lines_and_semicolons():
    assert split_lines("next ; undo\n# comment\nroll d6") == ["next", "undo", "roll d6"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_parses_or_gives_a_clean_error(text):
    try:
        parse(text)
    except CommandError as exc:
        assert str(exc)


ROUND_TRIP = [
    'shoot "Archers I" "Empire Knights" shooters="Archers II" --dice hit=1,2,4,5,6,6 '
    "save=2,4,5,6 --roll-rest --seed 9",
    "add combatant 'Orc chief' side=foes initiative=12 reflex=5",
    "set 'Sir Roland' initiative=16 +prone -stunned", "remove Halberdiers II",
    "next round force --dice morale=3,4", "undo", "redo", "roll 4d6kh3 stat",
    'note! "it'"'"'s the ambush"', "effect nolora aimed rounds=1", "wound aldo head level=2",
    "wound aldo remove=2", "heal aldo 2", "damage 'Goblin 1' Orc 7",
    "setting round_resets=reacted,dodged", "army x.cat 'Steam Tank' side=Empire",
    "rewind round 2 phase 3", "rewind entry 4", "help shoot", "q", "save-as kept",
]


@pytest.mark.parametrize("line", ROUND_TRIP)
def test_a_command_as_text_reads_back_as_the_same_command(line):
    cmd = parse(line)
    assert parse(cmd.text()) == cmd


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab=+-,'\" 12", min_size=1, max_size=6), min_size=1,
                max_size=5),
       st.sampled_from(sorted(VERBS)))
def test_any_command_read_reads_back_from_its_text(words, verb):
    try:
        cmd = commands.parse_words([verb, *words])
    except CommandError:
        assume(False)
        return
    assert commands.parse_words(commands.split(cmd.text())) == cmd


def _readme_verbs() -> list[str]:
    """The first word of each line of the README's command language."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## The command language", 1)[1].split("```", 2)[1]
    verbs = []
    for line in block.splitlines():
        for usage in re.split(r"\s+/\s+", line.split("  ")[0].strip()):
            if usage and not usage.startswith("·"):
                verbs.append(usage.split()[0])
    return verbs


def test_every_verb_of_the_readme_has_a_handler():
    """A verb the README documents is read into a typed command that the session runs
    through its table (or the app itself, for the app's own)."""
    verbs = _readme_verbs()
    assert {"add", "next", "undo", "redo", "note", "note!", "rewind", "save-as"} <= set(verbs)
    for verb in verbs:
        assert verb in VERBS, f"{verb}: no reader"
        made = _sample(verb)
        assert type(made) in handlers() or isinstance(made, APP_ONLY), f"{verb}: no handler"


def _sample(verb: str) -> Command:
    """A command of ``verb``, read from the shortest line that makes one."""
    for tail in ([], ["x"], ["x", "1"], ["unit", "x"], ["entry", "1"]):
        try:
            return commands.parse_words([verb, *tail])
        except CommandError:
            continue
    raise AssertionError(f"{verb}: no line makes a command")


def test_every_command_has_its_handler_or_is_the_apps():
    kinds = {k for k in _subclasses(Command)
             if (k.verb or k is Act) and getattr(commands, k.__name__) is k}
    assert {k.__name__ for k in kinds} == {
        "Add", "Set", "Remove", "Next", "Undo", "Redo", "Roll", "Note", "Effect", "Wound",
        "Damage", "Heal", "Setting", "Army", "Rewind", "Help", "Quit", "SaveAs", "Act"}
    for kind in kinds:
        assert (kind in handlers()) != (kind in APP_ONLY), kind.__name__
    assert all(v in handlers() or v in APP_ONLY for v in map(type, map(_sample, VERBS)))


def _subclasses(kind: type) -> list[type]:
    out = []
    for sub in kind.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


def test_no_ruleset_names_an_action_like_a_verb():
    for rid in rules.RULESETS:
        assert not set(rules.get(rid).actions) & set(VERBS), rid


def test_commands_are_values():
    cmd = parse("shoot a b --dice hit=1")
    with pytest.raises(AttributeError):
        cmd.names = []  # type: ignore[misc]
    assert "verb" not in {f.name for f in fields(cmd)}


def test_an_error_quoting_a_line_break_stays_one_line():
    with pytest.raises(CommandError) as caught:
        parse("' \n ' x")
    assert str(caught.value) == "' \\n ' is not a command: type help for the list"


@pytest.mark.parametrize("line", ["damage Tam ²", "heal Tam ③", "rewind phase ²"])
def test_digits_that_are_not_0_to_9_are_refused_in_one_line(line):
    """``str.isdigit`` takes ² and ③, which int() cannot read: such a word was taken for
    a number and the line failed outside the tracker's words (fuzzing found it)."""
    from tests.conftest import SAVES
    from tracker.session.opening import load
    from tracker.session.session import Session

    session = Session(load(SAVES / "plain-goblin-ambush.toml"))
    with pytest.raises(CommandError):
        session.execute(line)


def test_a_die_typed_as_a_superscript_or_another_script_s_digit_is_refused():
    from tracker.core.dice import DiceError
    from tracker.core.dice_entry import read_entry

    for typed in ("²", "1²", "٣"):
        with pytest.raises(DiceError, match="dice are whole numbers"):
            read_entry(typed, 6)
    assert read_entry("3 4", 6) == [3, 4]
