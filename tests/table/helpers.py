"""A table server in a subprocess on a free loopback port, and SSH clients that read
what its sessions draw."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from tests.conftest import skirmish
from tracker.core.model import Wound
from tracker.store import save_encounter

ANSI = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07"
)


def table_save(folder: Path) -> Path:
    """The ford: Aldo and Bree (party), Grak (foes, wounded, with a note), and a hidden
    Wolf the players must never learn of."""
    enc = skirmish()
    grak = enc.find_combatant("grak")
    grak.hidden = False
    grak.notes = "secretly_a_vampire"
    grak.wounds = [Wound(location="spleen", level=3, kind="cut")]
    enc.find_combatant("aldo").wounds = [Wound(location="elbow", level=1)]
    path = folder / "ford.toml"
    save_encounter(enc, path)
    from tracker.session.opening import open_encounter

    opened = open_encounter(path)
    for line in ("add combatant Wolf side=foes initiative=2 hidden=yes",
                 "note! the ambush waits"):
        opened.session.execute(line)
    save_encounter(opened.session.enc, path)
    assert opened.lock is not None
    opened.lock.release()
    return path


@dataclass
class Keys:
    gm: asyncssh.SSHKey
    party: asyncssh.SSHKey
    spectator: asyncssh.SSHKey
    stranger: asyncssh.SSHKey


def make_keys() -> Keys:
    return Keys(*(asyncssh.generate_private_key("ssh-ed25519") for _ in range(4)))


def write_access(folder: Path, keys: Keys, open_table: bool = False) -> Path:
    def line(key: asyncssh.SSHKey) -> str:
        return key.export_public_key().decode().strip()

    path = folder / "access.toml"
    path.write_text(
        f'[gm]\nkeys = ["{line(keys.gm)}"]\n'
        f'[sides.party]\nkeys = ["{line(keys.party)}"]\n'
        f'[spectators]\nkeys = ["{line(keys.spectator)}"]\n'
        f"open = {'true' if open_table else 'false'}\n"
    )
    return path


@dataclass
class Server:
    proc: subprocess.Popen[str]
    port: int
    save: Path
    out: list[str] = field(default_factory=list)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_server(save: Path, access: Path, home: Path, *extra: str) -> Server:
    env = dict(os.environ, TRACKER_HOME=str(home))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tracker", "serve", str(save), "--ssh", "127.0.0.1:0",
         "--access", str(access), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    assert proc.stdout is not None
    out: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"server ended: {proc.stderr.read() if proc.stderr else ''}")
        out.append(line)
        found = re.search(r"ssh on \S+ port (\d+)", line)
        if found:
            return Server(proc, int(found.group(1)), save, out)
    proc.kill()
    raise AssertionError("server did not say its port")


class Screen(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """What a session draws, with the terminal's escape codes taken out."""

    def __init__(self) -> None:
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self.exit_status: int | None = None
        self._grew = asyncio.Event()

    def data_received(self, data: bytes, datatype: object) -> None:
        self.raw += data
        self._grew.set()

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self._grew.set()

    @property
    def text(self) -> str:
        return ANSI.sub(b"", bytes(self.raw)).decode("utf-8", "replace")

    async def wait_for(self, needle: str, timeout: float = 20) -> float:
        """Seconds until ``needle`` is drawn (AssertionError if it never is)."""
        start = time.monotonic()
        while needle not in self.text:
            left = timeout - (time.monotonic() - start)
            if left <= 0 or self.closed.is_set():
                raise AssertionError(f"{needle!r} not drawn; drawn: {self.text[-2000:]!r}")
            self._grew.clear()
            try:
                await asyncio.wait_for(self._grew.wait(), left)
            except TimeoutError:
                pass
        return time.monotonic() - start


async def connect(port: int, key: asyncssh.SSHKey | None, **kw: object):  # type: ignore[no-untyped-def]
    return await asyncssh.connect(
        "127.0.0.1", port, username="player", known_hosts=None,
        client_keys=[key] if key is not None else [], agent_path=None,
        preferred_auth="publickey,keyboard-interactive" if key else "keyboard-interactive,password",
        **kw,
    )


async def open_screen(conn, size: tuple[int, int] = (100, 30), pty: bool = True):  # type: ignore[no-untyped-def]
    kw = {"term_type": "xterm-256color", "term_size": size} if pty else {}
    chan, screen = await conn.create_session(Screen, encoding=None, **kw)
    return chan, screen


def lock_pid(save: Path) -> int | None:
    from tracker.store.lock import lock_path, read_lock

    owner = read_lock(lock_path(save))
    return owner[0] if owner else None


async def wait_until(check, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        await asyncio.sleep(0.05)
    return bool(check())


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purposes, but the server reaps its children
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
