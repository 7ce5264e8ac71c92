"""Typed action parameters: one frozen record per action, one declaration per field.

A field says its type, its default, its help, its bounds and choices, and, where its
default is a rule decision of the ruleset, the :class:`Setting` it follows::

    class ShootParams(Params):
        target: str | None = param(None, "the unit shot at", kind="target")
        attacks: int | None = param(None, "attack dice", ge=0)
        split_batches: bool = param(help="hit exposed stands first", setting=SPLIT_BATCHES)

From the fields the kit derives the :class:`Param` list the command line, the dialogs and
``--help`` use; text is parsed once, here. No pydantic: ``tracker resolve`` stays light.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, ClassVar, Literal, Union, dataclass_transform, get_args, get_origin

from tracker.rules.errors import RuleError
from tracker.rules.setting import Setting

ParamKind = Literal["int", "float", "str", "bool", "choice", "ints", "strs", "actor", "target"]

class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""The default of a parameter that must be given."""
_TRUE = {"1", "true", "yes", "y", "on"}
_FALSE = {"0", "false", "no", "n", "off"}


@dataclass(frozen=True, slots=True)
class ParamInfo:
    """What a field of a parameter model adds to its type: help, bounds, choices."""

    help: str = ""
    kind: ParamKind | None = None
    ge: float | None = None
    le: float | None = None
    choices: tuple[str, ...] = ()
    setting: Setting | None = None


def param(
    default: Any = REQUIRED,
    help: str = "",
    *,
    kind: ParamKind | None = None,
    ge: float | None = None,
    le: float | None = None,
    choices: tuple[str, ...] = (),
    setting: Setting | None = None,
) -> Any:
    """A parameter field; with ``setting`` its default is the setting's default."""
    if setting is not None and default is REQUIRED:
        default = setting.default
    info = ParamInfo(help, kind, ge, le, tuple(choices), setting)
    if default is REQUIRED:
        return field(metadata={"param": info})
    return field(default=default, metadata={"param": info})


@dataclass(frozen=True, slots=True)
class Param:
    """A named parameter as typed after an action: ``name=value``.

    ``actor`` and ``target`` name a combatant or unit of the encounter; headless they
    are plain names.
    """

    name: str
    kind: ParamKind = "int"
    default: Any = REQUIRED
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    setting: Setting | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def parse(self, text: Any) -> Any:
        """Turn typed text into the parameter's value, or raise RuleError saying why."""
        value = self._parse_text(text.strip()) if isinstance(text, str) else text
        if isinstance(value, list):
            value = tuple(value)
        self._check_bounds(value)
        return value

    def _parse_text(self, raw: str) -> Any:
        kind = self.kind
        if raw.lower() in ("none", "-") and self.default is None:
            return None
        try:
            if kind == "int":
                return int(raw)
            if kind == "float":
                return float(raw)
            if kind == "ints":
                return tuple(int(v) for v in raw.split(",") if v.strip())
            if kind == "strs":
                return tuple(v.strip() for v in raw.split(",") if v.strip())
        except ValueError:
            what = {"int": "a whole number", "float": "a number", "ints": "numbers like 1,-2,3"}
            raise RuleError(f"{self.name}={raw}: expected {what.get(kind, kind)}") from None
        if kind == "bool":
            low = raw.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise RuleError(f"{self.name}={raw}: expected yes or no")
        if kind == "choice":
            low = raw.lower()
            if low in self.choices:
                return low
            raise RuleError(f"{self.name}={raw}: expected one of {', '.join(self.choices)}")
        return raw

    def _check_bounds(self, value: Any) -> None:
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                continue
            if self.minimum is not None and v < self.minimum:
                raise RuleError(f"{self.name}={v}: must be at least {self.minimum:g}")
            if self.maximum is not None and v > self.maximum:
                raise RuleError(f"{self.name}={v}: must be at most {self.maximum:g}")

    def describe(self) -> str:
        bits = [self.kind if self.kind != "choice" else "|".join(self.choices)]
        if not self.required:
            bits.append(f"default {self.default!r}")
        if self.setting is not None:
            bits.append(f"setting {self.setting.name}")
        return f"{self.name} ({', '.join(bits)}): {self.help}"


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(param, field))
class Params:
    """Base of an action's parameter model: subclasses become frozen records."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True, kw_only=True)(cls)

    @classmethod
    def spec(cls) -> tuple[Param, ...]:
        """The parameters in declaration order."""
        found = _specs.get(cls)
        if found is None:
            found = _specs[cls] = _spec(cls)
        return found

    def replace(self, **changes: Any) -> Any:
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def get(self, name: str, default: Any = None) -> Any:
        """A parameter by name (for code that works on any action's parameters)."""
        return getattr(self, name, default)

    def __getitem__(self, name: str) -> Any:
        """Read-only mapping access, as for figures: ``params["figures"]``."""
        if name not in self.__dataclass_fields__:
            raise KeyError(name)
        return getattr(self, name)


_specs: dict[type[Params], tuple[Param, ...]] = {}


def _spec(cls: type[Params]) -> tuple[Param, ...]:
    hints = typing.get_type_hints(cls)
    out: list[Param] = []
    for f in fields(cls):
        info: ParamInfo = f.metadata.get("param", ParamInfo())
        kind = info.kind or _kind_of(hints[f.name], bool(info.choices))
        default: Any = REQUIRED if f.default is MISSING else f.default
        if f.default_factory is not MISSING:
            default = f.default_factory()
        out.append(
            Param(f.name, kind, default, info.help, info.choices, info.ge, info.le, info.setting)
        )
    return tuple(out)


def _kind_of(annotation: Any, has_choices: bool) -> ParamKind:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return _kind_of(args[0], has_choices)
    if origin in (tuple, list):
        item = get_args(annotation)[0]
        return "ints" if item is int else "strs"
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    if annotation is float:
        return "float"
    if origin is Literal or has_choices:
        return "choice"
    return "str"


def parse_values(
    spec: tuple[Param, ...], action: str, raw: Mapping[str, Any], *, partial: bool
) -> dict[str, Any]:
    """Parse ``name=value`` pairs and fill defaults; unless ``partial``, insist on the
    required ones."""
    by_name = {p.name: p for p in spec}
    values: dict[str, Any] = {}
    for key, text in raw.items():
        p = by_name.get(key)
        if p is None:
            names = ", ".join(by_name)
            raise RuleError(f"{action}: no parameter '{key}' (try: {names})")
        values[key] = p.parse(text)
    for p in spec:
        if p.name in values:
            continue
        if p.required:
            if not partial:
                raise RuleError(f"{action}: {p.name}= is required ({p.help})")
        else:
            values[p.name] = p.default
    return values
