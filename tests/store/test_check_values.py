"""`tracker check` reads a hand-edited save for what the tracker could not have written:
beside each value outside its field's domain, a place in the fight that is none (round
0, a negative turn, a turn, phase or side's turn past the last there is), two combatants
or units with one id (every change would go to the first), an effect that ends on the
turn of someone the encounter does not have, and a setting its rule cannot use. Each is
said with the file, the key and what is expected, and the save is left as it was."""

from __future__ import annotations

import pytest

from tests.conftest import SAVES
from tracker.cli import main

SAMPLE = (SAVES / "plain-goblin-ambush.toml").read_text()


@pytest.mark.parametrize(("old", "new", "said"), [
    ("round = 2", "round = 0", "position.round=0: must be at least 1"),
    ("[position]\nround = 2", "[position]\nround = 2\nturn = -1",
     "position.turn=-1: must be at least 0"),
    # seven in the order (Goblin 1 is down): 7 says all seven had their turn
    ("[position]\nround = 2", "[position]\nround = 2\nturn = 99",
     "position.turn=99: must be at most 7 (7 turns in the order; 7: all taken)"),
    ("[position]\nround = 2", "[position]\nround = 2\nphase = 4",
     "position.phase=4: must be at most 0 (plain has 1 phase)"),
    ("[position]\nround = 2", "[position]\nround = 2\nside = 3",
     "position.side=3: must be 0 (in plain the sides do not take turns)"),
    ('id = "tam"', 'id = "aria"', "combatants[1].id=aria: the id of Aria as well"),
    ('who = "tam"', 'who = "nobody"',
     "Tam: effects[0:poisoned].ends.who=nobody: no combatant, unit, group or side"),
    ('gm_side = "foes"', 'gm_side = "foes"\n\n[settings]\ncrit_damage = "lots"',
     "settings.crit_damage=lots: expected one of dice, max, total, none"),
    ('gm_side = "foes"', 'gm_side = "foes"\n\n[settings]\ninitiative_dice = "banana"',
     "settings.initiative_dice=banana: dice like d20 or 2d6"),
    ('gm_side = "foes"', 'gm_side = "foes"\n\n[settings]\nnatural_20 = "maybe"',
     "settings.natural_20=maybe: "),
])
def test_a_hand_edit_the_tracker_could_not_have_made_is_reported(tmp_path, capsys, old, new,
                                                                   said):
    save = tmp_path / "g.toml"
    assert old in SAMPLE
    save.write_text(SAMPLE.replace(old, new, 1))
    before = save.read_bytes()
    assert main(["check", str(save)]) == 1
    err = capsys.readouterr().err
    assert f"g.toml: {said}" in err, err
    assert save.read_bytes() == before


def test_the_sample_as_shipped_passes(tmp_path, capsys):
    save = tmp_path / "g.toml"
    save.write_text(SAMPLE)
    assert main(["check", str(save)]) == 0


def test_a_side_past_the_last_is_reported_where_the_sides_take_turns(tmp_path, capsys):
    save = tmp_path / "w.toml"
    text = (SAVES / "warmaster-river-crossing.toml").read_text()
    save.write_text(text.replace("[position]\n", "[position]\nside = 2\n", 1))
    assert main(["check", str(save)]) == 1
    assert "w.toml: position.side=2: must be at most 1 (the encounter has 2 sides)" \
        in capsys.readouterr().err


def test_the_turn_after_the_last_is_the_round_s_turns_over_and_passes(tmp_path, capsys):
    save = tmp_path / "g.toml"
    save.write_text(SAMPLE.replace("[position]\nround = 2", "[position]\nround = 2\nturn = 7"))
    assert main(["check", str(save)]) == 0, capsys.readouterr().err
