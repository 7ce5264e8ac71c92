"""Domains as data: a value no rule allows is refused in one line by every path in, and
nothing is changed (issue 26, "Impossible values saved")."""

from __future__ import annotations

import io
import shutil
import string
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import SAVES, journal_of
from tests.store.test_armies import EMPIRE, needs_shared
from tracker import rules
from tracker.cli import main
from tracker.core.domains import Domain, domains_of
from tracker.rules.warmaster.tables import ARMOUR
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session


def session_of(tmp_path: Path, sample: str) -> Session:
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return Session(load(path), path)


def refused(s: Session, line: str) -> str:
    """The one-line refusal of ``line``; the encounter and its log are as they were."""
    before = s.enc.model_dump(mode="json")
    entries = len(s.enc.log)
    with pytest.raises(CommandError) as err:
        s.execute(line)
    message = str(err.value)
    assert "\n" not in message
    assert s.enc.model_dump(mode="json") == before
    assert len(s.enc.log) == entries
    return message


# --- the examples of the issue, each through the path it names ---------------------------


@pytest.mark.parametrize(
    ("sample", "line", "said"),
    [
        ("warmaster-river-crossing.toml", "set spearmen strength=-1",
         "strength=-1: must be at least 0"),
        ("warmaster-river-crossing.toml", "add unit Levy ranks=-2",
         "ranks=-2: must be at least 0 (or none)"),
        ("warmaster-river-crossing.toml", "set spearmen pace=-5",
         "pace=-5: must be at least 1 (or none)"),
        ("edc-roland-press.toml", "set roland reflex=-1", "reflex=-1: must be at least 0"),
        ("edc-roland-press.toml", "effect roland bleeding rounds=-1",
         "rounds=-1: must be at least 0"),
        ("warmaster-river-crossing.toml", "set spearmen hits_per_stand=0",
         "hits_per_stand=0: must be at least 1"),
        ("warmaster-river-crossing.toml", "set spearmen armour=2",
         "armour=2: Warmaster armour is 3 to 6 (a save of 3+ to 6+), or none"),
        ("warmaster-river-crossing.toml", "add unit Guard armour=9",
         "armour=9: Warmaster armour is 3 to 6"),
        ("warmaster-river-crossing.toml", "add unit Guard kind=knights",
         "kind=knights: must be one of infantry, cavalry, chariots, artillery, monster, "
         "machine, other"),
        ("d6battle-crossbow-duel.toml", "set foot sergeants kind=pikes",
         "kind=pikes: must be one of infantry, cavalry"),
        ("edc-roland-press.toml", "exchange roland roland attack_dice=3",
         "defender=Roland: the attacker itself (Roland); name another"),
        # a unit has no more than it started with: raise strength_start with it
        ("warlord-wood-elves.toml", 'set "wood elf guards" strength=40',
         "strength=40: must be at most strength_start (10)"),
        ("warlord-wood-elves.toml", 'set "wood elf guards" strength_start=4',
         "strength_start=4: must be at least strength (10)"),
        ("warmaster-river-crossing.toml", "add unit Levy strength=4 strength_start=3",
         "strength=4: must be at most strength_start (3)"),
    ],
)
def test_an_impossible_value_is_refused_naming_field_value_and_what_is_allowed(
    tmp_path: Path, sample: str, line: str, said: str
) -> None:
    s = session_of(tmp_path, sample)
    assert refused(s, line).startswith(said)


def test_a_value_in_its_domain_is_taken(tmp_path: Path) -> None:
    s = session_of(tmp_path, "warmaster-river-crossing.toml")
    s.execute("set spearmen armour=3 hits_per_stand=4 pace=15 kind=monster")
    unit = s.enc.find_unit("spearmen")
    assert (unit.armour, unit.hits_per_stand, unit.pace, unit.kind) == (3, 4, 15, "monster")
    s.execute("set spearmen armour=none")
    assert s.enc.find_unit("spearmen").armour is None


