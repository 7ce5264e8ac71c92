"""The encounter model: pydantic classes shared by every ruleset.

A ruleset extends these by subclassing (``HarnCombatant(Combatant)`` with its missile
state, ``WarmasterUnit(Unit)`` ...) and names its own ``Encounter`` subclass whose
``combatants`` / ``units`` lists use those classes, so a save validates the ruleset's
fields as strictly as the common ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationInfo, model_validator

from tracker.core.domains import NAME, Domain, checks

from .ends import Ends as Ends
from .invalid import PRINTABLE
from .log import Log

Scalar = int | float | str | bool
Count = Annotated[int, Domain(ge=0)]
"""A number of things (stands, figures, hits, points of Pain): never below 0."""
Rating = Annotated[int, Domain(ge=0)]
"""A rating, skill or attribute (SA, Reflex, Archery ML): never below 0."""

Text = Annotated[str, Field(pattern=PRINTABLE)]
"""Text a screen shows (a name, a note, a condition, a log line): no control character."""

SCHEMA_VERSION = 3


class Model(BaseModel):
    """Base for every saved model: unknown keys are errors, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class Effect(Model):
    """A timed effect: "aimed until the end of the round", "poisoned until the end of
    Tam's next turn". It ends at the ``left``-th boundary that ``ends`` names (and the
    turn engine logs that it ended); with no ``ends`` it lasts until it is removed.
    ``since`` is where it began (round, side, phase, turn), for ``ends.next``."""

    name: Text
    ends: Ends | None = None
    left: Annotated[int, Field(ge=1)] = 1
    since: tuple[int, int, int, int] | None = None
    note: Text = ""

    @model_validator(mode="before")
    @classmethod
    def _from_older_saves(cls, data: Any) -> Any:
        """Saves made before lifetimes were data say ``until_round``, ``until_turn_of``
        and ``at``: the same ends, as they meant them then."""
        if not isinstance(data, dict) or not {"until_round", "until_turn_of", "at"} & set(data):
            return data
        data = dict(data)
        until_round = data.pop("until_round", None)
        until_turn_of = data.pop("until_turn_of", None)
        at = data.pop("at", "start")
        if until_turn_of is not None:
            data["ends"] = {"at": at, "of": "turn", "who": until_turn_of}
        elif until_round is not None:
            data["ends"] = {"at": "end", "of": "round", "round": until_round}
        return data

    def describe(self, names: dict[str, str] | None = None) -> str:
        if self.ends is None:
            return self.name
        return f"{self.name}, {self.ends.describe(names, self.left)}"


class Pool(Model):
    """A dice pool spent during a round: Combat Pool (CP), Missile Pool (MP) ..."""

    name: str
    size: int = 0
    """Dice available this round, after every modifier."""
    spent: int = 0
    """Dice spent so far this round (or this exchange, as the ruleset keeps it)."""
    breakdown: list[str] = Field(default_factory=list)
    """Why the pool is this size, one term a line ("Reflex 5", "Pain -2")."""

    @property
    def left(self) -> int:
        return self.size - self.spent


class Wound(Model):
    """An injury at a location, with the effects the ruleset keeps for it."""

    location: Text
    level: Count = 0
    kind: Text = ""
    """Damage type or injury name (cutting, puncture, blunt, "impact 7" ...)."""
    impact: Annotated[int | None, Domain(ge=0)] = None
    shock: Count = 0
    pain: Count = 0
    blood_loss: Count = 0
    round: int = 0
    note: Text = ""


class Combatant(Model):
    """An individual in a skirmish."""

    id: str
    name: Annotated[Text, NAME]
    side: Annotated[Text, NAME] = "party"
    initiative: int = 0
    stats: dict[str, int] = Field(default_factory=dict)
    pools: list[Pool] = Field(default_factory=list)
    wounds: list[Wound] = Field(default_factory=list)
    conditions: list[Text] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)
    group: Text = ""
    """A named group that acts together (group initiative, where the ruleset allows it)."""
    rolled_initiative: int | None = None
    """This round's rolled initiative, where the initiative is rolled each round."""
    hidden: bool = False
    """Hidden from the player view (an ambush not yet sprung)."""
    out: bool = False
    """Out of the fight (dead, fled, unconscious): kept, but skipped in the order."""
    notes: Text = ""

    kept: ClassVar[Mapping[str, str]] = {}
    """Fields the tracker keeps for itself, each with what keeps it ("the missile action
    taken this round"): ``set`` and ``add`` refuse them in one line saying so, and the
    forms leave them out; the action that sets one, or ``undo``, changes it."""
    _unseen: frozenset[str] = PrivateAttr(default_factory=frozenset)
    names_another: ClassVar[tuple[str, ...]] = ()
    """Fields that name another combatant of the encounter (by id; blank: none): ``set``,
    ``add`` and the forms take its name as shown (any case) and refuse anyone else, and
    the field is cleared as the one it names leaves the encounter."""
    notes_on_others: ClassVar[tuple[str, ...]] = ()
    """List fields whose entries each note something of another combatant, named by its
    ``id`` (a range measured to them): the entry goes as the one it names leaves, so a
    newcomer given the same id inherits nothing, and ``tracker check`` names one that a
    hand edit left naming no one."""

    @property
    def active(self) -> bool:
        """Still in the fight, taking turns (a unit: neither routed nor removed)."""
        return not self.out

    @property
    def unseen(self) -> frozenset[str]:
        """In a player's view: this one's fields the view leaves out (another side's secret
        fields, at their defaults in the view); what shows them says they are not shown."""
        return self._unseen

    def leave_out(self, names: frozenset[str]) -> None:
        """Mark ``names`` as left out of a player's view (see :attr:`unseen`)."""
        self._unseen = names

    def tie_rank(self, enc: Encounter) -> int:
        """Orders combatants of equal initiative, highest first, before their names (the
        ruleset's rule for ties; 0: by name alone)."""
        return 0


