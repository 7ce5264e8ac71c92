"""The table over SSH with a crowd: memory per viewer, CPU per change per connection, the
GM's keypress and how soon a side's view follows the GM, with N viewers beside none.

    .venv/bin/python -m bench.ssh                 # 50 viewers, 20 keypresses each way
    .venv/bin/python -m bench.ssh --viewers 10 --presses 5

Everything runs on loopback: a `tracker serve --ssh` on a free port; the GM and the
timed side are asyncssh clients in this process; the crowd is one other process at the
lowest priority holding N sessions over asyncssh (three roles, two terminal sizes, as
players' machines would). Each figure is set beside a baseline of the same run: the GM's
keypress and the side's follow time with the crowd beside the same with the crowd
stopped (SIGSTOP), press by press in turns. Nothing here fails on a time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncssh  # noqa: E402

from tests.table.helpers import Screen, connect, open_screen, start_server  # noqa: E402
from tracker.core.model import Combatant, Encounter  # noqa: E402
from tracker.store import save_encounter  # noqa: E402

ROLES = ("party", "foes", "spectator")
SIZES = ((100, 30), (120, 40))


def bench_save(folder: Path) -> Path:
    enc = Encounter(name="Bench ford", ruleset="plain", seed=1, combatants=[
        Combatant(id=n.lower(), name=n, side=s, initiative=i)
        for n, s, i in (("Aldo", "party", 14), ("Bree", "party", 9), ("Cato", "foes", 12),
                        ("Dara", "foes", 7))
    ])
    path = folder / "bench.toml"
    save_encounter(enc, path)
    return path


def write_keys(folder: Path) -> dict[str, Path]:
    """A key file for the GM and each role, and the access file naming them."""
    files, lines = {}, {}
    for role in ("gm", *ROLES):
        key = asyncssh.generate_private_key("ssh-ed25519")
        files[role] = folder / f"{role}.key"
        key.write_private_key(str(files[role]))
        lines[role] = key.export_public_key().decode().strip()
    (folder / "access.toml").write_text(
        f'[gm]\nkeys = ["{lines["gm"]}"]\n'
        f'[sides.party]\nkeys = ["{lines["party"]}"]\n'
        f'[sides.foes]\nkeys = ["{lines["foes"]}"]\n'
        f'[spectators]\nkeys = ["{lines["spectator"]}"]\n')
    return files


def pss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_ms(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


async def crowd(port: int, keys: Path, n: int) -> None:
    """The crowd's process: ``n`` sessions, roles and sizes in turn, reading until killed."""
    sessions = []
    for i in range(n):
        role, size = ROLES[i % len(ROLES)], SIZES[(i // len(ROLES)) % len(SIZES)]
        key = asyncssh.read_private_key(str(keys / f"{role}.key"))
        conn = await connect(port, key)
        sessions.append(await open_screen(conn, size=size))
    await asyncio.Event().wait()


async def press(gm, gm_screen: Screen, side: Screen) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The GM presses n (next turn): seconds to the GM's screen and to the side's."""
    await asyncio.sleep(0.4)
    gm_screen.raw.clear()
    side.raw.clear()
    start = time.perf_counter()
    gm.write(b"n")
    await gm_screen.wait_for("Turn: ", 30)
    took = time.perf_counter() - start
    await side.wait_for("Turn: ", 30)
    return took, time.perf_counter() - start


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


async def run(viewers: int, n: int) -> list[str]:
    folder = Path(tempfile.mkdtemp(prefix="bench-ssh-"))
    save = bench_save(folder)
    keys = write_keys(folder)
    server = start_server(save, folder / "access.toml", folder / "home",
                          "--max-sessions", str(viewers + 8), "--max-per-key", str(viewers))
    out: list[str] = []
    others = None
    try:
        gm_conn = await connect(server.port, asyncssh.read_private_key(str(keys["gm"])))
        gm, gm_screen = await open_screen(gm_conn)
        await gm_screen.wait_for(": for commands", 60)
        side_conn = await connect(server.port, asyncssh.read_private_key(str(keys["party"])))
        _, side = await open_screen(side_conn, size=(90, 28))
        await side.wait_for("watching ", 60)
        gm_pid = next(p for p in server.sessions() if p not in server.views())
        timed_view = set(server.views())
        others = subprocess.Popen(
            ["nice", "-n", "19", sys.executable, "-m", "bench.ssh", "--crowd",
             str(server.port), str(folder), str(viewers)], cwd=ROOT)
        deadline = time.monotonic() + 120
        want = len(ROLES) * len(SIZES) + len(timed_view)
        while len(server.views()) < want and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
        await asyncio.sleep(3)  # every view drawn and stepped back
        views = [p for p in server.views() if p not in timed_view]
        zygote = server.zygote
        assert zygote is not None
        pss = sum(pss_mb(p) for p in views)
        # the GM alone and with the crowd take turns, press by press
        alone_gm, alone_side, crowd_gm, crowd_side = [], [], [], []
        watched = [*views, server.proc.pid, others.pid]
        used = {p: 0.0 for p in watched}
        for i in range(2 * n):
            with_crowd = i % 2 == 1
            for p in [*views, others.pid]:
                os.kill(p, signal.SIGCONT if with_crowd else signal.SIGSTOP)
            before = {p: cpu_ms(p) for p in watched}
            gm_t, side_t = await press(gm, gm_screen, side)
            if with_crowd:
                for p in watched:
                    used[p] += cpu_ms(p) - before[p]
                crowd_gm.append(gm_t)
                crowd_side.append(side_t)
            else:
                alone_gm.append(gm_t)
                alone_side.append(side_t)
        for p in [*views, others.pid]:
            os.kill(p, signal.SIGCONT)
        per_change = (sum(used[p] for p in views) + used[server.proc.pid]) / n / viewers
        out += [
            f"| memory per viewer (PSS of the view processes / viewers) | "
            f"{pss / viewers:.1f} MiB | {len(views)} processes for {viewers} viewers, "
            f"{pss:.0f} MiB in all | {pss_mb(gm_pid):.0f} MiB the GM's app |",
            f"| CPU per change per connection (views and server) | {per_change:.1f} ms | "
            f"{used[server.proc.pid] / n:.0f} ms the server per change | — |",
            f"| GM keypress (n) to its repaint, {viewers} viewers | {ms(crowd_gm)} | "
            f"{ms(alone_gm)} with none (in turns) | "
            f"{statistics.median(crowd_gm) / statistics.median(alone_gm):.2f} × |",
            f"| GM's change to a side's view, {viewers} viewers | {ms(crowd_side)} | "
            f"{ms(alone_side)} with none | "
            f"{statistics.median(crowd_side) / statistics.median(alone_side):.2f} × |",
            f"| the server itself (PSS) / the zygote | {pss_mb(server.proc.pid):.0f} MiB / "
            f"{pss_mb(zygote):.0f} MiB | — | — |",
        ]
        gm.write(b"q")
        await asyncio.sleep(1)
        gm_conn.close()
        side_conn.close()
    finally:
        if others is not None:
            others.send_signal(signal.SIGCONT)
            others.kill()
            others.wait()
        server.stop()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ssh")
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--crowd", nargs=3, metavar=("PORT", "FOLDER", "N"),
                        help=argparse.SUPPRESS)
    ns = parser.parse_args(argv)
    if ns.crowd:
        port, keys, count = ns.crowd
        asyncio.run(crowd(int(port), Path(keys), int(count)))
        return 0
    rows = asyncio.run(run(ns.viewers, ns.presses))
    print("| figure | measured | beside it | ratio |")
    print("|---|---:|---:|---:|")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
