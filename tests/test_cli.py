"""The `tracker` command from a shell: exec, replay, resolve, check, list, new."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SAMPLES, SAVES
from tracker.cli import main
from tracker.session.opening import load


def tracker(*args: str, env_home: Path | None = None) -> subprocess.CompletedProcess[str]:
    import os

    env = dict(os.environ)
    if env_home is not None:
        env["TRACKER_HOME"] = str(env_home)
    return subprocess.run([sys.executable, "-m", "tracker", *args], capture_output=True,
                          text=True, timeout=120, env=env)


def test_exec_runs_lines_prints_the_log_and_saves(skirmish_file):
    run = tracker("exec", str(skirmish_file), "next", "add combatant Ulf initiative=20; next")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [  # as the log pane shows them
        "r1 Turn: Grak",
        "r1 Ulf joins (combatant, party); Ulf acts from next round (its place this round has"
        " passed)",
        "r1 Turn: Bree",
    ]
    enc = load(skirmish_file)
    assert enc.cursor == 3 and enc.find_combatant("ulf").initiative == 20


def test_exec_saves_nothing_when_a_line_fails(skirmish_file):
    before = skirmish_file.read_bytes()
    run = tracker("exec", str(skirmish_file), "next", "set nobody x=1")
    assert run.returncode == 2
    assert run.stderr.strip() == (
        "tracker: command 2 of 2 (set nobody x=1) failed: no combatant named 'nobody';"
        " nothing saved: the command before it not kept either")
    assert skirmish_file.read_bytes() == before
    run = tracker("exec", str(skirmish_file), "note a", "note b", "set nobody x=1", "note c")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().startswith("tracker: command 3 of 4 (set nobody x=1) failed: ")
    assert run.stderr.strip().endswith("; nothing saved: the 2 commands before it not kept"
                                       " either")
    assert skirmish_file.read_bytes() == before


def test_exec_prints_the_dice_of_each_entry_and_names_no_key_of_the_app(skirmish_file):
    run = tracker("exec", str(skirmish_file), "roll 2d6 damage --dice damage=3,4",
                  "roll 1d6 --seed 1", "rewind entry 0")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].endswith("  [3 4]")  # entered
    assert re.search(r"  \[\d\*\]$", lines[1])  # the tracker rolled it
    assert lines[2] == "Back to the start of the log: 2 changes undone; undo or redo takes it back"
    assert "ctrl" not in run.stdout


def test_undo_works_after_a_restart(skirmish_file):
    assert tracker("exec", str(skirmish_file), "set aldo initiative=3").returncode == 0
    assert tracker("exec", str(skirmish_file), "undo").returncode == 0
    assert load(skirmish_file).find_combatant("aldo").initiative == 14


def test_replay_rebuilds_the_state_from_the_log(skirmish_file):
    tracker("exec", str(skirmish_file), "next", "wound aldo head level=2", "next round")
    run = tracker("replay", str(skirmish_file))
    assert run.returncode == 0, run.stderr
    assert "3 entries replayed from" in run.stdout and "the state matches the save" in run.stdout


def test_resolve_json_and_errors():
    run = tracker("resolve", "warmaster", "shoot", "attacks=6", "armour=4",
                  "--dice", "hit=1,2,4,5,6,6", "save=2,4,5,6", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert (data["hits"], data["saved"], data["unsaved"]) == (4, 3, 1)
    for bad, says in [
        (["resolve", "chess", "move"], "unknown ruleset"),
        (["resolve", "warmaster", "fly"], "no action 'fly'"),
        (["resolve", "warmaster", "shoot", "attacks=x"], "attacks=x"),
        (["resolve", "warmaster", "shoot", "attacks=2", "--dice", "hit=7"], "cannot show 7"),
        (["resolve", "warmaster", "shoot", "attacks=1", "--dice", "hit=4,4"], "not used"),
    ]:
        run = tracker(*bad)
        assert run.returncode == 2, bad
        assert says in run.stderr and run.stderr.count("\n") == 1


def test_resolve_rolls_missing_dice_from_the_seed():
    first = tracker("resolve", "warmaster", "shoot", "attacks=10", "--seed", "4", "--json")
    again = tracker("resolve", "warmaster", "shoot", "attacks=10", "--seed", "4", "--json")
    assert json.loads(first.stdout)["dice"] == json.loads(again.stdout)["dice"]
    assert {r["source"] for r in json.loads(first.stdout)["rolls"]} == {"rolled"}


def test_help_on_every_command():
    for cmd in ("open", "new", "list", "check", "exec", "replay", "watch", "restore", "serve"):
        run = tracker(cmd, "--help")
        assert run.returncode == 0 and "usage" in run.stdout, cmd
    assert "shoot" in tracker("resolve", "--help").stdout
    assert "--dice" in tracker("resolve", "warmaster", "shoot", "--help").stdout


def test_a_plain_open_is_read_as_the_parser_reads_it_without_building_it(monkeypatch):
    from tracker.shell import parser

    for argv in (["open"], ["open", "battle.toml"], ["open", "open"]):
        assert parser.plain_open(argv) == parser.build_parser().parse_args(argv), argv
    for argv in (["open", "--read-only", "b.toml"], ["open", "b.toml", "--theme", "x"],
                 ["open", "-h"], ["open", "a.toml", "b.toml"], ["list"], ["check", "b"]):
        assert parser.plain_open(argv) is None, argv
    read: list[object] = []

    def built() -> None:
        raise AssertionError("the parser was built for a plain open")

    monkeypatch.setattr(parser, "build_parser", built)
    monkeypatch.setattr(parser.startup, "command", lambda where: lambda ns: read.append(ns))
    assert parser.run(["open", "battle.toml"]) == 0
    assert [getattr(ns, "file", None) for ns in read] == ["battle.toml"]


def test_check_with_no_save_to_check_says_so_and_fails(tmp_path):
    run = tracker("check", env_home=tmp_path / "empty")
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("tracker: no saves in ") and "(nothing checked)" in run.stderr


def test_new_list_and_check(tmp_path):
    home = tmp_path / "h"
    run = tracker("new", "Bridge fight", "--ruleset", "plain", "--no-open", env_home=home)
    assert run.returncode == 0, run.stderr
    listed = tracker("list", env_home=home)
    assert "Bridge fight (plain, round 1)" in listed.stdout
    assert tracker("new", "x", "--ruleset", "chess", "--no-open", env_home=home).returncode == 2
    run = tracker("check", *map(str, (SAVES / name for name in SAMPLES)))
    assert run.returncode == 0, run.stderr


def test_check_names_a_value_outside_its_domain_and_leaves_the_save_as_it_was(tmp_path):
    """A save is read without the domain checks (it opens as it was); check says what a
    hand edit left outside them, and fails."""
    text = (SAVES / "warlord-wood-elves.toml").read_text()
    assert "strength = 10\n" in text
    bad = tmp_path / "edited.toml"
    bad.write_text(text.replace("strength = 10\n", "strength = 40\n", 1))
    before = bad.read_bytes()
    run = tracker("check", str(bad))
    assert run.returncode == 1
    assert ("edited.toml: Wood elf guards: strength=40: must be at most strength_start (10)"
            " (it opens; `set` corrects it)") in run.stderr
    assert bad.read_bytes() == before


def test_the_rules_core_never_imports_textual():
    code = ("import tracker.core, tracker.rules, tracker.store, tracker.session.session,"
            " tracker.cli, sys\n"
            "from tracker import rules\n"
            "for r in rules.RULESETS:\n"
            "    try:\n        rules.get(r)\n    except ImportError:\n        pass\n"
            "assert 'textual' not in sys.modules, 'textual imported'\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


RESOLVES = [
    ["warmaster", "shoot", "attacks=12", "armour=4"],
    ["edc", "exchange", "attack_dice=8", "atn=6", "defense_dice=6", "dtn=7"],
    ["harn", "missile", "ml=75", "range=20", "br=40", "target=still"],
    ["d6battle", "shoot", "weapon=bow", "figures=10", "range=effective", "sa=3",
     "durability=3"],
    ["warlord", "fire", "race=wood_elf", "weapon=elf_bow", "armour=chainmail",
     "figures=10", "range=medium"],
    ["warlord", "movefire", "race=goblin", "weapon=short_bow", "terrain=1/2"],
]


def resolve_loads(argv: list[str], modules: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """``tracker resolve ARGV`` in a fresh interpreter, failing if it loaded any of
    ``modules``."""
    code = ("import sys, io, contextlib\nfrom tracker.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    code = main(['resolve', *{argv!r}, '--seed', '1'])\n"
            "assert code == 0, code\n"
            f"loaded = [m for m in {modules!r} if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


@pytest.mark.parametrize("argv", RESOLVES)
def test_resolve_starts_without_textual_or_the_models(argv):
    """`tracker resolve` is quick because it loads the resolvers only (not the encounter
    models: pydantic validates the parameters, the models stay unloaded)."""
    run = resolve_loads(argv, ("textual", "tracker.core.model"))
    assert run.returncode == 0, run.stderr


def test_warlord_resolve_loads_neither_the_odds_nor_argparse_nor_the_sheet_unasked():
    """Warlord's fire with its BFP given reads no profile sheet; the odds (icepool) and
    argparse stay out of every `tracker resolve`."""
    code = ("import sys, io, contextlib\nfrom tracker.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    code = main(['resolve', 'warlord', 'fire', 'bfp=18', 'mods=-1,3,4',"
            " 'figures=10', 'range=medium', '--dice', 'd100=23'])\n"
            "assert code == 0, code\n"
            "heavy = ('textual', 'tracker.core.model', 'icepool', 'tracker.core.odds',"
            " 'argparse', 'tracker.rules.warlord.profiles')\n"
            "loaded = [m for m in heavy if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("wait", ["-5", "nan", "inf", "1e9", "abc"])
def test_a_wait_that_is_no_number_of_seconds_is_refused(wait, capsys, skirmish_file):
    before = skirmish_file.read_bytes()
    with pytest.raises(SystemExit) as done:
        main(["exec", str(skirmish_file), "--wait", wait, "note x"])
    assert done.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"argument --wait: {wait}: expected seconds from 0 to 86400\n")
    assert skirmish_file.read_bytes() == before


@pytest.mark.parametrize("name", ["", "   "])
def test_a_new_encounter_needs_a_name(name, capsys, tmp_path):
    assert main(["new", name, "--ruleset", "plain", "--no-open",
                 "--file", str(tmp_path / "x.toml")]) == 2
    assert capsys.readouterr().err == (
        'tracker: new: give the encounter a name (tracker new "The ford" ...)\n')
    assert not (tmp_path / "x.toml").exists()
