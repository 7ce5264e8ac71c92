"""A form that becomes one command: add or edit a combatant or unit, settings.

The form never changes the encounter itself: it builds the typed command a GM could type
at the `:` line and hands it to ``submit``, which runs it and returns an error message
(shown in the form, which stays open) or None (the form closes with the command).
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from tracker.session.commands import Command
from tracker.ui.inputs import InOrderInput
from tracker.ui.screens.fields import (
    FIRST_ROWS,
    LABEL_WIDTH,
    Build,
    Field,
    Fields,
    Submit,
    show_value,
)
from tracker.ui.typeahead import ready

__all__ = ["Build", "Field", "FormScreen", "Submit", "show_value"]

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
        self._boxes: dict[str, Input] = {}
        """Each field's box once made (found without a query at every key)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            if self.hint:
                yield Label(self.hint, classes="dialog-hint")
            with Fields(classes="fields"), Horizontal(classes="field-grid"):
                boxes = [self._row(f) for f in self._shown()[:FIRST_ROWS]]
                labels = Label(self._labels_text(), classes="field-labels")
                low, high = LABEL_WIDTH
                width = max([low, *(len(g.label or g.name) + 2 for g in self.fields)])
                labels.styles.width = min(width, high)
                yield labels
                yield Vertical(*boxes, classes="field-boxes")
            yield Label("", id="field-help", classes="dialog-hint")
            yield from self.compose_extra()
            yield Label("", id="form-error", classes="dialog-error", markup=False)
            yield Label(self._keys_text(), id="form-keys", classes="dialog-hint")

    def _keys_text(self) -> str:
        keys = "Tab/↓ next field · Enter apply · Esc cancel"
        more = 0 if self.showing_more else sum(1 for f in self.fields if f.more)
        if more:
            keys += f" · ctrl+o {more} more field{'s' if more != 1 else ''}"
        return keys

    def _row(self, f: Field) -> Input:
        """A field's box; its label is a line of the labels column beside the boxes
        (one widget a row, not three: a dialog's time goes by its widgets)."""
        box = InOrderInput(value=self.value_for(f), placeholder=f.hint, id=f"f-{f.name}")
        self._boxes[f.name] = box
        return box

    def _labels_text(self) -> str:
        """The labels of the fields made so far, one a line, beside their boxes."""
        names = {f.name: f.label or f.name for f in self.fields}
        return "\n".join(names[name] for name in self._boxes)

    def _add_rows(self, rows: list[Input]) -> None:
        self.query_one(".field-boxes", Vertical).mount_all(rows)
        self.query_one(".field-labels", Label).update(self._labels_text())
        self.call_after_refresh(self.rows_added)

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
            self._add_rows(rest)

    def action_more(self) -> None:
        """Show the fields kept behind the "more" key, after the others."""
        if self.showing_more:
            return
        self.showing_more = True
        self._mount_rest()
        rows = [self._row(f) for f in self.fields if f.more]
        if rows:
            self._add_rows(rows)
            self.query_one("#form-keys", Label).update(self._keys_text())

    def compose_extra(self) -> ComposeResult:
        yield from ()

    def _shape(self) -> tuple[object, ...]:
        return (self.hint, *((f.name, f.label, f.hint, f.help, f.more) for f in self.fields))

    def renew(self, fresh: FormScreen) -> bool:
        """Kept between openings (see ``tracker.ui.kept``): a form with the same fields
        takes ``fresh``'s title, values and handlers and opens as a new one would (the
        further fields put away again, no error, the first field focused)."""
        if fresh._shape() != self._shape():
            return False
        self.title_text = fresh.title_text
        self.fields = fresh.fields
        self.build = fresh.build
        self.submit_command = fresh.submit_command
        if not self.is_mounted:
            return True
        self.query_one(".dialog-title", Label).update(self.title_text)
        if self.showing_more:
            self.showing_more = False
            for f in self.fields:
                box = self._boxes.pop(f.name, None) if f.more else None
                if box is not None:
                    box.remove()
            self.query_one("#form-keys", Label).update(self._keys_text())
            self.query_one(".field-labels", Label).update(self._labels_text())
        for f in self.fields:
            box = self._box(f.name)
            if box is not None:
                self.set_box(f, box, self.value_for(f))
        self.show_error("")
        self.query_one(Fields).scroll_home(animate=False)
        first = next(iter(self._boxes.values()), None)
        if first is not None:
            self.set_focus(first)
        self._say_help(first)
        return True

    def set_box(self, f: Field, box: Input, value: str) -> None:
        """Put a value in a field's box, the cursor after it (as in a new box)."""
        box.value = value
        box.cursor_position = len(value)

    def _box(self, name: str) -> Input | None:
        """A field's box, None while it is not made (a further field not asked for)."""
        return self._boxes.get(name)

    def on_mount(self) -> None:
        first = self.query(Input).first()
        if first is not None:
            self.set_focus(first)  # at once, not on the next idle
        ready(self)
        self.call_after_refresh(self._mount_rest)

    def on_screen_resume(self) -> None:
        ready(self)  # a kept form opens again without mounting, its first field focused

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._say_help(event.widget)

    def _say_help(self, widget: object) -> None:
        """Say what the focused field is for, in full (nothing if no field has focus)."""
        for f in self.fields:
            if widget is not None and getattr(widget, "id", None) == f"f-{f.name}":
                text = f.help or f.hint
                self.query_one("#field-help", Label).update(
                    f"{f.label or f.name}: {text}" if text else ""
                )
                return
        if widget is None:
            self.query_one("#field-help", Label).update("")

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
            box = self._box(f.name)
            out[f.name] = (box.value if box is not None else self.value_for(f)).strip()
        return out

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def on_input_changed(self, event: Input.Changed) -> None:
        """What Enter said was of the form as it stood then: a change puts it away (the
        odds line of an action's form says what holds now)."""
        self.show_error("")

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
        error = self.query_one("#form-error", Label)
        error.update(message)
        if message:  # a long refusal wraps inside the dialog
            error.styles.width = "100%"

    def action_cancel(self) -> None:
        self.dismiss(None)
