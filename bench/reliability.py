"""Reliability runs: python -m bench.reliability [--kills N] [--writers W --rounds R]
[--starts N] [--faults] [--all]

- kills: SIGKILL at random moments of a real app session in a pseudo-terminal, then
  check the save and that every change the screen showed as committed is there;
- writers: W `tracker exec` at once on one save, R rounds: every one that exits 0 must
  have its change in the save;
- starts: N processes open one save for writing at the same moment: never two writers;
- faults: every file operation of a session's saves fails with each of EIO, ENOSPC,
  EROFS, EFBIG, or crashes there (with unflushed writes dropped).

Prints a Markdown table of the figures (the README's "Reliability" section).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.reliability", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=0)
    ap.add_argument("--writers", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--starts", type=int, default=0)
    ap.add_argument("--faults", action="store_true")
    ap.add_argument("--all", action="store_true",
                    help="--kills 1000 --writers 8 --rounds 50 --starts 100 --faults")
    ap.add_argument("--seed", type=int, default=1)
    ns = ap.parse_args(argv)
    if ns.all:
        ns.kills, ns.writers, ns.rounds, ns.starts, ns.faults = 1000, 8, 50, 100, True
    import os

    os.environ.setdefault("TRACKER_HOME", tempfile.mkdtemp(prefix="tracker-rel-home-"))
    rows: list[tuple[str, str, str]] = []
    bad = False
    work = Path(tempfile.mkdtemp(prefix="tracker-reliability-"))
    if ns.faults:
        from tests.store.test_faults import ERRORS, MODES, run_matrix

        for kind in ("journal", "schema2-sample"):
            t0 = time.monotonic()
            (work / f"faults-{kind}").mkdir(parents=True)
            points, cases, problems = run_matrix(work / f"faults-{kind}", kind,
                                                 lambda at: list(MODES))
            bad |= bool(problems)
            rows.append((f"fault injection ({kind}): every operation x "
                         f"{'/'.join(ERRORS)}/crash",
                         f"{points} injection points, {cases} cases, {len(problems)} failed",
                         f"{time.monotonic() - t0:.0f} s"))
            for p in problems[:10]:
                print("  ", p, file=sys.stderr)
    if ns.writers:
        from tests.stress.harness import run_writers

        w = run_writers(ns.writers, ns.rounds, work / "writers")
        bad |= bool(w.lost or w.broken)
        rows.append((f"{ns.writers} concurrent `tracker exec`, {ns.rounds} rounds",
                     f"{w.exit_zero} saved, {w.refused} refused, {len(w.lost)} lost updates, "
                     f"{len(w.broken)} broken", f"{w.seconds:.0f} s"))
    if ns.starts:
        from tests.stress.harness import run_starts

        s = run_starts(ns.starts, 1, work / "starts", hold=3.0)
        bad |= s.most_writers_at_once != 1 or bool(s.broken)
        rows.append((f"{ns.starts} simultaneous starts on one save",
                     f"at most {s.most_writers_at_once} writer at once, "
                     f"{len(s.broken)} failed", f"{s.seconds:.0f} s"))
    if ns.kills:
        from tests.stress.harness import run_kills

        k = run_kills(ns.kills, work / "kills", seed=ns.seed, progress=True)
        bad |= bool(k.lost or k.broken)
        rows.append((f"SIGKILL at random moments of an app session ({k.kills} kills)",
                     f"{len(k.broken)} broken saves, {len(k.lost)} lost of "
                     f"{len(k.shown)} changes shown committed", f"{k.seconds:.0f} s"))
        for b in k.broken[:5]:
            print("  ", b, file=sys.stderr)
    print("| run | result | time |")
    print("|---|---|---:|")
    for row in rows:
        print(f"| {row[0]} | {row[1]} | {row[2]} |")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
