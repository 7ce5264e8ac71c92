"""Tables the rules print, as TOML files validated into frozen records.

``load_table(Model, path)`` reads a TOML file into ``Model`` (a dataclass, or a pydantic
model) through a pydantic ``TypeAdapter``. TOML gives what JSON gives (dates aside), so
the table is validated as pydantic validates JSON, strictly: ``"3"`` is not 3 nor 1
true, a list is a tuple's form, and a key the model does not know is an error. A table
is validated on first use and read again when the file changes; an error names the
file, the key path and what was expected.

A situational modifier is a row, not an ``if``: :class:`Modifier` carries its value and
the facts it applies ``when`` ("target = moving", "windforce over 1"), and
:func:`applicable` picks the rows that apply to a set of facts.
"""

from __future__ import annotations

import json
import os
import threading
import tomllib
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, PlainValidator, TypeAdapter, ValidationError

from tracker.core.invalid import first, key_path

T = TypeVar("T")

Scalar = int | float | str | bool


class TableError(ValueError):
    """A table file that does not read or does not fit its model."""

    def __init__(self, path: Path | str, key: str, expected: str) -> None:
        self.path, self.key, self.expected = str(path), key, expected
        where = f" at {key}" if key else ""
        super().__init__(f"{Path(path).name}{where}: {expected}")


TABLE = ConfigDict(extra="forbid")
"""How every table validates: a key its model does not name is an error. A dataclass
inside the table that sets no pydantic config of its own takes this one."""

_cache: dict[tuple[type[Any], str], tuple[tuple[int, int, int], Any]] = {}
_adapters: dict[type[Any], TypeAdapter[Any]] = {}
_lock = threading.Lock()


