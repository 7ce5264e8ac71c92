"""The rules kit: actions, their dice stages, their typed figures, and the Ruleset.

An :class:`Action` is a class with a typed, frozen parameter model
(:class:`~tracker.rules.params.Params`). Its pure ``resolve(params, dice)`` is what
`tracker resolve` calls with no encounter; ``fill`` draws parameter defaults from an
encounter (the shooter's stands, the target's armour); ``apply`` writes a resolution into
an encounter through a :class:`~tracker.core.history.Transaction`; ``odds`` gives the exact
chance of each outcome before any die is rolled. An action also declares its dice as
ordered :class:`Stage` s, the phases it may be taken in and how often an actor may take it.
"""

from __future__ import annotations

import dataclasses
import importlib
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
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
from tracker.core.sequence import SequenceOfPlay, plain_sequence
from tracker.rules.columns import PROFILE_ROSTER, Roster
from tracker.rules.errors import RuleError
from tracker.rules.params import REQUIRED, Param, ParamKind, Params, param, parse_values
from tracker.rules.setting import Scalar, Setting

if TYPE_CHECKING:  # the models are imported on first use: resolvers need no pydantic
    from tracker.core.history import Transaction
    from tracker.core.model import Combatant, Encounter, Unit

__all__ = [
    "REQUIRED", "Action", "DieRole", "Figures", "FunctionAction", "Odds", "ParamDict",
    "Param", "ParamKind", "Params", "Resolution", "RuleError", "Ruleset", "Scope",
    "Omit", "Setting", "Stage", "param",
]

ParamDict = dict[str, Any]
"""Parameters of an action made of free functions (see :class:`FunctionAction`)."""

Odds = list[tuple[str, float]]
"""Outcome label and its exact probability, in the order the GM reads them."""

Scope = Literal["turn", "phase", "exchange", "round"]
"""How long an action's limit lasts: an actor may take it once per turn, phase ..."""


@dataclass(frozen=True)
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


DieRole = Stage  # the name the dialogs used before stages


_T = TypeVar("_T")
_OMIT = "figure left out when None"
Omit = Annotated[_T | None, _OMIT]
"""A figure reported only when it applies: ``batches: Omit[list[Batch]] = None`` is left
out of ``--json`` while None."""


@dataclass_transform(kw_only_default=True, field_specifiers=(field,))
class Figures:
    """Base of an action's typed figures: subclasses become keyword-only dataclasses.

    ``as_json`` keeps the keys the figures always had; a figure typed ``Omit[...]``
    appears only when set. Read-only mapping access (``figures["hits"]``) serves code
    that shows any action's figures.
    """

    __dataclass_fields__: ClassVar[dict[str, Any]]
    _omitted: ClassVar[frozenset[str] | None] = None

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
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in omit:
                continue
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


@dataclass
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


P = TypeVar("P", bound=Params)


class Action(Generic[P]):
    """One thing the rules resolve (a shot, an exchange, a drive back)."""

    name: ClassVar[str]
    help: ClassVar[str]
    detail: ClassVar[str] = ""
    """Longer help: what each output figure means, examples."""
    params_model: ClassVar[type[Params]]
    stages: ClassVar[tuple[Stage, ...]] = ()
    phases: ClassVar[tuple[str, ...]] = ()
    """Phases it may be taken in (empty: any)."""
    once_per: ClassVar[Scope | None] = None
    """An actor may take it once per this (None: no limit)."""
    marker: ClassVar[str] = ""
    """The word the roster and the combatants show by an actor that took it this phase
    ("shot", "fired"); empty: "acted"."""
    outcome_labels: ClassVar[Mapping[str, str]] = {}
    """The odds label an outcome word stands for where the label words it otherwise
    (``{"success": "holds"}``); other outcomes are found by :meth:`happened`."""

    @cached_property
    def params(self) -> tuple[Param, ...]:
        return self.params_model.spec()

    @property
    def roles(self) -> tuple[Stage, ...]:
        return self.stages

    @property
    def has_odds(self) -> bool:
        return type(self).odds is not Action.odds

    def parse_params(self, raw: Mapping[str, Any], *, partial: bool = False) -> Any:
        """Typed parameters from ``name=value`` text; with ``partial``, a dict of what
        was given plus defaults, required ones left out."""
        values = parse_values(self.params, self.name, raw, partial=partial)
        if partial:
            return values
        return self.params_model(**values)

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
        """Which label of ``odds`` (its pre-roll odds for ``p``) is the outcome ``res``
        resolved, kept in the journal for the report ("" where none is): by default the
        one ``outcome_labels`` gives, else the one the outcome word and figures name."""
        from tracker.rules.happened import label_of

        return label_of(odds, res, self.outcome_labels)

    def summary(self, p: P) -> str | None:
        """What is decided before any die (band, target number, pool), or None."""
        return None

    def limit(self, p: P) -> tuple[Scope, str] | None:
        """How often an actor may take it, and what the limit counts (the action's name,
        or a key several actions share): ``once_per`` by default."""
        return (self.once_per, self.name) if self.once_per else None

    def actors(self, p: P) -> list[str]:
        """Who acts in it (names as given), for the limits and the acted markers."""
        actor = p.get("actor") if hasattr(p, "get") else None
        return [actor] if isinstance(actor, str) and actor else []

    def turn_rule(self, phase: str, p: P) -> Literal["own", "enemy", "any"]:
        """Where the sides take turns: whether the actor must be of the side whose turn it
        is (``own``), of the other side (``enemy``: shooting at chargers), or either."""
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


