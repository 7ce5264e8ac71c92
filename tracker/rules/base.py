"""The Ruleset protocol: actions, their parameters, dice roles, resolvers and settings.

An :class:`Action` has a pure resolver ``resolve(params, dice) -> Resolution`` that
`tracker resolve` calls with no encounter; ``fill`` draws parameter defaults from an
encounter (the shooter's stands, the target's armour); ``apply`` writes a resolution
into an encounter through a :class:`~tracker.core.history.Transaction`; ``odds`` gives
the exact chance of each outcome before any die is rolled.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from tracker.core.dice import Dice, Roll

if TYPE_CHECKING:  # the models are imported on first use: resolvers need no pydantic
    from tracker.core.history import Transaction
    from tracker.core.model import Combatant, Encounter, Scalar, Unit


class RuleError(ValueError):
    """A request the rules refuse: out of range, an illegal action, a bad parameter."""


ParamKind = Literal["int", "float", "str", "bool", "choice", "ints", "strs", "actor", "target"]

REQUIRED: Any = object()
_TRUE = {"1", "true", "yes", "y", "on"}
_FALSE = {"0", "false", "no", "n", "off"}


@dataclass(frozen=True)
class Param:
    """A named parameter of an action, as typed after the action: ``name=value``.

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

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def parse(self, text: str | Any) -> Any:
        """Turn typed text into the parameter's value, or raise RuleError saying why."""
        if not isinstance(text, str):
            value = text
        else:
            value = self._parse_text(text.strip())
        self._check_bounds(value)
        return value

    def _parse_text(self, raw: str) -> Any:
        kind = self.kind
        try:
            if kind == "int":
                return int(raw)
            if kind == "float":
                return float(raw)
            if kind == "ints":
                return [int(v) for v in raw.split(",") if v.strip()] if raw else []
            if kind == "strs":
                return [v.strip() for v in raw.split(",") if v.strip()]
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
        values = value if isinstance(value, list) else [value]
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
        return f"{self.name} ({', '.join(bits)}): {self.help}"


@dataclass(frozen=True)
class DieRole:
    """A die an action asks for by role, e.g. ``DieRole("test", "d100")``."""

    role: str
    die: str
    help: str = ""


@dataclass
class Resolution:
    """What a resolver decided: the outcome, its figures, the dice and the log line."""

    action: str
    outcome: str
    text: str
    figures: dict[str, Any] = field(default_factory=dict)
    rolls: list[Roll] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action, "outcome": self.outcome}
        data.update(self.figures)
        data["text"] = self.text
        data["rolls"] = [r.to_dict() for r in self.rolls]
        return data


Odds = list[tuple[str, float]]
"""Outcome label and its exact probability, in the order the GM reads them."""

Params = dict[str, Any]


@dataclass(frozen=True)
class Action:
    """One thing the rules resolve (a shot, an exchange, a drive back)."""

    name: str
    help: str
    params: Sequence[Param]
    roles: Sequence[DieRole]
    resolve: Callable[[Params, Dice], Resolution]
    odds: Callable[[Params], Odds] | None = None
    fill: Callable[[Encounter, Params], Params] | None = None
    apply: Callable[[Encounter, Params, Resolution, Transaction], None] | None = None
    detail: str = ""
    """Longer help: what each output figure means, examples."""
    summary: Callable[[Params], str] | None = None
    """One line of what is decided before any die (band, final target number, pool),
    shown in the resolve dialog above the odds."""

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise RuleError(f"{self.name}: no parameter '{name}' (try: {self.param_names()})")

    def param_names(self) -> str:
        return ", ".join(p.name for p in self.params)

    def parse_params(self, raw: Mapping[str, Any], *, partial: bool = False) -> Params:
        """Parse ``name=value`` pairs, fill defaults, and insist on required ones."""
        values: Params = {}
        for key, text in raw.items():
            values[key] = self.param(key).parse(text)
        for p in self.params:
            if p.name in values:
                continue
            if p.required:
                if not partial:
                    raise RuleError(f"{self.name}: {p.name}= is required ({p.help})")
            else:
                values[p.name] = p.default
        return values

    def usage(self) -> str:
        parts = [self.name]
        for p in self.params:
            parts.append(f"{p.name}=…" if p.required else f"[{p.name}=…]")
        return " ".join(parts)

    def help_text(self) -> str:
        lines = [f"{self.name}: {self.help}", "", "parameters:"]
        lines += [f"  {p.describe()}" for p in self.params]
        if self.roles:
            lines += ["", "dice by role (--dice ROLE=V1,V2,...):"]
            lines += [f"  {r.role} ({r.die}): {r.help}" for r in self.roles]
        if self.detail:
            lines += ["", self.detail]
        return "\n".join(lines)


@dataclass(frozen=True)
class Setting:
    """A rule decision the text leaves open, with its default; the GM sees and sets it."""

    name: str
    default: Scalar
    help: str
    choices: tuple[str, ...] = ()
    path: bool = False
    """A file named by the encounter: resolved inside the save's folder, never outside."""

    def parse(self, raw: str) -> Scalar:
        d = self.default
        try:
            if isinstance(d, bool):
                low = raw.lower()
                if low in _TRUE | _FALSE:
                    return low in _TRUE
                raise ValueError
            if isinstance(d, int):
                return int(raw)
            if isinstance(d, float):
                return float(raw)
        except ValueError:
            raise RuleError(f"setting {self.name}: '{raw}' is not a {type(d).__name__}") from None
        if self.choices and raw not in self.choices:
            raise RuleError(f"setting {self.name}: expected one of {', '.join(self.choices)}")
        return raw


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
    actions: dict[str, Action] = field(default_factory=dict)
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
    """The roster shows ``describe_unit`` as a Profile column instead of Att and Arm
    (for games whose units are not described by close/shooting attacks and a save)."""

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

    def action(self, name: str) -> Action:
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
