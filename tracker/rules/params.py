"""Typed action parameters: one frozen pydantic model per action, one declaration a field.

A field says its type, its default, its help, its domain (bounds, choices, and how it
stands to another parameter) and, where its default is a rule decision of the ruleset,
the :class:`Setting` it follows::

    class ShootParams(Params):
        actor: str | None = param(None, "a shooting unit", kind="actor")
        target: str | None = param(None, "the unit shot at", kind="target", unlike="actor")
        attacks: int | None = param(None, "attack dice", ge=0)
        split_batches: bool = param(help="hit exposed stands first", setting=SPLIT_BATCHES)

``param`` is a pydantic ``Field`` (bounds as ``ge``/``le``) carrying a :class:`ParamInfo`.
pydantic reads the text as typed (``12``, ``yes``, ``1,2,3``, ``none``, a choice in any
case) and checks every bound; the command line, the dialogs and ``--help`` read the
:class:`Param` list :meth:`Params.spec` derives from the fields. A relation to the
encounter ("at most the unit's figures") is checked when the encounter is given.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Literal,
    Self,
    Union,
    get_args,
    get_origin,
)

from annotated_types import Ge, Le
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from tracker.core.invalid import first, number, shown
from tracker.rules.errors import RuleError
from tracker.rules.relations import AtMost, unlike
from tracker.rules.setting import Setting

if TYPE_CHECKING:
    from tracker.core.model import Encounter

ParamKind = Literal[
    "int", "float", "str", "bool", "choice", "ints", "strs", "actor", "target", "names"]
"""``actor`` and ``target`` name one combatant or unit of the encounter, ``names``
several (the words after an action's actor and target go to it)."""


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""The default of a parameter that must be given."""
ENCOUNTER = "encounter"
"""The validation context's key for the encounter the relations read."""


@dataclass(frozen=True, slots=True)
class ParamInfo:
    """What a field of a parameter model adds to its type and bounds."""

    help: str = ""
    kind: ParamKind | None = None
    choices: tuple[str, ...] = ()
    setting: Setting | None = None
    unlike: str = ""  # another parameter this one may not name the same one as (the actor)
    at_most: AtMost | None = None
    name_of: str = ""  # the parameter whose one this names, for the log (a form never asks)


def param(
    default: Any = REQUIRED,
    help: str = "",
    *,
    kind: ParamKind | None = None,
    ge: float | None = None,
    le: float | None = None,
    choices: tuple[str, ...] = (),
    setting: Setting | None = None,
    unlike: str = "",
    at_most: AtMost | None = None, name_of: str = "",
) -> Any:
    """A parameter field; with ``setting`` its default is the setting's default."""
    if setting is not None and default is REQUIRED:
        default = setting.default
    found = Field(default, description=help, ge=ge, le=le)
    found.metadata.append(ParamInfo(help, kind, tuple(choices), setting, unlike, at_most, name_of))
    return found


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
    unlike: str = ""
    at_most: AtMost | None = None
    name_of: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def read(self, text: str) -> Any:
        """Typed text as pydantic is to read it: ``none`` (where None is allowed), a
        list split at its commas, a choice or a yes/no in lower case."""
        raw = text.strip()
        low = raw.lower()
        if low in ("none", "-") and self.default is None:
            return None
        if self.kind in ("ints", "strs", "names"):
            return [v.strip() for v in raw.split(",") if v.strip()]
        if self.kind in ("choice", "bool"):
            return low
        return raw

    def describe(self) -> str:
        """The parameter for ``--help``: its kind, domain, default and setting."""
        bits = [self.kind if self.kind != "choice" else "|".join(self.choices)]
        if self.minimum is not None and self.maximum is not None:
            bits.append(f"{number(self.minimum)} to {number(self.maximum)}")
        elif self.minimum is not None:
            bits.append(f"at least {number(self.minimum)}")
        elif self.maximum is not None:
            bits.append(f"at most {number(self.maximum)}")
        if self.unlike:
            bits.append(f"not the {self.unlike}")
        if self.at_most is not None:
            bits.append(f"at most the {self.at_most.who}'s {self.at_most.words}")
        if not self.required:
            bits.append(f"default {self.default!r}")
        if self.setting is not None:
            bits.append(f"setting {self.setting.name}")
        return f"{self.name} ({', '.join(bits)}): {self.help}"


_EXPECTED = {"ints": "numbers like 1,-2,3", "strs": "names like a,b",
             "names": "names like a,b"}


class Params(BaseModel):
    """Base of an action's parameter model: frozen, and no parameter it does not name."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    _specs: ClassVar[dict[type[Params], dict[str, Param]]] = {}

    @classmethod
    def spec(cls) -> tuple[Param, ...]:
        """The parameters in declaration order."""
        return tuple(cls._by_name().values())

    @classmethod
    def _by_name(cls) -> dict[str, Param]:
        found = Params._specs.get(cls)
        if found is None:
            found = Params._specs[cls] = {name: _param(name, info)
                                          for name, info in cls.model_fields.items()}
        return found

    @field_validator("*", mode="before")
    @classmethod
    def _from_text(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str) and info.field_name is not None:
            return cls._by_name()[info.field_name].read(value)
        return value

    @field_validator("*", mode="after")
    @classmethod
    def _in_choices(cls, value: Any, info: ValidationInfo) -> Any:
        p = cls._by_name()[info.field_name] if info.field_name is not None else None
        if p is not None and p.choices and value is not None and value not in p.choices:
            raise ValueError(f"expected one of {', '.join(c or '(empty)' for c in p.choices)}")
        return value

    @model_validator(mode="after")
    def _relations(self, info: ValidationInfo) -> Params:
        enc = (info.context or {}).get(ENCOUNTER)
        for p in self.spec():
            value = getattr(self, p.name)
            if value is None or value is REQUIRED or value == "":
                continue
            if p.unlike:
                unlike(p.name, value, p.unlike, getattr(self, p.unlike, None), enc)
            if p.at_most is not None and enc is not None:
                p.at_most.check(p.name, value, getattr(self, p.at_most.who, None), enc)
        return self

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (values the code sets, not text: not validated)."""
        return self.model_copy(update=changes)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in type(self).model_fields}

    def get(self, name: str, default: Any = None) -> Any:
        """A parameter by name (for code that works on any action's parameters)."""
        return getattr(self, name, default)

    def __getitem__(self, name: str) -> Any:
        """Read-only mapping access, as for figures: ``params["figures"]``."""
        if name not in type(self).model_fields:
            raise KeyError(name)
        return getattr(self, name)


