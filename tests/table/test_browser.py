"""The browser view in a real browser: the system's Chromium, driven by Playwright, loads
each role's page, sees the unit names arrive, types for the GM and for a side (whose
keys change nothing on the server), and is resized. Skipped, saying why, where Chromium
or Playwright is not installed (README, "Playing over SSH": apt-get install chromium)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.table.helpers import ANSI, start_web, table_save

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
NEVER = ("Wolf", "ambush waits", "secretly_a_vampire", "spleen")

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                                 "(pip install -e '.[test]')")
if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium): the browser test "
                "did not run", allow_module_level=True)


class Tab:
    """A page of the table, with what its websocket received (the terminal's bytes)."""

    def __init__(self, browser: Any, url: str, size: tuple[int, int] = (1100, 700)) -> None:
        self.page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        self.received = bytearray()
        self.problems: list[str] = []
        self.requests: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("console", lambda m: self.problems.append(m.text)
                     if m.type == "error" else None)
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(url)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        if isinstance(payload, bytes):
            self.received += payload

    @property
    def text(self) -> str:
        return ANSI.sub(b"", bytes(self.received)).decode("utf-8", "replace")

    def wait_for(self, needle: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} not drawn: {self.text[-1500:]!r}")
            self.page.wait_for_timeout(50)


def test_each_role_in_chromium(tmp_path):
    save = table_save(tmp_path)
    server = start_web(save, tmp_path / "home", "--web-gm")
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                gm = Tab(browser, server.urls["gm"])
                gm.wait_for(": for commands")
                gm.wait_for("Wolf")  # the GM sees everything
                assert gm.page.title() == "tracker · the GM's app"

                side = Tab(browser, server.urls["side party"])
                side.wait_for("party's view")
                side.wait_for("Grak")
                assert side.page.title() == "tracker · party's view"
                spectator = Tab(browser, server.urls["spectator"])
                spectator.wait_for("spectator view")

                # the GM types without a click: the page has the keys from its start
                gm.page.keyboard.type(":note the bridge creaks")
                gm.page.keyboard.press("Enter")
                gm.wait_for("the bridge creaks")
                side.wait_for("the bridge creaks")
                spectator.wait_for("the bridge creaks")

                # a side's keys change its own view and nothing on the server
                before = save.stat().st_mtime_ns
                for key in ("o", "v", "ArrowDown", "t", "s", "Enter", "q"):
                    side.page.keyboard.press(key)
                side.page.wait_for_timeout(500)
                assert save.stat().st_mtime_ns == before

                # a new size reaches the view
                side.received.clear()
                side = Tab(browser, server.urls["side party"], size=(700, 400))
                side.wait_for("party's view")
                small = server.sizes()
                side.page.set_viewport_size({"width": 1300, "height": 900})
                deadline = time.monotonic() + 20
                while server.sizes() <= small and time.monotonic() < deadline:
                    side.page.wait_for_timeout(100)
                assert server.sizes() - small

                for tab in (gm, side, spectator):
                    assert not [m for m in tab.problems if "Content Security Policy" in m]
                    assert all(u.startswith(f"http://127.0.0.1:{server.port}/")
                               or u.startswith("ws://127.0.0.1") or u.startswith("data:")
                               for u in tab.requests), tab.requests
                for tab in (side, spectator):
                    for word in NEVER:
                        assert word not in tab.text, word
            finally:
                browser.close()
    finally:
        server.stop()
    assert "(browser," in server.log()
