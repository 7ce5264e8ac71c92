"""What a view does to the server and what it gets from it: a viewer's choices stay in
its own view, a change it may not see sends it nothing, and no hidden value ever reaches
the bytes a side's or a spectator's connection gets, over SSH or in a browser, whatever
the GM does (random GM commands, as in tests/session/test_redaction.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
from hypothesis import HealthCheck, given, settings

from tests.conftest import battle
from tests.session.test_redaction import encounter, plays, undone_names
from tests.table.helpers import (
    ANSI,
    connect,
    make_keys,
    open_screen,
    serving,
    start_server,
    wait_until,
    write_access,
)
from tests.table.test_web import websocket_url
from tracker.session.opening import open_encounter
from tracker.store import save_encounter


def gm_does(save: Path, *lines: str) -> None:
    """The GM's tracker runs these commands and saves (as the app does after each)."""
    opened = open_encounter(save)
    try:
        for line in lines:
            try:
                opened.session.execute(line)
            except Exception:  # a refused command changes nothing
                continue
            save_encounter(opened.session.enc, save)
    finally:
        assert opened.lock is not None
        opened.lock.release()


async def quiet(screen, seconds: float = 1.0, timeout: float = 20) -> None:  # type: ignore[no-untyped-def]
    """Until the connection has had no bytes for ``seconds``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        size = len(screen.raw)
        await asyncio.sleep(seconds)
        if len(screen.raw) == size:
            return
    raise AssertionError("the view never went quiet")


async def test_a_secret_note_sends_no_byte_to_a_sides_view(tmp_path):
    with serving(tmp_path) as (server, keys, save):
        async with await connect(server.port, keys.party) as conn:
            _, side = await open_screen(conn)
            await side.wait_for("party's view")
            await side.wait_for("q Quit")  # the key bar: the last of the first screen
            await quiet(side, 2.0)
            side.raw.clear()
            gm_does(save, "note! the ambush is at dawn", "set Wolf will=5 +hungry")
            await asyncio.sleep(1.5)
            assert bytes(side.raw) == b""  # nothing: not even a redraw of the same
            gm_does(save, "note the bridge creaks")
            await side.wait_for("the bridge creaks")  # a change it may see does arrive


async def test_a_spectators_sort_leaves_the_gms_alone(tmp_path):
    keys = make_keys()
    save = tmp_path / "field.toml"
    save_encounter(battle(), save)
    home = tmp_path / "home"
    server = start_server(save, write_access(tmp_path, keys), home)
    try:
        async with await connect(server.port, keys.spectator) as conn:
            chan, screen = await open_screen(conn)
            await screen.wait_for("spectator view")
            await screen.wait_for("Archers")
            chan.write(b"\t")  # to the roster
            chan.write(b"o")
            await screen.wait_for("in play · by side")  # the roster's subtitle
            chan.write(b"v")
            await screen.wait_for("in play · side:")
        async with await connect(server.port, keys.gm) as conn:
            gm, screen = await open_screen(conn)
            await screen.wait_for(": for commands")
            await screen.wait_for("Archers")
            assert "by " not in screen.text.split("Units", 1)[1].split("\n", 1)[0]
            gm.write(b"\x10")  # Ctrl+P: the GM's own palette is still there
            gm.write(b"q")
    finally:
        server.stop()
    assert not (home / "prefs.toml").exists()


async def test_views_of_one_role_and_size_share_one_process_until_a_key(tmp_path):
    with serving(tmp_path) as (server, keys, save):
        conns = [await connect(server.port, keys.spectator) for _ in range(2)]
        conns.append(await connect(server.port, keys.party))
        screens = []
        for conn in conns:
            chan, screen = await open_screen(conn, size=(100, 30))
            screens.append((chan, screen))
        for (_, screen), needle in zip(screens, ("spectator view", "spectator view",
                                                 "party's view"), strict=True):
            await screen.wait_for(needle)
            await screen.wait_for("Aldo")  # a late one got the whole screen
        assert len(server.views()) == 2  # the spectators share one
        screens[0][0].write(b"\x1b[B")  # a key: the first spectator's view is its own now
        assert await wait_until(lambda: len(server.views()) == 3), server.views()
        screens[1][0].write(b"q")  # leaving a shared view ends only that connection
        await asyncio.wait_for(screens[1][1].closed.wait(), 10)
        assert screens[1][1].raw.endswith(b"\x1b[?1049l\x1b[?25h")  # the terminal reset
        for conn in conns:
            conn.close()


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(plays())
def test_no_hidden_value_reaches_the_bytes_of_any_view(tmp_path_factory, case):
    steps, never, secret_of = case
    folder = tmp_path_factory.mktemp("views")
    save = folder / "ford.toml"
    save_encounter(encounter(), save)
    keys = make_keys()
    access = folder / "access.toml"

    def line(key) -> str:  # type: ignore[no-untyped-def]
        return key.export_public_key().decode().strip()

    access.write_text(f'[gm]\nkeys = ["{line(keys.gm)}"]\n'
                      f'[sides.alpha]\nkeys = ["{line(keys.party)}"]\n'
                      f'[spectators]\nkeys = ["{line(keys.spectator)}"]\n')
    server = start_server(save, access, folder / "home", "--web", "127.0.0.1:0")
    try:
        got = asyncio.run(_watch_while_the_gm_plays(server, keys, save, steps))
    finally:
        server.stop()
    opened = open_encounter(save)
    assert opened.lock is not None
    opened.lock.release()
    never = never - undone_names(opened.session, never)
    for who, data in got.items():
        shown = ANSI.sub(b"", data).decode("utf-8", "replace").lower()
        assert "the last word" in shown, who  # the views followed to the end
        hidden = never | set().union(*(t for s, t in secret_of.items()
                                       if s != ("alpha" if who.startswith("alpha") else None)))
        for token in hidden:
            assert token.lower() not in shown, (who, token)


async def _watch_while_the_gm_plays(server, keys, save: Path, steps: list[str]):  # type: ignore[no-untyped-def]
    got: dict[str, bytes] = {}
    async with await connect(server.port, keys.party) as side_conn, \
            await connect(server.port, keys.spectator) as spec_conn, \
            aiohttp.ClientSession() as http:
        _, side = await open_screen(side_conn, size=(160, 48))
        _, spectator = await open_screen(spec_conn, size=(160, 48))
        url = server.urls["side alpha"]
        async with http.get(url) as resp:
            page = await resp.text()
        origin = url.rsplit("/", 2)[0]
        ws = await http.ws_connect(websocket_url(url, page, 160, 48), headers={"Origin": origin})
        web = bytearray()

        async def read_web() -> None:
            async for msg in ws:
                if msg.type == aiohttp.WSMsgType.BINARY:
                    web.extend(msg.data)

        reader = asyncio.create_task(read_web())
        await side.wait_for("alpha's view")
        await spectator.wait_for("spectator view")
        for step in [*steps, "note the last word"]:
            gm_does(save, step)
            await asyncio.sleep(0.1)
        await side.wait_for("the last word")
        await spectator.wait_for("the last word")
        deadline = time.monotonic() + 20
        while b"the last word" not in ANSI.sub(b"", bytes(web)) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await ws.close()
        reader.cancel()
        got = {"alpha over ssh": bytes(side.raw), "spectator over ssh": bytes(spectator.raw),
               "alpha in a browser": bytes(web)}
    return got
