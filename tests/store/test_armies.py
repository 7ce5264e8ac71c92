"""Armies from BattleScribe rosters and catalogues, and the tracker's own lists, through
``:army``: the units made match the profiles, and a file that does not read adds nothing."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.conftest import SAVES
from tracker.core import history
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session
from tracker.store.armies import ArmyError, files, read_army

DATA = Path(__file__).resolve().parent / "data"
ROSTER = SAVES / "armies" / "warmaster-empire-vanguard.ros"
CATALOGUE = DATA / "border-patrol.cat"
SHARED = Path(os.environ.get(
    "TRACKER_BATTLESCRIBE_DATA",
    Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "battlescribe-warmaster",
))
EMPIRE = SHARED / "The Empire.cat"
needs_shared = pytest.mark.skipif(
    not EMPIRE.is_file(),
    reason=f"the BattleScribe Warmaster data is not at {SHARED} (set TRACKER_BATTLESCRIBE_DATA)",
)

FIELDS = ("side", "kind", "close_attacks", "shoot_attacks", "hits_per_stand", "armour",
          "strength", "strength_start")


@pytest.fixture
def battle(tmp_path: Path) -> Session:
    """A new Warmaster encounter, saved in a folder of its own."""
    from tracker.session.opening import new_encounter

    save = new_encounter("Field", "warmaster", tmp_path / "battle.toml")
    return Session(load(save), save)


def made(session: Session, name: str) -> tuple[object, ...]:
    unit = session.enc.find_unit(name)
    return tuple(getattr(unit, f) for f in FIELDS)


# --- rosters ------------------------------------------------------------------------------


def check_vanguard(session: Session, before: int) -> None:
    """The units of the hand-written roster, each as its profile says: Type, Attacks,
    Hits, Armour and Unit Size (stands)."""
    units = session.enc.units[before:]
    assert [u.name for u in units] == [
        "Halberdiers 1", "Halberdiers 2", "Crossbowmen", "Knights 1", "Knights 2", "Helblaster"]
    assert made(session, "Halberdiers 1") == ("Empire", "infantry", 3, 0, 3, 6, 3, 3)
    assert made(session, "Halberdiers 2") == ("Empire", "infantry", 3, 0, 3, 6, 3, 3)
    # Attacks 3/1: close and shooting; Armour 0: none
    assert made(session, "Crossbowmen") == ("Empire", "infantry", 3, 1, 3, None, 3, 3)
    # number="2": two units of Knights
    assert made(session, "Knights 1") == ("Empire", "cavalry", 3, 0, 3, 4, 3, 3)
    assert made(session, "Knights 2") == ("Empire", "cavalry", 3, 0, 3, 4, 3, 3)
    # Attacks 1/8-4-2 is not a number of dice: close 1 is taken, shooting left at 0
    assert made(session, "Helblaster") == ("Empire", "artillery", 1, 0, 2, None, 1, 1)


def test_a_roster_adds_every_selected_unit_with_its_count_and_profile(battle):
    before = len(battle.enc.units)
    out = battle.execute(f"army {ROSTER} side=Empire")
    check_vanguard(battle, before)
    assert out.message.startswith("Army list warmaster-empire-vanguard.ros: 6 units join (Empire)")
    # what it could not use is said, not guessed
    assert "not units: General (Character)" in out.message
    assert "upgrades not applied: Skirmishers (Halberdiers)" in out.message
    assert "Helblaster Attacks '1/8-4-2'" in out.message
    # no profile gives a pace: each unit takes its type's (pace_infantry ... settings)
    paces = {u.name: u.pace for u in battle.enc.units[before:]}
    assert paces == {"Halberdiers 1": 20, "Halberdiers 2": 20, "Crossbowmen": 20,
                     "Knights 1": 30, "Knights 2": 30, "Helblaster": 10}
    assert "set pace" not in out.message
    assert battle.enc.log[-1].text in out.message  # the log keeps the same account
    battle.execute("undo")
    assert len(battle.enc.units) == before


def test_the_same_roster_zipped_as_rosz_adds_the_same_units(battle, tmp_path):
    rosz = tmp_path / "vanguard.rosz"
    with zipfile.ZipFile(rosz, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(ROSTER, "vanguard.ros")
    before = len(battle.enc.units)
    out = battle.execute(f"army {rosz} side=Empire")
    assert out.message.startswith("Army list vanguard.rosz: 6 units join (Empire)")
    check_vanguard(battle, before)


def test_a_roster_s_side_is_its_force_s_catalogue_unless_one_is_given(battle):
    battle.execute(f"army {ROSTER}")
    assert {u.side for u in battle.enc.units} == {"The Empire"}


def test_names_already_in_the_encounter_get_the_next_free_number(tmp_path):
    save = tmp_path / "river.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", save)
    session = Session(load(save), save)
    before = len(session.enc.units)
    session.execute(f"army {ROSTER} side=Empire")
    assert [u.name for u in session.enc.units[before:]] == [
        "Halberdiers 2", "Halberdiers 3", "Crossbowmen 2", "Knights 1", "Knights 2",
        "Helblaster"]
    session.execute(f"army {ROSTER} side=Empire")
    names = [u.name for u in session.enc.units]
    assert {"Halberdiers 4", "Halberdiers 5", "Crossbowmen 3", "Knights 3", "Knights 4",
            "Helblaster 2"} <= set(names)
    assert len(names) == len(set(names))


# --- catalogues ---------------------------------------------------------------------------


def test_units_named_from_a_catalogue_with_their_counts(battle):
    out = battle.execute(f'army {CATALOGUE} Spearmen=2 archers "Chariots=1" side=Elves')
    assert out.message.startswith("Army list border-patrol.cat: 4 units join (Elves)")
    assert made(battle, "Spearmen 1") == ("Elves", "infantry", 3, 0, 3, 5, 3, 3)
    assert made(battle, "Spearmen 2") == ("Elves", "infantry", 3, 0, 3, 5, 3, 3)
    # a profile shared through an infoLink, an entry reached through an entryLink
    assert made(battle, "Archers") == ("Elves", "infantry", 3, 1, 3, 6, 3, 3)
    assert made(battle, "Chariots") == ("Elves", "chariots", 3, 0, 3, 5, 3, 3)


@pytest.mark.parametrize(("picks", "says"), [
    ("", "the units to take, e.g. Spearmen=2 (units: Spearmen, Archers, Chariots)"),
    ("Hero", "at selectionEntry 'Hero': a unit, found a Character"),
    ("Skirmishers", "at selectionEntry 'Skirmishers': a unit, found an upgrade"),
    ("Dragons", "a unit named 'Dragons' (units: Spearmen, Archers, Chariots)"),
    ("Spearmen=0", "Spearmen=0: a count from 1 to 100"),
    ("Spearmen=lots", "Spearmen=lots: a count from 1 to 100"),
    ("Spearmen Dragons", "a unit named 'Dragons'"),
])
def test_a_bad_pick_from_a_catalogue_gives_one_line_and_adds_nothing(battle, picks, says):
    before = history.state_of(battle.enc)
    with pytest.raises(CommandError) as info:
        battle.execute(f"army {CATALOGUE} {picks}")
    assert says in str(info.value) and "\n" not in str(info.value)
    assert history.state_of(battle.enc) == before and len(battle.enc.log) == 0


@needs_shared
def test_units_picked_from_the_empire_catalogue_match_their_profiles(battle):
    out = battle.execute(f'army "{EMPIRE}" Halberdiers=2 Crossbowmen "Steam Tank" Knights '
                         "side=Empire")
    assert out.message.startswith("Army list The Empire.cat: 5 units join (Empire)")
    # The Empire.cat: Halberdiers Infantry 3, Hits 3, Armour 6+, Unit Size 3
    assert made(battle, "Halberdiers 1") == ("Empire", "infantry", 3, 0, 3, 6, 3, 3)
    assert made(battle, "Halberdiers 2") == ("Empire", "infantry", 3, 0, 3, 6, 3, 3)
    # Crossbowmen Infantry 3/1, Hits 3, Armour 0 (none), Unit Size 3
    assert made(battle, "Crossbowmen") == ("Empire", "infantry", 3, 1, 3, None, 3, 3)
    # Steam Tank Machine 3/3, Hits 4, Armour 3+, Unit Size 1
    assert made(battle, "Steam Tank") == ("Empire", "machine", 3, 3, 4, 3, 1, 1)
    # the catalogue gives the Knights' Armour as "45": reported, not guessed
    assert made(battle, "Knights") == ("Empire", "cavalry", 3, 0, 3, None, 3, 3)
    assert "not read: Knights Armour '45' (3+ to 6+, 0 or -)" in out.message


@needs_shared
def test_every_clean_unit_profile_of_the_shared_catalogues_becomes_its_unit(tmp_path):
    """Each Unit profile whose values are plain (Attacks n or n/m, Armour n+ or 0) gives
    a unit with exactly those values, read here independently with ElementTree."""
    import re
    import xml.etree.ElementTree as ET

    from tracker import rules
    from tracker.store.armies import parse_picks

    model = rules.get("warmaster").unit_model
    ns = "{http://www.battlescribe.net/schema/catalogueSchema}"
    checked = 0
    for cat in sorted(SHARED.glob("*.cat")):
        for entry in ET.parse(cat).getroot().iter(f"{ns}selectionEntry"):
            profile = next((p for p in entry.iter(f"{ns}profile")
                            if p.get("typeName") == "Unit"), None)
            if profile is None or entry.get("type") != "unit":
                continue
            ch = {c.get("name"): c.text for c in profile.iter(f"{ns}characteristic")}
            att = re.fullmatch(r"(\d+)(?:/(\d+))?", ch["Attacks"])
            arm = re.fullmatch(r"(?:([3-6])\+|0)", ch["Armour"])
            if att is None or arm is None:
                continue
            army = read_army(cat, model, "X", parse_picks([f"{entry.get('name')}=1"]))
            unit = army.units[0]
            assert unit["kind"] == {"chariot": "chariots"}.get(
                ch["Type"].lower(), ch["Type"].lower())
            assert (unit["close_attacks"], unit["shoot_attacks"]) == (
                int(att[1]), int(att[2] or 0))
            assert unit["hits_per_stand"] == int(ch["Hits"])
            assert unit["armour"] == (int(arm[1]) if arm[1] else None)
            assert unit["strength"] == unit["strength_start"] == int(ch["Unit Size"])
            checked += 1
    assert checked >= 12


def test_other_rulesets_take_what_their_units_share_and_say_what_they_could_not(tmp_path):
    from tracker import rules
    from tracker.core.model import Unit
    from tracker.store.armies import parse_picks

    class SmallUnit(Unit):
        """A unit model without the Warmaster fields."""

    army = read_army(CATALOGUE, SmallUnit, "X", parse_picks(["Spearmen"]))
    assert army.units == [{"name": "Spearmen", "side": "X", "kind": "infantry",
                           "strength": 3, "strength_start": 3}]
    assert "no field for: Attacks, Hits, Armour" in army.notes
    # a characteristic named as a field of the ruleset's unit is taken as it is
    d6 = rules.get("d6battle").unit_model
    xml = CATALOGUE.read_text().replace(
        '<characteristic name="Unit Size" typeId="8f42-22c8-12e8-890a">3</characteristic>',
        '<characteristic name="Unit Size" typeId="x">3</characteristic>'
        '<characteristic name="SA" typeId="y">4</characteristic>'
        '<characteristic name="Mo" typeId="z">many</characteristic>', 1)
    (tmp_path / "d6.cat").write_text(xml)
    army = read_army(tmp_path / "d6.cat", d6, "X", parse_picks(["Archers"]))
    assert army.units[0]["sa"] == 4 and "mo" not in army.units[0]
    assert any("Archers Mo 'many'" in n for n in army.notes)


# --- files that do not read ---------------------------------------------------------------


def two_files_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.write(ROSTER, "a.ros")
        z.write(ROSTER, "b.ros")
    return path


BROKEN = {
    "broken.ros": (lambda p: p.write_bytes(ROSTER.read_bytes()[:900]),
                   "broken.ros at line "),
    "catalogue.ros": (lambda p: shutil.copy(CATALOGUE, p),
                      "catalogue.ros at <catalogue>: a BattleScribe roster (<roster> in the "
                      "roster schema), found <catalogue> of the catalogue schema"),
    "roster.cat": (lambda p: shutil.copy(ROSTER, p),
                   "roster.cat at <roster>: a BattleScribe catalogue"),
    "page.ros": (lambda p: p.write_text("<html><body>not a roster</body></html>"),
                 "found <html> in namespace (none)"),
    "two.rosz": (two_files_zip, "two.rosz: a zip of one .ros file, found a.ros, b.ros"),
    "plain.rosz": (lambda p: p.write_bytes(ROSTER.read_bytes()),
                   "plain.rosz: a zip file (a .rosz holds one .ros)"),
    "entities.ros": (lambda p: p.write_text(
        '<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><roster>&b;</roster>'),
        "entities.ros at DOCTYPE: no document type declaration (no DTD or entities)"),
    "external.ros": (lambda p: p.write_text(
        '<?xml version="1.0"?><!DOCTYPE roster SYSTEM "file:///etc/passwd"><roster/>'),
        "external.ros at DOCTYPE: no document type declaration"),
    "empty.ros": (lambda p: p.write_text(
        '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="x"/>'),
        "empty.ros at <roster>/<forces>: at least one <force>"),
    "generals.ros": (lambda p: p.write_text(
        ROSTER.read_text().split('<selection id="ev-0002"')[0]
        + "</selections></force></forces></roster>"),
        "generals.ros at <selections>: at least one selected unit (found only General "
        "(Character))"),
    "list.txt": (lambda p: p.write_text("Halberdiers x2"),
                 "list.txt: a .toml army list, a .ros/.rosz roster or a .cat catalogue"),
    "save.toml": (lambda p: shutil.copy(SAVES / "warmaster-river-crossing.toml", p),
                  "save.toml: an army list ([[units]] tables), found an encounter save"),
    "bad-number.ros": (lambda p: p.write_text(ROSTER.read_text().replace(
        'number="2"', 'number="two"')),
        "bad-number.ros at selection 'Knights': number= a whole number from 1, found 'two'"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_bad_or_foreign_file_gives_one_line_and_adds_nothing(battle, tmp_path, name):
    make, says = BROKEN[name]
    make(tmp_path / name)
    before = history.state_of(battle.enc)
    with pytest.raises(CommandError) as info:
        battle.execute(f"army {tmp_path / name}")
    message = str(info.value)
    assert message.startswith("army: ") and says in message, message
    assert "\n" not in message
    assert history.state_of(battle.enc) == before and len(battle.enc.log) == 0
    assert not (tmp_path / "armies").exists()  # nothing copied either


def test_unit_names_are_for_a_catalogue_only(battle):
    with pytest.raises(CommandError, match="no unit names .they pick units from a catalogue"):
        battle.execute(f"army {ROSTER} Halberdiers=2")


def test_a_zip_bomb_is_refused_from_its_directory_without_inflating_it(
        battle, tmp_path, monkeypatch):
    bomb = tmp_path / "bomb.rosz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("bomb.ros", "w", force_zip64=True) as fh:
            chunk = b"\0" * (1 << 20)
            for _ in range(files.MAX_BYTES // len(chunk) + 1):
                fh.write(chunk)
    assert bomb.stat().st_size < 100_000

    def never(*args, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("the member was opened")

    monkeypatch.setattr(zipfile.ZipFile, "open", never)
    with pytest.raises(CommandError) as info:
        battle.execute(f"army {bomb}")
    assert str(info.value) == ("army: bomb.rosz at zip member bomb.ros: at most 16.0 MiB "
                               "unzipped, declares 17.0 MiB")


def test_a_huge_file_is_refused_from_its_size_without_reading_it(battle, tmp_path,
                                                                 monkeypatch):
    huge = tmp_path / "huge.ros"
    with open(huge, "wb") as fh:
        fh.truncate(files.MAX_BYTES + 1)  # sparse: no disk used

    def never(*args, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("the file was opened")

    monkeypatch.setattr(files.os, "open", never)
    with pytest.raises(CommandError, match=r"huge.ros: at most 16.0 MiB, found 16.0 MiB"):
        battle.execute(f"army {huge}")


def test_a_fifo_is_refused_without_opening_it(battle, tmp_path, monkeypatch):
    fifo = tmp_path / "army.ros"
    os.mkfifo(fifo)

    def never(*args, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("the FIFO was opened")

    monkeypatch.setattr(files.os, "open", never)
    with pytest.raises(CommandError) as info:
        battle.execute(f"army {fifo}")
    assert str(info.value) == "army: army.ros: a regular file, found a pipe, socket or device"
    (tmp_path / "folder.ros").mkdir()
    with pytest.raises(CommandError, match="folder.ros: a file, found a folder"):
        battle.execute(f"army {tmp_path / 'folder.ros'}")


def test_a_file_that_grows_past_the_cap_while_read_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "grows.ros"
    path.write_bytes(b"x" * 100)
    monkeypatch.setattr(files, "MAX_BYTES", 100)
    path.write_bytes(b"x" * 101)  # as if it grew between the stat and the read
    real_stat = os.stat

    def small(p, *a, **kw):  # type: ignore[no-untyped-def]
        st = real_stat(p, *a, **kw)
        return os.stat_result((st.st_mode, *st[1:6], 100, *st[7:]))

    monkeypatch.setattr(files.os, "stat", small)
    with pytest.raises(ArmyError, match="grew while read"):
        files.read_bytes(path, limit=100)


# --- the tracker's own lists --------------------------------------------------------------


def test_a_toml_list_still_reads_with_per_unit_sides(battle, tmp_path):
    (tmp_path / "mixed.toml").write_text(
        'side = "Empire"\n[[units]]\nname = "Ogres"\nside = "Dogs of War"\nstrength = 3\n'
        '[[units]]\nname = "Spears"\nstrength = 2\n')
    out = battle.execute("army mixed.toml")
    assert out.message.startswith("Army list mixed.toml: 2 units join (Dogs of War, Empire)")
    assert battle.enc.find_unit("Spears").strength_start == 2