def test_only_the_fields_given_are_checked(tmp_path: Path) -> None:
    """A unit saved before its domain was declared keeps its value until it is set."""
    s = session_of(tmp_path, "warmaster-river-crossing.toml")
    s.enc.find_unit("spearmen").armour = 2  # as an older save could hold it
    s.execute("set spearmen notes=old")
    assert refused(s, "set spearmen armour=2").startswith("armour=2:")


def test_the_example_of_an_edc_fighter_attacking_herself_by_another_name(
    tmp_path: Path,
) -> None:
    s = session_of(tmp_path, "edc-roland-press.toml")
    assert refused(s, "exchange Roland roland attack_dice=3").startswith(
        "defender=Roland: the attacker itself")


def test_no_more_dice_than_figures(tmp_path: Path) -> None:
    """d6battle: "Roll 1d6 per figure firing"."""
    s = session_of(tmp_path, "d6battle-crossbow-duel.toml")
    shooter = s.enc.find_unit("longbowmen")
    said = refused(s, f"shoot longbowmen genoese figures={shooter.strength + 1} force=yes")
    assert said == f"figures={shooter.strength + 1}: {shooter.name} has only " \
                   f"{shooter.strength} figures"


# --- every path honours the same domain --------------------------------------------------


def test_army_list(tmp_path: Path) -> None:
    s = session_of(tmp_path, "warmaster-river-crossing.toml")
    army = tmp_path / "bad.toml"
    army.write_text('name = "Bad"\nside = "Empire"\n[[units]]\nname = "Guard"\narmour = 9\n')
    said = refused(s, f"army {army}")
    assert said == "army: bad.toml at units[0:Guard].armour: 9: Warmaster armour is 3 to 6" \
                   " (a save of 3+ to 6+), or none"


def test_wound(tmp_path: Path) -> None:
    s = session_of(tmp_path, "edc-roland-press.toml")
    assert refused(s, "wound roland arm pain=-2") == "pain=-2: must be at least 0"


def test_effect_options(tmp_path: Path) -> None:
    s = session_of(tmp_path, "edc-roland-press.toml")
    assert refused(s, "effect roland dazed at=noon") == "at=noon: expected start or end"
    assert refused(s, "effect roland dazed turn=maybe") == "turn=maybe: expected yes or no"
    assert s.execute("effect roland dazed rounds=0").message == "Roland: dazed"


def test_resolve_refuses_a_parameter_outside_its_domain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", "warmaster", "shoot", "attacks=-1"]) == 2
    assert capsys.readouterr().err.strip() == "tracker: attacks=-1: must be at least 0"
    assert main(["resolve", "edc", "exchange", "attacker=Roland", "defender=roland",
                 "attack_dice=3", "atn=6", "defense_dice=2", "dtn=7"]) == 2
    assert capsys.readouterr().err.strip() == (
        "tracker: defender=roland: the attacker itself (roland); name another")


def test_exec_refuses_and_saves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "warmaster-river-crossing.toml"
    shutil.copy(SAVES / path.name, path)
    assert exec_line(path, "set spearmen pace=1")[0] == 0  # the journal is started
    state, log = path.read_bytes(), journal_of(path).read_bytes()
    code, err = exec_line(path, "set spearmen armour=9")
    assert code == 2
    assert err == "tracker: set spearmen armour=9: armour=9: Warmaster armour is 3 to 6" \
                  " (a save of 3+ to 6+), or none"
    assert (path.read_bytes(), journal_of(path).read_bytes()) == (state, log)


def exec_line(path: Path, line: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["exec", str(path), line])
    return code, err.getvalue().strip()


# --- units that arrive ready -------------------------------------------------------------


def test_a_warmaster_unit_added_without_a_pace_takes_its_types(tmp_path: Path) -> None:
    s = session_of(tmp_path, "warmaster-river-crossing.toml")
    s.execute("add unit Levy")
    s.execute("add unit Outriders kind=cavalry")
    s.execute("setting pace_artillery=15")
    s.execute("add unit Mortar kind=artillery")
    paces = {u.name: u.pace for u in s.enc.units[-3:]}
    assert paces == {"Levy": 20, "Outriders": 30, "Mortar": 15}


