"""What every connection to one encounter shares: the save, who may do what, the limits,
and the renderings its seats show.

A connection takes a :class:`Seat` (or is refused with one line), and the seat shows a
rendering: the GM's app of its own, or a view shared with every seat of the same role
and terminal (see ``rendering.py``). The limits: ``max_sessions`` players and spectators
(the GM always has a seat), ``max_per_key`` seats for one key (or browser address, or
address of a keyless spectator), and terminals no larger than ``max_cols`` x
``max_rows``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tracker.table.access import GM, Access, Role
from tracker.table.pty import Spawn
from tracker.table.rendering import Rendering, Shape, Viewer
from tracker.table.terminal import QUIT_KEYS, Keys
from tracker.table.zygote import clean_env

MAX_SESSIONS = 32
MAX_PER_KEY = 4
MAX_SIZE = (500, 200)
TERM_DEFAULT = "xterm-256color"
_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}")


@dataclass
class Limits:
    max_sessions: int = MAX_SESSIONS
    """Players and spectators at once, SSH and browser together (the GM is not counted)."""
    max_per_key: int = MAX_PER_KEY
    max_cols: int = MAX_SIZE[0]
    max_rows: int = MAX_SIZE[1]

    def cap(self, cols: int, rows: int) -> tuple[int, int]:
        return max(1, min(cols, self.max_cols)), max(1, min(rows, self.max_rows))


def say_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@dataclass(eq=False)
class Table:
    """One encounter served: its access file, its seats and its renderings."""

    save: Path
    access: Access
    spawn: Spawn
    limits: Limits = field(default_factory=Limits)
    connect_hint: str = ""
    """How players connect (shown by `w` in the GM's app): the SSH command and each
    role's browser address, a line each."""
    say: Callable[[str], None] = say_to_stderr
    seats: set[Seat] = field(default_factory=set)
    shared: dict[Shape, Rendering] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.save.name

    def admit(self, role: Role, who: str) -> str | None:
        """Why a new seat for ``role`` held by ``who`` is refused, or None."""
        players = sum(1 for s in self.seats if s.role.kind != GM)
        if role.kind != GM and players >= self.limits.max_sessions:
            return (f"the table is full ({self.limits.max_sessions} sessions); "
                    "try again later")
        held = Counter(s.who for s in self.seats)[who]
        if held >= self.limits.max_per_key:
            return f"this key has {held} sessions open already (at most {held} at once)"
        return None

    def argv(self, role: Role) -> list[str]:
        if role.kind == GM:
            return ["open", str(self.save)]
        if role.kind == "side" and role.side:
            return ["watch", str(self.save), "--side", role.side]
        return ["watch", str(self.save), "--public"]

    def env(self, shape: Shape) -> dict[str, str]:
        env = clean_env()
        env["TERM"] = shape.term
        if shape.colorterm:
            env["COLORTERM"] = shape.colorterm
        if shape.role.kind == GM:
            env["TRACKER_TABLE"] = self.connect_hint
        else:
            env["TEXTUAL_DISABLE_KITTY_KEY"] = "1"  # a view's keys are read by the server
        return env

    def shape(self, role: Role, cols: int, rows: int, term: str, colorterm: str = "") -> Shape:
        cols, rows = self.limits.cap(cols, rows)
        return Shape(role, cols, rows, term if _TERM.fullmatch(term or "") else TERM_DEFAULT,
                     colorterm if colorterm in ("truecolor", "24bit") else "")

    def rendering(self, shape: Shape, own: bool = False) -> Rendering:
        """The shared rendering of ``shape`` (started if none runs), or, for the GM or
        with ``own``, a rendering of its own."""
        shared = shape.role.kind != GM and not own
        if shared:
            found = self.shared.get(shape)
            if found is not None and found.shared:
                return found
        made = Rendering(shape, self.spawn, self.argv(shape.role), self.env(shape),
                         str(self.save.parent), shared, self._ended)
        if shared:
            self.shared[shape] = made
        return made

    def _ended(self, rendering: Rendering) -> None:
        if self.shared.get(rendering.shape) is rendering:
            del self.shared[rendering.shape]

    def stop(self, line: str) -> None:
        """The server stops: every seat's terminal reset and told why, every process hung up."""
        for seat in list(self.seats):
            seat.end(0, line)


@dataclass(eq=False)
class Seat:
    """One connection's place at a table."""

    table: Table
    role: Role
    who: str
    """What the per-key limit counts: a key's fingerprint, a browser address's role,
    a keyless spectator's address."""
    peer: str
    via: str
    viewer: Viewer
    shape: Shape
    rendering: Rendering | None = None
    keys: Keys = field(default_factory=Keys)
    gone: bool = False

    def start(self) -> None:
        self.table.seats.add(self)
        self.rendering = self.table.rendering(self.shape)
        self.rendering.join(self)
        self.table.say(f"tracker serve: {self.role.describe()} connected from {self.peer} "
                       f"({self.via}, {self.shape.cols}x{self.shape.rows})")

    # --- what the rendering calls (the seat stands for its connection) -------------------

    def send(self, data: bytes) -> None:
        if not self.gone:
            self.viewer.send(data)

    def backlog(self) -> int:
        return self.viewer.backlog()

    def end(self, status: int, line: str = "") -> None:
        """The session is over: the connection is told, the seat freed."""
        if self.gone:
            return
        if self.rendering is not None:
            self.rendering.leave(self)
        self._free()
        self.viewer.end(status, line)
        self._said_left(line.strip().rstrip(".") or "quit")

    # --- what the connection calls ------------------------------------------------------

    def input(self, data: bytes) -> None:
        rendering = self.rendering
        if rendering is None or self.gone:
            return
        if not rendering.shared:
            rendering.write(data)
            return
        keys = self.keys.read(data)
        for i, key in enumerate(keys):
            if key in QUIT_KEYS:
                self.end(0)
                return
            # a key of this player's: the view becomes theirs alone, the key goes to it
            self._go_private()
            assert self.rendering is not None
            self.rendering.write(b"".join(keys[i:]))
            return

    def _go_private(self) -> None:
        rendering = self.rendering
        assert rendering is not None
        if rendering.viewers == [self]:
            rendering.shared = False
            self.table._ended(rendering)
            return
        rendering.leave(self, reset=False)
        self.rendering = self.table.rendering(self.shape, own=True)
        self.rendering.join(self)

    def resize(self, cols: int, rows: int) -> None:
        rendering = self.rendering
        if rendering is None or self.gone:
            return
        shape = self.table.shape(self.role, cols, rows, self.shape.term, self.shape.colorterm)
        if shape == self.shape:
            return
        self.shape = shape
        if not rendering.shared:
            rendering.shape = shape
            rendering.resize(shape.cols, shape.rows)
            return
        rendering.leave(self, reset=False)  # to the rendering of the new size
        self.rendering = self.table.rendering(shape)
        self.rendering.join(self)

    def hangup(self, why: str = "") -> None:
        """The connection is gone."""
        if self.gone:
            return
        if self.rendering is not None:
            self.rendering.leave(self, reset=False)
        self._free()
        self._said_left(why)

    def _said_left(self, why: str) -> None:
        self.table.say(f"tracker serve: {self.role.describe()} from {self.peer} left"
                       f"{f' ({why})' if why else ''}")

    def _free(self) -> None:
        self.gone = True
        self.rendering = None
        self.table.seats.discard(self)
