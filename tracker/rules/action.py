"""An action of the rules kit: its dice stages, its typed figures, its resolution.

An :class:`Action` is a class with a typed, frozen parameter model
(:class:`~tracker.rules.params.Params`). Its pure ``resolve(params, dice)`` is what
`tracker resolve` calls with no encounter; ``fill`` draws parameter defaults from an
encounter (the shooter's stands, the target's armour); ``apply`` writes a resolution into
an encounter through a :class:`~tracker.core.history.Transaction`; ``odds`` gives the exact
chance of each outcome before any die is rolled. An action also declares its dice as
ordered :class:`Stage` s, the phases it may be taken in and how often an actor may take it.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Generic,
    Literal,
    TypeVar,
    dataclass_transform,
)

from tracker.core.dice import Dice, Roll
from tracker.rules.errors import RuleError
from tracker.rules.happened import label_of
from tracker.rules.params import REQUIRED, Param, Params, parse_values

if TYPE_CHECKING:  # the models are imported on first use: resolvers need no pydantic
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

Odds = list[tuple[str, float]]
"""Outcome label and its exact probability, in the order the GM reads them."""

Scope = Literal["turn", "phase", "exchange", "round"]
"""How long an action's limit lasts: an actor may take it once per turn, phase ..."""


@dataclass(frozen=True, slots=True)
class Stage:
    """Dice an action asks for, in the order they are rolled at the table.

    ``count`` gives the number of dice from the parameters when it is known before any
    die falls (the attack dice); None when it depends on an earlier stage (one save per
    hit). ``label`` completes "roll 6 d6 ..." ("to hit", "to save").
    """

    role: str
    die: str
    """The die as the GM reads it: ``d6``, ``2d6``, ``d100``; ``ZD`` when the rules pick it."""
    help: str = ""
    label: str = ""
    count: Callable[[Any], int | None] | None = None
    zero_is_ten: bool = False


_T = TypeVar("_T")
_F = TypeVar("_F", bound="Figures")
_OMIT = "figure left out when None"
Omit = Annotated[_T | None, _OMIT]
"""A figure reported only when it applies: ``batches: Omit[list[Batch]] = None`` is left
out of ``--json`` while None."""


