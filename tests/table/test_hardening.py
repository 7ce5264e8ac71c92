"""The table server tried by someone who wants to break it: nothing in the folder it
runs in is imported, no terminal size costs more than the cap, spectators never keep
the GM out, one key cannot take every seat, and an access file anyone could write is
refused."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

from tests.table.helpers import (
    connect,
    make_keys,
    open_screen,
    serving,
    start_server,
    table_save,
    tracker_script,
    wait_until,
    write_access,
)


async def test_a_planted_tracker_in_the_servers_folder_is_never_run(tmp_path):
    keys = make_keys()
    save = table_save(tmp_path)
    access = write_access(tmp_path, keys)
    folder = tmp_path / "here"
    (folder / "tracker").mkdir(parents=True)
    planted = tmp_path / "planted-ran"
    (folder / "tracker" / "__init__.py").write_text(f"open({str(planted)!r}, 'w')\n")
    (folder / "tracker" / "__main__.py").write_text(f"open({str(planted)!r}, 'w')\n")
    server = start_server(save, access, tmp_path / "home", cwd=folder)
    try:
        for key, needle in ((keys.party, "party's view"), (keys.gm, ": for commands")):
            async with await connect(server.port, key) as conn:
                _, screen = await open_screen(conn)
                await screen.wait_for(needle)
                assert "Traceback" not in screen.text
        for pid in server.sessions():
            env = (open(f"/proc/{pid}/environ", "rb").read().split(b"\0"))
            names = {e.split(b"=")[0] for e in env if e}
            assert names <= {b"PATH", b"LANG", b"HOME", b"USER", b"LOGNAME", b"TZ", b"TERM",
                             b"COLORTERM", b"TRACKER_HOME", b"TRACKER_CONFIG", b"TRACKER_TABLE",
                             b"TEXTUAL_DISABLE_KITTY_KEY", b"XDG_CONFIG_HOME", b"XDG_DATA_HOME",
                             b"XDG_STATE_HOME", b"XDG_CACHE_HOME"}, names
    finally:
        server.stop()
    assert not planted.exists()
    assert "Traceback" not in server.log()


async def test_a_huge_terminal_is_capped(tmp_path):
    with serving(tmp_path) as (server, keys, save):
        async with await connect(server.port, keys.spectator) as conn:
            chan, screen = await open_screen(conn, size=(8000, 8000))
            await screen.wait_for("spectator view")
            (pid,) = server.views()
            assert server.size_of(pid) == (500, 200)
            chan.change_terminal_size(65000, 65000)
            await asyncio.sleep(0.5)
            assert [server.size_of(p) for p in server.views()] == [(500, 200)]


async def test_spectators_filling_the_table_never_keep_the_gm_out(tmp_path):
    with serving(tmp_path, "--max-sessions", "2") as (server, keys, save):
        async with await connect(server.port, keys.spectator) as spec, \
                await connect(server.port, keys.party) as party:
            _, one = await open_screen(spec)
            _, two = await open_screen(party)
            await one.wait_for("spectator view")
            await two.wait_for("party's view")
            _, third = await open_screen(spec)
            await asyncio.wait_for(third.closed.wait(), 10)
            assert "the table is full (2 sessions)" in third.text
            async with await connect(server.port, keys.gm) as gm_conn:
                gm, screen = await open_screen(gm_conn)
                await screen.wait_for(": for commands")  # the GM's seat is always kept
                gm.write(b"q")
                await asyncio.wait_for(screen.closed.wait(), 10)


async def test_one_key_cannot_take_every_seat(tmp_path):
    with serving(tmp_path, "--max-per-key", "2") as (server, keys, save):
        async with await connect(server.port, keys.spectator) as conn:
            screens = [(await open_screen(conn))[1] for _ in range(2)]
            for screen in screens:
                await screen.wait_for("spectator view")
            _, third = await open_screen(conn)
            await asyncio.wait_for(third.closed.wait(), 10)
            assert "this key has 2 sessions open already" in third.text
            assert third.exit_status == 1
        async with await connect(server.port, keys.party) as conn:  # another key: a seat
            _, screen = await open_screen(conn)
            await screen.wait_for("party's view")


async def test_every_process_goes_with_its_connection(tmp_path):
    with serving(tmp_path) as (server, keys, save):
        conns = [await connect(server.port, k) for k in (keys.party, keys.spectator, keys.gm)]
        for conn, needle in zip(conns, ("party's view", "spectator view", ": for commands"),
                                strict=True):
            _, screen = await open_screen(conn, size=(300, 100))
            await screen.wait_for(needle)
        assert len(server.sessions()) == 3
        for conn in conns:
            conn.abort()
        assert await wait_until(lambda: server.sessions() == [], timeout=5)


def test_an_access_file_others_can_write_is_refused_with_one_line(tmp_path):
    save = table_save(tmp_path)
    access = write_access(tmp_path, make_keys())
    access.chmod(0o666)
    run = subprocess.run([tracker_script(), "serve", str(save), "--ssh", "0", "--access",
                          str(access)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr == (f"tracker: {access}: a file only you can write (it is 666: "
                          f"chmod go-w {access})\n")
    access.chmod(0o644)
    tmp_path.chmod(0o777)  # a folder anyone can write: anyone could swap the file
    try:
        run = subprocess.run([tracker_script(), "serve", str(save), "--ssh", "0", "--access",
                              str(access)], capture_output=True, text=True, timeout=60)
    finally:
        tmp_path.chmod(0o700)
    assert run.returncode == 2 and "a folder only you can write (it is 777" in run.stderr


def test_a_side_the_encounter_does_not_have_is_named_at_start(tmp_path):
    keys = make_keys()
    save = table_save(tmp_path)
    access = write_access(tmp_path, keys)
    line = keys.stranger.export_public_key().decode().strip()
    access.write_text(access.read_text() + f'[sides.Gobelins]\nkeys = ["{line}"]\n')
    server = start_server(save, access, tmp_path / "home")
    server.stop()
    said = "".join(server.out)
    assert ("the access file names side Gobelins, which the encounter does not have "
            "(its sides: foes, party)") in said


def test_a_side_with_no_keys_yet_is_named_too_when_the_encounter_does_not_have_it(tmp_path):
    from tracker.table.access import read_access

    keys = make_keys()
    access = write_access(tmp_path, keys)
    access.write_text(access.read_text() + "[sides.Gobelins]\nkeys = []\n")
    assert read_access(access).unknown_sides({"foes", "party"}) == ["Gobelins"]


def test_the_sessions_start_from_python_in_isolated_mode():
    from tracker.table.zygote import Zygote

    zygote = Zygote()
    try:
        cmdline = command_line(zygote.proc.pid)
        assert cmdline[:4] == [sys.executable.encode(), b"-I", b"-m", b"tracker.table.zygote"]
        assert os.readlink(f"/proc/{zygote.proc.pid}/cwd") == "/"
    finally:
        zygote.stop()


def command_line(pid: int) -> list[bytes]:
    """A process's arguments as /proc shows them: empty for a moment while it starts on a
    loaded machine, so read until they are there (or 10 s have passed)."""
    deadline = time.monotonic() + 10
    while not (raw := open(f"/proc/{pid}/cmdline", "rb").read()) and time.monotonic() < deadline:
        time.sleep(0.01)
    return raw.split(b"\0")
