"""Tables the rules print, as TOML files validated into frozen records.

``load_table(Model, path)`` reads a TOML file into ``Model`` (a record), checking every
key against the field types (int, float, str, bool, ``Literal``, lists, tuples, dicts,
nested records, unions). It needs no pydantic, so ``tracker resolve`` stays light.
A table is validated on first use and read again when the file changes; an error names
the file, the key path and what was expected.

A situational modifier is a row, not an ``if``: :class:`Modifier` carries its value and
the facts it applies ``when`` ("target = moving", "windforce over 1"), and
:func:`applicable` picks the rows that apply to a set of facts.
"""

from __future__ import annotations

import os
import threading
import tomllib
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

Scalar = int | float | str | bool


class TableError(ValueError):
    """A table file that does not read or does not fit its model."""

    def __init__(self, path: Path | str, key: str, expected: str) -> None:
        self.path, self.key, self.expected = str(path), key, expected
        where = f" at {key}" if key else ""
        super().__init__(f"{Path(path).name}{where}: {expected}")


_cache: dict[tuple[type[Any], str], tuple[tuple[int, int, int], Any]] = {}
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
    value = convert(model, data, where, "")
    with _lock:
        _cache[key] = (stamp, value)
    return typing.cast(T, value)


def convert(tp: Any, value: Any, path: str, key: str) -> Any:
    """``value`` (as TOML gives it) checked against the type ``tp``."""
    origin = get_origin(tp)
    if tp is Any:
        return value
    if isinstance(tp, type) and is_dataclass(tp):
        return _record(tp, value, path, key)
    if origin in (Union, types.UnionType):
        return _union(tp, value, path, key)
    if origin is Literal:
        choices = get_args(tp)
        if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
            shown = ", ".join(repr(c) for c in choices)
            raise TableError(path, key, f"expected one of {shown}, got {value!r}")
        return value
    if origin in (list, tuple, Sequence):
        if not isinstance(value, list):
            raise TableError(path, key, f"expected a list, got {_kind(value)}")
        args = get_args(tp)
        item = args[0] if args else Any
        items = [convert(item, v, path, f"{key}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            raise TableError(path, key, f"expected a table, got {_kind(value)}")
        val_t = get_args(tp)[1] if get_args(tp) else Any
        return {k: convert(val_t, v, path, _join(key, k)) for k, v in value.items()}
    return _scalar(tp, value, path, key)


def _scalar(tp: Any, value: Any, path: str, key: str) -> Any:
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise TableError(path, key, f"expected true or false, got {value!r}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise TableError(path, key, f"expected a whole number, got {value!r}")
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise TableError(path, key, f"expected a number, got {value!r}")
    if tp is str:
        if isinstance(value, str):
            return value
        raise TableError(path, key, f"expected text, got {value!r}")
    raise TableError(path, key, f"the table model has an unknown type {tp!r}")


def _union(tp: Any, value: Any, path: str, key: str) -> Any:
    options = [a for a in get_args(tp) if a is not type(None)]
    errors: list[str] = []
    for option in options:
        try:
            return convert(option, value, path, key)
        except TableError as exc:
            errors.append(exc.expected)
    raise TableError(path, key, " or ".join(dict.fromkeys(errors)))


def _record(tp: type[Any], value: Any, path: str, key: str) -> Any:
    if not isinstance(value, dict):
        raise TableError(path, key, f"expected a table, got {_kind(value)}")
    hints = _hints(tp)
    known = {f.name: f for f in fields(tp) if f.init}
    unknown = [k for k in value if k not in known]
    if unknown:
        names = ", ".join(known)
        raise TableError(path, _join(key, unknown[0]), f"unknown key (keys: {names})")
    kwargs: dict[str, Any] = {}
    for name, f in known.items():
        if name in value:
            kwargs[name] = convert(hints[name], value[name], path, _join(key, name))
        elif f.default is MISSING and f.default_factory is MISSING:
            raise TableError(path, _join(key, name), "missing (it is required)")
    try:
        return tp(**kwargs)
    except (TypeError, ValueError) as exc:
        raise TableError(path, key, str(exc)) from None


_hint_cache: dict[type[Any], dict[str, Any]] = {}


def _hints(tp: type[Any]) -> dict[str, Any]:
    hints = _hint_cache.get(tp)
    if hints is None:
        hints = _hint_cache[tp] = typing.get_type_hints(tp)
    return hints


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


def _kind(value: Any) -> str:
    return {dict: "a table", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), repr(value)
    )


# --- modifiers as rows ------------------------------------------------------------------

Condition = Scalar | list[Scalar] | dict[str, Scalar]
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

    def __post_init__(self) -> None:
        for name, cond in self.when.items():
            if isinstance(cond, dict):
                bad = [op for op in cond if op not in _TESTS]
                if bad:
                    raise ValueError(
                        f"when.{name}: unknown test '{bad[0]}' (tests: {', '.join(_TESTS)})"
                    )

    @property
    def id(self) -> str:
        return self.key or self.name


_TESTS = ("over", "at_least", "under", "at_most", "not")


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
