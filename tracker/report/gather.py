"""The battle report's facts, read from the encounter's log as the journal kept it.

Every applied entry of the log becomes a line of the report, in order, with its round,
phase and turn; an action's line carries what the journal kept when it was resolved (its
parameters, dice stages, pre-roll odds and the label of what happened). Nothing is
resolved again: where the journal holds no record of an action (a battle logged before
the tracker kept odds) the report says so once (:attr:`Gathered.unrecorded`).

With ``side`` the report holds only what that side's player may see, by the player
view's own rule (:func:`tracker.session.redaction.visible_log`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tracker import rules
from tracker.core import sequence as seqs
from tracker.core.model import Combatant, Encounter, LogEntry, StageRecord, Unit
from tracker.report.losses import Losses, count_losses
from tracker.rules.happened import which
from tracker.session.redaction import player_view, visible_log


@dataclass
class Die:
    """One die of an action, as the log recorded it."""

    role: str
    sides: int
    value: int
    source: str
    """``rolled`` (by the tracker) or ``entered`` (physical dice typed in)."""
    stage: int
    need: int | None = None
    under: int | None = None

    @property
    def success(self) -> bool | None:
        """Whether the die made its stage's target (None: the stage has none)."""
        if self.need is not None:
            return self.value >= self.need
        if self.under is not None:
            return self.value <= self.under
        return None


@dataclass
class Line:
    """One entry of the log in the report."""

    index: int
    """Its number in the log (1: the first)."""
    round: int
    phase: str
    turn: str
    """The side whose turn it was, where the sides take turns ("" otherwise)."""
    kind: str
    text: str
    actor: str = ""
    actor_side: str = ""
    target: str = ""
    target_side: str = ""
    action: str = ""
    """The action's name ("" for a line that is not an action: a note, an advance)."""
    outcome: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    """Every parameter the action was resolved with (but its actor and target)."""
    changed: list[str] = field(default_factory=list)
    """The names of those that differ from the action's defaults: the ones that mattered
    to this action in particular (given, or filled in from the encounter)."""
    dice: list[Die] = field(default_factory=list)
    stages: list[StageRecord] = field(default_factory=list)
    happened: str = ""
    """The pre-roll odds label of the outcome that happened."""
    chance: float | None = None
    """Its pre-roll chance (None: not recorded, or the odds did not name it)."""
    odds: list[tuple[str, float]] = field(default_factory=list)
    """The pre-roll odds of each outcome, as the journal kept them."""
    has_odds: bool = False
    """The journal kept pre-roll odds for the action."""
    recorded: bool = False
    """The journal kept the action's record (odds, stages, parameters)."""
    forced: str = ""
    duty: bool = False
    """Taken by the tracker inside an advance, as a duty of the phase that ended."""
    notes: list[str] = field(default_factory=list)
    """What the report says of the line beside the log's words (who took it, what a
    removal took with it)."""


@dataclass
class Gathered:
    """Everything a report shows, before it is laid out."""

    name: str
    ruleset: str
    side: str | None
    """The side whose player the report is for (None: the GM's full report)."""
    sides: list[str]
    lines: list[Line]
    losses: Losses
    rounds: list[int]
    unrecorded: int = 0
    """How many actions the journal holds no record of (logged before it kept odds)."""
    actions: int = 0
    """How many lines are actions."""


SHOWN_PARAMS_SKIP = ("actor", "target", "defender")
"""Parameters a line shows in its own columns, not among the parameters."""


