"""The `:` command line: Enter runs, Esc leaves, ↑/↓ walk earlier commands.

The line is read here, once, into a typed command (:mod:`tracker.session.commands`); the
app gets the command, or the reason the line cannot be read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from tracker import startup
from tracker.session.language import CommandError
from tracker.ui.inputs import InOrderInput

if TYPE_CHECKING:
    from tracker.session import commands
    from tracker.session.commands import Command
else:  # the commands load after the first screen (see tracker.startup)
    commands = startup.lazy("tracker.session.commands")


class CommandLine(InOrderInput):
    """Hidden until ``:``; gives focus back to where it came from when done."""

    BINDINGS = [
        Binding("escape", "leave", "Leave", id="cmdline-leave"),
        Binding("up", "older", "Earlier", id="cmdline-older", show=False),
        Binding("down", "newer", "Later", id="cmdline-newer", show=False),
    ]

    class Run(Message):
        """A line read into a command, to be carried out."""

        def __init__(self, command: Command) -> None:
            super().__init__()
            self.command = command

    class Refused(Message):
        """A line that cannot be read: ``why`` says what to type."""

        def __init__(self, line: str, why: str) -> None:
            super().__init__()
            self.line, self.why = line, why

    def __init__(self, **kw: object) -> None:
        # no select-all on focus: keys that came in the same read as ':' may be in the
        # line before the focus event is handled, and the next key would replace them
        super().__init__(
            placeholder="command (help lists them) · Esc leaves",
            select_on_focus=False,
            **kw,  # type: ignore[arg-type]
        )
        self.history: list[str] = []
        self._at = 0
        self._back_to: Widget | None = None

    def open(self) -> None:
        self._back_to = self.app.focused
        self.display = True
        self.value = ""
        self._at = len(self.history)
        # focus at once, not on the next idle: keys typed straight after ':' land here
        self.screen.set_focus(self)

    def action_leave(self) -> None:
        self.value = ""
        self.display = False
        if self._back_to is not None and self._back_to.is_attached:
            self.screen.set_focus(self._back_to)
        else:
            self.screen.set_focus(None)

    @property
    def is_open(self) -> bool:
        return bool(self.display)

    async def action_submit(self) -> None:
        line = self.value.strip()
        if line:
            if not self.history or self.history[-1] != line:
                self.history.append(line)  # as typed: a line with a slip is there to mend
            try:
                self.post_message(self.Run(commands.parse(line)))
            except CommandError as exc:
                self.post_message(self.Refused(line, str(exc)))
        self.action_leave()

    def action_older(self) -> None:
        if self.history and self._at > 0:
            self._at -= 1
            self.value = self.history[self._at]
            self.cursor_position = len(self.value)

    def action_newer(self) -> None:
        if self._at < len(self.history) - 1:
            self._at += 1
            self.value = self.history[self._at]
        else:
            self._at = len(self.history)
            self.value = ""
        self.cursor_position = len(self.value)