@dataclass_transform(kw_only_default=True, field_specifiers=(field,))
class Figures:
    """Base of an action's typed figures: subclasses become keyword-only records.

    ``as_json`` keeps the keys the figures always had; a figure typed ``Omit[...]``
    appears only when set. Read-only mapping access (``figures["hits"]``) serves code
    that shows any action's figures.
    """

    __dataclass_fields__: ClassVar[dict[str, Any]]
    _omitted: ClassVar[frozenset[str] | None] = None
    flag_words: ClassVar[dict[str, str]] = {}
    """Words for a yes/no figure in the dice step's odds (``{"drops": "down"}``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(kw_only=True)(cls)
        cls._omitted = None  # worked out on first use, once its module has loaded

    @classmethod
    def _omit(cls) -> frozenset[str]:
        if cls._omitted is None:
            hints = typing.get_type_hints(cls, include_extras=True)
            cls._omitted = frozenset(
                k for k, h in hints.items() if _OMIT in getattr(h, "__metadata__", ())
            )
        return cls._omitted

    def as_json(self) -> dict[str, Any]:
        omit = self._omit()
        out: dict[str, Any] = {}
        for f in fields(self):
            if (value := getattr(self, f.name)) is not None or f.name not in omit:
                out[f.name] = _plain(value)
        return out

    def __getitem__(self, key: str) -> Any:
        return self.as_json()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.as_json().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.as_json()

    def items(self) -> Iterator[tuple[str, Any]]:
        return iter(self.as_json().items())

    def keys(self) -> Iterator[str]:
        return iter(self.as_json())


def _plain(value: Any) -> Any:
    if isinstance(value, Figures):
        return value.as_json()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(slots=True)
class Resolution:
    """What a resolver decided: the outcome, its figures, the dice and the log line."""

    action: str
    outcome: str
    text: str
    figures: Figures | dict[str, Any] = field(default_factory=dict)
    rolls: list[Roll] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action, "outcome": self.outcome}
        figures = self.figures
        data.update(figures.as_json() if isinstance(figures, Figures) else figures)
        data["text"] = self.text
        data["rolls"] = [r.to_dict() for r in self.rolls]
        return data

    def figures_as(self, kind: type[_F]) -> _F:
        """The figures as the resolver made them (``kind``), for the step that applies them."""
        if not isinstance(self.figures, kind):
            raise TypeError(f"{self.action}: figures are not {kind.__name__}")
        return self.figures


P = TypeVar("P", bound=Params)


class Action(Generic[P]):
    """One thing the rules resolve (a shot, an exchange, a drive back)."""

    name: ClassVar[str]
    help: ClassVar[str]
    detail: ClassVar[str] = ""
    """Longer help: what each output figure means, examples."""
    params_model: ClassVar[type[Params]]
    """Its parameters: the model it is an action of (``Shoot(Action[ShootParams])``),
    unless the class names another."""
    stages: ClassVar[tuple[Stage, ...]] = ()
    phases: ClassVar[tuple[str, ...]] = ()
    """Phases it may be taken in (empty: any)."""
    once_per: ClassVar[Scope | None] = None
    """An actor may take it once per this (None: no limit)."""
    marker: ClassVar[str] = ""
    """The word shown by an actor that took it this phase ("shot", "fired"); "": "acted"."""
    by_chance: ClassVar[bool] = True
    """Whether its dice decide an outcome that has odds. False for a roll whose result is
    only a total to order by (initiative): the dice step shows no odds for it."""
    outcome_labels: ClassVar[Mapping[str, str]] = {}
    """Odds labels of outcome words worded otherwise (``{"success": "holds"}``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "params_model" not in cls.__dict__:
            found = _params_of(cls)
            if found is not None:
                cls.params_model = found

    @cached_property
    def params(self) -> tuple[Param, ...]:
        return self.params_model.spec()

    @property
    def actor_param(self) -> str | None:
        """The parameter naming who takes it (edc's ``attacker``), if one does."""
        return next((p.name for p in self.params if p.kind == "actor"), None)

    @property
    def has_odds(self) -> bool:
        return type(self).odds is not Action.odds

    def parse_params(self, raw: Mapping[str, Any], *, partial: bool = False,
                     enc: Encounter | None = None) -> Any:
        """Typed parameters from ``name=value`` text; with ``partial``, a dict of what
        was given plus defaults, required ones left out. With the encounter, the
        relations a parameter declares to it are checked too (at most the unit's
        figures)."""
        params = parse_values(self.params_model, self.name, raw, partial=partial, enc=enc)
        if partial:
            return {k: v for k, v in params.as_dict().items() if v is not REQUIRED}
        return params

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        """Parameter values the encounter supplies, for those not given."""
        return {}

    def resolve(self, p: P, dice: Dice) -> Resolution:
        raise NotImplementedError

    def odds(self, p: P) -> Odds:
        """Exact chance of each outcome before any die is rolled."""
        raise NotImplementedError(f"{self.name} has no odds")

    def apply(self, enc: Encounter, p: P, res: Resolution, tx: Transaction) -> None:
        """Write the resolution into the encounter (nothing, for a pure check)."""

    def happened(self, p: P, res: Resolution, odds: Odds) -> str:
        """The label of ``odds`` (pre-roll, for ``p``) that ``res`` resolved, for the report
        ("" if none): ``outcome_labels``'s, else the one its outcome and figures name."""
        return label_of(odds, res, self.outcome_labels)

    def summary(self, p: P) -> str | None:
        """What is decided before any die (band, target number, pool), or None."""
        return None

    def limit(self, p: P) -> tuple[Scope, str] | None:
        """How often an actor may take it, and what the limit counts (its name, or a key
        several share): ``once_per`` by default."""
        return (self.once_per, self.name) if self.once_per else None

    def can_act(self, who: Any) -> bool:
        """Whether ``who`` could take it at all (the app offers it first): a unit with no
        missile weapon does not shoot. Why not now, at all: :meth:`unavailable`."""
        return True

    def unavailable(self, enc: Encounter, who: Any) -> list[str]:
        """Why not now, from the encounter and who acts (None: no one yet) alone (no drive
        back owed, no enemy to shoot at); greyed and refused as :meth:`refusals` are."""
        return []

    def refusals(self, enc: Encounter, p: P) -> list[str]:
        """Why the rules of who acts refuse it as it stands, beyond phases and limits (one
        who hesitates may not attack), in plain words; ``force=yes`` overrides them."""
        return []

    def actors(self, p: P) -> list[str]:
        """Who acts in it (names as given), for the limits and the acted markers."""
        actor = p.get("actor") if hasattr(p, "get") else None
        return [actor] if isinstance(actor, str) and actor else []

    def turn_rule(self, phase: str, p: P) -> Literal["own", "enemy", "any"]:
        """Whether the actor is of the side whose turn it is (``own``), of the other
        (``enemy``: shooting at chargers), or either, where the sides take turns."""
        return "any"

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise RuleError(f"{self.name}: no parameter '{name}' (try: {self.param_names()})")

    def param_names(self) -> str:
        return ", ".join(p.name for p in self.params)

    def usage(self) -> str:
        parts = [self.name]
        for p in self.params:
            parts.append(f"{p.name}=…" if p.required else f"[{p.name}=…]")
        return " ".join(parts)

    def help_text(self) -> str:
        lines = [f"{self.name}: {self.help}", "", "parameters:"]
        lines += [f"  {p.describe()}" for p in self.params]
        if self.stages:
            lines += ["", "dice, in the order they are rolled (--dice ROLE=V1,V2,...):"]
            lines += [f"  {s.role} ({s.die}): {s.help}" for s in self.stages]
        if self.detail:
            lines += ["", self.detail]
        return "\n".join(lines)


def _params_of(cls: type) -> type[Params] | None:
    """The parameter model of a class of action (``Action[ShootParams]``, ``InTurn[P]``)."""
    for base in cls.__dict__.get("__orig_bases__", ()):
        for arg in typing.get_args(base):
            if isinstance(arg, type) and issubclass(arg, Params):
                return arg
    return None
