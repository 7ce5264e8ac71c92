"""No text the encounter keeps may act on a terminal: a name, note, condition or log line
holding a control character (ESC starting a terminal escape, a C1 control, a NUL) is
refused as it is typed, and a save or army list holding one is reported with its key
and left as it was, so no such byte ever reaches the GM's screen or a player's over
the table server."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.conftest import SAVES
from tracker.cli import main
from tracker.core.invalid import NO_CONTROLS, first
from tracker.core.model import Combatant, LogEntry
from tracker.session.language import CommandError
from tracker.session.opening import load, open_encounter
from tracker.store import SaveError

ESCAPES = ["\x1b]0;PWNED\x07", "\x1b[2J", "\x9b2J", "A\x00B", "\x7f",
           "\u202eevila", "A\u2067B"]  # a right-to-left override and an isolate


@pytest.mark.parametrize("escape", ESCAPES)
@pytest.mark.parametrize("line", [
    'add combatant "Bree{}" hp=5', 'set aria notes="x{}"', "note a{}b", "set aria +prone{}",
    "effect aria bless{} rounds=2", 'note! "{}"',
])
def test_a_typed_line_with_a_control_character_is_refused(tmp_path, escape, line):
    save = tmp_path / "g.toml"
    save.write_text((SAVES / "plain-goblin-ambush.toml").read_text())
    opened = open_encounter(save)
    before = opened.session.enc.model_dump()
    with pytest.raises(CommandError, match="control character"):
        opened.session.execute(line.format(escape))
    assert opened.session.enc.model_dump() == before


@pytest.mark.parametrize("escape", ESCAPES)
def test_the_model_holds_no_control_character(escape):
    for make in (lambda: Combatant(id="a", name=f"A{escape}"),
                 lambda: LogEntry(text=f"hi{escape}")):
        with pytest.raises(ValidationError) as err:
            make()
        assert first(err.value).expected == NO_CONTROLS
    assert Combatant(id="a", name="Tab\tand tilde ~ and é").name  # text is text


def test_a_save_holding_an_escape_is_reported_with_its_key_and_left_alone(tmp_path, capsys):
    save = tmp_path / "g.toml"
    text = (SAVES / "plain-goblin-ambush.toml").read_text()
    save.write_text(text.replace('name = "Bree"', 'name = "Bree\\u001b]0;PWNED\\u0007"', 1))
    before = save.read_bytes()
    with pytest.raises(SaveError) as err:
        load(save)
    assert err.value.key.endswith(".name") and "control character" in err.value.expected
    assert main(["check", str(save)]) == 1
    said = capsys.readouterr().err
    assert "g.toml at combatants[2:bree].name:" in said and "control character" in said
    assert main(["exec", str(save), "note hi"]) == 2
    assert save.read_bytes() == before
