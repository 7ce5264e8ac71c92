"""The table in a browser: textual-serve's terminal page, locked down.

Each role has an address of its own, ``/TOKEN/``, printed at start: the spectators',
each side's, and the GM's only with ``--web-gm``. The token is in the path, so the
page's relative URLs carry it (the terminal script, its stylesheet and font under
``TOKEN/static/``, the websocket at ``TOKEN/ws``) and no query string can spoil it. A
token stays the same for as long as the access file does (an HMAC of the file's digest
under a key kept in the data folder). The websocket checks its Origin is the page's own,
scheme included, and then takes a seat at the table as an SSH connection does: the
same limits, the same processes (on a pty), the same logging. Every response carries
strict headers (no framing, no referrer, no caching, nothing but its own scripts).

textual-serve serves an app its own way (`Server.serve()` runs an event loop of its own
and a process per page that speaks its own driver's protocol); the table only takes its
browser side, textual.js with its stylesheet and font (``Server.statics_path``), and
speaks textual.js's websocket messages itself (:mod:`tracker.table.workarounds`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import secrets
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from tracker.table.access import GM, SPECTATOR, Role
from tracker.table.club import Choice
from tracker.table.rendering import SLOW_BYTES
from tracker.table.table import Seat, Table
from tracker.table.workarounds import TEXTUAL_JS_FILES, textual_serve_statics

log = logging.getLogger("tracker.table.web")

TOKEN_KEY = "web_token_key"
OWN_STATIC = Path(__file__).with_name("static")
PAGE = (OWN_STATIC / "page.html").read_text("utf-8")
MAX_MESSAGE = 1 << 16

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "font-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Server": "tracker",
}
NO_TOKEN = "tracker: this address needs the token printed when the table server started\n"


def token_key(folder: Path) -> bytes:
    """The key the browser tokens are made with, made once and kept in ``folder`` (0600)."""
    path = folder / TOKEN_KEY
    folder.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_bytes()
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


def make_tokens(table: Table, key: bytes, gm: bool) -> dict[str, Role]:
    """A token for each role (the GM's with ``gm``), the same while the access file is."""
    sides = table.access.sides
    roles = [Role(SPECTATOR)] + [Role("side", s) for s in sides] + ([Role(GM)] if gm else [])
    seed = f"{table.save.resolve()}\0{table.access.digest}\0"
    return {hmac.new(key, (seed + r.describe()).encode(), hashlib.sha256).hexdigest()[:32]: r
            for r in roles}


class WebViewer:
    """A browser's websocket as a viewer: output is queued and sent in order."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.queued = 0
        self.status: int | None = None
        self.line = ""

    def send(self, data: bytes) -> None:
        if self.status is None:
            self.queued += len(data)
            self.queue.put_nowait(data)

    def backlog(self) -> int:
        return self.queued

    def end(self, status: int, line: str = "") -> None:
        if self.status is None:
            self.status, self.line = status, line
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send what the seat's rendering draws, until the seat ends."""
        while (data := await self.queue.get()) is not None:
            self.queued -= len(data)
            await self.ws.send_bytes(data)
        if self.line:
            await self.ws.send_bytes(f"\r\ntracker: {self.line}\r\n".encode())
        await self.ws.close()


class TableWeb:
    """The aiohttp application of the browser addresses: a token names a table and a role."""

    def __init__(self, tokens: dict[str, Choice]) -> None:
        self.tokens = tokens
        self.statics = textual_serve_statics()
        self.seats: set[Seat] = set()
        self.app = web.Application(client_max_size=MAX_MESSAGE)
        self.app.on_response_prepare.append(self._headers)
        self.app.add_routes([
            web.get("/{token}/", self.page),
            web.get("/{token}/ws", self.websocket),
            web.get("/{token}/static/{name:.+}", self.static),
            web.get("/{any:.*}", self.nothing),
        ])

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)

    def choice(self, request: web.Request) -> Choice:
        token = request.match_info.get("token", "")
        for known, choice in self.tokens.items():
            if secrets.compare_digest(known, token):
                return choice
        raise web.HTTPForbidden(text=NO_TOKEN)

    async def nothing(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info.get("any", "")
        if token in self.tokens:  # the address without its closing slash
            raise web.HTTPFound(f"{token}/")
        raise web.HTTPForbidden(text=NO_TOKEN)

    async def page(self, request: web.Request) -> web.Response:
        role = self.choice(request).role
        who = "the GM's app" if role.kind == GM else (
            f"{role.side}'s view" if role.side else "spectator view")
        title = f"tracker · {who}".replace("&", "&amp;").replace("<", "&lt;")
        return web.Response(text=PAGE.replace("{title}", title), content_type="text/html")

    async def static(self, request: web.Request) -> web.FileResponse:
        self.choice(request)
        name = request.match_info["name"]
        if name in TEXTUAL_JS_FILES:
            return web.FileResponse(self.statics / name)
        if name in ("page.js", "page.css"):
            return web.FileResponse(OWN_STATIC / name)
        raise web.HTTPNotFound(text="tracker: no such file\n")

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        table, role = (choice := self.choice(request)).table, choice.role
        peer = f"{request.remote}"
        origin = request.headers.get("Origin", "")
        if origin != f"{request.scheme}://{request.host}":
            table.say(f"tracker serve: refused a browser from {peer}: "
                           f"origin {origin or 'none'} is not the page's own")
            raise web.HTTPForbidden(text="tracker: the page's own origin only\n")
        who = f"browser address of {role.describe()}"
        refused = table.admit(role, who)
        if refused:
            table.say(f"tracker serve: refused {role.describe()} from {peer} "
                           f"(browser): {refused}")
            raise web.HTTPServiceUnavailable(text=f"tracker: {refused}\n")
        cols = _number(request.query.get("width"), 80)
        rows = _number(request.query.get("height"), 24)
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        viewer = WebViewer(ws)
        shape = table.shape(role, cols, rows, "xterm-256color", "truecolor")
        seat = Seat(table, role, who, peer, "browser", viewer, shape)
        try:
            seat.start()
        except OSError as exc:
            seat.hangup(exc.strerror or str(exc))
            await ws.close()
            return ws
        self.seats.add(seat)
        pump = asyncio.create_task(viewer.pump())
        try:
            await self._read(ws, seat, viewer)
        finally:
            self.seats.discard(seat)
            seat.hangup()
            viewer.end(0)
            await asyncio.gather(pump, return_exceptions=True)
        return ws

    async def _read(self, ws: web.WebSocketResponse, seat: Seat, viewer: WebViewer) -> None:
        """textual.js's messages: keys, a new size, a ping; nothing else is acted on."""
        async for message in ws:
            if viewer.status is not None:
                break
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, *rest = json.loads(message.data)
            except (ValueError, TypeError):
                continue
            data = rest[0] if rest else None
            if kind == "stdin" and isinstance(data, str):
                seat.input(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                seat.resize(_number(data.get("width"), 80), _number(data.get("height"), 24))
            elif kind == "ping" and isinstance(data, str) and len(data) < 64:
                await ws.send_json(["pong", data])
            if viewer.backlog() > SLOW_BYTES:
                break

    async def stop(self) -> None:
        for seat in list(self.seats):
            seat.end(0, "the table server stopped")


def _number(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


async def start_web(server: TableWeb, host: str, port: int) -> web.AppRunner:
    runner = web.AppRunner(server.app, handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    return runner
