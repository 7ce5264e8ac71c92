"""Random command sequences on an open encounter, for a property test per ruleset.

:func:`play_legal` draws commands the rules allow where the fight stands (an action the
phase and the limits allow, its actor among those acting and its target on another
side, its dice rolled by the tracker from a drawn seed; ``next`` in its forms; effects,
notes, conditions; ``undo``, ``redo``, ``rewind``) and checks after every step:

- no declared lifetime outlived: after an advance, each field the sequence declares
  (``SequenceOfPlay.lifetimes``) is at its default on every bearer once its boundary
  was passed, and each timed effect due to end at a boundary passed is gone;
- no actor beyond its limit (the ``acted`` records, against each action's limit);
- every unit and combatant re-validates against its model (every value in its domain),
  and `tracker check` finds nothing out of place (round, phase, side and turn among those
  there are);
- the journal replays to the state (``tracker replay``), and the report's losses per
  side agree with the state.

:func:`play_illegal` mixes those with commands the rules refuse (out of phase, out of
turn, beyond a limit, values outside their domain, names that are no one's) and checks
each is refused with one line, naming no internal id, and changes nothing.

A ruleset whose actions need values the encounter does not fill gives them with
:class:`Rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from tracker.core import history
from tracker.core import sequence as seqs
from tracker.core.model import Acted, Combatant, Effect, Encounter, Unit
from tracker.report.gather import gather
from tracker.rules.action import Action
from tracker.rules.errors import RuleError
from tracker.session import commands
from tracker.session.commands import CommandError
from tracker.session.domains import out_of_place
from tracker.session.session import Session

Who = Combatant | Unit


def examples(count: int) -> settings:
    """Hypothesis settings for a property test of ``count`` examples: no deadline (an
    example plays a whole sequence of commands) and no health check for slow or large
    draws."""
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


QUICK = examples(20)
"""The default run's examples of a ruleset's property test."""
LONG = examples(200)
"""The slow run's (``-m slow``)."""
ParamsFor = Callable[[str, Session, st.DataObject], dict[str, str]]


def _no_params(action: str, session: Session, data: st.DataObject) -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class Rules:
    """What the harness is told of a ruleset beyond what it declares."""

    params: ParamsFor = _no_params
    """Values for an action's parameters that the encounter does not fill, by action."""