def test_a_machine_arrives_asking_for_its_pace_and_is_not_routed_meanwhile(
    tmp_path: Path,
) -> None:
    s = session_of(tmp_path, "warmaster-river-crossing.toml")
    out = s.execute("add unit Steam Tank kind=machine side=Empire strength=1")
    assert "set pace (machine: set it before a drive back)" in out.message
    tank = s.enc.find_unit("steam tank")
    assert tank.pace is None
    tank.hits = 2  # as a shot leaves it
    with pytest.raises(CommandError, match="Steam Tank has no pace"):
        s.execute("endphase")
    assert s.enc.find_unit("steam tank").active


@needs_shared
def test_units_from_a_battlescribe_catalogue_arrive_with_their_types_pace(
    tmp_path: Path,
) -> None:
    s = session_of(tmp_path, "warmaster-river-crossing.toml")
    out = s.execute(f'army "{EMPIRE}" Halberdiers Knights Cannon "Steam Tank" side=Empire')
    paces: dict[str, Any] = {u.name: u.pace for u in s.enc.units[-4:]}
    assert paces == {"Halberdiers 2": 20, "Knights": 30, "Cannon": 10, "Steam Tank": None}
    assert "set pace (machine: set it before a drive back) for Steam Tank" in out.message


# --- random values outside their domain, through set and add ------------------------------

SAMPLES = {  # a sample of each ruleset whose models declare domains, and one of its own
    "warmaster-river-crossing.toml": ("unit", "spearmen"),
    "d6battle-crossbow-duel.toml": ("unit", "foot-sergeants"),
    "warlord-wood-elves.toml": ("unit", "wood-elf-guards"),
    "edc-roland-press.toml": ("combatant", "roland"),
    "harn-nolora-point-blank.toml": ("combatant", "nolora"),
}
_saved: dict[str, Path] = {}


def saved(sample: str) -> Path:
    """A copy of ``sample`` with its journal started, kept for the whole test."""
    if sample not in _saved:
        folder = Path(tempfile.mkdtemp(prefix="tracker-domains-"))
        path = folder / sample
        shutil.copy(SAVES / sample, path)
        assert exec_line(path, "note the domains are tried")[0] == 0
        _saved[sample] = path
    return _saved[sample]


def outside(domain: Domain) -> st.SearchStrategy[str]:
    """Text for a value outside ``domain``."""
    if domain.choices:
        return st.text(string.ascii_lowercase, min_size=1, max_size=8).filter(
            lambda t: t not in domain.choices)
    below = (st.integers(max_value=domain.ge - 1) if domain.ge is not None else st.nothing())
    if domain is ARMOUR:
        below = st.integers(max_value=domain.ge - 1).filter(bool)  # 0: no armour
    above = (st.integers(min_value=domain.le + 1) if domain.le is not None else st.nothing())
    return st.one_of(below, above).map(str)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_random_values_outside_their_domain_are_refused_and_change_nothing(
    data: st.DataObject,
) -> None:
    sample = data.draw(st.sampled_from(sorted(SAMPLES)), label="sample")
    kind, who = SAMPLES[sample]
    path = saved(sample)
    ruleset = rules.get(load(path).ruleset)
    model = ruleset.unit_model if kind == "unit" else ruleset.combatant_model
    domains = domains_of(model)  # the fields the tracker keeps are refused as such
    field = data.draw(st.sampled_from(sorted(set(domains) - set(model.kept))), label="field")
    value = data.draw(outside(domains[field]), label="value")
    line = data.draw(st.sampled_from([f"set {who} {field}={value}",
                                      f"add {kind} Newcomer {field}={value}"]), label="line")
    state, log = path.read_bytes(), journal_of(path).read_bytes()
    code, err = exec_line(path, line)
    assert code == 2
    optional = type(None) in get_args(model.model_fields[field].annotation)
    said = ("too large a number (at most 9 digits)" if len(value.lstrip("+-")) > 9
            else domains[field].words(optional))
    assert err == f"tracker: {line}: {field}={value}: {said}"
    assert (path.read_bytes(), journal_of(path).read_bytes()) == (state, log)


