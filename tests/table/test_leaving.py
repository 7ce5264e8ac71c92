"""Leaving well: a stopped server resets every player's terminal and says why; a second
GM connection gets a live read-only app with the take-over offered; a refused login
leaves a line in the server's log with the key's fingerprint, the address and why."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from tests.conftest import lock_is_free
from tests.table.helpers import (
    connect,
    open_screen,
    serving,
    wait_until,
)
from tracker.table.terminal import RESET


async def test_a_stopped_server_resets_every_terminal_and_says_why(tmp_path):
    with serving(tmp_path) as (server, keys, save):
        async with await connect(server.port, keys.party) as side_conn, \
                await connect(server.port, keys.gm) as gm_conn:
            _, side = await open_screen(side_conn)
            _, gm = await open_screen(gm_conn)
            await side.wait_for("party's view")
            await gm.wait_for(": for commands")
            server.proc.terminate()
            for screen in (side, gm):
                await asyncio.wait_for(screen.closed.wait(), 10)
                assert RESET in bytes(screen.raw)
                assert "tracker: the table server stopped" in screen.text
                assert screen.exit_status == 0
        assert server.proc.wait(10) == 0
    log = server.log()
    assert "Traceback" not in log and "Event loop is closed" not in log
    assert lock_is_free(save)


async def test_a_second_gm_gets_a_live_read_only_app_with_the_take_over_offered(tmp_path):
    with serving(tmp_path) as (server, keys, save):
        async with await connect(server.port, keys.gm) as first_conn, \
                await connect(server.port, keys.gm) as second_conn:
            first, one = await open_screen(first_conn)
            await one.wait_for(": for commands")
            second, two = await open_screen(second_conn)
            await two.wait_for("Take it over?")
            second.write(b"n")
            await two.wait_for("follows it live")
            first.write(b":note the wolves howl\r")
            await one.wait_for("the wolves howl")
            await two.wait_for("the wolves howl")  # the read-only app follows
            assert "--take-over" not in two.text  # no shell command it does not have
            first.write(b"q")
            await asyncio.wait_for(one.closed.wait(), 10)
            assert " left (quit)" in server.log(" left (quit)")  # the log says who went


async def test_a_refused_login_is_logged_with_fingerprint_address_and_reason(tmp_path):
    with serving(tmp_path) as (server, keys, save):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, keys.stranger)
        fingerprint = keys.stranger.get_fingerprint("sha256")
        assert await wait_until(lambda: fingerprint in server.log())
        log = server.log("left without logging in")
        assert f"refused key {fingerprint} from 127.0.0.1:" in log
        assert "not in the access file" in log
