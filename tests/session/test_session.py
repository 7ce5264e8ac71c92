"""The command language through a Session, as the `:` line and `tracker exec` run it."""

import pytest

from tests.conftest import skirmish
from tracker.core import history
from tracker.session.commands import CommandError
from tracker.session.session import Session


@pytest.fixture
def session() -> Session:
    return Session(skirmish())


def test_add_set_remove_and_undo(session):
    session.execute("add combatant 'Orc Chief' side=foes initiative=12 reflex=5")
    chief = session.enc.find_combatant("orc chief")
    assert (chief.side, chief.initiative, chief.stats) == ("foes", 12, {"reflex": 5})
    session.execute("set orc initiative=16 +prone")
    assert chief.initiative == 16 and chief.conditions == ["prone"]
    session.execute("remove orc")
    assert all(c.name != "Orc Chief" for c in session.enc.combatants)
    session.execute("undo")
    assert session.enc.find_combatant("orc").conditions == ["prone"]
    session.execute("undo")
    session.execute("undo")
    with pytest.raises(LookupError):
        session.enc.find_combatant("orc")
    session.execute("redo")
    assert session.enc.find_combatant("orc").initiative == 12


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("add combatant X initiative=fast", "initiative=fast"),
        ("add unit", "add combatant NAME"),
        ("set nobody initiative=3", "no combatant named 'nobody'"),
        ("set aldo", "nothing to set"),
        ("set aldo -prone", "Aldo is not prone"),
        ("next sideways", "expected turn, phase or round"),
        ("undo", "nothing to undo"),
        ("fly aldo", "unknown command 'fly'"),
        ("roll 3q6", "bad dice expression"),
        ("roll d6 --dice roll=7", "cannot show 7"),
        ("wound aldo remove=1", "remove=1: Aldo has no wounds"),
        ("heal aldo 1", "Aldo has no hit points"),
        ("setting x=1", "no setting"),
    ],
)
def test_bad_commands_give_one_clear_line_and_change_nothing(session, line, message):
    before = history.state_of(session.enc)
    log = list(session.enc.log)
    with pytest.raises(CommandError) as info:
        session.execute(line)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert history.state_of(session.enc) == before
    assert session.enc.log == log


def test_next_turn_round_and_effects(session):
    session.execute("effect aldo aimed rounds=1")
    assert session.execute("next").message.startswith("Turn: Grak")
    session.execute("next")
    out = session.execute("next")
    assert out.message.startswith("Round 2, Aldo first")
    assert "aimed ended" in out.message
    assert session.enc.find_combatant("aldo").effects == []


def test_roll_counts_successes_and_logs_every_die(session):
    out = session.execute("roll 6d10>=7 --dice roll=9,8,7,6,2,1")
    assert "3 successes" in out.message
    rolls = session.enc.log[-1].rolls
    assert [r.value for r in rolls] == [9, 8, 7, 6, 2, 1]
    assert {r.source for r in rolls} == {"entered"}
    out = session.execute("roll d100 --seed 5")
    assert session.enc.log[-1].rolls[0].source == "rolled"


def test_wounds_and_notes(session):
    session.execute("wound bree 'left arm' level=3 kind=cutting pain=2")
    wound = session.enc.find_combatant("bree").wounds[0]
    assert (wound.location, wound.level, wound.kind, wound.pain) == ("left arm", 3, "cutting", 2)
    session.execute("wound bree remove=1")
    assert session.enc.find_combatant("bree").wounds == []
    session.execute("note! the orcs fear fire")
    assert session.enc.log[-1].secret


def test_read_only_sessions_refuse_changes():
    ro = Session(skirmish(), read_only=True)
    with pytest.raises(CommandError, match="read-only"):
        ro.execute("next")
    assert ro.execute("roll d6").message.startswith("Roll")
    assert ro.enc.log == []


def test_an_army_list_adds_its_units_and_undo_takes_them_away(tmp_path):
    import shutil

    from tests.conftest import SAVES
    from tracker.session.opening import load

    save = tmp_path / "battle.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", save)
    (tmp_path / "armies").mkdir()
    shutil.copy(SAVES / "armies" / "warmaster-empire-reserve.toml", tmp_path / "armies")
    session = Session(load(save), save)
    before = len(session.enc.units)
    out = session.execute("army armies/warmaster-empire-reserve.toml")
    assert out.message == "Army list warmaster-empire-reserve.toml: 3 units join (Empire)"
    reiksguard = session.enc.find_unit("Reiksguard")
    assert (reiksguard.side, reiksguard.strength_start, reiksguard.armour) == ("Empire", 3, 4)
    session.execute("undo")
    assert len(session.enc.units) == before


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("../../etc/passwd", "army: passwd: a .toml army list, a .ros/.rosz roster or a .cat"),
        ("/etc/passwd", "army: passwd: a .toml army list, a .ros/.rosz roster or a .cat"),
        ("/etc/hostname.toml", "army: hostname.toml: no such file"),
        ("missing.toml", "army: missing.toml: no such file"),
    ],
)
def test_an_army_file_must_be_an_army_list(tmp_path, name, says):
    save = tmp_path / "enc.toml"
    session = Session(skirmish(), save)
    with pytest.raises(CommandError) as info:
        session.execute(f"army {name}")
    assert str(info.value).startswith(says)
    assert session.enc.log == []


def test_a_bad_army_list_names_the_unit_and_the_key(tmp_path):
    (tmp_path / "bad.toml").write_text("[[units]]\nname = 'Rabble'\nstrength = 'many'\n")
    session = Session(skirmish(), tmp_path / "enc.toml")
    with pytest.raises(CommandError, match=r"bad.toml at units\[0:Rabble\]\.strength"):
        session.execute("army bad.toml")


def test_a_table_file_named_in_the_settings_stays_in_the_save_folder(tmp_path):
    from tests.conftest import SAVES
    from tracker.session.opening import load

    session = Session(load(SAVES / "edc-roland-press.toml"), tmp_path / "duel.toml")
    with pytest.raises(CommandError, match="damage_table: '../../etc/passwd' points outside"):
        session.execute("setting damage_table=../../etc/passwd")
    assert "damage_table" not in session.enc.settings
