"""`tracker serve --web`: every address is a role's token in the path, the page is
textual-serve's terminal with strict headers and nothing from outside, and the websocket,
reached at the very URL textual.js builds, checks its origin and takes a seat at the
table (the session limit, the size cap, the logging)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import aiohttp
import pytest

from tests.table.helpers import ANSI, start_web, table_save
from tracker.table.workarounds import TEXTUAL_JS_FILES, textual_serve_statics

NEVER = ("Wolf", "ambush waits", "secretly_a_vampire", "spleen")


@pytest.fixture(scope="module")
def web(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("web")
    save = table_save(folder)
    server = start_web(save, folder / "home", "--max-sessions", "1")
    yield server
    server.stop()


def websocket_url(page_url: str, page: str, cols: int, rows: int) -> str:
    """The URL the page's textual.js opens, built as it builds it: the page's
    data-session-websocket-url (made whole from the page's own address by page.js: a
    relative URL, scheme ws or wss), then ``"?width=" + cols + "&height=" + rows``."""
    found = re.search(r'data-session-websocket-url="([^"]*)"', page)
    assert found, page
    whole = urljoin(page_url, found.group(1))
    parts = urlsplit(whole)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{parts.path}" + "?width=" + str(cols) + "&height=" + str(rows)


async def drawn(ws: aiohttp.ClientWebSocketResponse, needle: bytes, timeout: float = 30) -> bytes:
    out = b""
    deadline = time.monotonic() + timeout
    while needle not in ANSI.sub(b"", out) and time.monotonic() < deadline:
        msg = await ws.receive(timeout=timeout)
        if msg.type == aiohttp.WSMsgType.BINARY:
            out += msg.data
        elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            break
    return ANSI.sub(b"", out)


def test_textual_js_builds_the_websocket_url_as_the_table_expects():
    """What the workaround relies on (fails when textual-serve changes it, or gives a
    public way to mount its pages, so the workaround can go)."""
    from textual_serve.server import Server

    js = (textual_serve_statics() / "js/textual.js").read_text()
    assert "this.websocket_url=e.dataset.sessionWebsocketUrl" in js
    assert 'new WebSocket(this.websocket_url+"?width="+e.cols+"&height="+e.rows)' in js
    for message in ('JSON.stringify(["stdin",e])', 'JSON.stringify(["resize",this.size])',
                    'JSON.stringify(["ping",""+e])'):
        assert message in js
    for name in TEXTUAL_JS_FILES:
        assert (textual_serve_statics() / name).is_file(), name
    public = {n for n in dir(Server) if not n.startswith("_")}
    assert not public & {"make_app", "app", "application", "routes", "serve_async", "start"}


async def test_each_address_is_a_token_in_the_path_and_the_gm_is_not_offered(web):
    assert set(web.urls) == {"spectator", "side foes", "side party"}  # no GM: no --web-gm
    base = f"http://127.0.0.1:{web.port}"
    async with aiohttp.ClientSession() as http:
        for path in ("/", "/?token=guess", "/guess/", "/static/", "/static/js/textual.js",
                     "/guess/static/js/textual.js"):
            async with http.get(base + path) as resp:
                assert resp.status == 403, path
        url = web.urls["side party"]
        assert re.fullmatch(rf"{base}/[0-9a-f]{{32}}/", url)
        async with http.get(url) as resp:
            assert resp.status == 200
            page = await resp.text()
            headers = resp.headers
        async with http.get(url.rstrip("/"), allow_redirects=False) as resp:
            assert resp.status == 302 and resp.headers["Location"].endswith("/")
        async with http.get(url + "static/") as resp:  # no listing
            assert resp.status in (403, 404) and "textual.js" not in await resp.text()
        async with http.get(url + "static/images/background.png") as resp:
            assert resp.status == 404  # only the files the page loads
        for name in (*TEXTUAL_JS_FILES, "page.js", "page.css"):
            async with http.get(url + "static/" + name) as resp:
                assert resp.status == 200, name
    token = url.split("/")[-2]
    assert "<title>tracker · party's view</title>" in page and token not in page
    assert "http" not in page.replace('rel="stylesheet"', "")  # every URL is relative
    assert "googleapis" not in page and "Host" not in page
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "default-src 'none'" in csp
    assert "script-src 'self'" in csp and "font-src 'self'" in csp
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store"
    assert headers["Server"] == "tracker"  # no version


async def test_the_websocket_at_textual_js_url_draws_the_view_and_checks_its_origin(web):
    url = web.urls["spectator"]
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as resp:
            page = await resp.text()
        ws_url = websocket_url(url, page, 142, 44)
        own = {"Origin": f"http://127.0.0.1:{web.port}"}
        for headers in ({}, {"Origin": "http://evil.example"},
                        {"Origin": f"https://127.0.0.1:{web.port}"}):  # the wrong scheme
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(ws_url, headers=headers)
            assert refused.value.status == 403
        async with http.ws_connect(ws_url, headers=own) as ws:
            await ws.send_json(["ping", "1"])
            shown = await drawn(ws, b"spectator view")
            assert b"spectator view" in shown
            for word in NEVER:
                assert word.encode() not in shown, word
            with pytest.raises(aiohttp.WSServerHandshakeError) as full:  # limit: 1
                await http.ws_connect(ws_url, headers=own)
            assert full.value.status == 503
    log = web.log("the table is full")
    assert re.search(r"spectator connected from 127\.0\.0\.1 \(browser, 142x44\)", log), log
    assert "refused a browser from 127.0.0.1: origin http://evil.example" in log
    assert "refused spectator from 127.0.0.1 (browser): the table is full" in log


async def test_a_huge_browser_is_capped_and_its_process_goes_with_it(tmp_path):
    save = table_save(tmp_path)
    server = start_web(save, tmp_path / "home", "--max-size", "200x60")
    try:
        url = server.urls["side party"]
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as resp:
                page = await resp.text()
            ws_url = websocket_url(url, page, 6000, 6000)
            async with http.ws_connect(ws_url, headers={"Origin": url[:-34]}) as ws:
                await drawn(ws, b"party's view")
                views = server.views()
                assert len(views) == 1 and server.size_of(views[0]) == (200, 60)
        deadline = time.monotonic() + 10
        while server.views() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.views() == []
    finally:
        server.stop()


def test_the_addresses_stay_while_the_access_file_does(tmp_path):
    from tests.table.helpers import make_keys, write_access

    save = table_save(tmp_path)
    access = write_access(tmp_path, make_keys())
    first = start_web(save, tmp_path / "home", "--web-gm", "--access", str(access))
    first.stop()
    again = start_web(save, tmp_path / "home", "--web-gm", "--access", str(access))
    again.stop()
    def tokens(server) -> dict[str, str]:  # type: ignore[no-untyped-def]
        return {role: url.split("/")[-2] for role, url in server.urls.items()}

    assert "gm" in first.urls and tokens(first) == tokens(again)
    assert len(set(tokens(first).values())) == len(first.urls)
    access.write_text(access.read_text() + "\n# a change\n")
    changed = start_web(save, tmp_path / "home", "--web-gm", "--access", str(access))
    changed.stop()
    assert set(tokens(changed).values()).isdisjoint(tokens(first).values())
    for server in (first, again, changed):
        assert "Traceback" not in server.log() and "Event loop is closed" not in server.log()


def test_the_page_files_are_the_packages_own():
    own = Path(__file__).parents[2] / "tracker" / "table" / "static"
    assert {p.name for p in own.iterdir()} == {"page.html", "page.js", "page.css"}
