"""A table server in a subprocess on a free loopback port, and SSH clients that read
what its sessions draw."""

from __future__ import annotations

import asyncio
import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
    """A `tracker serve` in a subprocess: its port, its browser addresses, its log."""

    proc: subprocess.Popen[str]
    port: int
    save: Path
    out: list[str] = field(default_factory=list)
    urls: dict[str, str] = field(default_factory=dict)
    err: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.err.append(line)

    def log(self, needle: str = "", timeout: float = 5.0) -> str:
        """What the server has said on stderr so far (once it has said ``needle``, or
        ``timeout`` seconds have passed)."""
        deadline = time.monotonic() + timeout
        while needle not in "".join(self.err) and time.monotonic() < deadline:
            time.sleep(0.02)
        return "".join(self.err)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        time.sleep(0.1)  # the last of stderr

    @property
    def zygote(self) -> int | None:
        for pid in children(self.proc.pid):
            if b"tracker.table.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        return None

    def sessions(self) -> list[int]:
        """The processes of the sessions running now."""
        zygote = self.zygote
        return [p for p in children(zygote) if alive(p)] if zygote else []

    def views(self) -> list[int]:
        """The processes of the views running now (not the GM's apps)."""
        out = []
        for pid in self.sessions():
            try:
                name = Path(f"/proc/{pid}/comm").read_text().strip()
            except OSError:
                continue
            if name == "tracker watch":
                out.append(pid)
        return out

    def sizes(self) -> set[tuple[int, int]]:
        """The terminal sizes of the views running now (a view that ends meanwhile, as one
        replaced by a new tab does, is left out)."""
        out = set()
        for pid in self.views():
            try:
                out.add(self.size_of(pid))
            except OSError:
                continue
        return out

    @staticmethod
    def size_of(pid: int) -> tuple[int, int]:
        """The terminal size of a session's process (columns, rows)."""
        fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NOCTTY)
        try:
            rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ,
                                                                b"\0" * 8))
        finally:
            os.close(fd)
        return cols, rows


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def tracker_script() -> str:
    """The installed `tracker` command of this environment (as a server is started)."""
    return str(Path(sys.executable).with_name("tracker"))


def start(args: list[str], home: Path, cwd: Path | None = None) -> Server:
    """`tracker serve ARGS`, until it has printed where it listens."""
    env = dict(os.environ, TRACKER_HOME=str(home))
    proc = subprocess.Popen([tracker_script(), "serve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    assert proc.stdout is not None
    out: list[str] = []
    port, urls = 0, {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"server ended: {proc.stderr.read() if proc.stderr else ''}")
        out.append(line)
        if found := re.search(r"(?:ssh|browser) on \S+ port (\d+)", line):
            port = port or int(found.group(1))
        elif found := re.match(r"\s+(.+?)\s+(http://\S+)$", line):
            urls[found.group(1)] = found.group(2)
        elif "Ctrl+C" in line:
            return Server(proc, port, Path(args[0]), out, urls)
    proc.kill()
    raise AssertionError("server did not say where it listens")


def start_server(save: Path, access: Path, home: Path, *extra: str,
                 cwd: Path | None = None) -> Server:
    return start([str(save), "--ssh", "127.0.0.1:0", "--access", str(access), *extra], home,
                 cwd)


@contextmanager
def serving(folder: Path, *extra: str,
            cwd: Path | None = None) -> Iterator[tuple[Server, Keys, Path]]:
    """The ford's table served over SSH with fresh keys (and the save), stopped at the end."""
    keys = make_keys()
    save = table_save(folder)
    server = start_server(save, write_access(folder, keys), folder / "home", *extra, cwd=cwd)
    try:
        yield server, keys, save
    finally:
        server.stop()


def start_web(save: Path, home: Path, *extra: str) -> Server:
    return start([str(save), "--web", "127.0.0.1:0", *extra], home)


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
