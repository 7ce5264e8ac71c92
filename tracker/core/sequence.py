"""The sequence of play: rounds, the sides' turns, phases, who acts in each, and the duties
that end a phase. A ruleset declares its sequence as data; this module runs it.

A round walks the phases once (``turns_by="round"``: Esprit de Corps' two exchanges,
Fantasy Warlord's game turn), or each side takes a whole turn of the phases in turn
(``turns_by="side"``: Warmaster, the d6 battle game). In a phase, ``acting`` says who acts:
``each`` combatant (or group) in order of the ruleset's order stat, each ``side`` in turn,
``all`` sides at once (simultaneous fire), or ``none`` (a phase of duties only).

A new encounter's first advance begins the fight (:func:`begin`): its first phase's start
duties are owed then (everyone's initiative, where the ruleset rolls it).

Advancing (``n``: the next to act, ``p``: the next phase, ``N``: the next round) never
crosses a phase end with a duty pending: :func:`crossings` lists the phase ends an advance
would cross, the session checks their duties (running the ones that need nothing of the
GM, stopping at the ones that do), and :func:`move` then moves the position, ending and
starting turns (timed effects) and rounds (the ruleset's upkeep).

Duties, the one way to say what the rules owe at a phase's edge (:class:`Duty`):

- A duty owed as a phase ends (``at="end"``, the default: Warmaster's drive backs) keeps
  the phase from ending while it is pending; its action does it (the app opens it), or
  ``next --dice``/``--roll-rest`` runs it with the advance.
- A duty owed as a phase begins (``at="start"``: edc's blood loss tests as each round
  begins) is an upkeep that asks for dice: the advance that begins the phase runs its
  action for each one it is pending for with the dice given with ``next`` (``--dice``,
  ``--roll-rest``, or the app's dice step), or stops and says which dice it needs. A
  phase that begins a round owes its start duties as the round begins, before the
  round's own upkeep (``round_start``), which sees what they did.
- While a duty of the phase the fight stands in is pending, the actions it ``blocks``
  are refused (d6battle: "resolve the effect before moving to your next unit", so a
  morale test owed blocks ``shoot``); ``force=yes`` overrides it as any limit.
- What a duty leaves behind when the GM skips it (``next force``) is not the duty's to
  say: the state it deals with is a field the ruleset declares in
  :attr:`SequenceOfPlay.lifetimes` with the boundary where the rules end it (a
  :class:`~tracker.core.lifetimes.Lasts` ending with the duty's phase). A skipped duty
  does not stop the phase ending, so the phase end still does what the rules do there
  anyway: the field is reset ("leftover hits discarded"), or its ``then`` does what is
  owed (held casualties removed, morale tests owed). The log names each duty skipped and
  what it owed, then what ended.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .dice import Dice
from .lifetimes import At, Boundary, Lasts, expire
from .words import possessive

if TYPE_CHECKING:  # no pydantic on the way to `tracker resolve`
    from .history import Transaction
    from .model import Combatant, Encounter, Position, Unit

Acting = Literal["each", "side", "all", "none"]
TurnsBy = Literal["round", "side"]
Grouping = Literal["none", "group", "side"]
RoundStart = Callable[[Any, Any, Dice], list[str]]
"""The upkeep at the start of a round: (encounter, transaction, dice) -> log lines."""
Pending = Callable[[Any], list[tuple[str, str]]]
"""What is still to do, as (combatant or unit id, words): ("knights", "4 hits to drive back")."""

ALL = "*"
"""The holder of a phase in which every side acts at once."""


@dataclass(frozen=True, slots=True)
class Duty:
    """Something the rules owe at a phase's end (or, with ``at="start"``, as it begins).

    ``pending`` lists what is still to do: (who owes it, what in words). While anything
    is pending the phase cannot be left (or begun, for a start duty) unless the GM forces
    it, which the log records with what was owed; ``action`` names the action that does
    it, which the app opens (its dice step, for a start duty) so the GM can enter its
    dice. With ``always`` the action also runs when nothing is pending (bookkeeping such as
    clearing the phase's marks), by the tracker, in the same log entry as the advance.
    ``blocks`` names the actions refused while it is pending in the phase the fight stands
    in (a start duty is never pending there: the advance that begins the phase does it).
    """

    name: str
    pending: Pending
    action: str = ""
    always: bool = False
    at: At = "end"
    blocks: tuple[str, ...] = ()
    entered: str = ""
    """What the GM enters that no die gives, in words (HârnMaster's injury level, from a
    table the text does not print): ``--roll-rest`` and ``--dice`` cannot do the duty, and
    the advance stops at it saying so."""


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase (or a step, such as an exchange) of the round or of a side's turn."""

    name: str
    acting: Acting = "each"
    actions: tuple[str, ...] | None = None
    """The actions taken in this phase (None: any)."""
    duties: tuple[Duty, ...] = ()
    reminder: Callable[[Any], str] | None = None
    """What the phase asks of the GM on the table, said in the log as it begins (empty:
    nothing): d6battle's resolution names the units that flee."""


@dataclass(frozen=True, slots=True)
class SequenceOfPlay:
    """A ruleset's sequence of play."""

    phases: tuple[Phase, ...] = (Phase(""),)
    turns_by: TurnsBy = "round"
    round_start: RoundStart | None = None
    """The upkeep at the start of each round (refreshing pools, clearing marks); its lines
    go into the log of the advance that starts the round."""
    names: dict[str, str] = field(default_factory=dict)
    """Words for the phases where their names are terse."""
    lifetimes: tuple[Lasts, ...] = ()
    """The fields the ruleset's rules set and when each ends (see
    :mod:`tracker.core.lifetimes`)."""
    order: Callable[[Any], list[str]] | None = None
    """Who acts in a phase where each combatant acts, in order, where the ruleset's rules
    say more than its order stat (edc: the holder of the initiative attacks first in his
    bout): (encounter) -> combatant ids. None: by the order stat, highest first."""

    def phase(self, pos: Position) -> Phase:
        return self.phases[min(max(pos.phase, 0), len(self.phases) - 1)]

    @property
    def has_phases(self) -> bool:
        return len(self.phases) > 1 or bool(self.phases[0].name)


def plain_sequence(phases: list[str] | None = None, start_round: RoundStart | None = None,
                   by_side: bool = False) -> SequenceOfPlay:
    """A sequence with these phases: a round of them for combatants, or each side's turn
    of them when the sides take turns."""
    if by_side:
        return SequenceOfPlay(tuple(Phase(p, "side") for p in phases or [""]), "side",
                              start_round)
    return SequenceOfPlay(tuple(Phase(p, "each") for p in phases or [""]), "round", start_round)


# --- who acts ----------------------------------------------------------------------------


def order_value(c: Combatant, stat: str) -> int:
    """The value that orders a combatant's turn, highest first."""
    if c.rolled_initiative is not None:
        return c.rolled_initiative
    if stat in type(c).model_fields:
        value = getattr(c, stat)
        return int(value) if isinstance(value, (int, float)) else 0
    return c.stats.get(stat, c.initiative)


def sides(enc: Encounter) -> list[str]:
    """The sides in the order they first appear."""
    seen: list[str] = []
    for who in enc.everyone:
        if who.side not in seen:
            seen.append(who.side)
    return seen


def acting_order(enc: Encounter, stat: str = "initiative",
                 grouping: Grouping = "none") -> list[str]:
    """Who acts, in order: combatants by ``stat`` (highest first; ties by the ruleset's
    :meth:`~tracker.core.model.Combatant.tie_rank`, then by name), a group or a side acting
    together where ``grouping`` says so; with no combatants, the units' sides."""
    if not enc.combatants:
        return sides(enc)
    best: dict[str, tuple[int, int, str]] = {}
    for c in enc.combatants:
        if c.out:
            continue
        holder = holder_of(c, grouping)
        rank = (-order_value(c, stat), -c.tie_rank(enc), c.name.lower())
        if holder not in best or rank < best[holder]:
            best[holder] = rank
    return sorted(best, key=lambda h: best[h])


def holder_of(c: Combatant, grouping: Grouping) -> str:
    """Whom a combatant acts with: its group or side where they act together, else itself."""
    if grouping == "group" and c.group:
        return f"group:{c.group}"
    if grouping == "side":
        return f"side:{c.side}"
    return c.id


def actors(enc: Encounter, seq: SequenceOfPlay, stat: str = "initiative",
           grouping: Grouping = "none", pos: Position | None = None) -> list[str]:
    """Who acts, in order, in the phase ``pos`` (default: now) stands in."""
    pos = pos or enc.position
    phase = seq.phase(pos)
    if phase.acting == "none":
        return []
    if phase.acting == "all":
        return [ALL]
    everyone = sides(enc)
    if seq.turns_by == "side":
        if not everyone:
            return []
        side = everyone[min(pos.side, len(everyone) - 1)]
        if phase.acting == "side" or not enc.combatants:
            return [side]
        return [h for h in acting_order(enc, stat, grouping) if side in members_sides(enc, h)]
    if phase.acting == "side":
        return everyone
    if seq.order is not None and grouping == "none" and enc.combatants:
        return seq.order(enc)
    return acting_order(enc, stat, grouping)


def current(enc: Encounter, seq: SequenceOfPlay, stat: str = "initiative",
            grouping: Grouping = "none") -> str | None:
    """Who acts now (a combatant id, a side, a group, or ``*`` for every side at once);
    None when no one does: the order is empty, or the last in it left on their own turn
    and the round's turns are over."""
    order = actors(enc, seq, stat, grouping)
    if not order or enc.position.turn >= len(order):
        return None
    return order[enc.position.turn]


def phasing_side(enc: Encounter, seq: SequenceOfPlay) -> str | None:
    """In games where the sides take turns: the side whose turn it is."""
    if seq.turns_by != "side":
        return None
    everyone = sides(enc)
    return everyone[min(enc.position.side, len(everyone) - 1)] if everyone else None


def members(enc: Encounter, holder: str) -> list[Combatant | Unit]:
    """The combatants or units a holder stands for."""
    if holder == ALL:
        return list(enc.everyone)
    if holder.startswith("group:"):
        return [c for c in enc.combatants if c.group == holder[6:]]
    if holder.startswith("side:"):
        holder = holder[5:]
    by_id = [x for x in enc.everyone if x.id == holder]
    if by_id:
        return by_id
    return [x for x in enc.everyone if x.side == holder]


def members_sides(enc: Encounter, holder: str) -> set[str]:
    return {m.side for m in members(enc, holder)}


def holder_name(enc: Encounter, holder: str | None) -> str:
    """A holder in words: a combatant's name, a side, a group, or every side."""
    if holder is None:
        return "no one"
    if holder == ALL:
        return "every side"
    if holder.startswith("group:"):
        return f"{holder[6:]} (group)"
    if holder.startswith("side:"):
        return holder[5:]
    for c in enc.everyone:
        if c.id == holder:
            return c.name
    return holder


def is_holder(enc: Encounter, holder: str | None, who: Combatant | Unit) -> bool:
    """Does ``who`` act as (or as part of) ``holder``?"""
    if holder is None:
        return False
    return any(m.id == who.id for m in members(enc, holder))


# --- moving on -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseEnd:
    """A phase end an advance crosses: the phase, and where it stood."""

    phase: Phase
    side: int
    index: int


@dataclass(slots=True)
class Step:
    """What advancing did, for the log line: where the fight now stands (``head``), then
    what ended or was done on the way (``notes``)."""

    head: str
    notes: list[str] = field(default_factory=list)
    new_round: bool = False

    @property
    def text(self) -> str:
        return "; ".join([self.head, *self.notes])


@dataclass(frozen=True, slots=True)
class Skipped:
    """What an advance passes over unplayed: the turns not taken in the phase it leaves
    (those after the one acting), the phases not begun of the side's turn (or of the
    round), and the later sides' whole turns. No text obliges anyone to act in a phase,
    so skipping is allowed; it is said in the log, and the app asks before ``N`` skips
    whole phases or turns (:attr:`whole`)."""

    phase: str = ""
    """The phase left, in words."""
    turns: tuple[str, ...] = ()
    """Whose turns in it were not taken, by name."""
    side: str | None = None
    """Whose turn the phases not begun belong to, where the sides take turns."""
    phases: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()

    @property
    def whole(self) -> bool:
        """Whether whole phases or turns are skipped (not only turns in the phase left)."""
        return bool(self.phases or self.sides)

    def notes(self) -> list[str]:
        """What was skipped, for the log."""
        out: list[str] = []
        if self.turns:
            out.append(f"{_and(list(self.turns))} had no turn in {self.phase}")
        if self.phases:
            word = "phase" if len(self.phases) == 1 else "phases"
            if self.side is not None:
                out.append(f"{possessive(self.side)} {_and(list(self.phases))} {word} skipped")
            else:
                out.append(f"{_and(list(self.phases))} skipped")
        out += [f"{possessive(s)} whole turn skipped" for s in self.sides]
        return out

    def question(self) -> str:
        """``Skip the rest of the Empire's turn and the High Elves' whole turn?``"""
        parts: list[str] = []
        if self.side is not None:
            if self.phases or self.turns:
                parts.append(f"the rest of the {possessive(self.side)} turn")
        else:
            if self.turns:
                parts.append(f"the rest of {self.phase}")
            parts += list(self.phases)
        parts += [f"the {possessive(s)} whole turn" for s in self.sides]
        return f"Skip {_and(parts)}?"


def skipped(enc: Encounter, seq: SequenceOfPlay, what: str, stat: str = "initiative",
            grouping: Grouping = "none") -> Skipped:
    """What advancing ``what`` (turn, phase or round) from here passes over unplayed."""
    if what == "turn":
        return Skipped()
    pos = enc.position
    phase = seq.phase(pos)
    turns: list[str] = []
    if phase.acting in ("each", "side") and not (seq.turns_by == "side" and phase.acting == "side"):
        order = actors(enc, seq, stat, grouping)
        # one who acted in the phase out of turn (an edc defender's parry) had his turn
        done = {a.actor for a in enc.acted if (a.round, a.side, a.phase)
                == (pos.round, pos.side, pos.phase)}
        turns = [holder_name(enc, h) for h in order[pos.turn + 1:]
                 if not any(m.id in done for m in members(enc, h))]
    where = _phase_words(seq, pos.phase) if seq.has_phases else f"round {pos.round}"
    if what != "round":
        return Skipped(where, tuple(turns))
    side = phasing_side(enc, seq)
    later = sides(enc)[pos.side + 1:] if seq.turns_by == "side" else []
    phases = [_phase_words(seq, i) for i in range(pos.phase + 1, len(seq.phases))]
    return Skipped(where, tuple(turns), side, tuple(phases), tuple(later))


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def crossings(enc: Encounter, seq: SequenceOfPlay, what: str, stat: str = "initiative",
              grouping: Grouping = "none") -> list[PhaseEnd]:
    """The phase ends that advancing ``what`` (turn, phase or round) from here crosses."""
    pos = enc.position
    if what == "turn" and pos.turn + 1 < len(actors(enc, seq, stat, grouping)):
        return []
    ends = [PhaseEnd(seq.phase(pos), pos.side, pos.phase)]
    if what != "round":
        return ends
    n_sides = len(sides(enc)) if seq.turns_by == "side" else 1
    side, index = pos.side, pos.phase
    while True:
        index += 1
        if index >= len(seq.phases):
            side, index = side + 1, 0
            if side >= n_sides:
                return ends
        ends.append(PhaseEnd(seq.phases[index], side, index))


Begun = Callable[[Phase], list[str]]
"""What the rules owe as a phase begins, dealt with at that point of a move: (the phase
begun) -> log lines. It may raise to stop the move (the caller rolls it back)."""


def begin(enc: Encounter, tx: Transaction, seq: SequenceOfPlay, *, stat: str = "initiative",
          grouping: Grouping = "none", begun: Begun | None = None) -> Step | None:
    """The fight's first advance begins it (``under_way``): the start duties of its first
    phase are dealt with by ``begun``. Where they did something (initiative rolled, or
    skipped by the GM) the fight stands at its first turn, the first of the order they
    made, and the advance goes no further; else None, and the advance moves on as ever."""
    lines = _begin(enc, seq, begun)
    tx.set(["under_way"], True)
    if not lines:
        return None
    tx.set(["position", "turn"], 0)
    holder = current(enc, seq, stat, grouping)
    first = f", {holder_name(enc, holder)} first" if holder not in (None, ALL) else ""
    if seq.has_phases:
        first = f", {_phase_words(seq, enc.position.phase)}{first}"
    return Step(f"Round {enc.position.round} begins{first}", lines)


def move(enc: Encounter, tx: Transaction, what: str, seq: SequenceOfPlay, *,
         stat: str = "initiative", grouping: Grouping = "none", dice: Dice | None = None,
         begun: Begun | None = None) -> Step:
    """Move to the next to act, phase or round inside ``tx`` (the duties of the phase ends
    crossed already dealt with), ending what ends at each boundary passed on the way;
    ``begun`` deals with the start duties of the phase it begins."""
    pos = enc.position
    before = current(enc, seq, stat, grouping)
    notes = _pass(enc, tx, seq, [_go(enc, seq, before, "end")])
    if what == "turn" and pos.turn + 1 < len(actors(enc, seq, stat, grouping)):
        tx.set(["position", "turn"], pos.turn + 1)
        holder = current(enc, seq, stat, grouping)
        notes += _pass(enc, tx, seq, [_go(enc, seq, holder, "start")])
        return Step(f"Turn: {holder_name(enc, holder)}", notes)
    if what != "round" and pos.phase + 1 < len(seq.phases):
        notes += _pass(enc, tx, seq, [_phase(seq, pos, "end")])
        tx.set(["position", "phase"], pos.phase + 1)
        tx.set(["position", "turn"], 0)
        notes += _pass(enc, tx, seq, [_phase(seq, enc.position, "start")])
        holder = current(enc, seq, stat, grouping)  # what the phase's start ends may order it
        notes += _pass(enc, tx, seq, [_go(enc, seq, holder, "start")])
        notes += _begin(enc, seq, begun)
        text = f"Phase: {_phase_words(seq, pos.phase)}"
        return Step(_with_actor(enc, seq, stat, grouping, text), [*notes, *_reminder(enc, seq)])
    if what != "round" and seq.turns_by == "side" and pos.side + 1 < len(sides(enc)):
        notes += _pass(enc, tx, seq, [_phase(seq, pos, "end"), _side(enc, seq, "end")])
        tx.set(["position", "side"], pos.side + 1)
        tx.set(["position", "phase"], 0)
        tx.set(["position", "turn"], 0)
        side = phasing_side(enc, seq)
        notes += _pass(enc, tx, seq, [_side(enc, seq, "start"),
                                      _phase(seq, enc.position, "start")])
        holder = current(enc, seq, stat, grouping)
        notes += _pass(enc, tx, seq, [_go(enc, seq, holder, "start")])
        notes += _begin(enc, seq, begun)
        first = f", {_phase_words(seq, 0)}" if seq.has_phases else ""
        return Step(f"Turn: {side}{first}", [*notes, *_reminder(enc, seq)])
    return _new_round(enc, tx, seq, stat, grouping, dice, notes, begun)


def _new_round(enc: Encounter, tx: Transaction, seq: SequenceOfPlay, stat: str, grouping: Grouping,
               dice: Dice | None, notes: list[str], begun: Begun | None) -> Step:
    ended = enc.position.round
    notes += _pass(enc, tx, seq, [*_rest_of_round(enc, seq)])
    notes += _untaken(enc, tx)
    notes += _pass(enc, tx, seq, [Boundary("end", "round", "", (ended,))])
    tx.set(["position", "round"], ended + 1)
    tx.set(["position", "side"], 0)
    tx.set(["position", "phase"], 0)
    tx.set(["position", "turn"], 0)
    if enc.acted:
        tx.set(["acted"], [])
    notes += _reset_conditions(enc, tx)
    notes += _pass(enc, tx, seq, [Boundary("start", "round", "", (ended + 1,))])
    notes += _begin(enc, seq, begun)  # before the round's upkeep, which sees what they did
    if seq.round_start is not None:
        notes += seq.round_start(enc, tx, dice or Dice(seed=enc.seed + len(enc.log)))
    notes += _pass(enc, tx, seq, [_side(enc, seq, "start"), _phase(seq, enc.position, "start")])
    holder = current(enc, seq, stat, grouping)  # what the phase's start ends may order it
    notes += _pass(enc, tx, seq, [_go(enc, seq, holder, "start")])
    # every side acting at once has no one first
    first = f", {holder_name(enc, holder)} first" if holder not in (None, ALL) else ""
    if seq.has_phases:
        first = f", {_phase_words(seq, 0)}{first}"
    return Step(f"Round {ended + 1}{first}", [*notes, *_reminder(enc, seq)], new_round=True)


# --- the boundaries a move passes ------------------------------------------------------------


UNTAKEN_TURN = "untaken_turn"
"""The setting that says when an effect lasting until the turn of one who takes none ends:
``round`` (its default: as the round that turn would have come in ends) or ``kept``."""


def _untaken(enc: Encounter, tx: Transaction) -> list[str]:
    """As a round ends: each effect lasting until a turn that no one is left to take (its
    holder down, out, routed or gone) ends, where the ``untaken_turn`` setting says so; the log
    says whose turn did not come."""
    if enc.settings.get(UNTAKEN_TURN, "round") != "round":
        return []
    lines: list[str] = []
    lists: tuple[tuple[str, list[Combatant | Unit]], ...] = (
        ("combatants", [*enc.combatants]), ("units", [*enc.units]))
    for kind, items in lists:
        for who in items:
            ending = [e for e in who.effects if e.ends is not None and e.ends.of == "turn"
                      and not _takes_turns(enc, e.ends.who or who.id)]
            if not ending:
                continue
            tx.set([kind, who.id, "effects"], [e for e in who.effects if e not in ending])
            for e in ending:
                holder = e.ends.who if e.ends is not None and e.ends.who else who.id
                lines.append(f"{who.name}: {e.name} ended ({possessive(holder_name(enc, holder))}"
                             f" turn did not come: {_no_turn_words(enc, holder)})")
    return lines


def _no_turn_words(enc: Encounter, holder: str) -> str:
    """Why a holder takes no turn, in the words of what it stands for."""
    found = members(enc, holder)
    if not found:
        return "gone"
    if all(hasattr(m, "routed") for m in found):  # units
        return "routed or removed"
    return "down, out or gone"


def _takes_turns(enc: Encounter, holder: str) -> bool:
    """Does anyone ``holder`` stands for still take turns (not out of the fight, not
    routed or removed)?"""
    return any(m.active for m in members(enc, holder))



def _pass(enc: Encounter, tx: Transaction, seq: SequenceOfPlay,
          passed: list[Boundary | None]) -> list[str]:
    """End what ends at each boundary passed, in order; the log's lines."""
    lines: list[str] = []
    for b in passed:
        if b is not None:
            lines += expire(enc, tx, b, seq.lifetimes,
                            lambda holder: {m.id for m in members(enc, holder)})
    return lines


def _go(enc: Encounter, seq: SequenceOfPlay, holder: str | None, at: At) -> Boundary | None:
    """The start or end of ``holder``'s turn in this phase; None where the phase has no
    turns of its own (every side at once, or the sides' phases of a side's whole turn)."""
    pos = enc.position
    phase = seq.phase(pos)
    if holder is None or holder == ALL or phase.acting in ("all", "none"):
        return None
    if seq.turns_by == "side" and phase.acting == "side":
        return None
    return Boundary(at, "turn", holder, (pos.round, pos.side, pos.phase, pos.turn))


def _phase(seq: SequenceOfPlay, pos: Position, at: At) -> Boundary | None:
    if not seq.has_phases:
        return None
    return Boundary(at, "phase", seq.phase(pos).name, (pos.round, pos.side, pos.phase))


def _side(enc: Encounter, seq: SequenceOfPlay, at: At) -> Boundary | None:
    """The start or end of the phasing side's whole turn, where the sides take turns."""
    side = phasing_side(enc, seq)
    if side is None:
        return None
    return Boundary(at, "turn", side, (enc.position.round, enc.position.side))


def _rest_of_round(enc: Encounter, seq: SequenceOfPlay) -> list[Boundary | None]:
    """The ends passed from here to the end of the round: this phase's, the phases left
    of this side's turn and the sides' turns after it (``N`` leaves them all)."""
    pos = enc.position
    out: list[Boundary | None] = []
    n_sides = len(sides(enc)) if seq.turns_by == "side" else 1
    everyone = sides(enc)
    for side in range(pos.side, max(n_sides, pos.side + 1)):
        first = pos.phase if side == pos.side else 0
        for index in range(first, len(seq.phases)):
            if seq.has_phases:
                out.append(Boundary("end", "phase", seq.phases[index].name,
                                    (pos.round, side, index)))
        if seq.turns_by == "side" and side < len(everyone):
            out.append(Boundary("end", "turn", everyone[side], (pos.round, side)))
    return out


def _begin(enc: Encounter, seq: SequenceOfPlay, begun: Begun | None) -> list[str]:
    """The start duties of the phase the fight now stands in, dealt with by ``begun``."""
    phase = seq.phase(enc.position)
    if begun is None or not any(d.at == "start" for d in phase.duties):
        return []
    return begun(phase)


def _reminder(enc: Encounter, seq: SequenceOfPlay) -> list[str]:
    """The reminder of the phase just begun, if it has one and it says something."""
    remind = seq.phase(enc.position).reminder
    said = remind(enc) if remind is not None else ""
    return [said] if said else []


def _phase_words(seq: SequenceOfPlay, index: int) -> str:
    name = seq.phases[index].name
    return seq.names.get(name, name)


def _with_actor(enc: Encounter, seq: SequenceOfPlay, stat: str, grouping: Grouping,
                text: str) -> str:
    phase = seq.phase(enc.position)
    holder = current(enc, seq, stat, grouping)
    if phase.acting in ("each", "side") and holder is not None and seq.turns_by == "round":
        return f"{text}, {holder_name(enc, holder)} first"
    return text


ROUND_RESETS = "round_resets"
"""The setting naming conditions that clear at the start of each round."""


def _reset_conditions(enc: Encounter, tx: Transaction) -> list[str]:
    """Conditions the GM said reset each round ("reacted, dodged") clear as it starts."""
    names = {c.strip() for c in str(enc.settings.get(ROUND_RESETS, "")).split(",") if c.strip()}
    if not names:
        return []
    cleared: list[str] = []
    for kind, items in (("combatants", enc.combatants), ("units", enc.units)):
        for who in items:
            gone = [c for c in who.conditions if c in names]
            if gone:
                tx.set([kind, who.id, "conditions"], [c for c in who.conditions if c not in names])
                cleared.append(f"{who.name}: {', '.join(gone)} cleared")
    return cleared