def _param(name: str, info: Any) -> Param:
    extra = next((m for m in info.metadata if isinstance(m, ParamInfo)), ParamInfo())
    ge = next((_bound(m.ge) for m in info.metadata if isinstance(m, Ge)), None)
    le = next((_bound(m.le) for m in info.metadata if isinstance(m, Le)), None)
    kind = extra.kind or _kind_of(info.annotation, bool(extra.choices))
    return Param(name, kind, info.default, extra.help, extra.choices, ge, le, extra.setting,
                 extra.unlike, extra.at_most, extra.name_of)


def _bound(value: object) -> float | None:
    return value if isinstance(value, (int, float)) else None


def _kind_of(annotation: Any, has_choices: bool) -> ParamKind:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return _kind_of(args[0], has_choices)
    if origin in (tuple, list):
        item = get_args(annotation)[0]
        if get_origin(item) is Annotated:  # a bounded number: tuple[NonNegativeInt, ...]
            item = get_args(item)[0]
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
    cls: type[Params], action: str, raw: Mapping[str, Any], *, partial: bool,
    enc: Encounter | None = None,
) -> Params:
    """The parameters ``name=value`` gives (text, or values an encounter supplied),
    validated; unless ``partial``, the required ones must be among them. RuleError says
    what is wrong in one line: ``attacks=-1: must be at least 0``."""
    by_name = cls._by_name()
    unknown = [key for key in raw if key not in by_name]
    if unknown:
        raise RuleError(f"{action}: no parameter '{unknown[0]}' (try: {', '.join(by_name)})")
    if not partial:
        for p in by_name.values():
            if p.required and p.name not in raw:
                raise RuleError(f"{action}: {p.name}= is required ({p.help})")
    try:
        return cls.model_validate(dict(raw), context={ENCOUNTER: enc})
    except ValidationError as exc:
        raise RuleError(_message(exc, by_name, raw)) from None


def _message(exc: ValidationError, by_name: dict[str, Param], raw: Mapping[str, Any]) -> str:
    found = first(exc, bools="yes or no")
    if not found.loc:  # a relation between parameters: its message says it all
        return found.expected
    name = str(found.loc[0])
    p = by_name[name]
    typed = raw.get(name)
    if len(found.loc) > 1 and found.kind.startswith(("greater", "less")):
        typed = found.value  # the one number of a list that is out of bounds
    said = found.expected
    if p.kind in _EXPECTED and found.kind.endswith(("_parsing", "_type")):
        said = f"expected {_EXPECTED[p.kind]}"
    return f"{name}={shown(typed)}: {said}"