@dataclass
class Harness:
    session: Session
    data: st.DataObject
    rules: Rules = field(default_factory=Rules)
    scopes: dict[tuple[Any, ...], str] = field(default_factory=dict)
    """The limit each record of ``acted`` the harness made was taken under."""
    taken: list[commands.Act] = field(default_factory=list)
    """The actions the rules allowed, in order (an illegal twin repeats one)."""

    def __post_init__(self) -> None:
        start = self.session.enc.model_copy(deep=True)
        while history.undo(start) is not None:
            pass
        self.start = start
        """The encounter as its log begins (the report counts losses from there)."""

    @property
    def enc(self) -> Encounter:
        return self.session.enc

    def draw(self, strategy: st.SearchStrategy[Any], label: str) -> Any:
        return self.data.draw(strategy, label=label)

    # --- legal commands ---------------------------------------------------------------

    def legal(self) -> None:
        """Draw a command the rules allow here, run it, and check the invariants."""
        kind = self.draw(st.sampled_from(LEGAL), "command")
        cmd = getattr(self, f"_{kind}")()
        if cmd is None:
            cmd = self._next()
        before = Before.of(self.session, cmd)
        limit = self._limit(cmd)
        try:
            outcome = self.session.run(cmd)
        except CommandError as refused:
            # the rules may refuse what the harness could not foresee (a unit engaged):
            # a refusal is still one line that changes nothing
            event(f"refused: {cmd.words()[0]}")
            before.unchanged(self.session, str(refused))
            self.check()
            return
        if outcome.pending is not None:
            event(f"stopped at a duty: {outcome.pending.duty.name}")
            before.unchanged(self.session, outcome.message)
        elif isinstance(cmd, commands.Act) and outcome.changed:
            event(f"taken: {cmd.action}")
            self.taken.append(cmd)
            if limit is not None:
                for a in self.enc.acted[before.acted:]:
                    self.scopes[_record(a)] = limit[0]
        self.check(before if outcome.changed else None)

    def _limit(self, cmd: commands.Command) -> tuple[str, str] | None:
        """How often the action ``cmd`` takes may be taken, as its parameters say."""
        if not isinstance(cmd, commands.Act):
            return None
        action = self.session.ruleset.action(cmd.action)
        try:
            return action.limit(self.session.action_params(action, cmd))
        except (CommandError, RuleError, LookupError, ValueError):
            return None  # the session refuses it too

    def in_play(self) -> list[Who]:
        return [x for x in self.enc.everyone if _in_play(x)]

    def acting(self) -> list[Who]:
        """Those who act now (the members of the holder of the turn), in play."""
        holder = self.session.play.current()
        if holder is None:
            return self.in_play()
        return [m for m in seqs.members(self.enc, holder) if _in_play(m)]

    def allowed_here(self) -> list[str]:
        phase = self.session.play.seq.phase(self.enc.position)
        out = []
        for name, action in self.session.ruleset.actions.items():
            if phase.name and action.phases and phase.name not in action.phases:
                continue
            if phase.actions is not None and name not in phase.actions:
                continue
            out.append(name)
        return out

    def _action(self, names: list[str] | None = None,
                actors: list[Who] | None = None) -> commands.Act | None:
        names = self.allowed_here() if names is None else names
        if not names:
            return None
        name = self.draw(st.sampled_from(sorted(names)), "action")
        action = self.session.ruleset.action(name)
        params: dict[str, str] = {}
        actor = _slot(action, "actor")
        chosen: Who | None = None
        pool = self.acting() if actors is None else actors
        if actor is not None and actors is None:
            # those the rules of who acts allow (at chargers, the other side shoots)
            pool = [m for m in self.in_play()
                    if action.can_act(m) and self._may(action, actor, m)] or pool
        if actor is not None and pool:
            chosen = self.draw(st.sampled_from(pool), "actor")
            params[actor] = self.session.canonical_name(chosen.id)
        target = _slot(action, "target")
        if target is not None:
            others = [x for x in self.in_play() if chosen is None or x.side != chosen.side]
            if others:
                params[target] = self.session.canonical_name(
                    self.draw(st.sampled_from(others), "target").id)
        params.update(self.rules.params(name, self.session, self.data))
        seed = self.draw(st.integers(0, 2**16), "seed")
        return commands.Act(action=name, params=params, roll_rest=True, seed=seed)

    def _may(self, action: Action[Any], slot: str, who: Who) -> bool:
        """Whether the rules of who acts let ``who`` take ``action`` now."""
        given = {slot: self.session.canonical_name(who.id)}
        target = _slot(action, "target")
        other = self.session.ruleset.default_target(self.enc, who)
        if target is not None and other is not None:
            given[target] = self.session.canonical_name(other.id)
        try:
            params = self.session.action_params_raw(action, given, complete=True)
        except (CommandError, RuleError, LookupError, ValueError):
            return True  # the rules say why when it is taken
        return not self.session.play.problems(action, params, [who.id])

    def _next(self) -> commands.Next:
        step = self.draw(st.sampled_from(commands.STEPS), "step")
        force = self.draw(st.booleans(), "force")
        rolls = self.draw(st.booleans(), "roll the duties' dice")
        seed = self.draw(st.integers(0, 2**16), "seed") if rolls else None
        return commands.Next(step, force, roll_rest=rolls, seed=seed)

    def _undo(self) -> commands.Command:
        return commands.Undo()

    def _redo(self) -> commands.Command:
        return commands.Redo()

    def _rewind(self) -> commands.Command:
        return commands.Rewind(entry=self.draw(st.integers(0, len(self.enc.log)), "entry"))

    def _effect(self) -> commands.Command | None:
        people = self.in_play()
        if not people:
            return None
        who = self.draw(st.sampled_from(people), "bearer")
        name = self.draw(st.sampled_from(["shaken", "aimed", "blessed"]), "effect")
        how = self.draw(st.sampled_from(["rounds", "turn", "until", "none"]), "lasts")
        params: dict[str, str] = {}
        if how == "rounds":
            params["rounds"] = str(self.draw(st.integers(1, 3), "rounds"))
        elif how == "turn":
            params.update(turn="yes", rounds=str(self.draw(st.integers(1, 2), "turns")))
        elif how == "until":
            holder = self.draw(st.sampled_from(people), "until")
            params.update(until=self.session.canonical_name(holder.id),
                          at=self.draw(st.sampled_from(["start", "end"]), "at"))
        return commands.Effect(self.session.canonical_name(who.id), name, params)

    def _note(self) -> commands.Command:
        return commands.Note(self.draw(st.sampled_from(["the river rises", "rain"]), "note"))

    def _condition(self) -> commands.Command | None:
        people = self.in_play()
        if not people:
            return None
        who = self.draw(st.sampled_from(people), "who")
        mark = self.draw(st.sampled_from(["+prone", "+hidden-by-smoke"]), "condition")
        return commands.Set(self.session.canonical_name(who.id), {}, [mark])

    # --- illegal commands -------------------------------------------------------------

    def illegal(self) -> None:
        """A command the rules refuse: refused in one line, and nothing changes."""
        kind = self.draw(st.sampled_from(ILLEGAL), "illegal")
        cmd = getattr(self, f"_{kind}")()
        if cmd is None:
            return
        before = Before.of(self.session, cmd)
        try:
            outcome = self.session.run(cmd)
        except CommandError as refused:
            event(f"refused as it should be: {kind}")
            before.unchanged(self.session, str(refused))
            return
        raise AssertionError(f"{cmd.text()} was taken: {outcome.message}")

    def _out_of_phase(self) -> commands.Act | None:
        here = set(self.allowed_here())
        names = [n for n in self.session.ruleset.actions if n not in here]
        return self._refused(self._action(names))

    def _out_of_turn(self) -> commands.Act | None:
        acting = {x.id for x in self.acting()}
        others = [x for x in self.in_play() if x.id not in acting]
        return self._refused(self._action(actors=others)) if others else None

    def _beyond_a_limit(self) -> commands.Act | None:
        if not self.taken:
            return None
        again = self.taken[-1]
        return self._refused(commands.Act(action=again.action, params=again.params,
                                          roll_rest=True, seed=1))

    def _refused(self, cmd: commands.Act | None) -> commands.Act | None:
        """``cmd`` where the rules of who acts refuse it here (else none: the draw was
        legal after all, a unit that may act in either side's turn)."""
        if cmd is None:
            return None
        action = self.session.ruleset.action(cmd.action)
        try:
            params = self.session.action_params(action, cmd)
        except (CommandError, RuleError, LookupError, ValueError):
            return cmd  # refused before the rules of who acts: still a refusal to check
        ids = self.session.actor_ids(action, params)
        return cmd if self.session.play.problems(action, params, ids) else None

    def _outside_a_domain(self) -> commands.Command | None:
        """A value its field or parameter does not allow: a bound, a choice."""
        choices: list[commands.Command] = []
        for who in self.in_play():
            for name, bad in _impossible(type(who)):
                choices.append(commands.Set(self.session.canonical_name(who.id), {name: bad}))
        for name in self.allowed_here():
            action = self.session.ruleset.action(name)
            for p in action.params:
                if p.kind == "int" and p.minimum is not None:
                    cmd = self._action([name])
                    if cmd is not None:
                        bad = str(int(p.minimum) - 1)
                        choices.append(commands.Act(action=name,
                                                    params={**cmd.params, p.name: bad},
                                                    roll_rest=True, seed=1))
        choices.append(commands.Effect(self.session.canonical_name(self.enc.everyone[0].id),
                                       "shaken", {"rounds": "-1"}))
        chosen: commands.Command = self.draw(st.sampled_from(choices), "impossible value")
        return chosen

    def _no_one(self) -> commands.Command:
        cmd: commands.Command = self.draw(st.sampled_from([
            commands.Set("Nobody At All", {}, ["+prone"]),
            commands.Effect("Nobody At All", "shaken", {"rounds": "1"}),
            commands.Remove("Nobody At All"),
        ]), "no one")
        return cmd

    # --- the invariants ---------------------------------------------------------------

    def check(self, before: Before | None = None) -> None:
        enc = self.enc
        if before is not None and isinstance(before.cmd, commands.Next):
            check_lifetimes(self.session, before)
        self.check_limits()
        model = self.session.ruleset.encounter_model
        model.model_validate(enc.model_dump())  # every value in its domain
        assert out_of_place(enc, self.session.ruleset) == []  # `tracker check` passes it
        rebuilt, _ = history.replay(enc)
        assert history.state_of(rebuilt) == history.state_of(enc), "the journal replays"
        self.check_losses()

    def check_limits(self) -> None:
        """No action taken under a limit had been taken before by the same actor within
        it (the ``acted`` records, oldest first)."""
        names = {x.id: x.name for x in self.enc.everyone}
        for i, a in enumerate(self.enc.acted):
            scope = self.scopes.get(_record(a))
            if scope is None:
                continue
            for b in self.enc.acted[:i]:
                same = (b.actor, b.key, b.round) == (a.actor, a.key, a.round)
                if scope != "round":
                    same = same and (b.side, b.phase) == (a.side, a.phase)
                if scope == "turn":
                    same = same and b.turn == a.turn
                assert not same, f"{names.get(a.actor)} beyond its limit: {a.key} once a {scope}"

    def check_losses(self) -> None:
        """The report's casualties, routs and those out, per side, are the state's
        against the encounter as its log began."""
        losses = gather(self.enc).losses
        then = {x.id: x for x in self.start.everyone}
        for side in seqs.sides(self.enc):
            lost = routed = out = 0
            for x in self.enc.everyone:
                was = then.get(x.id)
                if x.side != side or was is None:
                    continue
                if isinstance(x, Unit) and isinstance(was, Unit):
                    lost += was.strength - x.strength
                    routed += int(x.routed) - int(was.routed)
                elif isinstance(x, Combatant) and isinstance(was, Combatant):
                    out += int(x.out) - int(was.out)
            total = losses.total(side)
            assert (total.casualties, total.routed, total.out) == (lost, routed, out), side


