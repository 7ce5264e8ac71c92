"""What a form is made of: its fields, how a value shows in a box, the rows' column."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.containers import VerticalScroll

from tracker.session.commands import Command

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