LEGACY_UNIT_FIELDS: dict[str, Any] = {
    "close_attacks": 0,
    "shoot_attacks": 0,
    "armour": None,
    "hits_per_stand": 1,
    "pace": 0,
    "hits": 0,
    "leftover_hits": 0,
    "carried_hits": 0,
    "confused": False,
    "driven_back": 0,
    "position": "open",
}
"""Fields every unit once carried that only some rulesets use: a unit of a ruleset without
them reads a save that still holds them at these values (older saves wrote every field)."""


class Unit(Model):
    """A body of figures or stands in a mass battle: what every mass ruleset shares.

    ``strength`` counts what the ruleset removes as casualties: stands (Warmaster)
    or figures (Fantasy Warlord, d6battle). A ruleset adds its own fields by subclassing.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str
    name: Annotated[Text, NAME]
    side: Annotated[Text, NAME] = "red"
    kind: Text = "infantry"
    strength: Count = 1
    strength_start: Count = 1
    ranks: Annotated[int | None, Domain(ge=0)] = None
    files: Annotated[int | None, Domain(ge=0)] = None
    routed: bool = False
    removed: bool = False
    engaged: bool = False
    orders: Text = ""
    casualties_turn: Count = 0
    casualties_total: Count = 0
    morale_test: bool = False
    """Flagged for a morale test."""
    conditions: list[Text] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)
    hidden: bool = False
    notes: Text = ""

    kept: ClassVar[Mapping[str, str]] = {}
    """Fields the tracker keeps for itself (see :attr:`Combatant.kept`)."""

    @model_validator(mode="after")
    def _strength_at_most_start(self, info: ValidationInfo) -> Unit:
        """A unit has no more than it started with, where a value comes in (``set``,
        ``add``, the forms; a save is read as it was): raise ``strength_start`` with it."""
        if checks(info, "strength", "strength_start") and self.strength > self.strength_start:
            if checks(info, "strength"):
                raise ValueError(f"strength={self.strength}: must be at most strength_start "
                                 f"({self.strength_start})")
            raise ValueError(f"strength_start={self.strength_start}: must be at least "
                             f"strength ({self.strength})")
        return self

    @model_validator(mode="before")
    @classmethod
    def _drop_legacy_fields(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = cls.model_fields
        drop = [
            key for key, default in LEGACY_UNIT_FIELDS.items()
            if key in data and key not in fields and data[key] == default
        ]
        if not drop:
            return data
        return {k: v for k, v in data.items() if k not in drop}

    by_setting: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """The fields whose domain a setting names (a profile sheet's races): ``setting``
    checks them again when it changes, and refuses a change they no longer fit."""

    @property
    def active(self) -> bool:
        return not (self.removed or self.routed)

    @classmethod
    def arrive(cls, data: dict[str, Any], settings: Mapping[str, Scalar]) -> list[str]:
        """Fill in ``data`` (a unit about to be added) what the ruleset's own text gives
        where it was not given; return what is still to be asked for, in words."""
        return []


class RollRecord(Model):
    """A die as recorded in the log."""

    role: str
    sides: int
    value: int
    source: Literal["rolled", "entered"]
    stage: int = 0
    """Which stage of the action's dice it belongs to (0: the first)."""


class Op(Model):
    """One reversible change. ``path`` walks from the encounter: field names, and ids
    (or names) to pick an item from a list, or list indexes."""

    op: Literal["set", "add", "remove"]
    path: list[str | int]
    before: Any = None
    after: Any = None
    index: int | None = None


class StageRecord(Model):
    """A stage of an action's dice as the rules asked for it: ``count`` dice of ``sides``
    for ``role``, succeeding at ``need`` or more (or ``under`` or less)."""

    role: str
    sides: int
    count: int
    need: int | None = None
    under: int | None = None
    why: str = ""


class Resolved(Model):
    """What an action was, kept with its log entry so a report never recomputes history:
    its parameters, the outcome, the exact odds of each outcome before any die, and its
    dice stages."""

    action: str
    outcome: str
    params: dict[str, Any] = Field(default_factory=dict)
    odds: list[tuple[str, float]] = Field(default_factory=list)
    stages: list[StageRecord] = Field(default_factory=list)
    target: str = ""
    forced: str = ""
    """The limit the GM overrode with force=yes, if any."""
    happened: str = ""
    """The label of ``odds`` that names the outcome that happened ("" where none clearly
    does, and in saves made before it was kept)."""


class LogEntry(Model):
    """One change of the encounter, in the game's words, with its dice and its ops."""

    text: Text
    kind: str = "note"
    round: int = 1
    phase: int = 0
    side: int = 0
    actor: str = ""
    rolls: list[RollRecord] = Field(default_factory=list)
    ops: list[Op] = Field(default_factory=list)
    secret: bool = False
    """Shown to the GM only (a secret note, a hidden combatant's action)."""
    resolved: Resolved | None = None
    """For an action: what it was, its odds and its dice stages."""
    parts: list[LogEntry] | None = None
    """The actions the tracker took inside this change (the duties an advance ran as a
    phase ended), each kept as the same action taken by hand is: its text, actor, phase,
    dice and record. Their changes are among this entry's ops, their dice among its rolls
    (first, in order)."""


class Position(Model):
    """Where the fight stands: round (or game turn), whose turn it is (in games where the
    sides take turns), phase index, and who acts in the phase (an index)."""

    round: int = 1
    turn: int = 0
    phase: int = 0
    side: int = 0
    """In games where each side takes a whole turn: the index of the side whose turn it is."""


class Acted(Model):
    """Who took which action when: the record the limits and the acted markers read."""

    actor: str
    """Combatant or unit id."""
    action: str
    key: str = ""
    """What the limit counts (the action's name, or a key shared by several actions)."""
    round: int = 1
    side: int = 0
    phase: int = 0
    turn: int = 0


class Jump(Model):
    """The latest jump through the log in one step (a rewind): undo right after it, or
    redo right after a jump back, returns to where it started, also in one step."""

    start: int
    """The cursor before the jump."""
    end: int
    """The cursor it jumped to."""


class Encounter(Model):
    """One fight: who is in it, where it stands, its settings and its whole history."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: Text
    ruleset: str
    position: Position = Field(default_factory=Position)
    seed: int = 0
    """Seed for the tracker's own dice; each action derives its RNG from it."""
    settings: dict[str, Scalar] = Field(default_factory=dict)
    secret_fields: list[str] = Field(default_factory=lambda: ["pools", "wounds", "notes"])
    """Fields of another side that a player's view leaves out (the ``secret_fields``
    setting; a ruleset's encounter may name more by default: plain's AC, attack, bonus)."""
    gm_side: Text = ""
    """The GM's side: its combatants' secret fields never reach the player view."""
    combatants: list[Combatant] = Field(default_factory=list)
    units: list[Unit] = Field(default_factory=list)
    acted: list[Acted] = Field(default_factory=list)
    """Actions taken this round, for the limits on how often an actor may act."""
    cursor: int = 0
    """How many log entries are applied; entries past it were undone and can be redone."""
    jump: Jump | None = None
    """The latest rewind, while it can still be taken back in one step."""
    under_way: bool = True
    """Whether the fight has begun. A new encounter has not: its first advance begins it,
    with what its first round owes as it begins (each one's initiative, where the ruleset
    rolls it). A save that does not say is a fight under way."""
    _log: Log = PrivateAttr(default_factory=Log)

    @property
    def log(self) -> Log:
        """Every change, oldest first; older entries are read from the journal on use."""
        return self._log

    @log.setter
    def log(self, entries: Log | list[LogEntry]) -> None:
        self._log = entries if isinstance(entries, Log) else Log(entries)

    def find_combatant(self, key: str) -> Combatant:
        found: Combatant = _find(self.combatants, key, "combatant")
        return found

    def find_unit(self, key: str) -> Unit:
        found: Unit = _find(self.units, key, "unit")
        return found

    def new_id(self, name: str) -> str:
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "x"
        taken = {c.id for c in self.combatants} | {u.id for u in self.units}
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}-{n}", n + 1
        return candidate

    def free_name(self, name: str) -> str:
        """``name``, or ``name 2``, ``name 3``… where someone in the fight has it already
        (in any case): each name names one."""
        taken = {x.name.casefold() for x in self.everyone}
        candidate, n = name, 2
        while candidate.casefold() in taken:
            candidate, n = f"{name} {n}", n + 1
        return candidate

    @property
    def everyone(self) -> list[Combatant | Unit]:
        """Combatants and units together, in the order they were added."""
        return [*self.combatants, *self.units]


def _find(items: list[Any], key: str, what: str) -> Any:
    """Find by id, then by exact name, then by a unique case-insensitive name prefix."""
    low = key.lower()
    for item in items:
        if item.id == key:
            return item
    for item in items:
        if item.name.lower() == low:
            return item
    hits = [i for i in items if i.name.lower().startswith(low) or i.id.startswith(low)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise LookupError(f"no {what} named '{key}'")
    names = ", ".join(h.name for h in hits[:5])
    raise LookupError(f"'{key}' matches several: {names}")
