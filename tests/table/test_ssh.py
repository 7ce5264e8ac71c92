"""`tracker serve --ssh` on a free loopback port, driven by asyncssh's client: each key
gets its role's view or is refused, a GM's change reaches a side, hidden things never do,
and a session that ends takes its process and the lock with it."""

from __future__ import annotations

import asyncio
import fcntl
import os
import struct
import termios
from pathlib import Path

import asyncssh
import pytest

from tests.conftest import lock_is_free
from tests.table.helpers import (
    Keys,
    alive,
    connect,
    lock_pid,
    make_keys,
    open_screen,
    start_server,
    table_save,
    wait_until,
    write_access,
)

NEVER = ("Wolf", "wolf", "ambush waits", "secretly_a_vampire", "spleen")
"""The hidden combatant, the GM's secret note, and the foes' note and wound."""


@pytest.fixture(scope="module")
def keys() -> Keys:
    return make_keys()


@pytest.fixture(scope="module")
def table(tmp_path_factory, keys):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("table")
    save = table_save(folder)
    server = start_server(save, write_access(folder, keys), folder / "home")
    yield server
    server.stop()


async def test_a_stranger_a_password_or_no_key_is_refused(table, keys):
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(table.port, keys.stranger)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(table.port, None, password="guess")
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(table.port, None)


async def test_a_sides_key_gets_that_sides_view_and_nothing_hidden(table, keys):
    async with await connect(table.port, keys.party) as conn:
        chan, screen = await open_screen(conn)
        await screen.wait_for("party's view")
        await screen.wait_for("Grak")
        await screen.wait_for("elbow")  # its own wound, in the wounds pane
        chan.write(b"q")
        await asyncio.wait_for(screen.closed.wait(), 10)
    for word in NEVER:
        assert word not in screen.text, word
    assert screen.exit_status == 0


async def test_a_spectators_key_gets_the_public_view(table, keys):
    async with await connect(table.port, keys.spectator) as conn:
        _, screen = await open_screen(conn)
        await screen.wait_for("spectator view")
        await screen.wait_for("Aldo")
    for word in (*NEVER, "elbow"):
        assert word not in screen.text, word


async def test_the_gm_gets_the_app_and_a_change_reaches_the_side_but_secrets_do_not(
    table, keys
):
    async with await connect(table.port, keys.gm) as gm_conn, \
            await connect(table.port, keys.party) as side_conn:
        gm, gm_screen = await open_screen(gm_conn)
        _, side = await open_screen(side_conn, size=(120, 36))
        await gm_screen.wait_for(": for commands")
        await gm_screen.wait_for("Wolf")  # the GM sees everything
        await side.wait_for("party's view")
        assert lock_pid(table.save) is not None  # the GM's app holds the lock
        for line, drawn in ((":note! the wolf circles\r", "wolf circles"),
                            (":note the bridge creaks\r", "the bridge creaks"),
                            (":wound grak liver level=2\r", "liver")):
            gm.write(line.encode())
            await gm_screen.wait_for(drawn)
        await side.wait_for("the bridge creaks")
        await side.wait_for("Grak: wounded")
        await asyncio.sleep(0.5)
        gm.write(b"q")
        await asyncio.wait_for(gm_screen.closed.wait(), 10)
    for word in (*NEVER, "circles", "liver"):
        assert word not in side.text, word
    assert await wait_until(lambda: lock_is_free(table.save))


async def test_no_terminal_or_a_command_is_refused_with_a_line(table, keys):
    async with await connect(table.port, keys.party) as conn:
        _, screen = await open_screen(conn, pty=False)
        await asyncio.wait_for(screen.closed.wait(), 10)
        assert "the table needs a terminal" in screen.text
        assert screen.exit_status == 1
        result = await conn.run("cat /etc/passwd", encoding=None)
        assert b"shows the table only" in result.stdout and b"root:" not in result.stdout
        assert result.exit_status == 1
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", table.port)  # no port forwarding


async def test_the_pty_is_the_apps_terminal_and_a_resize_reaches_it(table, keys):
    async with await connect(table.port, keys.gm) as conn:
        chan, screen = await open_screen(conn, size=(90, 28))
        await screen.wait_for(": for commands")
        pid = lock_pid(table.save)
        assert pid is not None
        stat = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()
        assert int(stat[3]) == pid and int(stat[4]) != 0  # a session leader with a tty

        def size() -> tuple[int, int]:
            fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NOCTTY)
            try:
                rows, cols, _, _ = struct.unpack(
                    "HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
            finally:
                os.close(fd)
            return cols, rows

        assert size() == (90, 28)
        screen.raw.clear()
        chan.change_terminal_size(132, 40)
        assert await wait_until(lambda: size() == (132, 40))
        await screen.wait_for("Wolf")  # the app drew itself again at the new size
        chan.write(b"q")
        await asyncio.wait_for(screen.closed.wait(), 10)


async def test_a_closed_connection_ends_its_process_within_a_second(table, keys):
    conn = await connect(table.port, keys.gm)
    _, screen = await open_screen(conn)
    await screen.wait_for(": for commands")
    pid = lock_pid(table.save)
    assert pid is not None and alive(pid)
    conn.abort()  # no goodbye: the socket just closes
    gone = asyncio.get_running_loop().time()
    assert await wait_until(lambda: not alive(pid), timeout=5)
    # the server hangs up at once and kills at 0.8 s; allow for a loaded machine
    assert asyncio.get_running_loop().time() - gone < 2.5
    assert lock_is_free(table.save)


def test_a_bad_access_file_is_refused_at_start_with_file_key_and_what(tmp_path, keys):
    import subprocess
    import sys

    save = table_save(tmp_path)
    access = tmp_path / "access.toml"
    access.write_text('[gm]\nkeys = ["ssh-ed25519 not-a-key gm"]\n')
    run = subprocess.run(
        [sys.executable, "-m", "tracker", "serve", str(save), "--ssh", "0", "--access",
         str(access)], capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == 2
    assert run.stderr.startswith(f"tracker: {access} at gm.keys[0]: base64 key data")
    assert len(run.stderr.strip().splitlines()) == 1
