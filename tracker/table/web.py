"""The table in a browser (textual-serve), locked down.

Every URL carries a token printed at start, one token for each role: the spectators',
each side's, and the GM's only with ``--web-gm``. The websocket that drives an app
checks the token again and that its Origin is the page's own; the same session limit as
over SSH holds. Each websocket gets its own process running the role's view.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any
from urllib.parse import urlsplit

from tracker.table.access import GM, SPECTATOR, Role
from tracker.table.pty import VIEWER_NICE
from tracker.table.ssh import Table

log = logging.getLogger("tracker.table.web")


def make_tokens(sides: list[str], gm: bool) -> dict[str, Role]:
    roles = [Role(SPECTATOR)] + [Role("side", s) for s in sides] + ([Role(GM)] if gm else [])
    return {secrets.token_urlsafe(18): role for role in roles}


def make_server(table: Table, host: str, port: int, tokens: dict[str, Role]) -> Any:
    """A textual-serve server whose pages and websockets need a token."""
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    class TableWebServer(Server):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__("tracker", host=host, port=port, title="tracker")
            self.tokens = tokens

        def role(self, request: web.Request) -> Role:
            token = request.query.get("token", "")
            for known, role in self.tokens.items():
                if secrets.compare_digest(known, token):
                    return role
            raise web.HTTPForbidden(text="tracker: this address needs the token printed "
                                         "when the table server started\n")

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.on_startup.clear()  # textual-serve's banner: the table prints its own
            return app

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request: web.Request) -> dict[str, Any]:
            self.role(request)
            router = request.app.router
            base = f"{request.scheme}://{request.host}"
            ws = "wss" if request.scheme == "https" else "ws"
            token = request.query["token"]
            return {
                "font_size": to_int(request.query.get("fontsize", "16"), 16),
                "app_websocket_url": f"{ws}://{request.host}"
                f"{router['websocket'].url_for()}?token={token}",
                "config": {"static": {"url": base + str(router["static"].url_for(
                    filename="/")).rstrip("/") + "/"}},
                "application": {"name": "tracker"},
            }

        async def handle_download(self, request: web.Request) -> web.StreamResponse:
            self.role(request)
            return await super().handle_download(request)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            role = self.role(request)
            origin = request.headers.get("Origin", "")
            if not origin or urlsplit(origin).netloc != request.host:
                log.warning("refused a websocket from origin %r", origin)
                raise web.HTTPForbidden(text="tracker: the page's own origin only\n")
            if table.busy >= table.max_sessions:
                raise web.HTTPServiceUnavailable(
                    text=f"tracker: the table is full ({table.max_sessions} sessions)\n")
            websocket = web.WebSocketResponse(heartbeat=15)
            width = to_int(request.query.get("width", "80"), 80)
            height = to_int(request.query.get("height", "24"), 24)
            service: AppService | None = None
            table.web_sessions += 1
            try:
                await websocket.prepare(request)
                import shlex

                command = " ".join(shlex.quote(a) for a in table.argv(role))
                if role.kind != GM:  # as over SSH: the views run after the GM's app
                    command = f"nice -n {VIEWER_NICE} {command}"
                service = AppService(
                    command,
                    write_bytes=websocket.send_bytes,
                    write_str=websocket.send_str,
                    close=websocket.close,  # type: ignore[arg-type]
                    download_manager=self.download_manager,
                    debug=False,
                )
                await service.start(width, height)
                try:
                    await self._process_messages(websocket, service)
                finally:
                    await service.stop()
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as error:  # one browser's failure never stops the table
                log.warning("a browser session ended: %s", error)
            finally:
                table.web_sessions -= 1
                if service is not None:
                    await service.stop()
            return websocket

    return TableWebServer()


async def start_web(server: Any) -> Any:
    from aiohttp import web

    runner = web.AppRunner(await server._make_app(), handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, server.host, server.port)
    await site.start()
    return runner
