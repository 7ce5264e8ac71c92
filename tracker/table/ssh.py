"""The table over SSH: one server, each connection's key picks what it gets.

A GM key gets the full app on the encounter (the same lock rules as a local start: a
second GM connection gets a live read-only app that offers the take-over); a side's
key that side's player view; a spectator's key, or anyone when the access file says
``open = true``, the public view. Any other key, a password or no key at all is refused
at authentication, and the refusal is logged with the key's fingerprint and the address.
Nothing else is offered: no shell, no commands, no forwarding, no file transfer.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

import asyncssh

from tracker.store.fs import make_folders
from tracker.table.club import Choice, Club
from tracker.table.rendering import Viewer
from tracker.table.table import Seat, say_to_stderr

HOST_KEY = "ssh_host_ed25519_key"
KEEPALIVE = 15.0
"""Seconds between keepalives; three unanswered (45 s) and the connection is dropped."""
KEEPALIVE_MISSES = 2
"""Keepalives that may go unanswered; the next missed one ends the connection."""


def host_key(folder: Path) -> asyncssh.SSHKey:
    """The server's host key, made once and kept in ``folder`` (0600)."""
    path = folder / HOST_KEY
    make_folders(folder)  # 0700, and any missing parent, whatever the umask
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


class TableConnection(asyncssh.SSHServer):
    """One client: authentication decides where it may sit."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.peer = "?"
        self.key = ""
        """The fingerprint of the key the client proved it holds ("" for none)."""
        self.choices: list[Choice] = []
        self._offered: tuple[str, list[Choice]] = ("", [])
        self.logged_in = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        host, port = conn.get_extra_info("peername", ("?", 0))[:2]
        self.peer = f"{host}:{port}"

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
        choices = self.club.choices(blob)
        if not choices:
            say_to_stderr(f"tracker serve: refused key {fingerprint(key)} from {self.peer}: "
                          "not in the access file")
        self._offered = (fingerprint(key), choices)
        return bool(choices)

    def kbdint_auth_supported(self) -> bool:
        return self.club.anyone_may_watch  # a client with no key, on an open table

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._offered = ("", self.club.choices(None))
        return True  # nothing to ask: an open table lets anyone watch

    def auth_completed(self) -> None:
        self.key, self.choices = self._offered
        self.logged_in = True

    def session_requested(self) -> TableSession | bool:
        if not self.choices:
            return False
        return TableSession(self)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.logged_in:
            why = f": {exc}" if exc else ""
            say_to_stderr(f"tracker serve: {self.peer} left without logging in{why}")


class TableSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One channel: a seat at a table, its rendering's bytes passed through both ways."""

    def __init__(self, connection: TableConnection) -> None:
        self.connection = connection
        self.chan: Any = None
        self.seat: Seat | None = None
        self.term = ""
        self.size = (80, 24)
        self.has_pty = False
        self.command: str | None = None
        self.closed = False
        self.picking = False

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
            return self.end(1, "this server shows the table only; connect without a command")
        if not self.has_pty:
            return self.end(1, "the table needs a terminal: connect with ssh -t")
        choices = self.connection.choices
        if len(choices) == 1:
            return self.sit(choices[0])
        self.picking = True
        lines = ["tracker: this key has a seat at several tables:"]
        lines += [f"  {i}  {c.describe()}" for i, c in enumerate(choices, 1)]
        lines.append(f"press 1-{len(choices)} to sit down, q to leave: ")
        self.chan.write("\r\n".join(lines).encode())

    def sit(self, choice: Choice) -> None:
        table = choice.table
        who = self.connection.key or f"address {self.connection.peer.rpartition(':')[0]}"
        refused = table.admit(choice.role, who)
        if refused:
            table.say(f"tracker serve: refused {choice.role.describe()} from "
                      f"{self.connection.peer}: {refused}")
            return self.end(1, refused)
        shape = table.shape(choice.role, *self.size, self.term)
        self.seat = Seat(table, choice.role, who, self.connection.peer, "ssh", self, shape)
        try:
            self.seat.start()
        except OSError as exc:
            self.seat.hangup(exc.strerror or str(exc))
            self.seat = None
            return self.end(1, f"could not start the app: {exc.strerror or exc}")

    # --- Viewer: what the seat's rendering calls -------------------------------------------

    def send(self, data: bytes) -> None:
        if self.closed:
            return  # the client is gone: what the app still draws is dropped
        try:
            self.chan.write(data)
        except (OSError, asyncssh.Error):
            self.closed = True

    def backlog(self) -> int:
        return 0 if self.closed else int(self.chan.get_write_buffer_size())

    def end(self, status: int, line: str = "") -> None:
        if self.closed:
            return
        try:
            if line:
                self.chan.write(f"\r\ntracker: {line}\r\n".encode())
            self.chan.exit(status)
        except (OSError, asyncssh.Error):
            pass
        self.closed = True

    # --- from the client ----------------------------------------------------------------

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.seat is not None:
            self.seat.input(data)
        elif self.picking:
            self._pick(data)

    def _pick(self, data: bytes) -> None:
        choices = self.connection.choices
        for byte in data:
            if chr(byte) in "qQ\x03\x04":
                self.picking = False
                return self.end(0)
            number = byte - ord("0")
            if 1 <= number <= len(choices):
                self.picking = False
                self.chan.write(b"\r\n")
                return self.sit(choices[number - 1])

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.seat is not None:
                self.seat.resize(width, height)

    def pause_writing(self) -> None:
        rendering = self.seat.rendering if self.seat is not None else None
        if rendering is not None and not rendering.shared:
            rendering.child.pause()

    def resume_writing(self) -> None:
        rendering = self.seat.rendering if self.seat is not None else None
        if rendering is not None:
            rendering.child.resume()

    def eof_received(self) -> bool:
        return True  # the terminal stays open until the connection closes

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.seat is not None:
            self.seat.hangup(str(exc) if exc else "")


_VIEWER: type[Viewer] = TableSession  # an SSH channel is a viewer


async def start_ssh(
    club: Club,
    host: str,
    port: int,
    key: asyncssh.SSHKey,
    keepalive: float = KEEPALIVE,
) -> asyncssh.SSHAcceptor:
    return await asyncssh.create_server(
        lambda: TableConnection(club),
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