LEGAL = ("action", "action", "action", "next", "next", "next", "undo", "redo", "rewind",
         "effect", "note", "condition")
ILLEGAL = ("out_of_phase", "out_of_turn", "beyond_a_limit", "outside_a_domain", "no_one")


@dataclass
class Before:
    """The encounter before a command: to check a refusal changed nothing, and what an
    advance passed."""

    cmd: commands.Command
    state: str
    log: list[str]
    cursor: int
    position: tuple[int, int, int, int]
    holder: str | None
    crossed: list[seqs.PhaseEnd]
    effects: dict[str, list[Effect]]
    ids: list[str]
    acted: int

    @classmethod
    def of(cls, session: Session, cmd: commands.Command) -> Before:
        enc = session.enc
        pos = enc.position
        what = cmd.what if isinstance(cmd, commands.Next) else "turn"
        play = session.play
        return cls(cmd, enc.model_dump_json(), [e.model_dump_json() for e in enc.log],
                   enc.cursor, (pos.round, pos.side, pos.phase, pos.turn), play.current(),
                   seqs.crossings(enc, play.seq, what, play.stat, play.grouping),
                   {x.id: list(x.effects) for x in enc.everyone},
                   [x.id for x in enc.everyone if x.id != x.name.lower()], len(enc.acted))

    def unchanged(self, session: Session, message: str) -> None:
        """Refused (or stopped at a duty) in one line naming no internal id; nothing
        changed, in the state or the journal."""
        enc = session.enc
        assert "\n" not in message and message.strip(), repr(message)
        for i in self.ids:
            assert i not in message, f"{message!r} names the internal id {i!r}"
        assert enc.model_dump_json() == self.state, f"{self.cmd.text()} changed the state"
        assert enc.cursor == self.cursor
        assert [e.model_dump_json() for e in enc.log] == self.log, "the journal changed"


