"""One process drawing one screen, fanned out to every connection that shows it.

Views that show the same thing (one role, one terminal size and type) share a rendering:
its process draws once and its output goes to each connection watching. A connection
that joins late gets the terminal's modes and a whole redraw (Ctrl+L to the view). The
GM's app, and a view whose player has pressed a key (the cursor, the roster's sort), is
a rendering of its own, so nobody's keys change what another player sees.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from tracker.table.access import GM, Role
from tracker.table.pty import PtyChild, Spawn, step_back
from tracker.table.terminal import ENTER, REDRAW, RESET

SLOW_BYTES = 4 << 20
"""Output a connection may leave unread; one that falls further behind is let go."""

STEP_BACK_AFTER = 0.3
"""Seconds after a view's first output before it steps back for the GM's app."""


class Viewer(Protocol):
    """A connection that shows a rendering: an SSH channel or a browser's websocket."""

    def send(self, data: bytes) -> None: ...

    def backlog(self) -> int:
        """Bytes sent that have not left yet."""
        ...

    def end(self, status: int, line: str = "") -> None:
        """The session is over for this connection (``line``: why, for the player)."""
        ...


@dataclass(frozen=True)
class Shape:
    """What a view's screen depends on: the role, the terminal's size and type."""

    role: Role
    cols: int
    rows: int
    term: str
    colorterm: str = ""


class Rendering:
    """A process on a pty and the connections that show what it draws."""

    def __init__(
        self,
        shape: Shape,
        spawn: Spawn,
        argv: list[str],
        env: dict[str, str],
        cwd: str,
        shared: bool,
        on_end: Callable[[Rendering], None],
    ) -> None:
        self.shape = shape
        self.shared = shared
        """Others may join (False: one connection's own)."""
        self.viewers: list[Viewer] = []
        self.drawn = False
        self._on_end = on_end
        self.child = PtyChild(spawn, argv, env, cwd, shape.cols, shape.rows,
                              self._output, self._exited)

    def join(self, viewer: Viewer) -> None:
        self.viewers.append(viewer)
        if self.drawn:
            viewer.send(ENTER)
            self.child.write(REDRAW)

    def leave(self, viewer: Viewer, reset: bool = True) -> None:
        """A connection stops showing this rendering; the last one out ends it."""
        if viewer in self.viewers:
            self.viewers.remove(viewer)
            if reset:
                viewer.send(RESET)
        if not self.viewers:
            self.shared = False  # nobody joins a rendering on its way out
            if self.child.running:
                self.child.hangup()

    def write(self, data: bytes) -> None:
        self.child.write(data)

    def resize(self, cols: int, rows: int) -> None:
        self.child.resize(cols, rows)

    def _output(self, data: bytes) -> None:
        if not self.drawn:
            self.drawn = True
            if self.shape.role.kind != GM:
                asyncio.get_running_loop().call_later(STEP_BACK_AFTER, step_back,
                                                      self.child.pid)
        for viewer in list(self.viewers):
            if viewer.backlog() > SLOW_BYTES:
                self.viewers.remove(viewer)
                viewer.end(1, "the connection fell too far behind")
                continue
            viewer.send(data)

    def _exited(self, status: int) -> None:
        self.shared = False
        self._on_end(self)
        viewers, self.viewers = self.viewers, []
        for viewer in viewers:
            viewer.send(RESET)  # a killed app could not take its modes back
            viewer.end(status)
