"""Run every benchmark and print one table: the tracker against a bare Textual app.

    .venv/bin/python -m bench            # the full run (about ten minutes)
    .venv/bin/python -m bench --quick    # fewer repeats, growth up to 1,000 units

Each figure is measured in fresh interpreters, side by side with the baseline (a Header,
a DataTable and a Footer), and reported as a ratio. Nothing here fails on a time: the
table says which targets are met on this machine today.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(__file__).resolve().parent / ".cache"
SAMPLE = ROOT / "saves" / "warmaster-river-crossing.toml"
GENERATOR_VERSION = 3
LARGE = (1000, 10_000)
GROWTH_EVENTS = 1000
FLOOR_LABEL = "floor: the baseline after importing pydantic and the encounter models"
"""What any start carries while a save is validated before the first screen."""
KEY_ENV = {"TEXTUAL_FPS": "1000"}
"""Keypress runs lift Textual's 60 fps frame cap, so the figure is the work per key."""


@dataclass
class Row:
    figure: str
    measured: float | None
    baseline: float | None
    target: str
    limit: float
    unit: str = "s"
    note: str = ""
    reference: bool = False
    """A figure measured for comparison, with no target of its own."""

    @property
    def ratio(self) -> float | None:
        if self.measured is None or self.baseline is None:
            return None
        return self.measured / self.baseline

    @property
    def met(self) -> bool:
        value = self.ratio if self.baseline is not None else self.measured
        return value is not None and value <= self.limit


class Start(NamedTuple):
    wall: float
    """Seconds from spawning the process to its first screen (or its exit)."""
    rss: float
    """Peak resident memory, MB."""
    cpu: float
    """CPU seconds the process used by then: less swayed by a busy machine than the wall
    clock, though not by a machine whose cores are shared."""


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "MB":
        return f"{value:.0f} MB"
    if value < 0.001:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


# --- running children ------------------------------------------------------------------


