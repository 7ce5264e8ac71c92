"""Every command the README shows runs as written in a fresh shell after its set-up
command: the shell examples start with a program the set-up puts in place, and those
that do not open a terminal screen or a server run, in a copy of the checkout."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

SET_UP = ("python3 -m venv", ".venv/bin/pip install")
"""The set-up command (already done where the tests run)."""
STARTS = (".venv/bin/tracker", ".venv/bin/python", "python3", "ssh", ".venv/bin/pip", "pipx",
          "uv", "sudo")
"""Programs a fresh shell finds, or the set-up command puts in place."""
ELSEWHERE = ("pipx", "uv", "sudo")
"""Installing as a tool and setting up the server's service: not run here (.ci/run installs
the wheel and tries it; tests/test_service.py checks the unit)."""
INTERACTIVE = ("serve", "watch", "--take-over")
"""Commands that hold the terminal (a server, a screen) rather than answer."""


def shell_commands(text: str) -> list[str]:
    """The command lines of the README's ``sh`` blocks, each split at ``&&``."""
    lines: list[str] = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            if line and not line.startswith("#"):
                lines += [part.strip() for part in line.split("&&")]
    return lines


def opens_a_screen(words: list[str]) -> bool:
    """A tracker command that opens the app or a server (it needs a terminal)."""
    if words[0] != ".venv/bin/tracker":
        return words[0] in ("ssh",) or words[:2] == [".venv/bin/python", "-m"] and (
            words[2] in ("bench", "bench.reliability"))
    rest = words[1:]
    if any(w in INTERACTIVE for w in rest):
        return True
    subcommand = rest[0] if rest else ""
    return subcommand not in ("new", "list", "check", "exec", "army", "resolve", "replay",
                              "repair", "restore") or (
        subcommand == "new" and "--no-open" not in rest)


def test_every_shell_command_starts_with_a_program_a_fresh_shell_finds():
    commands = shell_commands(README.read_text("utf-8"))
    assert len(commands) >= 8
    for command in commands:
        first = shlex.split(command)[0]
        assert first in STARTS, f"README: '{command}' starts with '{first}'"


def test_the_readme_commands_that_answer_at_once_run_as_written(tmp_path):
    work = tmp_path / "checkout"
    work.mkdir()
    shutil.copytree(ROOT / "saves", work / "saves")
    (work / ".venv").symlink_to(Path(sys.prefix))
    env = {**os.environ, "TRACKER_HOME": str(tmp_path / "home")}
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = os.defpath  # a fresh shell: the environment not activated
    ran = 0
    for command in shell_commands(README.read_text("utf-8")):
        words = shlex.split(command)
        if (command.startswith(SET_UP) or "pytest" in words or opens_a_screen(words)
                or words[0] in ELSEWHERE):
            continue
        done = subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, f"README: '{command}' -> {done.stderr.strip()}"
        ran += 1
    assert ran >= 8  # the resolve examples and the battle from the shell


def test_tracker_new_says_it_opens_the_app_and_help_lists_every_ruleset():
    from tracker.rules import RULESETS

    tracker = Path(sys.prefix) / "bin" / "tracker"
    out = subprocess.run([str(tracker), "--help"], capture_output=True, text=True,
                         timeout=60).stdout
    for ruleset in RULESETS:
        assert re.search(rf"^\s+{ruleset}\s", out, flags=re.M), ruleset
    new = subprocess.run([str(tracker), "new", "--help"], capture_output=True, text=True,
                         timeout=60).stdout
    assert "open it in the app" in new and "--no-open" in new
