"""textual-serve where its public API does not reach (the one place for it).

textual-serve's public API is ``Server(command, ...).serve()``, which runs an event
loop of its own and a process per page speaking its own driver's protocol; there is no
public way to mount its pages in an aiohttp application of one's own, beside an SSH
server in one loop (upstream: https://github.com/Textualize/textual-serve/issues/27,
``serve()`` owns the loop). The table serves textual-serve's browser side itself: the
files below, from the folder ``Server.statics_path`` names, and the websocket messages
textual.js sends (it has no documented protocol; tests/table/test_web.py reads
textual.js to check these still hold and fails when textual-serve gives a public way).

textual.js, given ``data-session-websocket-url`` U, connects to ``U + "?width=W&height=H"``
and sends JSON lists: ``["stdin", text]``, ``["resize", {"width": W, "height": H}]``,
``["ping", text]`` (answered ``["pong", text]``), ``["focus"]`` and ``["blur"]``; binary
messages from the server are the terminal's output.
"""

from __future__ import annotations

from pathlib import Path

from textual_serve.server import Server

TEXTUAL_JS_FILES = (
    "js/textual.js",
    "css/xterm.css",
    "fonts/RobotoMono-VariableFont_wght.ttf",
    "fonts/RobotoMono-Italic-VariableFont_wght.ttf",
)
"""textual-serve's files a page of the table loads (and nothing else of its folder)."""


def textual_serve_statics() -> Path:
    """The folder of textual-serve's browser files."""
    return Path(Server("tracker").statics_path)