def gather(enc: Encounter, side: str | None = None) -> Gathered:
    """The report's facts for the GM (``side`` None) or for the player of ``side``."""
    ruleset = rules.get(enc.ruleset) if enc.ruleset in rules.RULESETS else None
    seq = ruleset.sequence if ruleset is not None else None
    stat = ruleset.order_stat if ruleset is not None else "initiative"
    if side is None:
        pairs = list(enumerate(enc.log[: enc.cursor]))
        people: list[Combatant | Unit] = list(enc.everyone)
    else:
        pairs = visible_log(enc, (side,), stat)
        people = list(player_view(enc, side, stat, shown=0).everyone)
    known = People(people)
    all_sides = seqs.sides(enc)
    shown_sides = [s for s in all_sides if s in {x.side for x in people}]
    actions = _roles(ruleset)
    story = placed(list(enc.log[: enc.cursor]))
    pairs = [(i, e.model_copy(update={k: getattr(story[i], k) for k in _WHERE}))
             for i, e in pairs]
    lines = [line for i, e in pairs for line in _lines(i, e, seq, all_sides, known, actions)]
    originals = [story[i] for i, _ in pairs]
    losses = count_losses(originals, {x.id: x for x in people}, shown_sides)
    for gone in losses.table:  # a side the GM removed whole still lost what it lost
        if gone not in losses.sides:
            losses.sides.append(gone)
            shown_sides.append(gone)
    rounds = sorted({ln.round for ln in lines} | set(losses.rounds)) or [enc.position.round]
    acts = [ln for ln in lines if ln.action]
    return Gathered(enc.name, enc.ruleset, side, shown_sides, lines, losses, rounds,
                    unrecorded=sum(1 for ln in acts if not ln.recorded), actions=len(acts))


class People:
    """The combatants and units a report may name, found as the command line finds them:
    by id, by name (in any case), or by a prefix only one of them has."""

    def __init__(self, people: list[Combatant | Unit]) -> None:
        self.people = people
        self.sides = {x.side for x in people}

    def who(self, key: str) -> tuple[str, str]:
        """The name and side of whom ``key`` names (``key`` itself and no side if no one
        or several)."""
        if not key:
            return "", ""
        low = key.lower()
        tests: tuple[Callable[[Combatant | Unit], bool], ...] = (
            lambda x: x.id == key, lambda x: x.name.lower() == low,
            lambda x: x.name.lower().startswith(low) or x.id.startswith(low))
        for test in tests:
            found = [x for x in self.people if test(x)]
            if len(found) == 1:
                return found[0].name, found[0].side
            if found:
                break
        return key, ""


@dataclass
class _Declared:
    """What a line needs to know of an action's parameters."""

    actor: str = "actor"
    target: str = "target"
    defaults: dict[str, Any] = field(default_factory=dict)


def _roles(ruleset: Any) -> dict[str, _Declared]:
    """Each action's parameters that name its actor and its target, and the defaults."""
    out: dict[str, _Declared] = {}
    for name, action in (ruleset.actions.items() if ruleset is not None else ()):
        kinds = {p.kind: p.name for p in reversed(action.params)}
        out[name] = _Declared(kinds.get("actor", "actor"), kinds.get("target", "target"),
                              {p.name: p.default for p in action.params if not p.required})
    return out


def _named_by_outcome(odds: list[tuple[str, float]], outcome: str) -> str:
    """For a record kept before the journal kept the label of what happened: the label
    that the outcome word alone names ("passed", "failed, flees"), if one does."""
    if not odds:
        return ""
    index = which([label for label, _ in odds], outcome, {})
    return "" if index is None else odds[index][0]


def _same(value: Any, default: Any) -> bool:
    if isinstance(default, tuple):
        default = list(default)
    try:
        return bool(value == default)
    except Exception:  # a default of a type that does not compare: shown
        return False


def _phase_name(seq: seqs.SequenceOfPlay | None, index: int) -> str:
    if seq is None or not seq.has_phases:
        return ""
    name = seq.phases[min(max(index, 0), len(seq.phases) - 1)].name
    return seq.names.get(name, name)


_WHERE = ("round", "phase", "side")


def placed(entries: list[LogEntry]) -> list[LogEntry]:
    """Each entry placed where it belongs in the story: an advance ("Phase: combat",
    "Round 2") in the round, phase and side it starts, as its changes of the position say;
    an entry of a save that did not keep where it stood (a field left out) where the
    entries before it left the fight."""
    out: list[LogEntry] = []
    here: dict[str, int] | None = None
    for e in entries:
        where = {key: getattr(e, key) for key in _WHERE}
        if here is not None:
            where.update({key: here[key] for key in _WHERE if key not in e.model_fields_set})
        for op in e.ops:
            path = op.path
            if (op.op == "set" and len(path) == 2 and path[0] == "position"
                    and path[1] in _WHERE and isinstance(op.after, int)):
                where[str(path[1])] = op.after
        here = where
        same = all(where[key] == getattr(e, key) for key in _WHERE)
        out.append(e if same else e.model_copy(update=where))
    return out


