"""A form that becomes one command: add or edit a combatant or unit, settings.

The form never changes the encounter itself: it builds the typed command a GM could type
at the `:` line and hands it to ``submit``, which runs it and returns an error message
(shown in the form, which stays open) or None (the form closes with the command).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from tracker.core.commands import Command
from tracker.ui.inputs import InOrderInput
from tracker.ui.typeahead import ready

Submit = Callable[[Command], str | None]
Build = Callable[[dict[str, str]], Command]


@dataclass
class Field:
    name: str
    value: str = ""
    hint: str = ""
    """Shown in the empty box."""
    label: str = ""
    help: str = ""
    """Shown under the fields while the field has focus (the hint if empty)."""
    more: bool = False
    """Behind the "more" key: shown when the GM asks for every field."""


FIRST_ROWS = 4
"""Rows drawn with the dialog's first screen; the others are mounted right after it, so
the dialog shows at once (a GM types in the first field meanwhile)."""

LABEL_WIDTH = (12, 26)
"""The label column fits the longest label, within these bounds."""


class Fields(VerticalScroll, can_focus=False):
    """The form's rows; scrolls with the focused field, never takes focus itself."""


def show_value(value: object) -> str:
    """A model value as a form shows it: yes/no, comma lists, blank for none; a record
    (a unit the encounter fills in) as its values joined by ``:``, as such an item is
    typed, without ids: a flag that is set as its name, one that is not left out."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        bits = [(k if v is True else show_value(v)) for k, v in value.items()
                if k != "id" and v is not False and v is not None]
        return ":".join(bits)
    if isinstance(value, (list, tuple)):
        return ",".join(show_value(v) if isinstance(v, dict) else str(v) for v in value)
    return "" if value is None else str(value)


class FormScreen(ModalScreen[Command | None]):
    """Label/Input rows; Enter on the last field (or ctrl+s) submits, Esc cancels."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="form-cancel"),
        Binding("ctrl+s", "submit", "Apply", id="form-apply"),
        Binding("ctrl+o", "more", "More fields", id="form-more"),
        # Moving between fields is a priority binding so it happens before the next key
        # is handed to a field: over SSH, "Tab 6" can arrive in one read, and the 6
        # must land in the next field, not the one being left.
        Binding("tab,down", "next_field", "Next field", show=False, priority=True),
        Binding("shift+tab,up", "previous_field", "Previous field", show=False,
                priority=True),
    ]

    def __init__(
        self, title: str, fields: list[Field], build: Build, submit: Submit, hint: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.fields = fields
        self.build = build
        self.submit_command = submit
        self.hint = hint
        self.showing_more = False
        self._rest_mounted = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            if self.hint:
                yield Label(self.hint, classes="dialog-hint")
            with Fields(classes="fields"):
                for f in self._shown()[:FIRST_ROWS]:
                    yield self._row(f)
            yield Label("", id="field-help", classes="dialog-hint")
            yield from self.compose_extra()
            yield Label("", id="form-error", classes="dialog-error")
            more = sum(1 for f in self.fields if f.more)
            keys = "Tab/↓ next field · Enter apply · Esc cancel"
            if more:
                keys += f" · ctrl+o {more} more field{'s' if more != 1 else ''}"
            yield Label(keys, id="form-keys", classes="dialog-hint")

    def _row(self, f: Field) -> Horizontal:
        low, high = LABEL_WIDTH
        width = max([low, *(len(g.label or g.name) + 2 for g in self.fields)])
        label = Label(f.label or f.name)
        label.styles.width = min(width, high)
        return Horizontal(
            label,
            InOrderInput(value=self.value_for(f), placeholder=f.hint, id=f"f-{f.name}"),
            classes="field-row",
        )

    def value_for(self, f: Field) -> str:
        """What a field's box holds when it is mounted."""
        return f.value

    def rows_added(self) -> None:
        """Rows were mounted after the first screen (a dialog may mark them)."""

    def _shown(self) -> list[Field]:
        return [f for f in self.fields if not f.more]

    def _mount_rest(self) -> None:
        """The rows after the first few, once the dialog has been drawn (once: a
        dialog's ``on_mount`` runs for each class that defines it)."""
        if self._rest_mounted:
            return
        self._rest_mounted = True
        rest = [self._row(f) for f in self._shown()[FIRST_ROWS:]]
        if rest:
            self.query_one(Fields).mount_all(rest)
            self.call_after_refresh(self.rows_added)

    def action_more(self) -> None:
        """Show the fields kept behind the "more" key, after the others."""
        if self.showing_more:
            return
        self.showing_more = True
        self._mount_rest()
        rows = [self._row(f) for f in self.fields if f.more]
        if rows:
            self.query_one(Fields).mount_all(rows)
            self.call_after_refresh(self.rows_added)
            self.query_one("#form-keys", Label).update(
                "Tab/↓ next field · Enter apply · Esc cancel")

    def compose_extra(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        first = self.query(Input).first()
        if first is not None:
            self.set_focus(first)  # at once, not on the next idle
        ready(self)
        self.call_after_refresh(self._mount_rest)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Say what the focused field is for, in full."""
        widget = event.widget
        for f in self.fields:
            if widget.id == f"f-{f.name}":
                text = f.help or f.hint
                self.query_one("#field-help", Label).update(
                    f"{f.label or f.name}: {text}" if text else ""
                )
                return

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # before the first field has focus, Tab waits its turn behind the keys typed
        # ahead of it (see on_key)
        if action in ("next_field", "previous_field"):
            return self.focused is not None
        return True

    def action_next_field(self) -> None:
        self.focus_next()

    def action_previous_field(self) -> None:
        self.focus_previous()

    def on_key(self, event: events.Key) -> None:
        """Keys typed straight after the one that opened the dialog, before a field had
        focus, reach the dialog itself: they go on, in order, to the field focused now."""
        focused = self.focused
        if not isinstance(focused, Input):
            return
        if event.key in ("tab", "down"):
            event.stop()
            self.focus_next()
        elif event.key in ("shift+tab", "up"):
            event.stop()
            self.focus_previous()
        elif event.is_printable or (
            isinstance(focused, InOrderInput) and focused.binding_for(event) is not None
        ):
            event.stop()  # a key the field acts on; any other would come back here
            focused.post_message(events.Key(event.key, event.character))

    def values(self) -> dict[str, str]:
        """Every field's text; a field not shown yet keeps the value it came with."""
        out: dict[str, str] = {}
        for f in self.fields:
            boxes = self.query(f"#f-{f.name}").results(Input)
            box = next(boxes, None)
            out[f.name] = (box.value if box is not None else self.value_for(f)).strip()
        return out

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        try:
            cmd = self.build(self.values())
        except ValueError as exc:
            self.show_error(str(exc))
            return
        error = self.submit_command(cmd)
        if error:
            self.show_error(error)
        else:
            self.dismiss(cmd)

    def show_error(self, message: str) -> None:
        self.query_one("#form-error", Label).update(message)

    def action_cancel(self) -> None:
        self.dismiss(None)