# --- names every command can type ---------------------------------------------------------

NAME_SAID = ("must be a name commands can type: not blank, at most 64 characters, no comma or =,"
             " not starting with + or -")


@pytest.mark.parametrize("line", [
    'add combatant ""', 'add combatant "   "', 'set Tam name=""', "set Tam name=Tam,Bree",
    'set Tam name="hp=3"', "set Tam name=+prone", "set Tam name=-x", "set Tam side=",
    "add unit Wolves side=", "add combatant Orc side=a,b", f"add combatant {'a' * 65}",
])
def test_a_name_no_command_could_type_is_refused(tmp_path: Path, line: str) -> None:
    """A blank name names no one; a list splits at its comma, ``hp=3`` is read as a value
    and ``+prone`` as a mark: whoever bore one could not be named again."""
    s = session_of(tmp_path, "plain-goblin-ambush.toml")
    assert refused(s, line).endswith(NAME_SAID)


def test_a_name_someone_has_is_refused_by_set_and_numbered_by_add(tmp_path: Path) -> None:
    """Each name names one: ``set Tam name=aria`` would leave two Arias, of whom every
    command finds the first; ``add combatant Aria`` brings in Aria 2, as an army list's
    second Halberdiers become Halberdiers 2."""
    s = session_of(tmp_path, "plain-goblin-ambush.toml")
    assert refused(s, "set Tam name=ARIA") == (
        "name=ARIA: ARIA is in the fight already (each name names one)")
    s.execute('set Tam name="Tam the Bold"')
    assert s.enc.find_combatant("tam").name == "Tam the Bold"
    s.execute("add combatant aria hp=9")
    s.execute("add unit Wolves side=foes")
    s.execute("add unit Wolves side=foes")
    names = [x.name for x in s.enc.everyone]
    assert names.count("Aria") == 1 and "aria 2" in names
    assert names[-2:] == ["Wolves", "Wolves 2"]
    s.execute("damage aria 2 3")  # the newcomer is named, and only it is hurt
    assert (s.enc.find_combatant("Aria").hp, s.enc.find_combatant("aria 2").hp) == (17, 6)


# --- settings hold what their rule can use ------------------------------------------------


@pytest.mark.parametrize(("sample", "line", "said"), [
    ("warmaster-river-crossing.toml", "setting pace_infantry=0",
     "pace_infantry=0: must be at least 1"),
    ("warmaster-river-crossing.toml", "setting pace_monster=-5",
     "pace_monster=-5: must be at least 1"),
    ("edc-roland-press.toml", "setting ride_tn=-3", "ride_tn=-3: must be at least 1"),
    ("edc-roland-press.toml", "setting engaged_ride_tn_bonus=-99",
     "engaged_ride_tn_bonus=-99: must be at least 0"),
    ("edc-roland-press.toml", "setting aim_shift_per_die=-1",
     "aim_shift_per_die=-1: must be at least 0"),
    ("harn-nolora-volley.toml", "setting humanoid_zones=0",
     "humanoid_zones=0: must be at least 1"),
    ("harn-nolora-volley.toml", "setting thrown_pb_zd=1",
     "thrown_pb_zd=1: must be a die of 2 sides or more"),
    ("edc-roland-press.toml", "setting ride_tn=seven",
     "setting ride_tn: 'seven' is not a whole number"),
    ("warmaster-river-crossing.toml", "setting split_batches=maybe",
     "setting split_batches: 'maybe' is not yes or no"),
    ("warlord-wood-elves.toml", "setting morale_thresholds=A:150,B:40",
     "morale_thresholds: 'A:150' should read CLASS:PERCENT, a percent of 0 to 100, e.g. A:50"),
    ("warlord-wood-elves.toml", "setting morale_thresholds=banana",
     "morale_thresholds: 'banana' should read CLASS:PERCENT"),
])
def test_a_setting_its_rule_cannot_use_is_refused(tmp_path: Path, sample: str, line: str,
                                                  said: str) -> None:
    """A pace of 0 cm (a unit that cannot move drives back into a rout at any hit), a TN
    below 1, a zone die of one side, a threshold past 100 %: refused as typed, nothing
    set."""
    s = session_of(tmp_path, sample)
    assert refused(s, line).startswith(said)


