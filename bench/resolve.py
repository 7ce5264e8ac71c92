"""`tracker resolve` for every ruleset, set beside the bare Textual app as `python -m bench`
does: fresh interpreters, the package compiled to bytecode first, the commands and the
baseline run in turn (A B C ..., B C ... A, ...), medians.

    python -m bench.resolve [--repeats N] [--root DIR]

``--root`` times the tracker of another checkout (its ``tracker`` package put first on
the path) against the same baseline, for a before/after table.
"""

from __future__ import annotations

import argparse
import compileall
import sys
import tempfile
from pathlib import Path

from bench.run import Bench, start_argv

COMMANDS: dict[str, list[str]] = {
    "warlord fire (profile sheet)": [
        "warlord", "fire", "race=wood_elf", "weapon=elf_bow", "armour=chainmail",
        "named=target_moved,huntmasters,per_target_rank", "target_ranks=2", "figures=10",
        "range=medium", "--dice", "d100=23",
    ],
    "warlord fire (bfp given)": [
        "warlord", "fire", "bfp=18", "mods=-1,3,4", "figures=10", "range=medium",
        "--dice", "d100=23",
    ],
    "warmaster shoot": ["warmaster", "shoot", "attacks=12", "armour=4", "--seed", "1"],
    "harn missile": ["harn", "missile", "ml=75", "range=20", "br=40", "target=still",
                     "--dice", "test=45", "--roll-rest"],
    "edc exchange": ["edc", "exchange", "attack_dice=6", "defense_dice=3", "atn=7", "dtn=7",
                     "--seed", "1"],
    "d6battle shoot": ["d6battle", "shoot", "figures=2", "sa=3", "weapon=bow",
                       "durability=4", "--seed", "1"],
}


def resolve_argv(root: Path | None, args: list[str]) -> list[str]:
    if root is None:
        return [sys.executable, "-m", "tracker", "resolve", *args]
    code = (f"import sys; sys.path.insert(0, {str(root)!r}); from tracker.cli import main; "
            "raise SystemExit(main(sys.argv[1:]))")
    return [sys.executable, "-c", code, "resolve", *args]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.resolve", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--root", type=Path, help="time the tracker of this checkout instead")
    ap.add_argument("--only", help="only the commands whose label contains this")
    ns = ap.parse_args(argv)
    labels = [k for k in COMMANDS if not ns.only or ns.only in k]
    with tempfile.TemporaryDirectory(prefix="tracker-bench-") as tmp:
        b = Bench(Path(tmp), verbose=False)
        (b.work / "home").mkdir()
        if ns.root is not None:
            compileall.compile_dir(ns.root / "tracker", quiet=1)
        argvs = [start_argv("baseline", "10")]
        argvs += [resolve_argv(ns.root, COMMANDS[k]) for k in labels]
        base, *runs = b.starts(argvs, ns.repeats)
    print(f"| `tracker resolve` | wall | ratio to the bare app ({base.wall * 1e3:.0f} ms) "
          "| CPU | CPU ratio |")
    print("|---|---:|---:|---:|---:|")
    for label, run in zip(labels, runs, strict=True):
        print(f"| {label} | {run.wall * 1e3:.0f} ms | {run.wall / base.wall:.2f} × "
              f"| {run.cpu * 1e3:.0f} ms | {run.cpu / base.cpu:.2f} × |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