def check_lifetimes(session: Session, before: Before) -> None:
    """What ended at a boundary the advance passed is gone: the sequence's declared fields
    back at their default, and the effects due to end there."""
    enc = session.enc
    seq = session.play.seq
    r0, s0, _, _ = before.position
    pos = enc.position
    new_round = pos.round > r0
    passed: list[tuple[str, str, str, tuple[int, ...]]] = []  # (at, of, who, where)
    for end in before.crossed:
        passed.append(("end", "phase", end.phase.name, (r0, end.side, end.index)))
    if new_round:
        passed.append(("end", "round", "", (r0,)))
    if (pos.round, pos.side, pos.phase) != before.position[:3]:
        passed.append(("start", "phase", seq.phase(pos).name, (pos.round, pos.side, pos.phase)))
    for lasts in seq.lifetimes:
        ends = lasts.ends
        if ends.of == "turn":
            continue  # a side's or a holder's turn: checked through the effects below
        if lasts.applies is not None and not lasts.applies(enc):
            continue  # an end the encounter's settings did not choose
        hits = [where for at, of, who, where in passed
                if at == ends.at and of == ends.of and (not who or not ends.who
                                                        or who == ends.who)]
        if not hits:
            continue
        for x in enc.everyone:
            info = type(x).model_fields.get(lasts.field)
            began = getattr(x, lasts.since, None) if lasts.since and ends.next else None
            if began is not None and all(tuple(began[:len(w)]) == w for w in hits):
                continue  # it ends at the next of these, not the one it began in
            if info is not None:
                default = info.get_default(call_default_factory=True)
                assert getattr(x, lasts.field) == default, (
                    f"{x.name}: {lasts.field} outlived the {ends.at} of the {ends.of}")
    for x in enc.everyone:
        for e in before.effects.get(x.id, []):
            if e in x.effects and _due(e, before, passed, session):
                raise AssertionError(f"{x.name}: {e.describe()} outlived its end")


