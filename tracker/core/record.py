"""Records: classes made from their annotated fields, as ``dataclasses`` makes them, but
without generating code.

The rules layer is made of small typed records: table rows, parameters, figures, stages,
settings, requests for dice. ``@dataclass`` writes each class's ``__init__``, ``__repr__``,
``__eq__``, ``__hash__`` and frozen ``__setattr__`` as source text and compiles it when its
module is imported: about a millisecond a class on this layer's machines, and ``tracker
resolve`` imports forty of them to answer one shot. A record's methods are shared
functions that read the class's fields, so a record class costs what a plain class costs,
and the module ``dataclasses`` (with ``inspect``, ``ast`` and ``dis``) is not imported.

    @record
    class Band:
        range: int
        ka: int
        ap: int = 0

    @record(frozen=False)
    class Tally:
        hits: list[int] = field(default_factory=list)

What a record does: positional and keyword ``__init__`` (``kw_only`` fields keyword
only), defaults and ``default_factory``, ``__post_init__``, ``__repr__``, ``__eq__`` over
the compared fields, ``__hash__`` when frozen (None when not, as ``dataclasses`` does),
frozen records refuse assignment (:class:`FrozenError`, an ``AttributeError``),
``__match_args__``; :func:`fields`, :func:`replace`, :func:`is_record`. Fields and
defaults are inherited from record bases. Type checkers read ``record`` as a dataclass
(``dataclass_transform``). Making an instance costs about twice what a ``dataclass``'s
does; the moving odds, which make the most, are measured in ``bench/``.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform, overload

T = TypeVar("T")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""No default (a required field)."""


class FrozenError(AttributeError):
    """An assignment to a field of a frozen record."""


class Field:
    """One field of a record: its name, its default, how it takes part."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "compare",
                 "metadata", "kw_only")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING,
                 init: bool = True, repr: bool = True, compare: bool = True,
                 metadata: dict[str, Any] | None = None, kw_only: Any = MISSING) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("a field cannot have both a default and a default_factory")
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare
        self.metadata: dict[str, Any] = metadata or {}
        self.kw_only = kw_only

    def copy(self) -> Field:
        new = Field(self.default, self.default_factory, self.init, self.repr, self.compare,
                    self.metadata, self.kw_only)
        new.name, new.type = self.name, self.type
        return new

    def __repr__(self) -> str:
        return f"Field({self.name!r}, default={self.default!r})"


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True,
          repr: bool = True, compare: bool = True, metadata: dict[str, Any] | None = None,
          kw_only: bool = MISSING) -> Any:
    """A field with more than a plain default: a factory, metadata, left out of
    ``__init__``, ``__repr__`` or comparison."""
    return Field(default, default_factory, init, repr, compare, metadata, kw_only)


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = True, kw_only: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def record(cls: Any = None, /, *, frozen: bool = True, kw_only: bool = False) -> Any:
    """Make ``cls`` a record (frozen unless ``frozen=False``)."""

    def wrap(c: type[T]) -> type[T]:
        return make_record(c, frozen=frozen, kw_only=kw_only)

    return wrap if cls is None else wrap(cls)


def is_record(obj: Any) -> bool:
    """Whether ``obj`` is a record class or a record."""
    return hasattr(obj, "__record_fields__")


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a record class or record, in order."""
    found = getattr(obj, "__record_fields__", None)
    if found is None:
        raise TypeError(f"{obj!r} is not a record")
    return tuple(found.values())


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with ``changes``."""
    values: dict[str, Any] = {}
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is not set by __init__ and cannot be replaced")
            continue
        values[f.name] = changes.pop(f.name) if f.name in changes else getattr(obj, f.name)
    if changes:
        raise TypeError(f"{type(obj).__qualname__} has no field {next(iter(changes))!r}")
    return type(obj)(**values)


def make_record(cls: type[T], *, frozen: bool = True, kw_only: bool = False) -> type[T]:
    """Make ``cls`` a record in place (what ``@record`` does; bases that make their
    subclasses records call it from ``__init_subclass__``)."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        inherited = base.__dict__.get("__record_fields__")
        if inherited:
            found.update(inherited)
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        f = value.copy() if isinstance(value, Field) else Field(default=value)
        f.name, f.type = name, annotation
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        if f.default is not MISSING and type(f.default).__hash__ is None:
            raise ValueError(f"{cls.__qualname__}.{name}: mutable default "
                             f"{type(f.default).__name__} (use default_factory)")
        if isinstance(value, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        found[name] = f
    _check_order(cls, found)
    type.__setattr__(cls, "__record_fields__", found)
    type.__setattr__(cls, "__match_args__",
                     tuple(f.name for f in found.values() if f.init and not f.kw_only))
    own = cls.__dict__
    explicit_eq = "__eq__" in own
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and explicit_eq)
    if "__init__" not in own:
        _install(cls, "__init__", _make_init(cls, found))
    if "__repr__" not in own:
        _install(cls, "__repr__", _make_repr([f.name for f in found.values() if f.repr]))
    compared = [f.name for f in found.values() if f.compare]
    if not explicit_eq:
        _install(cls, "__eq__", _make_eq(compared))
    if not explicit_hash:
        _install(cls, "__hash__", _make_hash(compared) if frozen else None)
    if frozen:
        setter, deleter = _make_frozen(cls, frozenset(found))
        _install(cls, "__setattr__", setter)
        _install(cls, "__delattr__", deleter)
    return cls


