"""Start-up counted in instructions: a figure a busy machine does not sway.

``python -m bench.instructions [--against DIR]`` runs each start once under
valgrind's callgrind, from spawning the interpreter to the first screen (the process
exits there), and counts the instructions it executed: the bare Textual app, the floor
(the bare app after importing pydantic and the encounter models) and the tracker on
the sample Warmaster battle; ``--resolve`` adds ``tracker resolve`` of every ruleset, whole
(bench.resolve's commands). ``--against DIR`` also counts the sample's start in
another checkout of the tracker (with its own ``.venv``), for a before/after of a
change. The count is the same from run to run within a fraction of a percent, where
the wall clock and the CPU time on a shared machine move by a third; what it leaves
out is what the instructions wait for (the disk, the cache). About a minute a start.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "saves" / "warmaster-river-crossing.toml"


def _callgrind(python: Path, args: list[str], cwd: Path, env: dict[str, str], tmp: str) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
         str(python), *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)
    found = re.search(r"refs:\s+([\d,]+)", out.stderr)
    if not found:
        raise SystemExit(f"callgrind gave no count:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def count_resolve(argv: list[str]) -> int:
    """Instructions of a whole ``tracker resolve ARGV`` in this checkout."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(ROOT),
                   TRACKER_DATA=str(Path(tmp) / "data"))
        python = ROOT / ".venv" / "bin" / "python"
        _compile(ROOT)
        return _callgrind(python, ["-m", "tracker", "resolve", *argv], ROOT, env, tmp)


@cache
def _compile(checkout: Path) -> None:
    """The checkout's tracker compiled to bytecode, once a run, as an installed one is
    after its first start."""
    python = checkout / ".venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "compileall", "-q", "tracker"],
                   cwd=checkout, capture_output=True, check=False)


def count(checkout: Path, *argv: str) -> int:
    """Instructions from the interpreter's start to the first screen of ``bench.child
    start ARGV`` run in ``checkout``."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, BENCH_EXIT_AT_PAINT="1", PYTHONHASHSEED="0",
                   TRACKER_DATA=str(Path(tmp) / "data"))
        args = list(argv)
        if args[0] == "tracker":  # a fresh copy of the sample each time: no journal yet
            args[1] = str(shutil.copy(args[1], Path(tmp) / Path(args[1]).name))
        else:  # the bare app lives in this checkout's bench
            env["PYTHONPATH"] = str(ROOT)
        python = checkout / ".venv" / "bin" / "python"
        _compile(checkout)
        # this checkout's child (it exits at the first screen), the checkout's tracker
        return _callgrind(python, [str(ROOT / "bench" / "child.py"), "start", *args],
                          checkout, env, tmp)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.instructions")
    ap.add_argument("--against", type=Path, help="another checkout, for a before/after")
    ap.add_argument("--resolve", action="store_true",
                    help="also count `tracker resolve` for every ruleset (bench.resolve's)")
    ns = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count", file=sys.stderr)
        return 1
    base = count(ROOT, "baseline", "10")
    rows = [("bare Textual app", base), ("floor", count(ROOT, "floor", "10")),
            ("sample encounter, this checkout", count(ROOT, "tracker", str(SAMPLE)))]
    if ns.against:
        rows.append((f"sample encounter, {ns.against}", count(ns.against.resolve(), "tracker",
                                                             str(SAMPLE))))
    if ns.resolve:
        from bench.resolve import COMMANDS

        rows += [(f"`tracker resolve` {name}", count_resolve(argv))
                 for name, argv in COMMANDS.items()]
    print("| start, to the first screen | instructions | × the bare app |")
    print("|---|---:|---:|")
    for name, n in rows:
        print(f"| {name} | {n / 1e6:,.0f} M | {n / base:.2f} × |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
