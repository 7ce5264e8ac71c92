"""Keys that arrive in one burst edit the command line and the dialogs in typed order."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Input

from tests.ui.keys import burst
from tests.ui.wait import settled
from tracker.ui.inputs import InOrderInput


class OneField(App[None]):
    def __init__(self, field: type[Input]) -> None:
        super().__init__()
        self.field = field

    def compose(self) -> ComposeResult:
        yield self.field(value="Roland", select_on_focus=False)


async def typed_in_one_burst(field: type[Input], *keys: str) -> str:
    app = OneField(field)
    async with app.run_test() as pilot:
        await pilot.pause()
        burst(app, *keys)
        await settled(pilot)
        return app.query_one(field).value


async def test_backspaces_then_letters_in_one_burst_apply_in_order():
    assert await typed_in_one_burst(InOrderInput, "end", "backspace", "backspace", "x", "y") \
        == "Rolaxy"


async def test_clearing_a_field_and_typing_in_one_burst_keeps_what_was_typed():
    assert await typed_in_one_burst(InOrderInput, "home", "ctrl+k", "4") == "4"
    assert await typed_in_one_burst(InOrderInput, "end", "backspace", "x", "home", "z") \
        == "zRolanx"


async def test_printable_keys_are_typed_as_before():
    assert await typed_in_one_burst(InOrderInput, "end", "space", "I", "I") == "Roland II"


def test_the_keys_a_dialog_passes_on_to_its_field_are_those_the_field_acts_on():
    """A key passed on that the field did not act on would come back to the dialog."""
    from textual import events

    field = InOrderInput()
    editing = {"backspace", "delete", "left", "right", "home", "end", "enter", "ctrl+a",
               "ctrl+e", "ctrl+k", "ctrl+u", "ctrl+w"}
    assert all(field.binding_for(events.Key(key, None)) is not None for key in editing)
    assert field.binding_for(events.Key("tab", "\t")) is None
    assert field.binding_for(events.Key("escape", None)) is None
