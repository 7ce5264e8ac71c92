"""An installed tracker tried as a GM tries it after ``pipx install``: the three shipped
themes load, ``tracker`` with no encounter opens a copy of a sample, ``:army`` finds a
shipped army list, and ``tracker completion bash`` prints a script bash accepts.

.ci/run runs it with the Python of a fresh virtual environment the wheel was installed
into (not editable), from a folder outside the clone, with ``--clone`` naming the clone:
the tracker must then come from that environment, never from the clone's files. The test
suite runs it on the editable install. Prints what it checked; exits 1 naming what failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

THEMES = {"tracker-16", "tracker-dark", "tracker-light"}
ARMY = "warmaster-empire-reserve.toml"


class Failed(Exception):
    """A check that did not hold."""


def check(holds: bool, what: str) -> None:
    if not holds:
        raise Failed(what)


def tracker_command() -> Path:
    """The ``tracker`` command of the environment this Python belongs to."""
    return Path(sys.executable).parent / "tracker"


def run(*args: str) -> str:
    done = subprocess.run([str(tracker_command()), *args], capture_output=True, text=True,
                          timeout=120)
    check(done.returncode == 0, f"tracker {' '.join(args)} -> {done.stderr.strip()}")
    return done.stdout


def installed_apart_from(clone: Path) -> str:
    import tracker
    from tracker.store.paths import samples_dir, themes_dir

    where = Path(tracker.__file__).resolve()
    check(clone.resolve() not in where.parents, f"tracker imported from the clone: {where}")
    for found in (samples_dir(), themes_dir()):
        check(found is not None and clone.resolve() not in found.resolve().parents,
              f"shipped files found in the clone: {found}")
    return f"installed in {where.parent}, apart from the clone"


def themes() -> str:
    from tracker.ui.theme import load_themes

    loaded, problems = load_themes()
    names = {t.name for t in loaded}
    check(not problems, f"themes: {'; '.join(problems)}")
    check(THEMES <= names, f"themes: {sorted(THEMES - names)} missing")
    return f"the themes load: {', '.join(sorted(names))}"


async def first_run(home: Path) -> str:
    from tracker.session.opening import FIRST_SAMPLE, default_save, open_encounter
    from tracker.ui.app import TrackerApp

    check(not (home / "encounters").exists(), f"{home} is not empty")
    path = default_save()  # what `tracker` with no FILE opens
    check(path == home / "encounters" / FIRST_SAMPLE, f"first run opened {path}")
    app = TrackerApp(open_encounter(path), theme="tracker-16")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        check(app.theme == "tracker-16", f"the app's theme is {app.theme}")
        name = app.session.enc.name
        check(bool(app.session.enc.everyone), f"{name}: nobody in the fight")
        await pilot.press("q")
    return f"tracker with no encounter opens a copy of {FIRST_SAMPLE} ({name}) in tracker-16"


async def army(home: Path) -> str:
    from tracker.session.opening import open_encounter
    from tracker.ui.app import TrackerApp

    path = Path(run("new", "Bridge", "--sample", "warmaster", "--no-open").strip())
    check(path.parent == home / "encounters", f"tracker new wrote {path}")
    app = TrackerApp(open_encounter(path))
    async with app.run_test(size=(80, 24)) as pilot:
        before = len(app.session.enc.units)
        await pilot.press("colon", *"army", "space", *ARMY, "enter")
        await pilot.pause()
        added = len(app.session.enc.units) - before
        check(added > 0, f":army {ARMY} added nothing")
        await pilot.press("q")
    check((path.parent / "armies" / ARMY).is_file(), f"no copy of {ARMY} beside the save")
    return f"tracker new --sample warmaster, then :army {ARMY} adds {added} units"


def completion() -> str:
    text = run("completion", "bash")
    with tempfile.NamedTemporaryFile("w", suffix=".bash", delete=False) as script:
        script.write(text)
    try:
        done = subprocess.run(["bash", "-n", script.name], capture_output=True, text=True)
    finally:
        os.unlink(script.name)
    check(done.returncode == 0, f"bash -n: {done.stderr.strip()}")
    check("_tracker_actions" in text and "driveback" in text, "no actions in the script")
    return f"tracker completion bash: {len(text.splitlines())} lines bash accepts"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clone", type=Path, help="the clone the wheel was built from")
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        os.environ["TRACKER_HOME"] = str(home)  # the GM's data folder, empty: a first run
        try:
            said = [installed_apart_from(ns.clone)] if ns.clone else []
            said += [themes(), asyncio.run(first_run(home)), asyncio.run(army(home)),
                     completion()]
        except Failed as exc:
            print(f"smoke: {exc}", file=sys.stderr)
            return 1
    for line in said:
        print(f"smoke: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