def load_table(model: type[T], path: Path | str) -> T:
    """The table at ``path`` as a ``model``; validated once, read again when it changes."""
    where = os.fspath(path)
    try:
        st = os.stat(where)
    except OSError as exc:
        raise TableError(where, "", f"cannot read the table ({exc.strerror})") from None
    stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    key = (model, where)
    with _lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] == stamp:
            return typing.cast(T, hit[1])
    try:
        with open(where, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise TableError(where, "", f"not valid TOML ({exc})") from None
    except OSError as exc:
        raise TableError(where, "", f"cannot read the table ({exc.strerror})") from None
    value = validate_table(model, data, where)
    with _lock:
        _cache[key] = (stamp, value)
    return value


def validate_table(model: type[T], data: dict[str, Any], path: str) -> T:
    """``data`` (as TOML gives it) as a ``model``; TableError names what does not fit."""
    try:
        text = json.dumps([data])
    except (TypeError, ValueError):
        raise TableError(path, "", "a date or time where the tables have none") from None
    adapter = _adapters.get(model)
    if adapter is None:
        # the table inside a one-item list, so that TABLE reaches the dataclasses (a
        # TypeAdapter takes no config for a dataclass itself)
        adapter = _adapters[model] = TypeAdapter(list[model], config=TABLE)  # type: ignore[valid-type]
    try:
        return typing.cast(T, adapter.validate_json(text, strict=True)[0])
    except ValidationError as exc:
        found = first(exc)
        loc = _fields_only(model, found.loc[1:])
        said = found.expected
        if found.unknown:
            said += _keys_of(model, loc[:-1])
        elif found.kind not in ("value_error", "assertion_error") and not found.missing:
            said += f", got {found.value!r}"
        raise TableError(path, key_path(loc), said) from None


def _fields_only(model: Any, loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """``loc`` without the names pydantic gives the choices of a union (``tn[2].int``
    is ``tn[2]``): where a value may be one of several types, the value is the place."""
    tp: Any = model
    out: list[str | int] = []
    for part in loc:
        if get_origin(tp) in (Union, types.UnionType) and len(_options(tp)) > 1:
            return tuple(out)
        out.append(part)
        tp = _inner(tp, part)
    return tuple(out)


def _options(tp: Any) -> list[Any]:
    return [a for a in get_args(tp) if a is not type(None)]


def _keys_of(model: Any, loc: tuple[str | int, ...]) -> str:
    """`` (keys: a, b)``: the keys the record at ``loc`` takes."""
    tp = model
    for part in loc:
        tp = _inner(tp, part)
    names: list[str] = []
    if isinstance(tp, type) and is_dataclass(tp):
        names = [f.name for f in fields(tp) if f.init]
    elif isinstance(tp, type) and issubclass(tp, BaseModel):
        names = list(tp.model_fields)
    return f" (keys: {', '.join(names)})" if names else ""


def _inner(tp: Any, part: str | int) -> Any:
    """The type found one step into ``tp``."""
    args = _options(tp)
    if get_origin(tp) is Annotated:
        return _inner(args[0], part)
    if isinstance(tp, type) and is_dataclass(tp) and isinstance(part, str):
        return typing.get_type_hints(tp).get(part, Any)
    if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(part, str):
        found = tp.model_fields.get(part)
        return found.annotation if found is not None else Any
    if get_origin(tp) in (list, tuple, Sequence):
        return args[0] if args else Any
    if get_origin(tp) in (dict, Mapping):
        return args[-1] if args else Any
    if len(args) == 1:  # X | None
        return _inner(args[0], part)
    return Any


# --- modifiers as rows ------------------------------------------------------------------

TESTS = ("over", "at_least", "under", "at_most", "not")
"""The tests a condition may make of a fact: ``{over = 10}``, ``{at_least = 2}`` ..."""


def _condition(value: Any) -> Any:
    """A condition as a row writes it: a value, a list of values or a table of tests."""
    if isinstance(value, (int, float, str)):  # bool is an int
        return value
    if isinstance(value, list) and all(isinstance(v, (int, float, str)) for v in value):
        return value
    if isinstance(value, dict):
        bad = [op for op in value if op not in TESTS]
        if bad:
            raise ValueError(f"unknown test '{bad[0]}' (tests: {', '.join(TESTS)})")
        if all(isinstance(v, (int, float, str)) for v in value.values()):
            return value
    raise ValueError("expected a value, a list of values or a table of tests "
                     f"({', '.join(TESTS)})")


Condition = Annotated[Scalar | list[Scalar] | dict[str, Scalar], PlainValidator(_condition)]
"""What a fact must be: equal to a value, one of a list, or ``{over = 10}``,
``{at_least = 2}``, ``{under = 5}``, ``{at_most = 4}``, ``{not = "still"}``."""


@dataclass(frozen=True, slots=True)
class Modifier:
    """A row of a modifier table: its value, and when it applies."""

    name: str
    value: float
    when: dict[str, Condition] = field(default_factory=dict)
    """Facts that must all hold; empty: the GM names it (it never applies by itself)."""
    per: str = ""
    """The value is multiplied by this fact (a penalty per point of windforce)."""
    key: str = ""
    """Short name to name the modifier by (``mods=aim``); defaults to ``name``."""
    help: str = ""
    keep_zero: bool = False
    """Listed even when its ``per`` fact makes it 0 (the GM sees the row was weighed)."""

    @property
    def id(self) -> str:
        return self.key or self.name


def holds(cond: Condition, fact: Any) -> bool:
    """Does ``fact`` satisfy one condition of a modifier row?"""
    if isinstance(cond, list):
        return fact in cond
    if isinstance(cond, dict):
        tests = {
            "over": lambda v: fact > v,
            "at_least": lambda v: fact >= v,
            "under": lambda v: fact < v,
            "at_most": lambda v: fact <= v,
            "not": lambda v: fact != v,
        }
        if fact is None:
            return False
        return all(tests[op](v) for op, v in cond.items() if op in tests)
    return bool(fact == cond)


def applicable(rows: Sequence[Modifier], facts: Mapping[str, Any]) -> list[tuple[Modifier, float]]:
    """The rows whose conditions all hold for ``facts``, each with its value (times its
    ``per`` fact)."""
    out: list[tuple[Modifier, float]] = []
    for row in rows:
        if not row.when:
            continue
        if all(holds(cond, facts.get(name)) for name, cond in row.when.items()):
            scale = facts.get(row.per, 0) if row.per else 1
            value = row.value * scale
            if value or not row.per or row.keep_zero:
                out.append((row, value))
    return out
