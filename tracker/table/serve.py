"""`tracker serve FILE|FOLDER --ssh [HOST:]PORT [--access ACCESS.toml] [--web [HOST:]PORT]`:
run the table servers until Ctrl+C or SIGTERM, then reset every player's terminal, hang
up every session and wait for them."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tracker.store.paths import data_dir
from tracker.table.access import GM, Access
from tracker.table.club import Choice, Club
from tracker.table.ssh import KEEPALIVE, fingerprint, host_key, start_ssh
from tracker.table.table import Limits, Table
from tracker.table.web import TableWeb, make_tokens, start_web, token_key
from tracker.table.zygote import Zygote

LOOPBACK = "127.0.0.1"


def parse_address(text: str) -> tuple[str, int]:
    """``PORT``, ``HOST:PORT`` or ``[IPV6]:PORT``; the host is 127.0.0.1 unless given."""
    host, port = LOOPBACK, text
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":")
    elif ":" in text:
        host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"{text}: expected [HOST:]PORT, e.g. 2222 or 0.0.0.0:2222") from None
    if not 0 <= number <= 65535 or not host:
        raise ValueError(f"{text}: expected [HOST:]PORT with a port from 0 to 65535")
    return host, number


def public_host(host: str) -> str:
    """The name players type to reach ``host`` (the machine's name for a wildcard)."""
    if host in ("0.0.0.0", "::", ""):
        return socket.getfqdn()
    return f"[{host}]" if ":" in host else host


def ssh_command(host: str, port: int) -> str:
    shown = public_host(host)
    return f"ssh -p {port} {shown}" if port != 22 else f"ssh {shown}"


def roles_summary(access: Access) -> str:
    def keys(n: int) -> str:
        return f"{n} key{'s' if n != 1 else ''}"

    parts = [f"GM {keys(access.count(GM))}"]
    for side in access.sides:
        n = sum(1 for r in access.roles.values() if r.side == side)
        parts.append(f"side {side} {keys(n)}")
    spectators = f"spectators {keys(access.count('spectator'))}"
    parts.append(spectators + (" (and anyone: open)" if access.open_spectators else ""))
    return ", ".join(parts)


@dataclass
class Served:
    """One encounter to serve: its save, its access file, and the sides it has."""

    save: Path
    access: Access
    sides: set[str]


@dataclass
class Options:
    served: list[Served]
    ssh: tuple[str, int] | None
    web: tuple[str, int] | None
    web_gm: bool = False
    limits: Limits = field(default_factory=Limits)
    keepalive: float = KEEPALIVE


class ServeError(ValueError):
    """A request to serve that cannot be met: one line for the shell."""


STOPPED = "the table server stopped"
WAIT_FOR_SESSIONS = 2.5
"""Seconds the sessions have to save and leave at a stop (each is killed at 0.8 s)."""


def serve(opts: Options) -> int:
    try:
        return asyncio.run(_serve(opts))
    except KeyboardInterrupt:
        return 130


async def _serve(opts: Options) -> int:
    zygote = Zygote()
    zygote.listen()
    club = Club([Table(s.save, s.access, zygote.spawn, opts.limits) for s in opts.served])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    acceptor = runner = web = None
    try:
        lines = [f"tracker serve: {', '.join(str(s.save) for s in opts.served)}"]
        for served in opts.served:
            unknown = served.access.unknown_sides(served.sides)
            if unknown:
                have = ", ".join(sorted(served.sides)) or "none yet"
                lines.append(f"  {served.save.name}: the access file names side "
                             f"{', '.join(unknown)}, which the encounter does not have "
                             f"(its sides: {have})")
        hints: dict[int, list[str]] = {id(t): [] for t in club.tables}
        if opts.ssh is not None:
            host, port = opts.ssh
            key = host_key(data_dir())
            acceptor = await start_ssh(club, host, port, key, opts.keepalive)
            port = acceptor.sockets[0].getsockname()[1]
            command = ssh_command(host, port)
            lines += [
                f"  ssh on {public_host(host)} port {port}; host key {fingerprint(key)}",
                f"  connect: {command}   (the key decides the role)",
            ]
            for table in club.tables:
                lines.append(f"  roles{f' at {table.name}' if len(club.tables) > 1 else ''}: "
                             f"{roles_summary(table.access)}")
                hints[id(table)].append(command)
        if opts.web is not None:
            host, port = opts.web
            secret = token_key(data_dir())
            tokens: dict[str, Choice] = {}
            for table in club.tables:
                tokens.update({token: Choice(table, role) for token, role
                               in make_tokens(table, secret, opts.web_gm).items()})
            web = TableWeb(tokens)
            runner = await start_web(web, host, port)
            port = runner.addresses[0][1]
            base = f"http://{public_host(host)}:{port}/"
            lines.append(f"  browser on {public_host(host)} port {port}; each address is a role:")
            for token, choice in tokens.items():
                where = choice.describe() if len(club.tables) > 1 else choice.role.describe()
                lines.append(f"    {where:<14} {base}{token}/")
                if choice.role.kind != GM:
                    hints[id(choice.table)].append(f"{choice.role.describe()}: {base}{token}/")
        for table in club.tables:
            table.connect_hint = "\n".join(hints[id(table)])
        lines.append("  Ctrl+C stops the server (each session saves and closes)")
        print("\n".join(lines), flush=True)
        await stop.wait()
    except OSError as exc:
        print(f"tracker: cannot listen: {exc.strerror or exc}", file=sys.stderr)
        return 2
    finally:
        await _stop(club, zygote, acceptor, web, runner)
    return 0


async def _stop(club: Club, zygote: Zygote, acceptor: object, web: object,
                runner: object) -> None:
    """Every terminal reset and told, every session saved and gone, then the listeners."""
    if acceptor is not None:
        acceptor.close()  # type: ignore[attr-defined]
    for table in club.tables:
        table.stop(STOPPED)
    if web is not None:
        await web.stop()  # type: ignore[attr-defined]
    deadline = loop_time() + WAIT_FOR_SESSIONS
    while zygote.waiting and loop_time() < deadline:
        await asyncio.sleep(0.05)
    if runner is not None:
        await runner.cleanup()  # type: ignore[attr-defined]
    if acceptor is not None:
        await acceptor.wait_closed()  # type: ignore[attr-defined]
    zygote.stop()


def loop_time() -> float:
    return asyncio.get_running_loop().time()
