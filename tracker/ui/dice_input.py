"""The entry of the dice step: the dice of one stage as the GM types them."""

from __future__ import annotations

from typing import Any, Protocol

from textual import events

from tracker.ui.inputs import InOrderInput


class Step(Protocol):
    """What the entry asks of the dice step it serves."""

    def refusal(self, text: str) -> str | None: ...
    def typed(self) -> list[int]: ...
    def show_error(self, message: str) -> None: ...
    def roll(self, rest: bool) -> None: ...
    def next_stage(self) -> None: ...
    def back(self) -> None: ...


class DiceEntry(InOrderInput):
    """The dice of one stage as typed. A key that would make more dice than the stage
    takes, or a face the die cannot show, is refused as it is typed; ``r``/``R`` roll,
    Enter goes on and Backspace on an empty entry goes back, each in the order typed.

    An Enter right after a refused key does not go on: the GM who typed ``25`` for a
    d20 meant no 2, so the step stops on the entry as it stands and a second Enter
    takes it. A Backspace right after one takes back only the key refused (which the
    entry never held): not a die before it, and not the stage before on an empty entry."""

    def __init__(self, step: Step, **kw: Any) -> None:
        super().__init__(**kw)
        self.step = step
        self.refused = ""

    def replace(self, text: str, start: int, end: int) -> None:
        value = self.value
        lo, hi = sorted((max(0, start), min(len(value), end)))
        new = f"{value[:lo]}{text}{value[hi:]}"
        if text:
            error = self.step.refusal(new)
            if error:
                self.refused = text
                self.step.show_error(error)
                return
        self.refused = ""
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
        if self.refused:
            said = " ".join(map(str, self.step.typed())) or "nothing"
            self.step.show_error(f"the {self.refused.strip()} was not taken: the entry "
                                 f"reads {said}; Enter again takes it as it stands")
            self.refused = ""
            return
        self.step.next_stage()

    def action_delete_left(self) -> None:
        if self.refused:  # the GM deleting the 7 a d6 refused: it is gone already
            self.refused = ""
            self.step.show_error("")
            return
        if not self.value:
            self.step.back()
            return
        super().action_delete_left()


__all__ = ["DiceEntry", "Step"]
