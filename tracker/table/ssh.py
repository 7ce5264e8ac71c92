"""The table over SSH: one server, each connection's key picks what it gets.

A GM key gets the full app on the encounter (the same lock rules as a local start: a
second GM gets the read-only view); a side's key that side's player view; a spectator's
key, or anyone when the access file says ``open = true``, the public view. Any other
key, a password or no key at all is refused at authentication. Each session is its own
process on a pty (see ``pty.py``); nothing else is offered: no shell, no commands, no
forwarding, no file transfer.
"""

from __future__ import annotations

import base64
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from tracker.table.access import GM, SPECTATOR, Access, Role
from tracker.table.pty import PtyChild

HOST_KEY = "ssh_host_ed25519_key"
KEEPALIVE = 15.0
"""Seconds between keepalives; three unanswered (45 s) and the connection is dropped."""
KEEPALIVE_MISSES = 2
"""Keepalives that may go unanswered; the next missed one ends the connection."""
MAX_SESSIONS = 32
TERM_DEFAULT = "xterm-256color"


def host_key(folder: Path) -> asyncssh.SSHKey:
    """The server's host key, made once and kept in ``folder`` (0600)."""
    path = folder / HOST_KEY
    folder.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519", comment="tracker table")
        data = key.export_private_key()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # made meanwhile by another server: use that one
            return asyncssh.read_private_key(path)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        return key
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)
    return asyncssh.read_private_key(path)


def fingerprint(key: asyncssh.SSHKey) -> str:
    return str(key.get_fingerprint("sha256"))


@dataclass
class Table:
    """What every connection shares: the save, who may do what, and the sessions."""

    save: Path
    access: Access
    max_sessions: int = MAX_SESSIONS
    connect_hint: str = ""
    """The command players type to connect (shown by `w` in the GM's app)."""
    sessions: set[TableSession] = field(default_factory=set)
    web_sessions: int = 0
    """Browser sessions open now: the limit counts them with the SSH ones."""
    say: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True)

    @property
    def busy(self) -> int:
        return len(self.sessions) + self.web_sessions

    def argv(self, role: Role) -> list[str]:
        base = [sys.executable, "-m", "tracker"]
        if role.kind == GM:
            return [*base, "open", str(self.save)]
        if role.kind == "side" and role.side:
            return [*base, "watch", str(self.save), "--side", role.side]
        return [*base, "watch", str(self.save), "--public"]

    def env(self, term: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SSH_", "TEXTUAL_"))}
        env["TERM"] = term or TERM_DEFAULT
        env.setdefault("LANG", "C.UTF-8")
        env["TRACKER_TABLE"] = self.connect_hint
        return env


class TableConnection(asyncssh.SSHServer):
    """One client: authentication decides its role."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.conn: asyncssh.SSHServerConnection | None = None
        self._offered: Role | None = None
        self.role: Role | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        host, port = conn.get_extra_info("peername", ("?", 0))[:2]
        self._peer = f"{host}:{port}"

    def peer(self) -> str:
        return getattr(self, "_peer", "?")

    def begin_auth(self, username: str) -> bool:
        return True  # every client authenticates, even a spectator of an open table

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh asks again with the signature before it accepts a key, so the last
        # key asked about before auth_completed is the one the client proved it holds
        blob = base64.b64encode(key.public_data).decode("ascii")
        role = self.table.access.role_of(blob)
        if role is None and self.table.access.open_spectators:
            role = Role(SPECTATOR)
        self._offered = role
        return role is not None

    def kbdint_auth_supported(self) -> bool:
        return self.table.access.open_spectators  # a client with no key, on an open table

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._offered = Role(SPECTATOR)
        return True  # nothing to ask: an open table lets anyone watch

    def auth_completed(self) -> None:
        self.role = self._offered
        who = self.role.describe() if self.role else "?"
        self.table.say(f"tracker serve: {who} connected from {self.peer()}")

    def session_requested(self) -> TableSession | bool:
        if self.role is None:
            return False
        return TableSession(self.table, self.role, self)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.role is not None:
            why = f" ({exc})" if exc else ""
            self.table.say(f"tracker serve: {self.role.describe()} from {self.peer()} left{why}")


class TableSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One channel: the role's app on a pty, bytes passed through both ways."""

    def __init__(self, table: Table, role: Role, connection: TableConnection) -> None:
        self.table, self.role, self.connection = table, role, connection
        self.chan: Any = None
        self.child: PtyChild | None = None
        self.term = ""
        self.size = (80, 24)
        self.has_pty = False
        self.command: str | None = None
        self.closed = False

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.has_pty = True
        self.term = term_type
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True  # refused with a line in session_started, rather than a bare failure

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        if self.command is not None:
            return self._refuse("this server shows the table only; connect without a command")
        if not self.has_pty:
            return self._refuse("the table needs a terminal: connect with ssh -t")
        if self.table.busy >= self.table.max_sessions:
            self.table.say(f"tracker serve: refused {self.role.describe()} from "
                           f"{self.connection.peer()}: {self.table.max_sessions} sessions open")
            return self._refuse(f"the table is full ({self.table.max_sessions} sessions); "
                                "try again later")
        cols, rows = self.size
        try:
            self.child = PtyChild(self.table.argv(self.role), self.table.env(self.term),
                                  cols, rows, self._output, self._exited,
                                  background=self.role.kind != GM)
        except OSError as exc:
            return self._refuse(f"could not start the app: {exc.strerror or exc}")
        self.table.sessions.add(self)

    def _refuse(self, message: str) -> None:
        self.chan.write(f"tracker: {message}\r\n".encode())
        self.chan.exit(1)

    def _output(self, data: bytes) -> None:
        if self.closed:
            return  # the client is gone: what the app still draws is dropped
        try:
            self.chan.write(data)
        except (OSError, asyncssh.Error):
            self.closed = True

    def _exited(self, code: int) -> None:
        self.table.sessions.discard(self)
        if self.closed:
            return
        try:
            self.chan.exit(code)
        except (OSError, asyncssh.Error):
            pass

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.child is not None:
            self.child.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self.size = (width, height)
        if self.child is not None and width and height:
            self.child.resize(width, height)

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume()

    def eof_received(self) -> bool:
        return True  # the terminal stays open until the connection closes

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.table.sessions.discard(self)
        if self.child is not None:
            self.child.hangup()


async def start_ssh(
    table: Table,
    host: str,
    port: int,
    key: asyncssh.SSHKey,
    keepalive: float = KEEPALIVE,
) -> asyncssh.SSHAcceptor:
    return await asyncssh.create_server(
        lambda: TableConnection(table),
        host,
        port,
        server_host_keys=[key],
        encoding=None,
        line_editor=False,
        keepalive_interval=keepalive,
        keepalive_count_max=KEEPALIVE_MISSES,
        login_timeout=30,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        allow_pty=True,
    )
