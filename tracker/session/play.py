"""The sequence of play in an open encounter: advancing past duties, the limits on acting,
and keeping the turn with whoever has it when the order changes.

The session calls these; the rules declare the sequence (:mod:`tracker.core.sequence`) and
each action's phases and limits (:class:`tracker.rules.base.Action`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tracker.core import sequence as seqs
from tracker.core.dice import Dice
from tracker.core.model import Acted, Combatant, Encounter, Unit
from tracker.core.words import article, possessive
from tracker.session.language import YES

if TYPE_CHECKING:  # the action code loads when an action is first taken, not at start
    from collections.abc import Callable

    from tracker.core.history import Transaction
    from tracker.rules.action import Action, Resolution
    from tracker.rules.ruleset import Ruleset

    RunDuty = Callable[[str, Transaction, Dice, seqs.PhaseEnd, list[str]], str]
    """Runs a duty's action inside the advance's transaction for the phase end it belongs
    to and the ids of those it is pending for: (action, tx, dice, end, ids) -> text."""

@dataclass(frozen=True, slots=True)
class Ask:
    """The dice a duty owes for one who owes it: the action's parameters as the duty would
    run it (for the dice step), and the dice it asks for, in words."""

    who: str
    """Who owes it, by name ("" for the phase itself)."""
    params: Any
    dice: str
    """``toughness 4 d10`` ("" where no die is known before the first falls)."""
    roles: tuple[str, ...] = ()
    """The roles of its dice, as ``--dice`` takes them."""


@dataclass(frozen=True, slots=True)
class PendingDuty:
    """A phase cannot end (or begin): a duty is still to do (the app opens its action's
    dialog, or, for a start duty, asks for its dice)."""

    phase: str
    duty: seqs.Duty
    items: list[tuple[str, str]]
    """Who owes it (an id, or "" for the phase itself) and what, in words."""
    why: str
    """What is pending, without how to deal with it (the app opens the dialog)."""
    asks: tuple[Ask, ...] = ()
    """The dice it owes, one who owes it after another (the session fills them in)."""

    @classmethod
    def of(cls, phase: str, duty: seqs.Duty, items: list[tuple[str, str]],
           names: dict[str, str], round_: int, side: str = "") -> PendingDuty:
        """What cannot move while the duty is pending: the phase where the sequence names
        its phases, else the side's turn where the sides take turns (``side``), else the
        round (a phase of a whole round: HârnMaster's)."""
        where = f"the {phase} phase" if phase else \
            f"{possessive(side)} turn" if side else f"round {round_}"
        if duty.at == "start":
            where = f"{phase} of round {round_}" if phase else \
                f"{possessive(side)} turn of round {round_}" if side else f"round {round_}"
        what = owed(items, names)
        verb = "begin" if duty.at == "start" else "end"
        return cls(phase, duty, items, f"{where} cannot {verb} yet: {duty.name} ({what})")

    @property
    def start(self) -> bool:
        """Owed as the phase begins: the advance itself takes its dice."""
        return self.duty.at == "start"

    @property
    def action(self) -> str:
        """The action that does the duty ("" where the GM does it on the table)."""
        return self.duty.action

    @property
    def first(self) -> str | None:
        """The id of the first who owes it (the next unit to test), if any."""
        return next((who for who, _ in self.items if who), None)

    @property
    def message(self) -> str:
        """What is pending and how to deal with it, in one line."""
        dice = "; ".join(f"{a.dice} for {a.who}" if a.who else a.dice
                         for a in self.asks if a.dice)
        roles = " ".join(f"{r}=…" for r in dict.fromkeys(r for a in self.asks for r in a.roles))
        give = f"next --dice {roles} or next --roll-rest gives them" if roles else ""
        if self.duty.entered:
            how = [self.duty.entered, f"{self.action} does it (n opens its dialog)",
                   "next force leaves it undone"]
        elif self.start:
            how = [f"its dice: {dice}" if dice else "", give,
                   "next force begins it without them"]
        else:
            does = f"{self.action} does it" if self.action else ""
            how = [does, f"its dice: {dice} ({give})" if dice else "", "next force skips it"]
        return "; ".join([self.why, *(h for h in how if h)])

    def with_asks(self, asks: list[Ask]) -> PendingDuty:
        return PendingDuty(self.phase, self.duty, self.items, self.why, tuple(asks))


def owed(items: list[tuple[str, str]], names: dict[str, str]) -> str:
    """What a duty owes, in words: ``Empire Knights: 2 hits to drive back; ...``."""
    return "; ".join(f"{names.get(i, i)}: {words}" if i else words for i, words in items)


class Stop(Exception):
    """A start duty still pending: the advance stops there (its caller rolls back)."""

    def __init__(self, pending: PendingDuty) -> None:
        super().__init__(pending.why)
        self.pending = pending


class Never(str):
    """Why an action may not be taken that no ``force=yes`` passes: who acts cannot take
    it with what they have (a bow is neither spanned nor thrown)."""


FORCE_HINT = " (force=yes at the : line takes it anyway)"
"""What follows a refusal that force=yes passes, where the app says it."""


@dataclass
class Where:
    """Where the fight stands, in words: round, phase, who acts."""

    round: int
    phase: str
    actor: str
    actor_id: str | None
    side: str | None


class Play:
    """The sequence of play of one encounter under its ruleset."""

    def __init__(self, enc: Encounter, ruleset: Ruleset) -> None:
        self.enc, self.ruleset = enc, ruleset
        assert ruleset.sequence is not None
        self.seq: seqs.SequenceOfPlay = ruleset.sequence

    @property
    def stat(self) -> str:
        return self.ruleset.order_stat

    @property
    def grouping(self) -> seqs.Grouping:
        value = str(self.enc.settings.get("group_initiative", "none"))
        return value if value in ("group", "side") else "none"  # type: ignore[return-value]

    def current(self) -> str | None:
        return seqs.current(self.enc, self.seq, self.stat, self.grouping)

    def order(self) -> list[str]:
        return seqs.actors(self.enc, self.seq, self.stat, self.grouping)

    def side(self) -> str | None:
        """The side whose turn it is, in games where the sides take turns."""
        return seqs.phasing_side(self.enc, self.seq)

    def where(self) -> Where:
        holder = self.current()
        phase = self.seq.phase(self.enc.position)
        return Where(self.enc.position.round, self.seq.names.get(phase.name, phase.name),
                     seqs.holder_name(self.enc, holder), holder,
                     seqs.phasing_side(self.enc, self.seq))

    def names(self) -> dict[str, str]:
        return {x.id: x.name for x in self.enc.everyone}

    # --- advancing ------------------------------------------------------------------------

    def duties_crossed(
        self, what: str
    ) -> list[tuple[seqs.PhaseEnd, seqs.Duty, list[tuple[str, str]]]]:
        """Each duty of each phase end the advance crosses, with what is pending of it."""
        out = []
        for end in seqs.crossings(self.enc, self.seq, what, self.stat, self.grouping):
            for duty in end.phase.duties:
                if duty.at == "end":
                    out.append((end, duty, duty.pending(self.enc)))
        return out

    def skipped(self, what: str) -> seqs.Skipped:
        """What advancing ``what`` passes over unplayed (the app asks before ``N`` skips
        whole phases or turns); nothing where it begins the fight instead."""
        if self.opening():
            return seqs.Skipped()
        return seqs.skipped(self.enc, self.seq, what, self.stat, self.grouping)

    def opening(self) -> bool:
        """Whether the next advance begins the fight with what its first round owes as
        it begins (everyone's initiative), moving no one."""
        if self.enc.under_way:
            return False
        phase = self.seq.phase(self.enc.position)
        return any(d.at == "start" and d.pending(self.enc) for d in phase.duties)

    def advance(self, tx: Transaction, what: str, *, force: bool, roll_rest: bool,
                dice: Dice, run: RunDuty) -> str | PendingDuty:
        """Deal with the duties the advance crosses, then move, dealing with the duties
        of the phase it begins as it begins; the log line. A duty still pending is run by
        its action where the GM typed its dice or said ``--roll-rest``; else the advance
        stops at it (what it did before is the caller's to undo), or, forced, goes on and
        the log says what was skipped and what it owed."""
        notes: list[str] = []
        typed = {role for role, values in dice.entered.items() if values}  # --dice

        def begun(phase: seqs.Phase) -> list[str]:
            pos = self.enc.position
            here = seqs.PhaseEnd(phase, pos.side, pos.phase)
            lines: list[str] = []
            for duty in phase.duties:
                if duty.at != "start":
                    continue
                items = duty.pending(self.enc)
                if items and self._rolled(duty, roll_rest, typed):
                    lines.append(run(duty.action, tx, dice, here, [i for i, _ in items if i]))
                elif items and not force:
                    words = self.seq.names.get(phase.name, phase.name)
                    raise Stop(PendingDuty.of(words, duty, items, self.names(), pos.round,
                                              self._side_of(here)))
                elif items:
                    lines.append(self._skip_note(duty, items))
                elif duty.action and duty.always:
                    lines += self._bookkeeping(duty, tx, here, run)
            return lines

        if not self.enc.under_way:  # the first advance begins the fight
            try:
                first = seqs.begin(self.enc, tx, self.seq, stat=self.stat,
                                   grouping=self.grouping, begun=begun)
            except Stop as stop:
                return stop.pending
            if first is not None:
                return first.text
        skipped = self.skipped(what)
        for end, duty, items in self.duties_crossed(what):
            words = self.seq.names.get(end.phase.name, end.phase.name)
            if items and self._rolled(duty, roll_rest, typed):
                notes.append(run(duty.action, tx, dice, end, [i for i, _ in items if i]))
            elif items and not force:
                return PendingDuty.of(words, duty, items, self.names(),
                                      self.enc.position.round, self._side_of(end))
            elif items:
                notes.append(self._skip_note(duty, items))
            elif duty.action and duty.always:
                notes += self._bookkeeping(duty, tx, end, run)

        try:
            step = seqs.move(self.enc, tx, what, self.seq, stat=self.stat,
                             grouping=self.grouping, dice=dice, begun=begun)
        except Stop as stop:
            return stop.pending
        return "; ".join([*notes, step.head, *skipped.notes(), *step.notes])

    def _side_of(self, end: seqs.PhaseEnd) -> str:
        """The side whose turn a phase of no name is, where the sides take turns ("":
        the phase is the round's)."""
        if self.seq.turns_by != "side" or end.phase.name:
            return ""
        everyone = seqs.sides(self.enc)
        return everyone[end.side] if end.side < len(everyone) else ""

    def _skip_note(self, duty: seqs.Duty, items: list[tuple[str, str]]) -> str:
        """A duty left undone, with what it owed, in the log's words."""
        return f"{duty.name} skipped by the GM ({owed(items, self.names())})"

    def _bookkeeping(self, duty: seqs.Duty, tx: Transaction, end: seqs.PhaseEnd,
                     run: RunDuty) -> list[str]:
        """A duty's action run with nothing pending (clearing the phase's marks): said only
        when it changed something."""
        made = len(tx.ops)
        text = run(duty.action, tx, Dice(mode="strict"), end, [])
        return [text] if len(tx.ops) > made else []

    def _rolled(self, duty: seqs.Duty, roll_rest: bool, typed: set[str]) -> bool:
        """Whether the advance does ``duty`` with the dice given (``--dice``) or rolled
        (``--roll-rest``): never one whose action wants what the GM enters."""
        if not duty.action or duty.entered:
            return False
        return roll_rest or bool(typed & self._roles(duty.action))

    def _roles(self, action: str) -> set[str]:
        """The roles of the dice an action asks for (a duty's dice typed with next)."""
        found = self.ruleset.actions.get(action)
        return {stage.role for stage in found.stages} if found is not None else set()

    def blocking(self, action: str) -> tuple[seqs.Duty, list[tuple[str, str]]] | None:
        """A duty of the phase the fight stands in, still pending, that blocks ``action``."""
        for duty in self.seq.phase(self.enc.position).duties:
            if duty.at == "end" and action in duty.blocks:
                items = duty.pending(self.enc)
                if items:
                    return duty, items
        return None

    def owing(self, action: str) -> list[str]:
        """The ids of those who still owe a duty of the phase the fight stands in that
        ``action`` does (the units a morale test is owed by), first to owe first."""
        for duty in self.seq.phase(self.enc.position).duties:
            if duty.at == "end" and duty.action == action:
                return [who for who, _ in duty.pending(self.enc) if who]
        return []

    # --- limits ---------------------------------------------------------------------------

    def out_of_phase(self, action: Action[Any]) -> str:
        """Why ``action`` is not taken in the phase the fight stands in (empty: it is),
        known before any of its parameters (the app says it before opening the form)."""
        phase = self.seq.phase(self.enc.position)
        words = self.seq.names.get(phase.name, phase.name)
        if phase.name and action.phases and phase.name not in action.phases:
            allowed = " or ".join(action.phases)
            return f"{action.name} is taken in the {allowed} phase, not in the {words} phase"
        if phase.actions is not None and action.name not in phase.actions:
            allowed = ", ".join(phase.actions) or "none"
            return f"the {words} phase allows {allowed}, not {action.name}"
        return ""

    def not_now(self, action: Action[Any]) -> list[str]:
        """Why no one may take ``action`` now, whoever acts and with whatever parameters:
        the phase does not allow it, or a duty still owed blocks it."""
        out = [p for p in [self.out_of_phase(action)] if p]
        blocked = self.blocking(action.name)
        if blocked is not None:
            duty, items = blocked
            out.append(f"{duty.name} first ({owed(items, self.names())}): the rules resolve it"
                       f" before the next {action.name}")
        return out

    def problems(self, action: Action[Any], params: Any, ids: list[str]) -> list[str]:
        """Why this action may not be taken now, in plain words (empty: it may)."""
        out = self.not_now(action)
        for who in [self._who(i) for i in ids] or [None]:
            out += [r for r in action.unavailable(self.enc, who) if r not in out]
        # what the rules of the actor's state refuse (out of the fight, not loaded, a
        # hesitation) comes before whose turn it is: it holds in any turn
        out += action.refusals(self.enc, params)
        phase = self.seq.phase(self.enc.position)
        side = seqs.phasing_side(self.enc, self.seq)
        rule = action.turn_rule(phase.name, params)
        names = self.names()
        for who_id in ids:
            who = self._who(who_id)
            if side is not None and who is not None and rule != "any":
                if rule == "own" and who.side != side:
                    out.append(f"it is {possessive(side)} turn: {who.name} ({who.side}) cannot"
                               f" {action.name} now")
                elif rule == "enemy" and who.side == side:
                    out.append(f"{who.name} ({who.side}) acts in the other side's turn here")
            elif side is None and rule == "own" and who is not None:
                out += self._not_their_turn(action, phase, who)
        limit = action.limit(params)
        if limit is not None:
            scope, key = limit
            for who_id in ids:
                if self._used(who_id, key, scope):
                    word = "exchange" if scope == "exchange" else scope
                    did = action.marker or "acted"
                    out.append(f"{names.get(who_id, who_id)} has already {did} this {word}"
                               f" ({action.name} is once {article(word)} {word})")
        return out

    def _not_their_turn(self, action: Action[Any], phase: seqs.Phase,
                        who: Combatant | Unit) -> list[str]:
        """Where each combatant acts in its own turn (``turn_rule`` "own" in a phase of
        turns in order): an actor who does not hold the turn may not take the action."""
        holder = self.current()
        if phase.acting != "each" or holder in (None, seqs.ALL):
            return []
        if seqs.is_holder(self.enc, holder, who):
            return []
        name = seqs.holder_name(self.enc, holder)
        return [f"it is {possessive(name)} turn: {who.name} cannot {action.name} now"]

    def _who(self, who_id: str) -> Combatant | Unit | None:
        return next((x for x in self.enc.everyone if x.id == who_id), None)

    def _used(self, who_id: str, key: str, scope: str) -> bool:
        pos = self.enc.position
        for a in self.enc.acted:
            if a.actor != who_id or a.key != key or a.round != pos.round:
                continue
            if scope == "round":
                return True
            if a.side != pos.side or a.phase != pos.phase:
                continue
            if scope in ("phase", "exchange") or a.turn == pos.turn:
                return True
        return False

    def record(self, tx: Transaction, action: Action[Any], params: Any, ids: list[str]) -> None:
        pos = self.enc.position
        limit = action.limit(params)
        key = limit[1] if limit is not None else action.name
        for who_id in ids:
            tx.add(["acted"], Acted(actor=who_id, action=action.name, key=key, round=pos.round,
                                    side=pos.side, phase=pos.phase, turn=pos.turn))

    def acted_now(self, who_id: str) -> list[str]:
        """The markers of what ``who_id`` did in this phase ("shot", "acted")."""
        pos = self.enc.position
        out: list[str] = []
        for a in self.enc.acted:
            if (a.actor, a.round, a.side, a.phase) != (who_id, pos.round, pos.side, pos.phase):
                continue
            action = self.ruleset.actions.get(a.action)
            word = (action.marker if action is not None else "") or "acted"
            if word not in out:
                out.append(word)
        return out

    def pending_now(self) -> dict[str, list[str]]:
        """What each combatant or unit still owes the current phase ("4 hits to drive back")."""
        out: dict[str, list[str]] = {}
        for duty in self.seq.phase(self.enc.position).duties:
            if duty.at != "end":
                continue
            for who_id, words in duty.pending(self.enc):
                out.setdefault(who_id, []).append(words)
        return out

    def markers(self) -> dict[str, list[str]]:
        """Words by each combatant or unit in its row: what it did this phase, what it
        still owes the phase."""
        out: dict[str, list[str]] = {}
        for who in self.enc.everyone:
            words = self.acted_now(who.id)
            if words:
                out[who.id] = words
        for who_id, words in self.pending_now().items():
            out.setdefault(who_id, []).extend(words)
        return out

    # --- the order changing under the one who acts ----------------------------------------

    def keep_turn(self, tx: Transaction, holder: str | None, newcomer: str | None = None) -> str:
        """Keep the turn with ``holder`` when the order changes under them; a newcomer ahead
        of them takes it if the holder has not acted yet. Returns words for the GM."""
        order = self.order()
        pos = self.enc.position
        if holder is None and order and pos.turn >= len(order):
            # every turn taken: one fewer in the order (one who acted left) leaves it so
            tx.set(["position", "turn"], len(order))
            return "the round's turns are over (n begins the next)"
        if holder is None or not order:
            return ""
        if newcomer is not None and newcomer in order and holder in order:
            mine, theirs = order.index(newcomer), order.index(holder)
            name = seqs.holder_name(self.enc, newcomer)
            done = pos.turn  # those before the holder have had their turn this round
            if mine < theirs and mine >= done and not self._acted_this_turn(holder):
                tx.set(["position", "turn"], mine)
                return f"{name} acts now, before {seqs.holder_name(self.enc, holder)}"
            tx.set(["position", "turn"], theirs)
            if mine < theirs:
                return f"{name} acts from next round (its place this round has passed)"
            return f"{name} acts later this round"
        if holder in order:
            tx.set(["position", "turn"], order.index(holder))
        elif pos.turn >= len(order):
            tx.set(["position", "turn"], len(order) - 1)
        return ""

    def keep_side(self, tx: Transaction, side: str | None) -> str:
        """Keep the turn with ``side``, the side whose turn it was, when the sides change
        under it: the turn is kept as a place in the sides' order (the order in which they
        first appear), which moves when a side's first unit leaves or changes side. Where
        ``side`` has no one left on the table, the turn is the side's now in its place (the
        one the tracker shows), and the GM is told. Returns the words for the GM."""
        if side is None:
            return ""
        everyone = seqs.sides(self.enc)
        if side in everyone:
            tx.set(["position", "side"], everyone.index(side))
            return ""
        place = min(self.enc.position.side, max(len(everyone) - 1, 0))
        tx.set(["position", "side"], place)
        if not everyone:
            return ""
        return f"{side} has no one left on the table: the turn is {possessive(everyone[place])}"

    def _acted_this_turn(self, holder: str) -> bool:
        pos = self.enc.position
        ids = {m.id for m in seqs.members(self.enc, holder)}
        return any(a.actor in ids and (a.round, a.side, a.phase, a.turn)
                   == (pos.round, pos.side, pos.phase, pos.turn) for a in self.enc.acted)


def forced(params: dict[str, str], action: Action[Any]) -> bool:
    """``force=yes``: the GM overrides a limit (an action with a ``force`` of its own
    takes it as both)."""
    return params.get("force", "no").strip().lower() in YES


def without_force(params: dict[str, str], action: Action[Any]) -> dict[str, str]:
    """The action's own parameters: ``force`` is left out unless the action has one."""
    if any(p.name == "force" for p in action.params):
        return dict(params)
    return {k: v for k, v in params.items() if k != "force"}


def resolution_text(res: Resolution, forced_past: list[str]) -> str:
    if not forced_past:
        return res.text
    return f"{res.text} (forced by the GM: {forced_past[0]})"
