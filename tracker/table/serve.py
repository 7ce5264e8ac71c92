"""`tracker serve FILE --ssh [HOST:]PORT --access ACCESS.toml [--web [HOST:]PORT]`: run the
table servers until Ctrl+C or SIGTERM, then hang up every session and wait for them."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

from tracker.table.access import GM, Access
from tracker.table.ssh import KEEPALIVE, MAX_SESSIONS, Table

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
class Options:
    save: Path
    access: Access
    ssh: tuple[str, int] | None
    web: tuple[str, int] | None
    web_gm: bool = False
    max_sessions: int = MAX_SESSIONS
    keepalive: float = KEEPALIVE


def serve(opts: Options) -> int:
    try:
        return asyncio.run(_serve(opts))
    except KeyboardInterrupt:
        return 130


async def _serve(opts: Options) -> int:
    from tracker.store.paths import data_dir

    table = Table(opts.save, opts.access, max_sessions=opts.max_sessions)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    lines = [f"tracker serve: {opts.save}"]
    acceptor = runner = None
    try:
        if opts.ssh is not None:
            from tracker.table.ssh import fingerprint, host_key, start_ssh

            key = host_key(data_dir())
            host, port = opts.ssh
            acceptor = await start_ssh(table, host, port, key, opts.keepalive)
            port = acceptor.sockets[0].getsockname()[1]
            table.connect_hint = ssh_command(host, port)
            lines += [
                f"  ssh on {public_host(host)} port {port}; host key {fingerprint(key)}",
                f"  connect: {table.connect_hint}   (the key decides the role)",
                f"  roles: {roles_summary(opts.access)}",
            ]
        if opts.web is not None:
            from tracker.table.web import make_server, make_tokens, start_web

            host, port = opts.web
            tokens = make_tokens(opts.access.sides, opts.web_gm)
            server = make_server(table, host, port, tokens)
            runner = await start_web(server)
            port = runner.addresses[0][1]
            base = f"http://{public_host(host)}:{port}/"
            lines.append(f"  browser on {public_host(host)} port {port}; each address is a role:")
            for token, role in tokens.items():
                lines.append(f"    {role.describe():<14} {base}?token={token}")
        lines.append("  Ctrl+C stops the server (each session saves and closes)")
        print("\n".join(lines), flush=True)
        await stop.wait()
    except OSError as exc:
        print(f"tracker: cannot listen: {exc.strerror or exc}", file=sys.stderr)
        return 2
    finally:
        if acceptor is not None:
            acceptor.close()
        for session in list(table.sessions):
            if session.child is not None:
                session.child.hangup()
        for _ in range(50):  # the sessions save and leave, or are killed within a second
            if not any(s.child and s.child.running for s in table.sessions):
                break
            await asyncio.sleep(0.05)
        if runner is not None:
            await runner.cleanup()
    return 0

