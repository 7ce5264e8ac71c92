"""What the table server says to a player's terminal itself, and how it reads keys.

A view's process may be shared by several connections (see ``rendering.py``): one who
joins late gets the terminal modes the app set at its start (:data:`ENTER`), and every
connection, however it ends, gets them taken back (:data:`RESET`). Input from a shared
view is read here, not by the app: terminals answer the app's questions and report
focus and mouse moves, and none of that may reach an app another player is watching.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ENTER = (
    b"\x1b[?1049h"  # the alternate screen
    b"\x1b[?25l"  # no cursor
    b"\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"  # mouse reports, SGR encoded
    b"\x1b[?2004h"  # bracketed paste
)
"""The modes a Textual app sets in its terminal at start (no keyboard protocol, no
questions: a view's terminal is never asked anything)."""

RESET = (
    b"\x1b[<u"  # the keyboard protocol, if the app set it
    b"\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
    b"\x1b[?2004l\x1b[?1004l\x1b[?2048l"
    b"\x1b[0m\x1b[?1049l\x1b[?25h"
)
"""Every mode a Textual app may set, taken back: the player's terminal as it was."""

REDRAW = b"\x0c"
"""Ctrl+L: the view draws its whole screen again (for a connection that joins late)."""

_TOKEN = re.compile(
    rb"\x1b\[<[0-9;]*[Mm]"  # SGR mouse
    rb"|\x1b\[M[\x20-\xff]{3}"  # X10 mouse
    rb"|\x1b\[200~.*?\x1b\[201~"  # a paste
    rb"|\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    rb"|\x1b[\]P_^X].*?(?:\x07|\x1b\\)"  # OSC, DCS and other strings
    rb"|\x1bO[\x20-\x7e]"  # SS3
    rb"|\x1b[\x20-\x7e]"  # Alt+key
    rb"|[\xc0-\xf7][\x80-\xbf]+"  # a UTF-8 character
    rb"|[\x00-\xff]",
    re.S,
)
_INCOMPLETE = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*|\[<[0-9;]*|\[M.{0,2}|O|[\]P_^X][^\x07]*|\[200~.*)?\Z", re.S
)

QUIT_KEYS = (b"q", b"Q", b"\x03", b"\x04", b"\x11")
"""q, Ctrl+C, Ctrl+D, Ctrl+Q: leave a shared view."""


@dataclass
class Keys:
    """What a connection typed into a shared view, read one key at a time."""

    pending: bytes = b""

    def read(self, data: bytes) -> list[bytes]:
        """The keys in ``data`` (a sequence cut at its end waits for the rest), without
        the terminal's answers, focus reports and mouse moves."""
        data = self.pending + data
        cut = _INCOMPLETE.search(data)
        self.pending, data = (data[cut.start():], data[: cut.start()]) if cut else (b"", data)
        if self.pending == b"\x1b" and not data:
            self.pending, data = b"", b"\x1b"  # Escape alone is a key
        return [t for t in (m.group() for m in _TOKEN.finditer(data)) if is_key(t)]


def is_key(token: bytes) -> bool:
    """A key, a paste or a click; not an answer to a question nor a mouse move."""
    if token.startswith(b"\x1b[<"):
        button = int(token[3:].split(b";")[0] or 0)
        return token.endswith(b"M") and not button & 32  # a press, not a move
    if token.startswith(b"\x1b[M"):
        return not token[3] & 32
    if token.startswith((b"\x1b]", b"\x1bP", b"\x1b_", b"\x1b^", b"\x1bX")):
        return False
    if token.startswith(b"\x1b[") and not token.startswith(b"\x1b[200~"):
        final = token[-1:]
        if token[2:3] == b"?" or final in b"IORtyc" or token.endswith(b"$y"):
            return False  # focus, cursor and window reports, mode and device answers
    return True
