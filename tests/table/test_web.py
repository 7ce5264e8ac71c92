"""`tracker serve --web`: every address needs its role's token, the websocket checks its
Origin, the GM's app is offered only with --web-gm, and the session limit holds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from tests.table.helpers import table_save


def start_web(save: Path, home: Path, *extra: str) -> tuple[subprocess.Popen[str], int, dict]:
    env = dict(os.environ, TRACKER_HOME=str(home))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tracker", "serve", str(save), "--web", "127.0.0.1:0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    assert proc.stdout is not None
    port, urls = 0, {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(proc.stderr.read() if proc.stderr else "server ended")
        if found := re.search(r"browser on \S+ port (\d+)", line):
            port = int(found.group(1))
        elif found := re.match(r"\s+(.+?)\s+(http://\S+)$", line):
            urls[found.group(1)] = found.group(2)
        elif "Ctrl+C" in line:
            return proc, port, urls
    proc.kill()
    raise AssertionError("no addresses printed")


@pytest.fixture
def web(tmp_path):  # type: ignore[no-untyped-def]
    save = table_save(tmp_path)
    proc, port, urls = start_web(save, tmp_path / "home", "--max-sessions", "1")
    yield port, urls
    proc.terminate()
    proc.wait(10)


async def test_every_address_needs_its_token_and_the_gm_is_not_offered(web):
    port, urls = web
    assert set(urls) == {"spectator", "side foes", "side party"}  # no GM without --web-gm
    async with aiohttp.ClientSession() as http:
        for url in (f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port}/?token=guess"):
            async with http.get(url) as resp:
                assert resp.status == 403
        async with http.get(urls["side party"]) as resp:
            assert resp.status == 200
            page = await resp.text()
        token = urls["side party"].split("token=")[1]
        assert f"/ws?token={token}" in page


async def test_the_websocket_checks_its_origin_and_the_session_limit(web):
    port, urls = web
    token = urls["spectator"].split("token=")[1]
    ws_url = f"http://127.0.0.1:{port}/ws?token={token}"
    own = {"Origin": f"http://127.0.0.1:{port}"}
    async with aiohttp.ClientSession() as http:
        for headers in ({}, {"Origin": "http://evil.example"}):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(ws_url, headers=headers)
            assert refused.value.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"http://127.0.0.1:{port}/ws?token=guess", headers=own)
        assert refused.value.status == 403
        async with http.ws_connect(ws_url, headers=own) as ws:
            await ws.send_json(["resize", {"width": 100, "height": 30}])
            drawn = b""
            deadline = time.monotonic() + 20
            while b"spectator view" not in drawn and time.monotonic() < deadline:
                msg = await ws.receive(timeout=20)
                if msg.type == aiohttp.WSMsgType.BINARY:
                    drawn += msg.data
            assert b"spectator view" in drawn and b"Wolf" not in drawn
            with pytest.raises(aiohttp.WSServerHandshakeError) as full:  # limit: 1
                await http.ws_connect(ws_url, headers=own)
            assert full.value.status == 503


def test_with_web_gm_the_gm_has_an_address_of_its_own(tmp_path):
    save = table_save(tmp_path)
    proc, _, urls = start_web(save, tmp_path / "home", "--web-gm")
    proc.terminate()
    proc.wait(10)
    assert "gm" in urls and len({u.split("token=")[1] for u in urls.values()}) == len(urls)
