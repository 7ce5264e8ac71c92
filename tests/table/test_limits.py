"""The table server's limits: a silent connection is noticed by keepalives and its lock
released; sessions past the limit are refused with a line; an open table lets anyone
watch the public view, and only that."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from tests.conftest import lock_is_free
from tests.table.helpers import (
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


class Freezer:
    """A TCP relay on loopback that can stop passing bytes while keeping both sockets
    open: a connection that drops silently, as a dead network does."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.frozen = False
        self.server: asyncio.AbstractServer | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                if self.frozen:
                    await asyncio.sleep(3600)  # hold the bytes: nothing passes, nothing closes
                dst.write(data)
                await dst.drain()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer),
                             return_exceptions=True)

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


async def test_a_silently_dropped_gm_is_noticed_by_keepalives_and_the_lock_released(tmp_path):
    keys = make_keys()
    save = table_save(tmp_path)
    server = start_server(save, write_access(tmp_path, keys), tmp_path / "home",
                          "--keepalive", "0.3")
    relay = Freezer(server.port)
    try:
        port = await relay.start()
        conn = await connect(port, keys.gm)
        gm, screen = await open_screen(conn)
        await screen.wait_for(": for commands")
        gm.write(b":note before the storm\r")
        await screen.wait_for("before the storm")
        pid = lock_pid(save)
        assert pid is not None
        relay.frozen = True
        await asyncio.sleep(0.2)
        assert alive(pid)  # not yet: a keepalive has not gone unanswered
        # three keepalive intervals of silence (0.9 s here, 45 s by default), then the hangup
        assert await wait_until(lambda: not alive(pid), timeout=10)
        assert lock_is_free(save)
        conn.abort()
    finally:
        relay.close()
        server.stop()
    from tracker.session.opening import load

    assert any(e.text == "before the storm" for e in load(save).log)  # nothing lost


async def test_sessions_past_the_limit_are_refused_with_a_line(tmp_path):
    keys = make_keys()
    save = table_save(tmp_path)
    server = start_server(save, write_access(tmp_path, keys), tmp_path / "home",
                          "--max-sessions", "2")
    try:
        async with await connect(server.port, keys.party) as conn:
            _, first = await open_screen(conn)
            _, second = await open_screen(conn)
            await first.wait_for("party's view")
            await second.wait_for("party's view")
            _, third = await open_screen(conn)
            await asyncio.wait_for(third.closed.wait(), 10)
            assert "the table is full (2 sessions); try again later" in third.text
            assert third.exit_status == 1
            assert not first.closed.is_set()
    finally:
        server.stop()
    assert "refused side party" in server.log("refused side party")


async def test_an_open_table_lets_anyone_watch_the_public_view_only(tmp_path):
    keys = make_keys()
    save = table_save(tmp_path)
    server = start_server(save, write_access(tmp_path, keys, open_table=True),
                          tmp_path / "home")
    try:
        for key in (keys.stranger, None):  # no key: keyboard-interactive, with no question
            extra = {"password": ""} if key is None else {}  # asyncssh asks kbdint so
            async with await connect(server.port, key, **extra) as conn:
                _, screen = await open_screen(conn)
                await screen.wait_for("spectator view")
            assert "Wolf" not in screen.text
        async with await connect(server.port, keys.gm) as conn:  # a GM is still a GM
            _, screen = await open_screen(conn)
            await screen.wait_for(": for commands")
        with pytest.raises(asyncssh.PermissionDenied):  # the password method is never offered
            await asyncssh.connect("127.0.0.1", server.port, username="x", password="x",
                                   known_hosts=None, client_keys=[], agent_path=None,
                                   preferred_auth="password")
    finally:
        server.stop()
