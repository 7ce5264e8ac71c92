"""The unit that runs `tracker serve` as a service (tracker/table/tracker-serve.service): systemd
accepts it (where systemd is present), its command is one the tracker takes, and it
keeps the sandbox and the stopping the README describes."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tracker.shell.parser import build_parser

UNIT = ROOT / "tracker" / "table" / "tracker-serve.service"
INSTALLED = "/opt/tracker/bin/tracker"
"""Where the README installs the tracker for the service."""


def settings(section: str) -> dict[str, list[str]]:
    """The unit's ``key=value`` lines in ``[section]``, each key's values in order."""
    out: dict[str, list[str]] = {}
    current = ""
    for line in UNIT.read_text("utf-8").splitlines():
        if line.startswith("["):
            current = line.strip("[]")
        elif current == section and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            out.setdefault(key, []).append(value)
    return out


def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not on this machine: the unit file was not verified")
    # the unit names the install the README makes; here the tracker of these tests stands in
    unit = tmp_path / UNIT.name
    tracker = Path(sys.prefix) / "bin" / "tracker"
    unit.write_text(UNIT.read_text("utf-8").replace(INSTALLED, str(tracker)))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and not (done.stdout + done.stderr).strip(), done.stderr


def test_the_unit_runs_a_serve_command_the_tracker_takes():
    words = shlex.split(settings("Service")["ExecStart"][0])
    assert words[0] == INSTALLED
    ns = build_parser().parse_args(words[1:])
    assert ns.command == "serve" and ns.access and ns.ssh
    state = Path("/var/lib") / settings("Service")["StateDirectory"][0]
    assert Path(ns.file).parent == Path(ns.access).parent == state
    assert f"TRACKER_HOME={state}" in settings("Service")["Environment"]


def test_the_unit_runs_sandboxed_and_stops_the_way_the_readme_says():
    service = {key: values[-1] for key, values in settings("Service").items()}
    expected = {
        "User": "tracker", "StateDirectory": "tracker", "StateDirectoryMode": "0700",
        "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
        "NoNewPrivileges": "yes", "Restart": "on-failure", "KillMode": "mixed",
        "KillSignal": "SIGTERM",
    }
    assert {key: service.get(key) for key in expected} == expected
    readme = (ROOT / "README.md").read_text("utf-8")
    for key, value in expected.items():
        assert f"{key}={value}" in readme, key
