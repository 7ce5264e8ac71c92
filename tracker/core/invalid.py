"""What pydantic found wrong, in the tracker's one-line words.

Every value read from outside (a table, an action's parameters, a field typed at the
command line, a journal record) is validated by pydantic; :func:`first` turns the first
error of a :class:`~pydantic.ValidationError` into a :class:`Problem`: where (the key
path, ``bands[0].multiple``), the value found and what was expected, in the words a GM
reads ("a whole number", "at least 0", "one of open, defended or fortified").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

_MISSING = frozenset({"missing", "missing_argument", "missing_keyword_only_argument",
                      "missing_positional_only_argument"})
_UNKNOWN = frozenset({"extra_forbidden", "unexpected_keyword_argument"})
_KINDS = {
    "int_type": "a whole number", "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number", "float_parsing": "a number", "finite_number": "a number",
    "string_type": "text",
    "list_type": "a list", "tuple_type": "a list", "iterable_type": "a list",
    "dict_type": "a table", "dataclass_type": "a table", "dataclass_exact_type": "a table",
    "model_type": "a table", "model_attributes_type": "a table",
}
_CONTROLS = "\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
PRINTABLE = f"^[^{_CONTROLS}]*$"
"""Text the encounter keeps and shows: no control character (tab and line break aside),
so no name, note or log line can act on a terminal (ESC starts a terminal escape, and
the C1 range holds another way to write one) or turn the rest of a line around (the
bidirectional overrides and isolates: a name that shows as another's)."""
NO_CONTROLS = ("must hold no control character (such as ESC, which starts a terminal "
               "escape, or a right-to-left override, which turns the line around)")
"""What :data:`PRINTABLE` refuses, in words."""
CONTROL = re.compile(f"[{_CONTROLS}]")
"""A character :data:`PRINTABLE` refuses."""
_BOUNDS = {"greater_than_equal": ("ge", "at least"), "less_than_equal": ("le", "at most"),
           "greater_than": ("gt", "over"), "less_than": ("lt", "under")}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a value: where it is, what was there, what was expected."""

    loc: tuple[str | int, ...]
    value: Any
    expected: str
    """In words, starting with "expected", "must", "missing" or "unknown" (or the
    message a validator of the tracker gave)."""
    kind: str
    """pydantic's error type (``missing``, ``greater_than_equal`` ...)."""

    @property
    def key(self) -> str:
        return key_path(self.loc)

    @property
    def missing(self) -> bool:
        return self.kind in _MISSING

    @property
    def unknown(self) -> bool:
        return self.kind in _UNKNOWN


def key_path(loc: Sequence[str | int]) -> str:
    """``("bands", 0, "multiple")`` as ``bands[0].multiple``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part == "[key]":
            out += " (key)"
        else:
            out += f".{part}" if out else str(part)
    return out


def first(exc: ValidationError, *, bools: str = "true or false") -> Problem:
    """The first error of ``exc`` in words; ``bools`` names the two words of a
    true/false value where they are read ("yes or no" at the command line). A key
    not known comes before the others: a misspelt key is also a required one missing."""
    errors = exc.errors()
    err = next((e for e in errors if e["type"] in _UNKNOWN), errors[0])
    return problem(err, bools=bools)


def problem(err: ErrorDetails, *, bools: str = "true or false") -> Problem:
    kind = err["type"]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    if kind in _MISSING:
        said = "missing (it is required)"
    elif kind in _UNKNOWN:
        said = "unknown key"
    elif kind in ("value_error", "assertion_error") and "error" in ctx:
        said = str(ctx["error"])
    elif kind in ("bool_type", "bool_parsing"):
        said = f"expected {bools}"
    elif kind == "literal_error":
        choices = str(ctx.get("expected", "")).replace("'", "")
        said = f"expected {'one of ' if ', ' in choices else ''}{choices}"
    elif kind == "string_pattern_mismatch" and ctx.get("pattern") == PRINTABLE:
        said = NO_CONTROLS
    elif kind in _BOUNDS:
        name, words = _BOUNDS[kind]
        said = f"must be {words} {number(ctx.get(name))}"
    elif kind in _KINDS:
        said = f"expected {_KINDS[kind]}"
    else:
        msg = err["msg"]
        said = msg[:1].lower() + msg[1:]
    return Problem(tuple(err["loc"]), value, said, kind)


def number(value: Any) -> str:
    """A bound as a GM writes it: 3, not 3.0."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def shown(value: Any) -> str:
    """A value as it was given, for a message (a list as 1,2,3)."""
    if isinstance(value, (list, tuple)):
        return ",".join(shown(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, (int, float)):
        return number(value)
    return CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}", str(value))  # never acts on a terminal