def _lines(i: int, e: LogEntry, seq: seqs.SequenceOfPlay | None, all_sides: list[str],
           known: People, actions: dict[str, _Declared]) -> list[Line]:
    """An entry's line, after a line for each action the tracker took inside it (the
    duties of an advance: their dice come first among the entry's)."""
    if not e.parts:
        return [_line(i, e, seq, all_sides, known, actions)]
    out = []
    for part in e.parts:
        line = _line(i, part, seq, all_sides, known, actions)
        line.duty = True
        # a duty owed as a phase begins is taken where the advance arrives
        began = (part.round, part.side, part.phase) == (e.round, e.side, e.phase)
        line.notes.append(f"taken by the tracker as the phase {'began' if began else 'ended'}")
        out.append(line)
    taken = sum(len(part.rolls) for part in e.parts)
    rest = e.model_copy(update={"rolls": e.rolls[taken:], "text": _own_words(e)})
    return [*out, _line(i, rest, seq, all_sides, known, actions)]


def _own_words(e: LogEntry) -> str:
    """An advance's words without those of the duties it ran, which have lines of their
    own ("Genoese Crossbowmen morale test: ...; Phase: combat" -> "Phase: combat")."""
    text = e.text
    for part in e.parts or ():
        for joined in (f"{part.text}; ", f"; {part.text}"):
            if joined in text:
                text = text.replace(joined, "", 1)
                break
    return text


def _removal(before: dict[str, Any]) -> str:
    """What the report says of a unit or combatant the GM removed from the encounter."""
    name, side = str(before.get("name", "")), str(before.get("side", ""))
    who = f"{name} ({side})" if side else name
    strength = before.get("strength")
    if isinstance(strength, int) and not isinstance(strength, bool) and strength > 0:
        return f"removed by the GM: {who}, strength {strength}, counted among the losses"
    if "strength" not in before and before.get("out") is not True:
        return f"removed by the GM: {who}, counted among those out of the fight"
    return f"removed by the GM: {who}"


def _line(i: int, e: LogEntry, seq: seqs.SequenceOfPlay | None, all_sides: list[str],
          known: People, actions: dict[str, _Declared]) -> Line:
    turn = ""
    if seq is not None and seq.turns_by == "side" and all_sides:
        named = all_sides[min(max(e.side, 0), len(all_sides) - 1)]
        turn = named if named in known.sides else ""
    actor, actor_side = known.who(e.actor)
    line = Line(index=i + 1, round=e.round, phase=_phase_name(seq, e.phase), turn=turn,
                kind=e.kind, text=e.text, actor=actor, actor_side=actor_side)
    line.notes += [_removal(op.before) for op in e.ops if op.op == "remove"
                   and op.path in (["units"], ["combatants"]) and isinstance(op.before, dict)]
    res = e.resolved
    stages = res.stages if res is not None else []
    for roll in e.rolls:
        st = stages[roll.stage] if 0 <= roll.stage < len(stages) else None
        line.dice.append(Die(roll.role, roll.sides, roll.value, roll.source, roll.stage,
                             st.need if st else None, st.under if st else None))
    if res is None:
        line.action = e.kind if e.kind in actions else ""
        return line
    line.recorded = True
    line.action, line.outcome, line.forced = res.action, res.outcome, res.forced
    line.stages = list(res.stages)
    declared = actions.get(res.action, _Declared())
    actor_key, target_key = declared.actor, declared.target
    if not line.actor and isinstance(res.params.get(actor_key), str):
        line.actor, line.actor_side = known.who(res.params[actor_key])
    # the parameter the action names as its target (a record kept before the tracker
    # looked for it may hold another parameter called "target", such as a target's state)
    target = str(res.params.get(target_key) or "") or res.target
    line.target, line.target_side = known.who(target)
    skip = {*SHOWN_PARAMS_SKIP, actor_key, target_key}
    line.params = {k: v for k, v in res.params.items() if k not in skip}
    line.changed = [k for k, v in line.params.items()
                    if k not in declared.defaults or not _same(v, declared.defaults[k])]
    line.happened = res.happened or _named_by_outcome(res.odds, res.outcome)
    line.has_odds = bool(res.odds)
    line.odds = [(label, p) for label, p in res.odds]
    if line.happened:
        line.chance = next((p for label, p in res.odds if label == line.happened), None)
    return line
