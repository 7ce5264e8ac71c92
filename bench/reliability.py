"""Reliability runs: python -m bench.reliability [--kills N] [--writers W --rounds R]
[--starts N] [--faults] [--cuts] [--chain N] [--all]

- kills: SIGKILL at random moments of a real app session in a pseudo-terminal, then
  check the save and that every change the screen showed as committed is there;
- writers: W `tracker exec` at once on one save, R rounds: every one that exits 0 must
  have its change in the save;
- starts: N processes open one save for writing at the same moment: never two writers;
- faults: every file operation of a session's saves fails with each of EIO, ENOSPC,
  EROFS, EFBIG, or crashes there (with unflushed writes dropped);
- cuts: a played save's state and journal cut at every byte, and every bit of every
  byte flipped: none may be accepted silently, and after each `tracker repair` must
  keep every entry before the damage (report and replay agreeing), pass `check`, and
  keep a copy of what it changed;
- chain: how long opening takes to check a journal of N records (5,000) from its first
  record, beside reading and hashing its bytes in one piece (the floor).

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
    ap.add_argument("--cuts", action="store_true")
    ap.add_argument("--chain", type=int, default=0, metavar="N")
    ap.add_argument("--all", action="store_true",
                    help="--kills 1000 --writers 8 --rounds 50 --starts 100 --faults --cuts "
                    "--chain 5000")
    ap.add_argument("--seed", type=int, default=1)
    ns = ap.parse_args(argv)
    if ns.all:
        ns.kills, ns.writers, ns.rounds, ns.starts, ns.faults = 1000, 8, 50, 100, True
        ns.cuts, ns.chain = True, 5000
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
    if ns.cuts:
        from tests.conftest import journal_of
        from tests.store.damage import played, run_damage

        for which, how in (("state", "cut"), ("journal", "cut"), ("state", "flip"),
                           ("journal", "flip")):
            t0 = time.monotonic()
            folder = work / f"{how}-{which}"
            folder.mkdir(parents=True)
            path = folder / "ford.toml"
            played(path)
            got = run_damage(path, which, how)
            assert got.accepted is not None and got.failed is not None
            bad |= bool(got.accepted or got.failed)
            what = "cut at every byte" if how == "cut" else "every bit of every byte flipped"
            size = len(path.read_bytes() if which == "state" else journal_of(path).read_bytes())
            rows.append((f"the {which} ({size:,} bytes) {what}, then `tracker repair`",
                         f"{got.cases} cases: {len(got.accepted)} accepted silently; "
                         f"repaired with the log kept: {got.cases - len(got.failed)}",
                         f"{time.monotonic() - t0:.0f} s"))
            for p in got.failed[:10]:
                print("  ", p, file=sys.stderr)
    if ns.chain:
        rows.append(chain_row(ns.chain, work / "chain"))
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


def chain_row(records: int, folder: Path) -> tuple[str, str, str]:
    """Opening's check of a journal of ``records`` records, from its first, beside the
    floor: its bytes read and hashed in one piece (medians of 21, in CPU time)."""
    import hashlib
    import statistics

    from tests.conftest import skirmish
    from tracker.session.opening import load
    from tracker.session.session import Session
    from tracker.store import chain, save_encounter, save_info

    folder.mkdir(parents=True)
    path = folder / "long.toml"
    save_encounter(skirmish(), path)
    session = Session(load(path), path)
    for i in range(records - 1):
        session.execute(f"note n{i}")
        if i % 1000 == 999:
            save_encounter(session.enc, path)
    save_encounter(session.enc, path)
    info = save_info(path)
    assert info.position.records == records

    def median(run) -> float:  # type: ignore[no-untyped-def]
        """CPU time in ms (a shared machine sways the wall clock far more)."""
        times = []
        for _ in range(21):
            t0 = time.process_time()
            run()
            times.append(time.process_time() - t0)
        return statistics.median(times) * 1000

    def floor() -> None:
        hashlib.blake2b(chain.read_all(info.journal), digest_size=16).hexdigest()

    def verify() -> None:
        chain.verify_chain(info.journal, info.position, info.enc_id)

    base, checked, opened = median(floor), median(verify), median(lambda: load(path))
    size = info.position.end / 1e6
    return (f"opening checks the chain of a {records:,}-record journal ({size:.1f} MB) "
            "from its first record",
            f"{checked:.1f} ms of CPU ({checked / base:.1f} × reading and hashing its bytes "
            f"in one piece, {base:.1f} ms); the whole opening {opened:.1f} ms", "")


if __name__ == "__main__":
    raise SystemExit(main())
