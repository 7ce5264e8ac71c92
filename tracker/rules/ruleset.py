"""A ruleset: its models, its actions (imported on first use), its phases and sequence of
play, its settings and its roster."""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args

from tracker.core.dice import Dice
from tracker.core.sequence import UNTAKEN_TURN, SequenceOfPlay, plain_sequence
from tracker.rules.columns import PROFILE_ROSTER, Roster
from tracker.rules.errors import RuleError, find_named
from tracker.rules.setting import Scalar, Setting

if TYPE_CHECKING:  # the models are imported on first use: resolvers need no pydantic, and
    # opening an encounter loads no action code until an action is taken
    from tracker.core.history import Transaction
    from tracker.core.model import Combatant, Encounter, Unit
    from tracker.rules.action import Action

Pane = Literal["combatants", "pools", "wounds", "roster", "log"]


class DescribeUnit(Protocol):
    """A unit's one-line profile, read against the encounter's ``settings``."""

    def __call__(self, unit: Unit, settings: Mapping[str, Any] | None = None) -> str: ...


@dataclass(slots=True)
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
    panes: tuple[Pane, ...] = ()
    """The panes it shows (default: the combatants and the log; a mass battle's roster and
    the log)."""
    settings: list[Setting] = field(default_factory=list)
    order_stat: str = "initiative"
    """Combatant field or stat that orders acting, highest first (harn: IR; edc: Reflex)."""
    start_round: Callable[[Encounter, Transaction, Dice], list[str]] | None = None
    """Upkeep at the start of each round; returns lines for the log."""
    describe_combatant: Callable[[Combatant], str] | None = None
    describe_unit: DescribeUnit | None = None
    """A unit's one-line profile; ``settings`` are the encounter's as its domains read
    them (a profile sheet as the file in the save's folder)."""
    unit_profile: bool = False
    """The roster shows ``describe_unit`` as a Profile column (for games whose units are
    best read from their own profile line)."""
    roster: Roster = field(default_factory=Roster)
    """Columns, state words, filters and sorts of the unit roster (default: the shared
    columns, with a Profile column when ``unit_profile``)."""
    sequence: SequenceOfPlay | None = None
    """The sequence of play (default: the phases walked in a round by combatants in
    order, or in each side's turn by sides for a mass battle)."""

    def __post_init__(self) -> None:
        if not self.panes:
            self.panes = ("roster", "log") if self.scale == "mass" else ("combatants", "log")
        for every in (ROUND_RESETS, UNTAKEN, SECRET_FIELDS):
            if all(s.name != every.name for s in self.settings):
                self.settings = [*self.settings, every]
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

    @property
    def encounter_model(self) -> type[Encounter]:
        return _import(self.model)  # type: ignore[no-any-return]

    @property
    def combatant_model(self) -> type[Combatant]:
        found: type[Combatant] = _list_item(self.encounter_model, "combatants")
        return found

    @property
    def unit_model(self) -> type[Unit]:
        found: type[Unit] = _list_item(self.encounter_model, "units")
        return found

    @classmethod
    def of_package(
        cls, package: str, encounter: str, actions: Iterable[str], *, name: str,
        scale: Literal["skirmish", "mass"], panes: tuple[Pane, ...] = (),
        order_stat: str = "initiative", sequence: SequenceOfPlay | None = None,
        describe_combatant: Callable[[Combatant], str] | None = None,
    ) -> Ruleset:
        """The ruleset of a package laid out as the shipped ones are: its id the package's
        own name; its encounter model ``encounter`` in ``model.py`` and each action
        ``<NAME>`` in ``actions/<name>.py``, each imported on first use; its ``SETTINGS``
        in ``settings.py``; its ``SEQUENCE`` in ``sequence.py`` (unless ``sequence`` is
        given) and, for a mass battle, its ``ROSTER`` and ``describe_unit`` in
        ``roster.py``, where it has those modules."""
        roster, describe_unit = Roster(), None
        if importlib.util.find_spec(f"{package}.roster") is not None:
            roster = _part(package, "roster", "ROSTER", Roster)
            describe_unit = _part(package, "roster", "describe_unit", Callable)
        if sequence is None and importlib.util.find_spec(f"{package}.sequence") is not None:
            sequence = _part(package, "sequence", "SEQUENCE", SequenceOfPlay)
        return cls(
            id=package.rpartition(".")[2], name=name, scale=scale,
            model=f"{package}.model:{encounter}", actions=LazyActions(package, actions),
            panes=panes, settings=_part(package, "settings", "SETTINGS", list),
            order_stat=order_stat, describe_combatant=describe_combatant,
            describe_unit=describe_unit, roster=roster, sequence=sequence,
        )

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
                return s.of(enc)
        raise RuleError(f"{self.id} has no setting '{name}'")

    def setting_spec(self, name: str) -> Setting:
        return find_named(self.settings, name, lambda s: s.name,
                          lambda have: f"{self.id} has no setting '{name}' (settings: {have})")


