"""The tracker as an installed tool: what ships inside the package is found the way Python
finds a package's files, `tracker new --sample` starts from a shipped sample, and the
smoke test .ci/run runs against the wheel passes here on the editable install."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAVES
from tracker.session.opening import FIRST_SAMPLE, default_save, load
from tracker.store import paths
from tracker.store.armies import find_army
from tracker.store.paths import samples_dir, themes_dir
from tracker.ui.theme import load_themes

TRACKER = Path(sys.prefix) / "bin" / "tracker"


def tracker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(TRACKER), *args], capture_output=True, text=True, timeout=120)


def test_the_shipped_folders_are_the_package_s_resources():
    assert samples_dir() == files("tracker.shipped.saves")
    assert themes_dir() == files("tracker.shipped.themes")
    assert sorted(p.name for p in themes_dir().glob("*.toml")) == [
        "tracker-16.toml", "tracker-dark.toml", "tracker-light.toml"]
    assert {p.name for p in samples_dir().glob("*.toml")} == {
        p.name for p in SAVES.glob("*.toml")}


def test_no_module_looks_for_files_above_its_own_package():
    """A path built up from a module's own file past its package is a path into the source
    tree, which an installed tracker does not have."""
    reach = re.compile(r"__file__\)[^\n]*(parents\[[1-9]|\.parent\.parent)")
    found = [f"{path.relative_to(ROOT)}:{n}"
             for path in sorted((ROOT / "tracker").rglob("*.py"))
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if reach.search(line)]
    assert found == []


def test_first_run_opens_a_copy_of_the_first_sample(tracker_home):
    path = default_save()
    assert path == tracker_home / "encounters" / FIRST_SAMPLE
    assert path.read_bytes() == (SAVES / FIRST_SAMPLE).read_bytes()


def test_the_shipped_army_lists_are_found_from_any_folder(tmp_path):
    found = find_army("warmaster-empire-reserve.toml", None, cwd=tmp_path)
    assert found == samples_dir() / "armies" / "warmaster-empire-reserve.toml"


def test_new_from_a_sample_takes_its_units_log_and_seed_under_the_new_name(tracker_home):
    done = tracker("new", "Bridge", "--sample", "warmaster", "--no-open")
    assert done.returncode == 0, done.stderr
    path = Path(done.stdout.strip())
    assert path == tracker_home / "encounters" / "bridge.toml"
    enc, sample = load(path), load(SAVES / "warmaster-river-crossing.toml")
    assert (enc.name, enc.ruleset, enc.seed) == ("Bridge", "warmaster", sample.seed)
    assert [u.name for u in enc.units] == [u.name for u in sample.units]
    assert tracker("check", str(path)).returncode == 0

    done = tracker("new", "Duel", "--sample", "edc-roland-press.toml", "--seed", "9",
                   "--no-open")
    enc, sample = load(done.stdout.strip()), load(SAVES / "edc-roland-press.toml")
    assert (enc.name, enc.seed) == ("Duel", 9)
    assert [e.text for e in enc.log] == [e.text for e in sample.log] != []


@pytest.mark.parametrize(("args", "says"), [
    (["--sample", "harn"], "sample 'harn': which one? harn-nolora-point-blank, "
                           "harn-nolora-volley"),
    (["--sample", "bree"], "sample 'bree': no such sample (the samples: d6battle-crossbow-duel"),
    (["--sample", "warmaster", "--ruleset", "edc"],
     "the sample warmaster-river-crossing is for warmaster, not edc"),
    ([], "new: say which game with --ruleset ID, or start from --sample NAME"),
])
def test_new_from_a_sample_refuses_in_one_line(args, says, tracker_home):
    done = tracker("new", "X", *args, "--no-open")
    assert done.returncode == 2
    assert done.stderr.startswith(f"tracker: {says}") and done.stderr.count("\n") == 1
    assert not (tracker_home / "encounters" / "x.toml").exists()


def test_the_install_smoke_test_passes_on_this_install(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "install" / "smoke.py")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("smoke: ") == 4


def test_an_install_without_the_shipped_themes_says_so(monkeypatch):
    monkeypatch.setattr(paths, "themes_dir", lambda: None)
    themes, problems = load_themes()
    assert themes == [] and problems == ["the shipped themes are missing from this install"]