Pane = Literal["combatants", "pools", "wounds", "roster", "log"]


@dataclass
class Ruleset:
    """A ruleset: its models, its actions, its phases, the panes it uses, its settings."""

    id: str
    name: str
    scale: Literal["skirmish", "mass"]
    model: str = "tracker.core.model:Encounter"
    """Its ``Encounter`` model as ``module:Class``, imported when first needed, so that
    `tracker resolve` starts without pydantic and the models."""
    actions: Mapping[str, Action[Any]] = field(default_factory=dict)
    """By name; a :class:`LazyActions` imports each action's module on first use."""
    phases: list[str] = field(default_factory=list)
    panes: tuple[Pane, ...] = ("combatants", "log")
    settings: list[Setting] = field(default_factory=list)
    order_stat: str = "initiative"
    """Combatant field or stat that orders acting, highest first (harn: IR; edc: Reflex)."""
    start_round: Callable[[Encounter, Transaction, Dice], list[str]] | None = None
    """Upkeep at the start of each round; returns lines for the log."""
    describe_combatant: Callable[[Combatant], str] | None = None
    describe_unit: Callable[[Unit], str] | None = None
    unit_profile: bool = False
    """The roster shows ``describe_unit`` as a Profile column (for games whose units are
    best read from their own profile line)."""
    roster: Roster = field(default_factory=Roster)
    sequence: SequenceOfPlay | None = None
    """The sequence of play (default: the phases walked in a round by combatants in
    order, or in each side's turn by sides for a mass battle)."""
    """Columns, state words, filters and sorts of the unit roster (default: the shared
    columns, with a Profile column when ``unit_profile``)."""

    def __post_init__(self) -> None:
        if all(s.name != ROUND_RESETS.name for s in self.settings):
            self.settings = [*self.settings, ROUND_RESETS]
        if self.unit_profile and self.roster == Roster():
            self.roster = PROFILE_ROSTER
        if self.sequence is None:
            self.sequence = plain_sequence(self.phases, self.start_round,
                                           by_side=self.scale == "mass")
        else:
            if not self.phases and self.sequence.has_phases:
                self.phases = [ph.name for ph in self.sequence.phases]
            if self.start_round is None:
                self.start_round = self.sequence.round_start
        by_name = {s.name: s for s in self.settings}
        loaded = self.actions.values() if isinstance(self.actions, dict) else ()
        for action in loaded:
            if isinstance(action, FunctionAction):
                action.link_settings(by_name)

    @property
    def encounter_model(self) -> type[Encounter]:
        return _import(self.model)  # type: ignore[no-any-return]

    @property
    def combatant_model(self) -> type[Combatant]:
        from tracker.core.model import Combatant

        args = self.encounter_model.model_fields["combatants"].annotation
        return _list_item(args, Combatant)  # type: ignore[no-any-return]

    @property
    def unit_model(self) -> type[Unit]:
        from tracker.core.model import Unit

        args = self.encounter_model.model_fields["units"].annotation
        return _list_item(args, Unit)  # type: ignore[no-any-return]

    def default_target(self, enc: Encounter, actor: Any) -> Combatant | Unit | None:
        """The first valid opponent of ``actor``: the tracker keeps no distances, so
        "closest" is the GM's call; the first of another side still in play (and, for
        units, not engaged: engaged units cannot be shot at) is offered."""
        side = getattr(actor, "side", None)
        if side is None:
            return None
        for c in enc.combatants:
            if c.side != side and not c.out:
                return c
        for u in enc.units:
            if u.side != side and u.active and not u.engaged:
                return u
        return None

    def action(self, name: str) -> Action[Any]:
        try:
            return self.actions[name.lower()]
        except KeyError:
            names = ", ".join(sorted(self.actions)) or "none"
            raise RuleError(f"{self.id} has no action '{name}' (actions: {names})") from None

    def setting(self, enc: Encounter, name: str) -> Scalar:
        for s in self.settings:
            if s.name == name:
                return enc.settings.get(name, s.default)
        raise RuleError(f"{self.id} has no setting '{name}'")

    def setting_spec(self, name: str) -> Setting:
        for s in self.settings:
            if s.name == name:
                return s
        names = ", ".join(s.name for s in self.settings) or "none"
        raise RuleError(f"{self.id} has no setting '{name}' (settings: {names})")