@pytest.mark.parametrize(("line", "said"), [
    ('wound Roland ""', "wound NAME LOCATION: the location is empty"),
    ('wound Roland "  "', "wound NAME LOCATION: the location is empty"),
    ('effect Roland ""', "effect NAME EFFECT: the effect is empty"),
    ("set Roland +", "set: '+' names no condition (+prone adds one, -prone takes it away)"),
    ("set Roland -", "set: '-' names no condition (+prone adds one, -prone takes it away)"),
])
def test_a_blank_wound_effect_or_condition_is_refused(tmp_path: Path, line: str,
                                                      said: str) -> None:
    """A wound to nowhere, an effect of no name or a bare + logged a line that said
    nothing ("Roland: wound to ", "Roland: ")."""
    s = session_of(tmp_path, "edc-roland-press.toml")
    assert refused(s, line) == said


@pytest.mark.parametrize("line", [
    "set Tam initiative=99999999999999999999999",
    "set Tam stats.str=12345678901",
    "add combatant Big initiative=-99999999999999999999",
    "effect Tam stun rounds=99999999999999999999999",
    "wound Tam arm level=99999999999999999999",
    "attack Tam Goblin 3 --dice attack=99999999999",
])
def test_a_number_of_more_than_nine_digits_is_refused_by_every_verb(tmp_path: Path,
                                                                    line: str) -> None:
    """A slip of the keys no field's own domain catches (an initiative, a stat, an
    effect's rounds) is refused in one line naming it; a save could not even hold one
    past 18 digits as TOML."""
    s = session_of(tmp_path, "plain-goblin-ambush.toml")
    message = refused(s, line)
    long = next(w for w in line.split() if any(c.isdigit() for c in w) and len(w) > 10)
    assert message == f"{long}: too large a number (at most 9 digits)"


def test_a_long_number_typed_in_a_form_is_refused_and_nine_digits_are_taken(
        tmp_path: Path) -> None:
    from tracker.session.commands import Set

    s = session_of(tmp_path, "plain-goblin-ambush.toml")
    with pytest.raises(CommandError, match=r"^initiative=1234567890: too large a number"):
        s.run(Set(who="Tam", params={"initiative": "1234567890"}))
    s.run(Set(who="Tam", params={"initiative": "123456789"}))
    assert s.enc.find_combatant("Tam").initiative == 123456789
    s.execute("note a phone number, 01234567890123")  # a note is text
    assert s.enc.log[-1].text == "a phone number, 01234567890123"


# --- what a setting names: the Fantasy Warlord profile sheet --------------------------------

GUARDS = "Wood elf guards"  # wood_elf, elf_bow, leather in the sample


@pytest.mark.parametrize(("line", "said"), [
    (f"set {GUARDS} race=martian", "race=martian: not on the profile sheet (races: wood_elf, "
     "orc, goblin, human, dwarf)"),
    (f"set {GUARDS} weapon=laser", "weapon=laser: not on Wood elves' chart of the profile "
     "sheet (weapons: elf_bow, short_bow)"),
    (f"set {GUARDS} armour_class=mithril", "armour_class=mithril: not on the profile sheet "
     "(armour: none, leather, chainmail, plate)"),
    (f"set {GUARDS} race=orc", "race=orc: weapon=elf_bow: not on Orcs' chart of the profile "
     "sheet (weapons: short_bow, crossbow); set weapon with it"),
    ("add unit Martians side=elves race=martian", "race=martian: not on the profile sheet "
     "(races: wood_elf, orc, goblin, human, dwarf)"),
])
def test_a_warlord_unit_names_lines_of_the_profile_sheet(tmp_path: Path, line: str,
                                                         said: str) -> None:
    """A race, weapon or armour class the sheet has no line for would be refused only when
    the unit fires; it is refused as it comes in."""
    s = session_of(tmp_path, "warlord-wood-elves.toml")
    assert refused(s, line) == said


