"""What a field of the encounter may hold, by the rules: its domain, declared once.

A field of a combatant or unit declares its domain beside its type::

    armour: Annotated[int | None, Domain(ge=3, le=6, said="Warmaster armour is 3 to 6")]
    hits_per_stand: Annotated[int, Domain(ge=1)] = 1
    kind: Annotated[str, Domain(choices=KINDS)] = "infantry"

pydantic checks it whenever a value comes in, by any path (``set``, ``add``, ``army``,
the forms, ``wound``): the path validates with :func:`checking` as its context, naming
the fields it gives. A save is read without it: an encounter saved before a domain was
declared opens as it was, and the GM corrects it with ``set``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic_core import CoreSchema, core_schema

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, ValidationInfo

CHECK = "check_domains"
"""The validation context's key: the fields whose domains are checked ("*": all)."""


SETTINGS = "settings"
"""The validation context's key for the encounter's settings, where a domain depends on
what one names (a Fantasy Warlord unit's race is one of the profile sheet's)."""


def checking(fields: Collection[str] | Literal["*"] = "*",
             settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The validation context that checks the domains of ``fields`` (all by default),
    against the encounter's ``settings`` where a path in has them."""
    context: dict[str, Any] = {CHECK: fields if fields == "*" else frozenset(fields)}
    if settings is not None:
        context[SETTINGS] = settings
    return context


def settings_of(info: ValidationInfo) -> Mapping[str, Any] | None:
    """The encounter's settings the validation was given (None: a path without them)."""
    found = (info.context or {}).get(SETTINGS)
    return found if isinstance(found, Mapping) else None


@dataclass(frozen=True, slots=True)
class Domain:
    """A range (``ge``, ``le``) or a closed list of ``choices``; ``said`` words it where
    the rules' own words say more than "must be 3 to 6"."""

    ge: int | None = None
    le: int | None = None
    choices: tuple[str | int, ...] = ()
    said: str = ""
    pattern: str = ""
    """A text's whole form, as a regular expression (``said`` words it)."""

    def words(self, optional: bool = False) -> str:
        """What is allowed, in words: "must be 3 to 6 (or none)"."""
        if self.said:
            return self.said
        if self.choices:
            text = "one of " + ", ".join(str(c) if c != "" else "(empty)" for c in self.choices)
        elif self.ge is not None and self.le is not None:
            text = f"{self.ge} to {self.le}"
        elif self.ge is not None:
            text = f"at least {self.ge}"
        else:
            text = f"at most {self.le}"
        return f"must be {text}" + (" (or none)" if optional else "")

    def allows(self, value: Any) -> bool:
        if value is None:
            return True
        if self.choices:
            return value in self.choices
        if self.pattern:
            return isinstance(value, str) and re.fullmatch(self.pattern, value) is not None
        if self.ge is not None and value < self.ge:
            return False
        return self.le is None or value <= self.le

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        optional = type(None) in get_args(source)
        return core_schema.with_info_after_validator_function(
            self._checker(optional), handler(source))

    def _checker(self, optional: bool) -> Callable[[Any, ValidationInfo], Any]:
        def check(value: Any, info: ValidationInfo) -> Any:
            context = info.context
            if not context or value is None:
                return value
            fields = context.get(CHECK)
            if fields is None or (fields != "*" and info.field_name not in fields):
                return value
            if not self.allows(value):
                raise ValueError(self.words(optional))
            return value

        return check


NAME = Domain(pattern=r"[^\s,=+\-](?:[^,=]{0,62}[^\s,=])?",
              said="must be a name commands can type: not blank, at most 64 characters, "
              "no comma or =, not starting with + or -")
"""A combatant's, a unit's or a side's name: every command must be able to name it
(lists split at commas, ``key=value`` is a value, ``+prone`` a mark), and a table's
row must be able to show it."""


def checks(info: ValidationInfo, *names: str) -> bool:
    """Whether the validation ``info`` comes from checks the domain of any of ``names``
    (a relation between fields is checked where one of them comes in)."""
    fields = (info.context or {}).get(CHECK)
    return fields is not None and (fields == "*" or any(n in fields for n in names))


def at_most(info: ValidationInfo, record: Any, field: str, bound: str, most: int,
            why: str) -> None:
    """``field`` of ``record`` no more than ``most``, which its field ``bound`` sets
    (``why`` says so: "the stands it has"), checked where either comes in; the refusal
    names the one typed (``exposed=5: must be at most 3 (the stands it has)``)."""
    value = getattr(record, field)
    if value <= most or not checks(info, field, bound):
        return
    if checks(info, field):
        raise ValueError(f"{field}={value}: must be at most {most} ({why})")
    raise ValueError(f"{bound}={getattr(record, bound)}: {field} is {value}, which must be "
                     f"at most {most} ({why}); set {field} first")


def domains_of(model: Any) -> Mapping[str, Domain]:
    """The fields of a pydantic model that declare a domain, with it."""
    out: dict[str, Domain] = {}
    for name, info in model.model_fields.items():
        found = next((m for m in info.metadata if isinstance(m, Domain)), None)
        if found is not None:
            out[name] = found
    return out
