"""Physical dice from the shell: nothing topped up silently, every die's source told."""

import json
import shutil

from tests.conftest import SAVES
from tests.test_cli import tracker
from tracker.session.opening import load

SHOT = ["resolve", "warmaster", "shoot", "attacks=6", "armour=4"]


def test_a_short_stage_exits_2_naming_the_stage_and_both_counts():
    # six hits at 4+, four saves typed: the save stage takes six
    run = tracker(*SHOT, "--dice", "hit=4,5,6,6,6,6", "save=1,1,1,1", "--json")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip() == (
        "tracker: save: stage 2 needs 6 d6 (6 hits), 4 given (enter them all, or add"
        " --roll-rest)")


def test_roll_rest_tops_up_and_the_json_marks_each_die_with_its_source():
    run = tracker(*SHOT, "--dice", "hit=4,5,6,6,6,6", "save=1,1,1,1", "--roll-rest",
                  "--seed", "3", "--json")
    assert run.returncode == 0, run.stderr
    rolls = json.loads(run.stdout)["rolls"]
    assert [(r["stage"], r["role"], r["source"]) for r in rolls] == (
        [(0, "hit", "entered")] * 6 + [(1, "save", "entered")] * 4
        + [(1, "save", "rolled")] * 2)
    assert [r["value"] for r in rolls[:10]] == [4, 5, 6, 6, 6, 6, 1, 1, 1, 1]
    assert all(1 <= r["value"] <= 6 for r in rolls[10:])


def test_exec_refuses_a_short_stage_and_saves_nothing(tmp_path):
    path = tmp_path / "wm.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)
    line = ("shoot 'Archers I' 'Empire Knights' shooters='Archers II' "
            "--dice hit=1,2,4,5,6,6 save=1,1")
    run = tracker("exec", str(path), line)
    assert run.returncode == 2
    assert "save: stage 2 needs 4 d6 (4 hits), 2 given" in run.stderr
    assert len(load(path).log) == 0
    run = tracker("exec", str(path), line + " --roll-rest")
    assert run.returncode == 0, run.stderr
    rolls = load(path).log[-1].rolls
    assert [r.source for r in rolls] == ["entered"] * 8 + ["rolled"] * 2


def test_stages_known_before_any_die():
    run = tracker("resolve", "warmaster", "shoot", "attacks=6", "armour=4", "--stages",
                  "--json")
    assert run.returncode == 0, run.stderr
    stages = json.loads(run.stdout)["stages"]
    assert [(s["role"], s["die"], s["count"]) for s in stages] == [
        ("hit", "d6", 6), ("save", "d6", None)]
    assert stages[0]["target"] == "4+"
    # the missile test's target is the EML the rules work out from the parameters
    run = tracker("resolve", "harn", "missile", "ml=75", "range=20", "br=40", "target=still",
                  "--stages")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "test: 1 d100 for the missile test (≤ 85)"