def test_a_race_and_its_weapon_given_together_are_taken(tmp_path: Path) -> None:
    s = session_of(tmp_path, "warlord-wood-elves.toml")
    s.execute(f"set {GUARDS} race=orc weapon=crossbow")
    unit = next(u for u in s.enc.units if u.name == GUARDS)
    assert (unit.race, unit.weapon) == ("orc", "crossbow")


def test_a_profile_sheet_the_units_do_not_fit_is_refused_and_check_names_a_hand_edit(
        tmp_path: Path) -> None:
    """A sheet of the GM's own without the wood elves: the setting is refused while a unit
    of wood elves is in the fight; a race edited by hand into the save is reported by
    `tracker check`, naming the unit."""
    s = session_of(tmp_path, "warlord-wood-elves.toml")
    sheet = (Path(rules.__file__).parent / "warlord" / "profiles.toml").read_text()
    (tmp_path / "sheet.toml").write_text(sheet.replace("races.wood_elf", "races.sylvan"))
    assert refused(s, "setting profiles=sheet.toml") == (
        f"profiles=sheet.toml: {GUARDS} no longer fits: race=wood_elf: not on the profile "
        "sheet (races: sylvan, orc, goblin, human, dwarf)")
    s.execute(f"remove {GUARDS}")
    s.execute("setting profiles=sheet.toml")  # no wood elves left: it fits
    path = tmp_path / "edited.toml"
    shutil.copy(SAVES / "warlord-wood-elves.toml", path)
    path.write_text(path.read_text().replace('race = "wood_elf"', 'race = "martian"', 1))
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        assert main(["check", str(path)]) == 1
    assert (f"{GUARDS}: race=martian: not on the profile sheet (races: wood_elf, orc, goblin,"
            " human, dwarf) (it opens; `set` corrects it)") in err.getvalue()


@pytest.mark.parametrize(("sample", "line", "said"), [
    ("harn-nolora-point-blank.toml", "set Nolora archry=80",
     "archry: no field of that name; did you mean archery? (a stat of your own by that "
     "name: stats.archry=…)"),
    ("edc-roland-press.toml", "add combatant Gaoler relfex=5",
     "relfex: no field of that name; did you mean reflex? (a stat of your own by that "
     "name: stats.relfex=…)"),
    ("edc-roland-press.toml", "set Jacques stats.=5",
     "stats.: a stat needs a name of its own (stats.str=16)"),
    ("edc-roland-press.toml", "set Jacques foo.bar=3",
     "foo.bar: no field foo (a stat of your own: stats.foo_bar=…)"),
])
def test_a_slip_in_a_field_name_is_refused_not_kept_as_a_stat(tmp_path: Path, sample: str,
                                                              line: str, said: str) -> None:
    """A name that is none of the fields is a stat of the GM's own (plain's reflex=5);
    one that is a near miss of a field was kept as a stat that nothing reads, and the
    GM took the archery as changed."""
    s = session_of(tmp_path, sample)
    before = len(s.enc.log)
    assert refused(s, line) == said
    assert len(s.enc.log) == before


def test_a_stat_of_the_gms_own_is_taken_by_its_name_or_outright(tmp_path: Path) -> None:
    s = session_of(tmp_path, "edc-roland-press.toml")
    s.execute("set Jacques luck=4 stats.relfex=2")
    assert s.enc.find_combatant("Jacques").stats == {"luck": 4, "relfex": 2}
    (tmp_path / "plain").mkdir()
    s = session_of(tmp_path / "plain", "plain-goblin-ambush.toml")
    s.execute('add combatant "Orc chief" side=foes initiative=12 reflex=5')
    assert s.enc.find_combatant("Orc chief").stats == {"reflex": 5}
