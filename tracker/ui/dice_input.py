"""The entry of the dice step: the dice of one stage as the GM types them."""

from __future__ import annotations

from typing import Any, Protocol

from textual import events

from tracker.ui.inputs import InOrderInput


class Step(Protocol):
    """What the entry asks of the dice step it serves."""

    def refusal(self, text: str) -> str | None: ...
    def show_error(self, message: str) -> None: ...
    def roll(self, rest: bool) -> None: ...
    def next_stage(self) -> None: ...
    def back(self) -> None: ...


class DiceEntry(InOrderInput):
    """The dice of one stage as typed. A key that would make more dice than the stage
    takes, or a face the die cannot show, is refused as it is typed; ``r``/``R`` roll,
    Enter goes on and Backspace on an empty entry goes back, each in the order typed."""

    def __init__(self, step: Step, **kw: Any) -> None:
        super().__init__(**kw)
        self.step = step

    def replace(self, text: str, start: int, end: int) -> None:
        value = self.value
        lo, hi = sorted((max(0, start), min(len(value), end)))
        new = f"{value[:lo]}{text}{value[hi:]}"
        if text:
            error = self.step.refusal(new)
            if error:
                self.step.show_error(error)
                return
        self.step.show_error("")
        super().replace(text, start, end)

    async def on_key(self, event: events.Key) -> None:
        """Runs before the handlers of the classes it comes from (InOrderInput's, then
        Input's), which prevent_default() skips."""
        if event.character in ("r", "R") and not self.typed_for_another_screen():
            event.stop()
            event.prevent_default()
            self.step.roll(rest=event.character == "R")

    async def action_submit(self) -> None:
        self.step.next_stage()

    def action_delete_left(self) -> None:
        if not self.value:
            self.step.back()
            return
        super().action_delete_left()


__all__ = ["DiceEntry", "Step"]