ROUND_RESETS = Setting(
    "round_resets",
    "",
    "conditions that clear at the start of each round, comma separated (reacted, dodged)",
)
"""A setting every ruleset has: the statuses a round's start resets."""


class LazyActions(Mapping[str, Action[Any]]):
    """A ruleset's actions by name, each imported from its module on first use, so that
    ``tracker resolve`` loads only the action it runs: ``{"shoot": ".actions.shoot:SHOOT"}``
    (modules relative to ``package``)."""

    def __init__(self, package: str, where: Mapping[str, str]) -> None:
        self._package = package
        self._where = dict(where)
        self._loaded: dict[str, Action[Any]] = {}

    def __getitem__(self, name: str) -> Action[Any]:
        found = self._loaded.get(name)
        if found is None:
            module, _, attr = self._where[name].partition(":")
            found = getattr(importlib.import_module(module, self._package), attr)
            self._loaded[name] = found
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


def lazy_models(package: str, names: tuple[str, ...]) -> Callable[[str], object]:
    """A ruleset package's module ``__getattr__``: its model classes (``names``, in
    ``package.model``) load on first use, so its resolvers start without pydantic."""

    def __getattr__(name: str) -> object:
        if name in names:
            return getattr(importlib.import_module(f"{package}.model"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


@cache
def _import(where: str) -> Any:
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def _list_item(annotation: Any, fallback: type) -> Any:
    from typing import get_args

    args = get_args(annotation)
    return args[0] if args else fallback


# --- the old shape, while rulesets move to classes -----------------------------------------


class FunctionAction(Action[Any]):
    """An action made of free functions over ``dict`` parameters (the shape before the kit)."""

    def __init__(
        self,
        name: str,
        help: str,
        params: Sequence[Param],
        roles: Sequence[Stage],
        resolve: Callable[[dict[str, Any], Dice], Resolution],
        odds: Callable[[dict[str, Any]], Odds] | None = None,
        fill: Callable[[Encounter, dict[str, Any]], dict[str, Any]] | None = None,
        apply: Callable[[Encounter, dict[str, Any], Resolution, Transaction], None] | None = None,
        detail: str = "",
        summary: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        self.name = name  # type: ignore[misc]
        self.help = help  # type: ignore[misc]
        self.detail = detail  # type: ignore[misc]
        self._params = tuple(params)
        self.stages = tuple(roles)  # type: ignore[misc]
        self._resolve, self._odds, self._fill = resolve, odds, fill
        self._apply, self._summary = apply, summary

    @cached_property
    def params(self) -> tuple[Param, ...]:
        return self._params

    @property
    def has_odds(self) -> bool:
        return self._odds is not None

    def link_settings(self, settings: Mapping[str, Setting]) -> None:
        """A parameter named as a setting of the ruleset defaults from that setting."""
        self._params = tuple(
            dataclasses.replace(p, default=settings[p.name].default, setting=settings[p.name])
            if p.name in settings else p
            for p in self._params
        )
        self.__dict__.pop("params", None)

    def parse_params(self, raw: Mapping[str, Any], *, partial: bool = False) -> Any:
        values = parse_values(self._params, self.name, raw, partial=partial)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return self._fill(enc, given) if self._fill is not None else {}

    def resolve(self, p: Any, dice: Dice) -> Resolution:
        return self._resolve(p, dice)

    def odds(self, p: Any) -> Odds:
        if self._odds is None:
            raise NotImplementedError(f"{self.name} has no odds")
        return self._odds(p)

    def apply(self, enc: Encounter, p: Any, res: Resolution, tx: Transaction) -> None:
        if self._apply is not None:
            self._apply(enc, p, res, tx)

    def summary(self, p: Any) -> str | None:
        return self._summary(p) if self._summary is not None else None