# --- the shared methods -------------------------------------------------------------------


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return annotation is ClassVar or getattr(annotation, "__origin__", None) is ClassVar


def _check_order(cls: type[Any], found: dict[str, Field]) -> None:
    seen_default = ""
    for f in found.values():
        if not f.init or f.kw_only:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = f.name
        elif seen_default:
            raise TypeError(f"{cls.__qualname__}: non-default field {f.name!r} follows "
                            f"default field {seen_default!r}")


def _install(cls: type[Any], name: str, value: Any) -> None:
    if callable(value):
        value.__qualname__ = f"{cls.__qualname__}.{name}"
        value.__name__ = name
    type.__setattr__(cls, name, value)


def _make_init(cls: type[Any], found: dict[str, Field]) -> Callable[..., None]:
    given = [f for f in found.values() if f.init]
    positional = tuple(f.name for f in given if not f.kw_only)
    names = frozenset(f.name for f in given)
    required = tuple(f.name for f in given
                     if f.default is MISSING and f.default_factory is MISSING)
    defaults = [(f.name, f.default, f.default_factory) for f in given if f.name not in required]
    extra = [(f.name, f.default, f.default_factory) for f in found.values()
             if not f.init and (f.default is not MISSING or f.default_factory is not MISSING)]
    post_init = hasattr(cls, "__post_init__")
    n_positional, n_given, where = len(positional), len(given), cls.__qualname__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        # the common calls (all positional, or keywords only) stay in C: zip, update,
        # issuperset; the loops run only where a default is wanted or a call is wrong
        if len(args) > n_positional:
            raise TypeError(f"{where}() takes {n_positional} positional arguments but "
                            f"{len(args)} were given")
        values = self.__dict__
        if args:
            values.update(zip(positional, args, strict=False))
        if kwargs:
            if not names.issuperset(kwargs):
                key = next(k for k in kwargs if k not in names)
                raise TypeError(f"{where}() got an unexpected keyword argument {key!r}")
            if args and not values.keys().isdisjoint(kwargs):
                key = next(k for k in kwargs if k in values)
                raise TypeError(f"{where}() got multiple values for argument {key!r}")
            values.update(kwargs)
        if len(args) + len(kwargs) < n_given:
            for key in required:
                if key not in values:
                    raise TypeError(f"{where}() missing required argument: {key!r}")
            for key, default, factory in defaults:
                if key not in values:
                    values[key] = default if factory is MISSING else factory()
        for key, default, factory in extra:
            values[key] = default if factory is MISSING else factory()
        if post_init:
            self.__post_init__()

    return __init__


def _make_repr(shown: list[str]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
        return f"{type(self).__qualname__}({inner})"

    return __repr__


def _getter(names: list[str]) -> Callable[[Any], Any]:
    if not names:
        return lambda _: ()
    get = attrgetter(*names)
    return get if len(names) > 1 else (lambda obj: (get(obj),))


def _make_eq(compared: list[str]) -> Callable[[Any, Any], Any]:
    key = _getter(compared)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _make_hash(compared: list[str]) -> Callable[[Any], int]:
    key = _getter(compared)

    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _make_frozen(cls: type[Any], names: frozenset[str]) -> tuple[Callable[..., None],
                                                                 Callable[..., None]]:
    """``__setattr__`` and ``__delattr__`` that refuse a frozen record's fields."""

    def refuse(self: Any, name: str, what: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenError(f"cannot {what} field {name!r} of a frozen "
                              f"{type(self).__qualname__}")

    def __setattr__(self: Any, name: str, value: Any) -> None:
        refuse(self, name, "assign to")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        refuse(self, name, "delete")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__
