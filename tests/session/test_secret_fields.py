"""What the ``secret_fields`` setting lets players see of another side, in plain: by
default a monster's AC, attack and initiative bonus stay with the GM, in its data, in
the lines of its actions and in the line it joined with; the GM may show them. The
side's own view, the table's and the spectator's each carry exactly that."""

from __future__ import annotations

import pytest

from tests.conftest import load_sample
from tracker.cli import main
from tracker.core.model import Encounter
from tracker.rules import RULESETS, get
from tracker.rules.plain.model import PlainEncounter
from tracker.session.opening import load
from tracker.session.redaction import player_view, table_view
from tracker.session.session import Session
from tracker.store import save_encounter

SAMPLE = "plain-goblin-ambush.toml"

NUMBERS = ("AC 15", "ac=15", "+4 1d6+2", "init_bonus=2", "(14+2)", "(11+2)", "+4 =")
"""How the goblins' numbers read in a line (AC 15, attack +4 1d6+2, initiative +2)."""


def played() -> Session:
    """The sample, then a round's actions by and against the goblins, dice entered."""
    session = Session(load_sample(SAMPLE, PlainEncounter))
    for line in ("attack tam goblin 3 --dice attack=5",            # a miss: AC 15 told
                 "attack goblin 4 aria --dice attack=15 damage=3",  # 15+4 = 19
                 "initiative goblin 4 --dice initiative=9",          # 11 (9+2)
                 "add combatant Goblin side=foes"):                  # from the bestiary
        session.execute(line)
    return session


def views(session: Session) -> dict[str, list[str]]:
    """Every viewpoint's words: its combatants' data and its log lines."""
    enc = session.enc
    out = {}
    for name, view in (("party", player_view(enc, "party")), ("table", table_view(enc)),
                       ("spectator", player_view(enc, None))):
        out[name] = [c.model_dump_json() for c in view.combatants] + [e.text for e in view.log]
    return out


def test_by_default_no_view_carries_a_goblins_numbers():
    session = played()
    for name, words in views(session).items():
        for number in NUMBERS:  # in a log line (Bree's attack is a goblin's too)
            assert not [w for w in words if number in w and w[0] != "{"], (name, number)
        goblin = next(w for w in words if '"id":"goblin-4"' in w)
        for field in ('"ac":15', '"attack":"+4', '"init_bonus":2'):
            assert field not in goblin, (name, field)
    log = [e.text for e in player_view(session.enc, "party").log][-4:]
    assert log == ["Tam attacks Goblin 3: miss",
                   "Goblin 4 attacks Aria: hit; Aria: temp_hp 0",  # 5 damage, 5 temp hp
                   "Initiative: rolled; Goblin 4: initiative 11",
                   "Goblin: joins (foes)"]


def test_the_party_s_own_numbers_reach_the_party_and_the_table_but_not_the_spectator():
    session = played()
    enc = session.enc
    for view, shown in ((player_view(enc, "party"), True), (table_view(enc), True),
                        (player_view(enc, None), False)):
        aria = view.find_combatant("aria")
        assert (aria.ac, aria.attack, aria.init_bonus) == (
            (17, "+5 1d8+3", 1) if shown else (None, "", 0))


@pytest.mark.parametrize(("value", "kept"), [
    ("", []), ("attack", ["attack"]), ("pools,wounds,notes", []),  # those three: always
])
def test_what_the_gm_shows_reaches_every_view(value, kept):
    session = played()
    session.execute(f"setting secret_fields={value}")
    assert session.enc.secret_fields == kept
    for name, words in views(session).items():
        goblin = next(w for w in words if '"id":"goblin-4"' in w)
        assert '"ac":15' in goblin and '"init_bonus":2' in goblin, name
        assert ('"attack":"+4 1d6+2"' in goblin) == (kept == []), name


def test_all_open_the_lines_are_told_whole():
    session = played()
    session.execute("setting secret_fields=")
    log = [e.text for e in player_view(session.enc, "party").log]
    assert "Tam attacks Goblin 3: 5+6 = 11 vs AC 15: miss" in log
    assert "Goblin 4 attacks Aria: 15+4 = 19 vs AC 17: hit, 5 damage (1d6+2: 3+2)" in log
    assert "Initiative: Goblin 4 11 (9+2)" in log


def test_the_setting_is_listed_with_its_default_and_refuses_what_is_no_field_name():
    session = Session(PlainEncounter(name="Ford"))
    assert "secret_fields=ac,attack,init_bonus" in session.settings_text()
    with pytest.raises(Exception, match="'AC' is not a field name"):
        session.execute("setting secret_fields=AC")


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_each_ruleset_lists_the_setting_with_its_models_default(ruleset):
    rs = get(ruleset)
    spec = rs.setting_spec("secret_fields")
    enc = rs.encounter_model(name="Ford", ruleset=ruleset)
    assert spec.of(enc) == spec.default
    assert ("ac,attack,init_bonus" if ruleset == "plain" else "") == spec.default


def test_a_save_from_before_has_plains_default_and_passes_check(tmp_path, capsys):
    """Saves made before the default changed hold pools, wounds and notes in their journal
    (their state leaves the default out): they read as choosing nothing."""
    path = tmp_path / "old.toml"
    old = Encounter(name="Ford", ruleset="plain", gm_side="foes")
    assert old.secret_fields == ["pools", "wounds", "notes"]
    save_encounter(old, path)
    assert main(["check", str(path)]) == 0, capsys.readouterr().err
    opened = load(path)
    assert opened.secret_fields == ["ac", "attack", "init_bonus"]


def test_check_notes_a_gm_side_no_one_is_on(tmp_path, capsys):
    """A typed ``gm_side`` that names no side leaves every side's details on the shared
    table screen: ``check`` says so (a note: the save is not refused, since the GM's last
    fighter may simply have left)."""
    enc = load_sample(SAMPLE, PlainEncounter)
    for gm_side in ("foes", "Foes"):
        path = tmp_path / gm_side / "ambush.toml"
        path.parent.mkdir()
        save_encounter(PlainEncounter(name="Ambush", ruleset="plain", gm_side=gm_side,
                                      combatants=enc.combatants), path)
        assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("note: gm_side") == 1
    assert ("Foes/ambush.toml: note: gm_side=Foes: no one in the encounter is on that side "
            "(sides: party, foes); did you mean foes?; the shared table screen shows every "
            "side's details") in out