def _due(e: Effect, before: Before, passed: list[tuple[str, str, str, tuple[int, ...]]],
         session: Session) -> bool:
    """Whether effect ``e`` (as it stood before the advance) ended in it."""
    ends = e.ends
    if ends is None:
        return False
    r0 = before.position[0]
    if ends.of == "round" and ends.at == "end" and any(of == "round" for _, of, _, _ in passed):
        if ends.round is not None:
            return r0 >= ends.round
        return e.left == 1 and not (ends.next and e.since is not None and e.since[0] == r0)
    if ends.of == "turn" and ends.at == "end" and ends.who and e.left == 1:
        # the turn of the one acting before the advance ended, if it is the one named
        holder = before.holder
        members = {m.id for m in seqs.members(session.enc, holder)} if holder else set()
        if holder is None or (ends.who != holder and ends.who not in members):
            return False
        phase = session.play.seq.phase(_position(before))
        if phase.acting in ("all", "none") or (
                session.play.seq.turns_by == "side" and phase.acting == "side"):
            return False
        return not (ends.next and e.since == before.position)
    return False


def _position(before: Before) -> Any:
    from tracker.core.model import Position

    r, s, p, t = before.position
    return Position(round=r, side=s, phase=p, turn=t)


def _record(a: Acted) -> tuple[Any, ...]:
    return (a.actor, a.action, a.key, a.round, a.side, a.phase, a.turn)


def _slot(action: Action[Any], kind: str) -> str | None:
    return next((p.name for p in action.params if p.kind == kind), None)


def _in_play(who: Who) -> bool:
    return not getattr(who, "out", False) and getattr(who, "active", True) \
        and not getattr(who, "hidden", False)


def _impossible(model: type[Any]) -> list[tuple[str, str]]:
    """For each field of ``model`` with a bound or a set of choices: a value outside."""
    out = []
    for name, info in model.model_fields.items():
        if name in ("id", "name"):
            continue
        for m in info.metadata:
            if getattr(m, "ge", None) is not None:
                out.append((name, str(m.ge - 1)))
            if getattr(m, "le", None) is not None:
                out.append((name, str(m.le + 1)))
        annotation = info.annotation
        if get_origin(annotation) is Literal:
            out.append((name, "nonsense"))
        elif any(get_origin(a) is Literal for a in get_args(annotation)):
            out.append((name, "nonsense"))
    return out


def play_legal(session: Session, data: st.DataObject, steps: int,
               rules: Rules | None = None) -> Harness:
    """``steps`` legal commands, each checked."""
    h = Harness(session, data, rules or Rules())
    h.check()
    for _ in range(steps):
        h.legal()
    return h


def play_illegal(session: Session, data: st.DataObject, steps: int,
                 rules: Rules | None = None) -> Harness:
    """Legal and illegal commands mixed: each illegal one refused, nothing changed."""
    h = Harness(session, data, rules or Rules())
    for _ in range(steps):
        if data.draw(st.booleans(), label="illegal"):
            h.illegal()
        else:
            h.legal()
    return h