class Bench:
    def __init__(self, work: Path, verbose: bool) -> None:
        self.work = work
        self.verbose = verbose
        self.env = {**os.environ, "TRACKER_HOME": str(work / "home"), "PYTHONPATH": str(ROOT)}
        # an installed tracker runs from cached bytecode after its first start; so do we
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        compileall.compile_dir(ROOT / "tracker", quiet=1)
        compileall.compile_dir(ROOT / "bench", quiet=1)

    def log(self, text: str) -> None:
        if self.verbose:
            print(f"  … {text}", file=sys.stderr, flush=True)

    def child(self, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
        out = subprocess.run(
            [sys.executable, "-m", "bench.child", *args],
            cwd=ROOT, env={**self.env, **(env or {})}, capture_output=True, text=True,
        )
        if out.returncode:
            raise RuntimeError(f"bench.child {' '.join(args)} failed:\n{out.stderr}")
        return json.loads(out.stdout.strip().splitlines()[-1])

    def spawn(self, argv: list[str]) -> Start:
        """Spawn to first paint (or to exit): wall seconds, peak RSS in MB, CPU seconds."""
        t0 = time.time_ns()
        proc = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        t1 = time.time_ns()
        proc.returncode = os.waitstatus_to_exitcode(status)
        stdout = proc.stdout.read().decode() if proc.stdout else ""
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        if proc.returncode:
            raise RuntimeError(f"{' '.join(argv)} failed:\n{stderr}")
        end, cpu = t1, usage.ru_utime + usage.ru_stime
        for line in stdout.splitlines():
            if line.startswith('{"first_paint_ns"'):
                painted = json.loads(line)
                end, cpu = painted["first_paint_ns"], painted["cpu_s"]
        return Start((end - t0) / 1e9, usage.ru_maxrss / 1024, cpu)

    def start(self, kind: str, arg: str, repeats: int) -> Start:
        """Medians of ``spawn`` over ``repeats`` runs."""
        return self.starts([start_argv(kind, arg)], repeats)[0]

    def starts(self, argvs: list[list[str]], repeats: int) -> list[Start]:
        """``start`` for several commands, run in turn (A B C, B C A, C A B ...) so that a
        machine getting busier or quieter during the run, or a process going first or
        last in a round, weighs on each of them alike."""
        runs: list[list[Start]] = [[] for _ in argvs]
        for r in range(repeats):
            for k in range(len(argvs)):
                i = (r + k) % len(argvs)
                runs[i].append(self.spawn(argvs[i]))
        return [Start(*(statistics.median(values) for values in zip(*rs, strict=True)))
                for rs in runs]

    def autosaves(self, path: Path, runs: int, changes: int) -> dict[str, float]:
        """Autosave figures, each the median over ``runs`` fresh processes (the first
        write after opening is one measurement per process)."""
        results = [self.child("autosave", str(self.copy(path, f"autosave-{i}")), str(changes))
                   for i in range(runs)]
        keys = ("ui_median_s", "worker_median_s", "worker_first_s")
        return {key: statistics.median(r[key] for r in results) for key in keys}

    def copy(self, path: Path, folder: str = "") -> Path:
        """A copy of a save and of its journal, if it has one (in a folder of the work
        directory, if named)."""
        work = self.work / folder
        work.mkdir(exist_ok=True)
        target = work / path.name
        for suffix in (".log.jsonl", ".journal.jsonl"):  # schema 2, schema 3
            journal = path.with_name(path.stem + suffix)
            if journal.exists():
                shutil.copyfile(journal, work / journal.name)
        shutil.copyfile(path, target)
        return target


def start_argv(kind: str, arg: str) -> list[str]:
    return [sys.executable, "-m", "bench.child", "start", kind, arg]


def generated(units: int, events: int, verbose: bool) -> Path:
    """A generated Warmaster save, built once and kept in bench/.cache."""
    path = CACHE / f"warmaster-{units}u-{events}e-v{GENERATOR_VERSION}.toml"
    if not path.exists():
        if verbose:
            print(f"  … generating {units} units, {events} log entries", file=sys.stderr)
        CACHE.mkdir(exist_ok=True)
        (CACHE / ".gitignore").write_text("*\n")
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            made = Path(tmp) / path.name
            # in a process of its own: Linux reports a child's peak memory as at least
            # its parent's at the fork, so this process must stay small for the RSS rows
            subprocess.run(
                [sys.executable, "-c", "import sys; from pathlib import Path; "
                 "from bench.generate import write_large; "
                 "write_large(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))",
                 str(made), str(units), str(events)],
                cwd=ROOT, check=True,
            )
            for pattern in ("*.log.jsonl", "*.journal.jsonl"):  # schema 2, schema 3
                for journal in Path(tmp).glob(pattern):
                    journal.rename(CACHE / journal.name)
            made.rename(path)  # the state last: a cached state always has its journal
    return path


# --- in-process figures ---------------------------------------------------------------


def odds_times(repeats: int = 5) -> list[tuple[str, float]]:
    from tracker import rules

    cases = [
        ("edc exchange, 30d10 vs 30d10", "edc", "exchange",
         {"attack_dice": "30", "atn": "7", "defense_dice": "30", "dtn": "7"}),
        ("warmaster shoot, 60 dice, saves, 3 hits/stand", "warmaster", "shoot",
         {"attacks": "60", "armour": "4", "stands": "8", "hits_per_stand": "3"}),
        ("warmaster shoot, 60 dice, split batches", "warmaster", "shoot",
         {"attacks": "60", "armour": "5", "stands": "8", "hits_per_stand": "3",
          "position": "defended", "exposed": "3", "target_kind": "infantry"}),
    ]
    out = []
    for label, rid, name, raw in cases:
        ruleset = rules.get(rid)
        action = ruleset.action(name)
        raw = dict(raw)
        for setting in ruleset.settings:
            if any(p.name == setting.name for p in action.params):
                raw.setdefault(setting.name, str(setting.default))
        params = action.parse_params(raw)
        assert action.odds is not None
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            action.odds(params)
            times.append(time.perf_counter() - t0)
        out.append((label, statistics.median(times)))
    return out


# --- the run --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repeats; growth to 1,000")
    ap.add_argument("--repeats", type=int, help="start-up runs per figure (default 7)")
    ap.add_argument("--presses", type=int, help="keypresses per figure (default 200)")
    ap.add_argument("--no-growth", action="store_true", help="skip the growth table")
    ap.add_argument("--markdown", type=Path, help="also write the tables to this file")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    ns = ap.parse_args(argv)
    repeats = ns.repeats or (3 if ns.quick else 7)
    presses = ns.presses or (50 if ns.quick else 200)
    sizes = [] if ns.no_growth else [10, 100, 1000] if ns.quick else [10, 100, 1000, 10_000]

    with tempfile.TemporaryDirectory(prefix="tracker-bench-") as tmp:
        b = Bench(Path(tmp), verbose=not ns.quiet)
        (b.work / "home").mkdir()
        sample = b.copy(SAMPLE)
        large = b.copy(generated(*LARGE, verbose=not ns.quiet))
        growth_files = {n: b.copy(generated(n, GROWTH_EVENTS, verbose=not ns.quiet))
                        for n in sizes}

        b.log("start-up: the baseline, the floor, the sample, the large encounter and "
              "`tracker resolve`")
        resolve_argv = [sys.executable, "-m", "tracker", "resolve", "warmaster", "shoot",
                        "attacks=12", "armour=4", "--seed", "1"]
        base, floor, sample_run, large_run, resolve_run = b.starts(
                [start_argv("baseline", "10"), start_argv("floor", "10"),
                 start_argv("tracker", str(sample)), start_argv("tracker", str(large)),
                 resolve_argv], repeats)

        b.log("keypresses: baseline DataTable and roster, 1,000 rows")
        base_key = b.child("keys", "baseline", "1000", str(presses), env=KEY_ENV)["median_s"]
        large_key = b.child("keys", "tracker", str(large), str(presses), env=KEY_ENV)
        b.log("autosave and load of the large encounter")
        saved = b.autosaves(generated(*LARGE, verbose=False), runs=3, changes=5)
        loaded = b.child("load", str(large), "3")["median_s"]
        b.log("odds")
        odds = odds_times()
        b.log("tracker resolve: what it imports")
        textual_check = subprocess.run(
            [sys.executable, "-c",
             "import sys; from tracker.cli import main; "
             f"main({resolve_argv[3:]!r}); print('textual' in sys.modules)"],
            cwd=ROOT, env=b.env, capture_output=True, text=True,
        ).stdout.strip().splitlines()[-1]

        rows = [
            Row(FLOOR_LABEL, floor.wall, base.wall, "reference", 0, reference=True),
            Row("start to first screen, sample encounter", sample_run.wall, base.wall,
                "≤ 1.3 ×", 1.3),
            Row("start to first screen, 1,000 units + 10,000-entry log", large_run.wall,
                base.wall, "≤ 1.6 ×", 1.6),
            Row("peak RSS, large encounter", large_run.rss, base.rss, "≤ 1.5 ×", 1.5,
                unit="MB"),
            Row("peak RSS, the floor", floor.rss, base.rss, "reference", 0, unit="MB",
                reference=True),
            Row("keypress to repaint, roster of 1,000 units (↓)", large_key["median_s"],
                base_key, "≤ 2 ×", 2.0),
            Row("autosave, time on the UI thread", saved["ui_median_s"], None, "≤ 1 ms", 0.001),
            Row("autosave write in the worker", saved["worker_median_s"], None, "≤ 50 ms", 0.05),
            Row("autosave write in the worker, first after opening", saved["worker_first_s"],
                None, "≤ 50 ms", 0.05),
            Row("load and validate the large save", loaded, None, "≤ 150 ms", 0.15),
        ]
        for label, seconds in odds:
            rows.append(Row(f"odds: {label}", seconds, None, "≤ 50 ms or in a worker", 0.05,
                            note="in a worker: the dialog is usable at once"))
        rows.append(Row("`tracker resolve` end to end" + (
            "" if textual_check == "False" else " (IMPORTS TEXTUAL)"), resolve_run.wall,
            base.wall,
            "≤ 0.5 × start", 0.5))

        growth: list[tuple[int, float, float, float, float]] = []
        for n, path in growth_files.items():
            b.log(f"growth: {n} units")
            start_s = b.start("tracker", str(path), max(3, repeats - 2)).wall
            load_s = b.child("load", str(path), "3")["median_s"]
            save_s = b.child("autosave", str(path), "3")["worker_median_s"]
            key_s = b.child("keys", "tracker", str(path), str(min(presses, 100)),
                            env=KEY_ENV)["median_s"]
            growth.append((n, start_s, load_s, save_s, key_s))

        journal = next((large.with_name(large.stem + suffix)  # schema 3, schema 2
                        for suffix in (".journal.jsonl", ".log.jsonl")
                        if large.with_name(large.stem + suffix).exists()), large)
        sizes_mb = (large.stat().st_size / 1e6, journal.stat().st_size / 1e6)
    cpu = [(label, run.cpu) for label, run in (
        ("floor", floor), ("sample", sample_run), ("1,000 units", large_run))]
    text = render(rows, growth, base, cpu, base_key, sizes_mb)
    print(text)
    if ns.markdown:
        ns.markdown.write_text(text + "\n")
    return 0


def render(rows: list[Row], growth: list[tuple[int, float, float, float, float]],
           base: Start, cpu: list[tuple[str, float]], base_key: float,
           sizes_mb: tuple[float, float]) -> str:
    out = [
        "| figure | tracker | baseline | ratio | target | met |",
        "|---|---:|---:|---:|---|---|",
    ]
    for r in rows:
        ratio = f"{r.ratio:.2f} ×" if r.ratio is not None else "—"
        met = "—" if r.reference else "yes" if r.met else (
            "in a worker" if r.note else "**no**")
        out.append(f"| {r.figure} | {fmt(r.measured, r.unit)} | {fmt(r.baseline, r.unit)} "
                   f"| {ratio} | {r.target} | {met} |")
    out.append("")
    out.append(f"Baseline: Header + DataTable + Footer, headless at 120×40; start "
               f"{fmt(base.wall, 's')}, peak RSS {base.rss:.0f} MB, ↓ in 1,000 rows "
               f"{fmt(base_key, 's')}. Large save: {sizes_mb[0]:.1f} MB of state, "
               f"{sizes_mb[1]:.1f} MB of journal.")
    out.append("")
    out.append(f"CPU time to the first screen (the process's own, so less swayed by a busy "
               f"machine): baseline {fmt(base.cpu, 's')}; "
               + ", ".join(f"{label} {value / base.cpu:.2f} ×" for label, value in cpu) + ".")
    if growth:
        out += [
            "",
            f"Growth (Warmaster, {GROWTH_EVENTS:,}-entry log):",
            "",
            "| units | start | load | save (worker) | keypress |",
            "|---:|---:|---:|---:|---:|",
        ]
        for n, start_s, load_s, save_s, key_s in growth:
            out.append(f"| {n:,} | {fmt(start_s, 's')} | {fmt(load_s, 's')} "
                       f"| {fmt(save_s, 's')} | {fmt(key_s, 's')} |")
    return "\n".join(out)


if __name__ == "__main__":
    raise SystemExit(main())