ROUND_RESETS = Setting(
    "round_resets",
    "",
    "conditions that clear at the start of each round, comma separated (reacted, dodged)",
)
"""A setting every ruleset has: the statuses a round's start resets."""

UNTAKEN = Setting(
    UNTAKEN_TURN,
    "round",
    "an effect lasting until the turn of one who takes none (down, out or gone): round (it "
    "ends as the round that turn would have come in ends) or kept (until the GM clears it)",
    choices=("round", "kept"),
)
"""A setting every ruleset has: no timed effect outlasts the one whose turn ends it."""


def field_names(raw: str) -> list[str]:
    """Comma separated field names (``ac,attack``): RuleError naming one that is none."""
    names = [n.strip() for n in raw.split(",") if n.strip()]
    for name in names:
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise RuleError(f"'{name}' is not a field name (lower case, like ac or init_bonus)")
    return names


ALWAYS_SECRET = ("pools", "wounds", "notes", "stats")
"""Details of another side no player's view shows, whatever ``secret_fields`` says."""


def secret_fields(default: str) -> Setting:
    """What players see of another side, with a ruleset's own default."""
    return Setting(
        "secret_fields", default,
        "fields of another side no player sees, comma separated (its pools, wounds, notes "
        "and stats never; its hit points as player_health says)",
        check=field_names, kept="secret_fields", implied=ALWAYS_SECRET)


PLAYER_HEALTH = Setting(
    "player_health",
    "words",
    "what players see of another side's hit points: words (unhurt, hurt, bloodied, down), "
    "numbers, or none",
    choices=("words", "numbers", "none"),
)
"""Where a ruleset keeps hit points (plain's hp, edc's Health): what a player's view shows of
another side's."""

SECRET_FIELDS = secret_fields("")
"""A setting every ruleset has: the fields of another side the player views leave out (its
default is the encounter model's, which a ruleset may name more in)."""


class LazyActions(Mapping[str, "Action[Any]"]):
    """A ruleset's actions by name, each imported from its module on first use, so that
    ``tracker resolve`` loads only the action it runs. Each action is ``<NAME>`` in its own
    module ``actions/<name>.py`` of the ruleset's package: ``LazyActions(__name__,
    ("shoot", "combat"))``."""

    def __init__(self, package: str, names: Iterable[str]) -> None:
        self._package = package
        self._where = {name: f".actions.{name}:{name.upper()}" for name in names}
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


def _part(package: str, module: str, name: str, kind: Any) -> Any:
    """``name`` of the package's ``module``, which must be a ``kind``."""
    found = getattr(importlib.import_module(f"{package}.{module}"), name)
    if not isinstance(found, kind):
        raise TypeError(f"{package}.{module}.{name} is not a {getattr(kind, '__name__', kind)}")
    return found


def _list_item(model: type[Encounter], name: str) -> Any:
    """The model of the items of the encounter model's list ``name``."""
    return get_args(model.model_fields[name].annotation)[0]
