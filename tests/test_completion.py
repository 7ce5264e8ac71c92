"""`tracker completion bash|zsh|fish`: a script made from the parser itself, which the
shell accepts and which completes subcommands, flags, rulesets, encounter files and the
actions of `tracker resolve` as the rulesets have them. Bash is tried by calling the
script's completion function; zsh and fish, where they are installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tracker import rules
from tracker.cli import SUBCOMMANDS
from tracker.completion import SHELLS
from tracker.shell.completion import script
from tracker.shell.parser import build_parser

TRACKER = Path(sys.prefix) / "bin" / "tracker"


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("completion")
    out = {}
    for shell in SHELLS:
        done = subprocess.run([str(TRACKER), "completion", shell], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        out[shell] = folder / f"tracker.{shell}"
        out[shell].write_text(done.stdout)
    return out


def bash_completes(script_file: Path, *words: str) -> list[str]:
    """What the bash script offers for the last of ``words`` (typed after ``tracker``)."""
    line = " ".join(f"'{w}'" for w in ("tracker", *words))
    program = (f"source '{script_file}'\nCOMP_WORDS=({line})\n"
               "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n_shtab_tracker\n"
               'printf "%s\\n" "${COMPREPLY[@]}"')
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, cwd=ROOT,
                          timeout=30)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("shell", SHELLS)
def test_each_shell_accepts_its_script(shell, scripts):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed here: its script was made but not parsed")
    done = subprocess.run([shell, "-n", str(scripts[shell])], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr


def test_bash_completes_subcommands_flags_rulesets_and_files(scripts):
    bash = scripts["bash"]
    assert set(bash_completes(bash, "")) == set(SUBCOMMANDS)
    assert bash_completes(bash, "re") == ["repair", "replay", "report", "restore", "resolve"]
    assert set(bash_completes(bash, "new", "Bridge", "--")) >= {"--ruleset", "--sample",
                                                                  "--no-open", "--seed"}
    assert bash_completes(bash, "new", "Bridge", "--ruleset", "") == list(rules.RULESETS)
    assert bash_completes(bash, "new", "Bridge", "--sample", "harn") == [
        "harn-nolora-point-blank", "harn-nolora-volley"]
    assert sorted(bash_completes(bash, "open", "saves/war")) == [
        "saves/warlord-wood-elves.toml", "saves/warmaster-river-crossing.toml"]
    assert bash_completes(bash, "exec", "saves/armies/") == [  # *.toml: not the .ros
        "saves/armies/warmaster-empire-reserve.toml"]
    assert "saves/armies/warmaster-empire-vanguard.ros" in bash_completes(
        bash, "army", "saves/armies/")
    assert bash_completes(bash, "completion", "") == list(SHELLS)


def test_bash_completes_the_actions_of_the_ruleset_named_before(scripts):
    for rid in rules.RULESETS:
        assert bash_completes(scripts["bash"], "resolve", rid, "") == list(
            rules.get(rid).actions), rid
    assert bash_completes(scripts["bash"], "resolve", "harn", "m") == ["missile"]
    assert "--roll-rest" in bash_completes(scripts["bash"], "resolve", "harn", "missile", "--")


def test_fish_completes_the_actions_of_the_ruleset_named_before(scripts):
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed here: its completions were not tried")

    def fish_completes(line: str) -> list[str]:
        done = subprocess.run(
            ["fish", "-c", f"source '{scripts['fish']}'; complete -C '{line}'"],
            capture_output=True, text=True, cwd=ROOT, timeout=30)
        assert not done.stderr, done.stderr
        return [row.split("\t")[0] for row in done.stdout.splitlines()]

    assert fish_completes("tracker resolve warmaster ") == list(rules.get("warmaster").actions)
    assert fish_completes("tracker new X --ruleset ") == list(rules.RULESETS)
    assert fish_completes("tracker exec saves/edc-roland-press.toml ") == []


def test_the_script_is_made_from_the_parser():
    """A flag added to the parser is in the script with no other change."""
    parser = build_parser()
    assert "--stages" in script(parser, "bash") and "--meanwhile" not in script(parser, "bash")
    parser.add_argument("--meanwhile", action="store_true")
    assert "--meanwhile" in script(parser, "bash")


def test_an_unknown_shell_is_refused_in_one_line():
    done = subprocess.run([str(TRACKER), "completion", "powershell"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "invalid choice: 'powershell'" in done.stderr
