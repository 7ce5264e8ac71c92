"""A session: one open encounter, its ruleset, and the commands that change it.

The `:` line in the app, its keys and dialogs, and `tracker exec` all run typed commands
(:mod:`tracker.session.commands`) through :meth:`Session.run`, so every command behaves
the same with or without a terminal. A command either commits one log entry, or changes
nothing and raises :class:`CommandError` with a one-line reason, or (``next``) says
which duty is still pending (:class:`~tracker.session.play.PendingDuty`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from tracker import rules, startup
from tracker.core import history
from tracker.core import sequence as seqs
from tracker.core.dice import Answers, Dice, DiceError, NeedDice, Request, roll_expression
from tracker.core.history import HistoryError, Transaction, touched
from tracker.core.lifetimes import since
from tracker.core.log import LogError
from tracker.core.model import (
    Combatant,
    Effect,
    Encounter,
    Ends,
    LogEntry,
    Resolved,
    RollRecord,
    StageRecord,
    Unit,
    Wound,
)
from tracker.core.words import digits
from tracker.rules.errors import Impossible, RuleError
from tracker.rules.ruleset import Ruleset
from tracker.session import domains, redaction
from tracker.session.language import (
    GENERIC_HELP,
    REWIND_USAGE,
    CommandError,
    message_of,
    refuse_long_numbers,
    whole,
)
from tracker.session.naming import phrases
from tracker.session.play import (
    Ask,
    Never,
    PendingDuty,
    Play,
    forced,
    resolution_text,
    without_force,
)
from tracker.store.paths import safe_child

if TYPE_CHECKING:  # action code loads when an action is first taken
    from tracker.rules import stages
    from tracker.rules.action import Action, Resolution
    from tracker.session import bestiary, commands, hitpoints
    from tracker.session.commands import Command
    from tracker.store import armies
else:  # the typed commands load after the first screen, the army readers (XML, zip) with
    # the first army, the walk of an action's stages with the first duty that owes dice,
    # the bestiary and hit points with their commands (see tracker.startup)
    commands = startup.lazy("tracker.session.commands")
    bestiary = startup.lazy("tracker.session.bestiary")
    hitpoints = startup.lazy("tracker.session.hitpoints")
    armies = startup.lazy("tracker.store.armies")
    stages = startup.lazy("tracker.rules.stages")


@dataclass
class Outcome:
    """What a command did: a message for the status line, and the entry it logged (or
    undid, or redid); or, for ``next``, the duty that keeps the phase from ending."""

    message: str
    entry: LogEntry | None = None
    resolution: Resolution | None = None
    changed: bool = False
    pending: PendingDuty | None = None
    """A duty still to do: nothing changed (the app opens its action's dialog)."""


class Session:
    """An open encounter with its ruleset; ``on_change`` is told after every change."""

    def __init__(self, enc: Encounter, path: Path | None = None, read_only: bool = False) -> None:
        self.enc = enc
        self.path = path
        self.read_only = read_only
        self.ruleset: Ruleset = rules.get(enc.ruleset)
        self.on_change: Callable[[Outcome], None] | None = None
        self.lock = threading.RLock()
        """Held while the encounter changes or is serialised for a save."""
        self.keep_armies = path is not None and not read_only
        """Keep a copy of each army file added in ``armies/`` beside the save."""

    # --- the command line -----------------------------------------------------------

    def execute(self, line: str) -> Outcome:
        """Read a command line and run it (a script's line, a test's)."""
        return self.run(commands.parse(line))

    def run(self, cmd: Command) -> Outcome:
        """Run a typed command: one log entry committed; or nothing changed and
        :class:`CommandError` raised with a one-line reason; or a duty still pending
        (``Outcome.pending``)."""
        if self.read_only and not isinstance(cmd, (commands.Help, commands.Roll)):
            raise CommandError("read-only: another tracker writes this encounter")
        handler = handlers().get(type(cmd))
        if handler is None:
            raise CommandError(f"{cmd.verb} works in the app only")
        refuse_long_numbers(cmd.words())
        try:
            with self.lock:
                outcome = handler(self, cmd)
        except (RuleError, DiceError, LookupError, HistoryError, LogError) as exc:
            raise CommandError(message_of(exc)) from None
        if outcome.changed and self.on_change is not None:
            self.on_change(outcome)
        return outcome

    def dice_for(self, cmd: commands.WithDice) -> Dice:
        seed = self.dice_seed(cmd)
        if cmd.sources:
            # the dice step gave every die with its source: nothing more is rolled
            return Dice(seed=seed, entered=cmd.dice, mode="strict", sources=cmd.sources)
        return Dice.from_spec(cmd.dice, seed=seed, roll_rest=cmd.roll_rest)

    def dice_seed(self, cmd: commands.WithDice) -> int:
        """The seed of the tracker's own dice for this command (``--seed``, else one drawn
        from the encounter's seed and the log's length, so a replay rolls the same)."""
        return cmd.seed if cmd.seed is not None else self.enc.seed * 100_003 + len(self.enc.log)

    def dice_params(self, action: Action[Any], cmd: commands.Act) -> Any:
        """The action's parameters for the dice step, or CommandError saying why the
        action cannot be taken as it stands (before any die is asked for)."""
        try:
            params = self.action_params(action, cmd)
            problems = self.play.problems(action, params, self.actor_ids(action, params))
        except (RuleError, DiceError, LookupError) as exc:
            raise CommandError(message_of(exc)) from None
        if problems and not forced(cmd.params, action):
            raise CommandError(f"{problems[0]}; add force=yes to take it anyway")
        return params

    def form_refusal(self, action: Action[Any], params: Any, raw: dict[str, str],
                     resolving: bool = True) -> str:
        """Why Enter on an action's form that reads as ``params`` (typed as ``raw``) is
        refused, in the words the form then says: what the turn engine refuses (unless
        forced), else (with ``resolving``) what the rules refuse before any die (a field
        the resolution needs left empty); "" where Enter goes on."""
        if not forced(raw, action):
            problems = self.play.problems(action, params, self.actor_ids(action, params))
            if problems:
                return problems[0]
        if not resolving:
            return ""
        try:
            self.next_stage(action, params, {})
        except CommandError as exc:
            return str(exc)
        return ""

    def next_stage(self, action: Action[Any], params: Any,
                   answers: Answers) -> tuple[Request, list[int]] | None:
        """The stage the dice given so far leave open (its request and the dice of it
        already given), or None when they settle the action."""
        dice = Dice.from_answers(answers, mode="ask")
        try:
            action.resolve(params, dice)
        except NeedDice as need:
            return need.request, need.given
        except (RuleError, DiceError, LookupError) as exc:
            raise CommandError(message_of(exc)) from None
        return None

    def _commit(
        self, tx: Transaction, text: str, kind: str, dice: Dice | None = None, **kw: Any
    ) -> Outcome:
        if dice is not None:
            dice.check_all_used()
        self._check_domains(tx)
        kw["secret"] = kw.get("secret", False) or self.names_hidden(text, tx)
        entry = tx.commit(text, kind=kind, rolls=dice.rolls if dice else (), **kw)
        return Outcome(text, entry, changed=True)

    commit = _commit
    """Commit a change as one log entry (the handlers kept in modules of their own)."""

    def _check_domains(self, tx: Transaction) -> None:
        """No change leaves a combatant or a unit holding a value outside its domain: what
        the GM types is checked as it is read, and this holds what the rules write (an
        action taken with ``force=yes`` passes a rule's limit, never what a value can be).
        A change that would is refused whole, naming the value. A value a hand edit left
        outside its domain before the change (``tracker check`` names it) is not this
        change's doing, and does not stop it."""
        whose = touched(self.enc, tx.ops)
        if not whose:
            return
        settings = self.domain_settings()
        found = [(who, problem) for who in whose if (problem := domains.outside(who, settings))]
        if not found:
            return
        with tx.as_before() as before:
            was = {(type(who), who.id): domains.outside(who, settings)
                   for who in touched(before, tx.ops)}
        for who, problem in found:
            if was.get((type(who), who.id), "") != problem:
                tx.rollback()
                raise CommandError(f"{who.name}: {problem}; nothing changed")

    # --- ruleset actions ------------------------------------------------------------

    def action_params(self, action: Action[Any], cmd: commands.Act) -> Any:
        if cmd.dice:
            stages.check_dice_roles(action, cmd.dice)
        raw: dict[str, Any] = without_force(cmd.params, action)
        slots = [p.name for p in action.params if p.kind in ("actor", "target")]
        named = phrases(self.enc, cmd.names)  # goblin 1: Goblin 1, where it is a name
        words = named[: len(slots)] + self._choice_words(action, named[len(slots):], raw)
        several = next((p.name for p in action.params if p.kind == "names"), None)
        if several is not None and len(words) > len(slots) and several not in raw:
            raw[several] = ",".join(self.canonical_name(name) for name in words[len(slots):])
            words = words[: len(slots)]
        if len(words) > len(slots):
            extra = " ".join(words[len(slots) :])
            raise CommandError(f"{action.name}: did not expect '{extra}' ({action.usage()})")
        for name, word in zip(slots, words, strict=False):
            if name in raw:
                raise CommandError(f"{action.name}: {name} given twice")
            raw[name] = word
        return self.action_params_raw(action, raw, complete=True)

    @staticmethod
    def _choice_words(action: Action[Any], words: list[str], raw: dict[str, Any]) -> list[str]:
        """A word after the actor and target that is a choice of one of the action's
        parameters gives it (``attack Aria Goblin advantage``: roll=advantage); the
        other words, in order."""
        rest: list[str] = []
        for word in words:
            found = next((p for p in action.params
                          if p.kind == "choice" and word.lower() in p.choices), None)
            if found is None or found.name in raw:
                rest.append(word)
            else:
                raw[found.name] = word.lower()
        return rest

    def action_params_raw(
        self, action: Action[Any], raw: dict[str, Any], complete: bool = False
    ) -> Any:
        """Parameters from ``name=value`` text, the encounter's settings and ``fill``."""
        raw = dict(raw)
        for p in action.params:
            value = raw.get(p.name)
            if p.kind in ("actor", "target") and isinstance(value, str):
                raw[p.name] = self.known_name(value)
            elif (p.kind == "names" or p.kind == "strs" and p.unlike) and value:
                # names of combatants or units (a list that may not name the ``unlike``)
                names = value.split(",") if isinstance(value, str) else value
                raw[p.name] = ",".join(self.known_name(str(n).strip())
                                       for n in names if str(n).strip())
        partial = action.parse_params(raw, partial=True)
        given = {k: partial[k] for k in raw}
        for k, v in action.fill(self.enc, dict(given)).items():
            if k not in given:
                raw[k] = v
        # the encounter's settings come last: what the GM typed or the encounter says wins
        for p in action.params:
            if p.setting is None:
                continue
            if p.name not in raw:
                raw[p.name] = p.setting.of(self.enc)
            if p.setting.path:
                raw[p.name] = self.inside_folder(p.name, str(raw[p.name]))
        return action.parse_params(raw, partial=not complete, enc=self.enc)

    def domain_settings(self) -> dict[str, Any]:
        """The settings a domain that depends on one is checked against (a file setting
        as the file in the save's folder)."""
        folder = self.path.parent if self.path is not None else Path.cwd()
        return domains.file_settings(self.enc, self.ruleset, folder)

    def inside_folder(self, what: str, name: str) -> str:
        """A file an encounter names, inside the save's folder; anything else is refused."""
        if not name:
            return name
        folder = self.path.parent if self.path is not None else Path.cwd()
        try:
            return str(safe_child(folder, name))
        except ValueError as exc:
            raise CommandError(f"{what}: {exc}") from None

    def names_hidden(self, text: str, tx: Transaction | None = None) -> bool:
        """Does a log line name a hidden combatant or unit (one still here, or one the
        change removed while hidden), in any case? Then only the GM sees it."""
        hidden = [x.name for x in self.enc.everyone if x.hidden]
        for op in tx.ops if tx is not None else ():
            if isinstance(op.before, dict) and op.before.get("hidden") is True:
                hidden.append(str(op.before.get("name", "")))
        low = text.lower()
        return any(name and name.lower() in low for name in hidden)

    def player_view(self, side: str | None, *, table: bool = False) -> Encounter:
        """What the player of ``side`` may see (None: a spectator's public view; with
        ``table``, the shared table screen). The rules are in
        :mod:`tracker.session.redaction`."""
        if table:
            return redaction.table_view(self.enc, self.ruleset.order_stat)
        return redaction.player_view(self.enc, side, self.ruleset.order_stat)

    def known_name(self, key: str) -> str:
        """The full name of the combatant or unit ``key`` names; a name that is no one's
        is refused (an action would otherwise log it with nothing done to anyone)."""
        if not key.strip():
            return key
        said: list[str] = []
        for find in (self.enc.find_combatant, self.enc.find_unit):
            try:
                return self._name_of(find(key))
            except LookupError as exc:
                said.append(str(exc))
        several = next((s for s in said if not s.startswith("no ")), None)
        what = "unit" if self.enc.units and not self.enc.combatants else "combatant"
        raise CommandError(several or f"no {what} named '{key}'")

    def canonical_name(self, key: str) -> str:
        """The full name of the combatant or unit ``key`` names (an id, a prefix ...)."""
        try:
            _, who = self._find(key)
        except LookupError:
            return key  # the ruleset's own lookup gives the message
        return self._name_of(who)

    def _name_of(self, who: Combatant | Unit) -> str:
        """``who``'s name, or its id where another has the same name."""
        same = [x for x in self.enc.everyone if x.name == who.name]
        return who.name if len(same) == 1 else who.id

    def _cmd_act(self, cmd: commands.Act) -> Outcome:
        if cmd.action not in self.ruleset.actions:
            names = sorted({*GENERIC_HELP, *self.ruleset.actions})
            raise CommandError(f"unknown command '{cmd.action}' (try: {', '.join(names)})")
        return self.run_action(self.ruleset.actions[cmd.action], cmd)

    def run_action(self, action: Action[Any], cmd: commands.Act) -> Outcome:
        force = forced(cmd.params, action)
        params = self.action_params(action, cmd)
        play = self.play
        ids = self.actor_ids(action, params)
        problems = play.problems(action, params, ids)
        if problems and not force:
            raise CommandError(f"{problems[0]}; add force=yes to take it anyway")
        dice = self.dice_for(cmd)
        odds = pre_roll_odds(action, params)
        holder, begun = play.current(), self._round_begun()
        tx = Transaction(self.enc)
        with tx:
            resolution = action.resolve(params, dice)
            action.apply(self.enc, params, resolution, tx)
            # the order may have changed (one down, initiative rolled): before the round
            # has begun the first of it acts, else the turn stays with whoever had it
            if begun:
                self._keep_actor(tx, holder)
            else:
                tx.set(["position", "turn"], 0)
            play.record(tx, action, params, ids)
            actor = str(params.get(action.actor_param or "actor") or "")
            text = resolution_text(resolution, problems)
            resolved = resolved_record(action, params, resolution, odds, dice, problems)
            out = self._commit(tx, text, action.name, dice, actor=actor, resolved=resolved)
        out.resolution = resolution
        rolled = [r for r in dice.rolls if r.source == "rolled"]
        if rolled and (cmd.dice or cmd.sources):
            # some dice were entered: the result line says which the tracker rolled
            word = "die" if len(rolled) == 1 else "dice"
            shown = rolled_by_role(rolled, certain=dice.certain_rolled())
            out.message += f"  (tracker-rolled {word}: {shown})"
        return out

    def _round_begun(self) -> bool:
        """Has anyone had a turn or acted this round?"""
        pos = self.enc.position
        return pos.turn > 0 or any(a.round == pos.round for a in self.enc.acted)

    def actor_ids(self, action: Action[Any], params: Any) -> list[str]:
        """The ids of those who act in an action, as the encounter knows them."""
        ids: list[str] = []
        for name in action.actors(params):
            try:
                who = self.find(name)[1]
            except LookupError:
                continue
            if who.id not in ids:
                ids.append(who.id)
        return ids

    def why_not(self, action: Action[Any], who: str | None) -> str:
        """Why ``who`` (an id; None: no one in particular) may not take ``action`` now, as
        the turn engine would refuse it after its form (the phase, a duty owed, the turn,
        a limit); "" when it may, or when only its parameters can tell."""
        for reason in self.play.not_now(action):
            return reason
        actor = next((x for x in self.enc.everyone if x.id == who), None)
        for reason in action.unavailable(self.enc, actor):
            return reason
        given: dict[str, Any] = {}
        named = action.actor_param
        if named is not None and who is not None:
            given[named] = self.canonical_name(who)
        ids = [who] if given and who is not None else []
        try:
            try:
                params = self.action_params_raw(action, given, complete=True)
            except Impossible as exc:  # not with what they have: no force takes it
                return Never(message_of(exc))
            except (RuleError, LookupError, ValueError):  # more to fill in than the actor
                params = action.parse_params(given, partial=True)
            problems = self.play.problems(action, params, ids)
        except (RuleError, DiceError, LookupError, ValueError, TypeError, AttributeError):
            return ""  # a form the encounter cannot fill says why once it is filled
        return problems[0] if problems else ""

    # --- generic commands -----------------------------------------------------------

    def _cmd_undo(self, cmd: commands.Undo) -> Outcome:
        moved = history.take_back(self.enc, "undo")
        if moved is not None:
            return Outcome(f"Rewind taken back: {_changes(abs(moved))} "
                           f"{'redone' if moved > 0 else 'undone'}", changed=True)
        entry = history.undo(self.enc)
        if entry is None:
            raise CommandError("nothing to undo")
        return Outcome(f"Undone: {entry.text}", entry, changed=True)

    def _cmd_redo(self, cmd: commands.Redo) -> Outcome:
        moved = history.take_back(self.enc, "redo")
        if moved is not None:
            return Outcome(f"Rewind taken back: {_changes(moved)} redone", changed=True)
        entry = history.redo(self.enc)
        if entry is None:
            raise CommandError("nothing to redo")
        return Outcome(f"Redone: {entry.text}", entry, changed=True)

    def _cmd_next(self, cmd: commands.Next) -> Outcome:
        tx = Transaction(self.enc)
        dice = self.dice_for(cmd)
        parts: list[LogEntry] = []

        def run(name: str, tx: Transaction, dice: Dice, end: seqs.PhaseEnd,
                ids: list[str]) -> str:
            return self._run_duty(name, tx, dice, end, ids, parts)

        with tx:
            moved = self.play.advance(tx, cmd.what, force=cmd.force, roll_rest=cmd.roll_rest,
                                      dice=dice, run=run)
            if isinstance(moved, PendingDuty):
                pending = moved.with_asks(self.duty_asks(moved))  # as it stands owed
                tx.rollback()  # duties run before it was met are not kept either
                return Outcome(pending.message, pending=pending)
            return self._commit(tx, moved, "next", dice, parts=parts or None)

    def duty_asks(self, pending: PendingDuty) -> list[Ask]:
        """The dice a pending duty owes, one who owes it after another, worked out in the
        encounter as it stands (none where its action cannot say: the message goes on
        without them)."""
        action = self.ruleset.actions.get(pending.action) if pending.action else None
        if action is None:
            return []
        names = self.play.names()
        roles = tuple(dict.fromkeys(st.role for st in action.stages))
        asks = []
        try:
            for who, given in self._duty_givens(action, [i for i, _ in pending.items if i]):
                params = self.action_params_raw(action, given, complete=True)
                asks.append(Ask(names.get(who, ""), params, dice_words(action, params), roles))
        except (RuleError, DiceError, LookupError, CommandError):
            return []
        return asks

    def _duty_givens(self, action: Action[Any], ids: list[str]) -> list[tuple[str, dict[str, Any]]]:
        """Who a duty's action is run for, and the parameter naming them: once for each
        one it is pending for where the action names its actor, else once."""
        actor = action.actor_param
        if actor is None or not ids:
            return [("", {})]
        names = {x.id: x.name for x in self.enc.everyone}
        return [(i, {actor: self.canonical_name(names.get(i, i))}) for i in ids]

    def _run_duty(self, name: str, tx: Transaction, dice: Dice, end: seqs.PhaseEnd,
                  ids: list[str], parts: list[LogEntry]) -> str:
        """A duty's action, run by the tracker inside an advance (its dice rolled by the
        tracker only where the GM said so: ``--roll-rest``): once for each one it is
        pending for where the action names its actor (a morale test per unit), else once.
        Each is kept in ``parts`` as the same action taken by hand would be."""
        action = self.ruleset.action(name)
        actor = action.actor_param
        texts = []
        for _, given in self._duty_givens(action, ids):
            params = self.action_params_raw(action, given, complete=True)
            odds = pre_roll_odds(action, params)
            ops, rolls, stages = len(tx.ops), len(dice.rolls), len(dice.requests)
            resolution = action.resolve(params, dice)
            action.apply(self.enc, params, resolution, tx)
            texts.append(resolution.text)
            if len(tx.ops) == ops and len(dice.rolls) == rolls:
                continue  # bookkeeping that found nothing to do: not an action taken
            record = resolved_record(action, params, resolution, odds, dice, [],
                                     first_stage=stages)
            rolled = [RollRecord(role=r.role, sides=r.sides, value=r.value, source=r.source,
                                 stage=r.stage - stages) for r in dice.rolls[rolls:]]
            parts.append(LogEntry(
                text=resolution.text, kind=action.name, round=self.enc.position.round,
                phase=end.index, side=end.side, actor=str(params.get(actor or "actor") or ""),
                rolls=rolled, resolved=record,
                secret=self.names_hidden(resolution.text, tx)))
        return "; ".join(texts)

    def _cmd_roll(self, cmd: commands.Roll) -> Outcome:
        dice = self.dice_for(cmd)
        result = roll_expression(cmd.expr, dice, role=cmd.role)
        text = f"Roll {result.describe()}"
        if self.read_only:
            return Outcome(text)
        tx = Transaction(self.enc)
        return self._commit(tx, text, "roll", dice)

    def _cmd_note(self, cmd: commands.Note) -> Outcome:
        tx = Transaction(self.enc)
        return self._commit(tx, cmd.body, "note", secret=cmd.secret)

    def _cmd_add(self, cmd: commands.Add) -> Outcome:
        kind = "units" if cmd.kind == "unit" else "combatants"
        # the encounter's own model (a ruleset's, or the shared one of an older save)
        model = get_args(type(self.enc).model_fields[kind].annotation)[0]
        if kind == "combatants":
            joins = bestiary.joining(self.enc, cmd.name, cmd.params, self.path,
                                     creatures="hp" in model.model_fields)
        else:
            joins = bestiary.Joining([self.enc.free_name(cmd.name)], cmd.params)
        tx = Transaction(self.enc)
        actor = self._actor()
        with tx:
            for name in joins.names:
                item, asked = self._new(kind, model, name, joins.params)
                tx.add([kind], item)
            newcomer = item.id if kind == "combatants" and len(joins.names) == 1 else None
            place = self._keep_actor(tx, actor, newcomer)
            what = "unit" if kind == "units" else "combatant"
            who = joins.names[0] if len(joins.names) == 1 else \
                f"{joins.names[0]} to {joins.names[-1].rsplit(' ', 1)[-1]}"
            text = "; ".join([f"{who} {'joins' if len(joins.names) == 1 else 'join'} "
                              f"({what}, {item.side})", *joins.said, *asked_for(asked),
                              *([place] if place else [])])
            return self._commit(tx, text, "add")

    def _new(self, kind: str, model: type[Any], name: str,
             params: dict[str, str]) -> tuple[Any, list[str]]:
        """A combatant or unit as ``add`` gives it, every value checked, and what it
        still needs from the GM."""
        data: dict[str, Any] = {"id": self.enc.new_id(name), "name": name}
        stats: dict[str, Any] = {}
        domains.not_kept(model, params)
        records = _records(model.model_construct(), params)
        data.update(records)
        for key, raw in params.items():
            if key in ("id", "name"):
                raise CommandError(f"{key}= cannot be set here")
            if key.partition(".")[0] in records:
                continue
            if key in model.model_fields:
                data[key] = domains.typed_text(model, key, raw)
            elif kind == "combatants":
                stats[domains.stat_name(model, key)] = _int(key, raw)
            else:
                raise CommandError(f"a unit has no field '{key}' (fields: {_fields(model)})")
        if stats:
            data["stats"] = stats
        if kind == "units" and "strength" in data and "strength_start" not in data:
            data["strength_start"] = data["strength"]
        asked = self.ruleset.unit_model.arrive(data, self.enc.settings) if kind == "units" else []
        named = domains.another(self.enc, None, model,
                                {k: v for k, v in data.items() if k in params})
        return domains.checked(model, {**data, **named}, params,
                               settings=self.domain_settings()), asked

    def _keep_actor(self, tx: Transaction, actor: str | None, newcomer: str | None = None) -> str:
        """Keep the turn with whoever had it when the order changes under them."""
        return self.play.keep_turn(tx, actor, newcomer)

    def _actor(self) -> str | None:
        return self.play.current()

    @property
    def play(self) -> Play:
        """The sequence of play of the encounter as it stands."""
        return Play(self.enc, self.ruleset)

    def find(self, key: str) -> tuple[str, Combatant | Unit]:
        """The combatant or unit ``key`` names (an id, a name, a unique prefix), with
        the list it is in ("combatants" or "units"); LookupError says why not."""
        return self._find(key)

    def _find(self, key: str) -> tuple[str, Combatant | Unit]:
        try:
            return "combatants", self.enc.find_combatant(key)
        except LookupError as first:
            try:
                return "units", self.enc.find_unit(key)
            except LookupError:
                raise first from None

    def _cmd_remove(self, cmd: commands.Remove) -> Outcome:
        kind, who = self._find(cmd.who)
        tx = Transaction(self.enc)
        actor, side = self._actor(), self.play.side()
        with tx:
            tx.remove([kind], who.id)
            turn = self.play.keep_side(tx, side)
            self._keep_actor(tx, actor if actor != who.id else None)
            ended = _ends_with(tx, self.enc, who)
            ended += _faced_by(tx, self.enc, who)
            return self._commit(tx, "; ".join([f"{who.name} leaves the encounter", *ended,
                                               *([turn] if turn else [])]), "remove")

    def _cmd_set(self, cmd: commands.Set) -> Outcome:
        marks = cmd.marks
        kind, who = self._find(cmd.who)
        model = type(who)
        if not cmd.params and not marks:
            raise CommandError(f"set {who.name}: nothing to set (fields: {_fields(model)})")
        if "id" in cmd.params:
            raise CommandError("id cannot be changed")
        domains.not_kept(model, cmd.params)
        values = domains.changed(who, {k: v for k, v in cmd.params.items()
                                       if k in model.model_fields and k not in _NOT_SET},
                                 settings=self.domain_settings())
        values = domains.another(self.enc, who.id, model, values)
        name = values.get("name", who.name)
        if any(x.name.casefold() == name.casefold() and x is not who for x in self.enc.everyone):
            raise CommandError(f"name={name}: {name} is in the fight already (each name "
                               "names one)")
        records = _records(who, cmd.params)
        if records:  # a relation of the record to another field (a crossbow's span rounds)
            domains.checked(model, {**who.model_dump(), **values, **records}, cmd.params,
                            fields=[*values, *records], settings=self.domain_settings())
        tx = Transaction(self.enc)
        changes: list[str] = []
        actor, side = self._actor(), self.play.side()
        order_before = self.play.order()
        with tx:
            followed = ""
            if "hp" in values and isinstance(who, Combatant):  # down at 0, as damage has it
                followed = hitpoints.follow_points(tx, who, values)
            for key, raw in cmd.params.items():
                if key in values:
                    tx.set([kind, who.id, key], values[key])
                    if key in getattr(model, "names_another", ()) and values[key]:
                        raw = self.enc.find_combatant(values[key]).name  # as shown
                elif key.partition(".")[0] in records:
                    head = key.partition(".")[0]
                    tx.set([kind, who.id, head], records[head])
                elif isinstance(who, Combatant):
                    stat = domains.stat_name(model, key)
                    tx.set([kind, who.id, "stats", stat], _int(key, raw))
                else:
                    fields = _fields(model)
                    raise CommandError(f"{who.name} has no field '{key}' (fields: {fields})")
                changes.append(f"{key} {raw}")
            changes += [followed] if followed else []
            conditions = list(who.conditions)
            for mark in marks:
                cond = mark[1:].strip()
                if not cond:
                    continue
                if mark.startswith("+") and cond not in conditions:
                    conditions.append(cond)
                    changes.append(f"now {cond}")
                elif mark.startswith("-"):
                    if cond in conditions:
                        conditions.remove(cond)
                    elif any(e.name == cond for e in who.effects):
                        tx.set([kind, who.id, "effects"],
                               [e for e in who.effects if e.name != cond])
                    else:
                        raise CommandError(f"{who.name} is not {cond}")
                    changes.append(f"no longer {cond}")
            tx.set([kind, who.id, "conditions"], conditions)
            turn = self.play.keep_side(tx, side)  # a side's first unit gone over
            changes += [turn] if turn else []
            moved = _moved_ahead(order_before, self.play.order(), who.id, actor)
            down = actor == who.id and who.id not in self.play.order()  # its turn passes on
            place = self._keep_actor(tx, None if down else actor, who.id if moved else None)
            text = f"{who.name}: {', '.join(changes)}"
            return self._commit(tx, f"{text}; {place}" if place else text, "set")

    def _cmd_effect(self, cmd: commands.Effect) -> Outcome:
        kind, who = self._find(cmd.who)
        name = cmd.name
        unknown = set(cmd.params) - {"rounds", "turn", "until", "at"}
        if unknown:
            raise CommandError(f"effect: no option '{sorted(unknown)[0]}' "
                               f"({GENERIC_HELP['effect']})")
        opts = domains.effect_options(cmd.params)
        rounds, at = opts.rounds, opts.at
        until = who.id if opts.turn else None
        if opts.until:
            until = self._find(opts.until)[1].id
        now = self.enc.position
        if until is not None:
            # the turn it is set in does not count: "until the end of its next turn"
            ends = Ends(at=at, of="turn", who=until, next=True)
            effect = Effect(name=name, ends=ends, left=max(rounds, 1), since=since(now))
        elif rounds > 0:
            ends = Ends(at="end", of="round", round=now.round + rounds - 1)
            effect = Effect(name=name, ends=ends, since=since(now))
        else:
            effect = Effect(name=name)
        tx = Transaction(self.enc)
        with tx:
            tx.add([kind, who.id, "effects"], effect)
            text = f"{who.name}: {effect.describe(self.play.names())}"
            return self._commit(tx, text, "effect")

    def _cmd_wound(self, cmd: commands.Wound) -> Outcome:
        if cmd.remove is not None:
            return self._wound_healed(cmd.who, cmd.remove)
        who = self.enc.find_combatant(cmd.who)
        data: dict[str, Any] = {
            "location": cmd.location,
            "round": self.enc.position.round,
        }
        for key, raw in cmd.params.items():
            if key not in Wound.model_fields or key in ("location", "round"):
                raise CommandError(f"a wound has no field '{key}' (fields: {_fields(Wound)})")
            data[key] = domains.typed_text(Wound, key, raw)
        wound = domains.checked(Wound, data, cmd.params)
        tx = Transaction(self.enc)
        with tx:
            tx.add(["combatants", who.id, "wounds"], wound)
            lvl = f" level {wound.level}" if wound.level else ""
            kind = f" {wound.kind}" if wound.kind else ""
            return self._commit(tx, f"{who.name}: wound to {wound.location}{lvl}{kind}", "wound")

    def _wound_healed(self, name: str, n: int) -> Outcome:
        who = self.enc.find_combatant(name)
        if not who.wounds:
            raise CommandError(f"remove={n}: {who.name} has no wounds")
        if not 1 <= n <= len(who.wounds):
            raise CommandError(f"remove={n}: {who.name} has wounds 1 to {len(who.wounds)}")
        wound = who.wounds[n - 1]
        tx = Transaction(self.enc)
        with tx:
            tx.remove(["combatants", who.id, "wounds"], n - 1)
            return self._commit(tx, f"{who.name}: wound to {wound.location} healed", "heal")

    def _cmd_army(self, cmd: commands.Army) -> Outcome:
        model = self.ruleset.unit_model
        try:
            path = armies.find_army(cmd.file, self.path)
            army = armies.read_army(path, model, cmd.side, armies.parse_picks(cmd.picks),
                                    self.domain_settings())
        except armies.ArmyError as exc:
            raise CommandError(f"army: {exc}") from None
        armies.unique_names(army.units, (x.name for x in self.enc.everyone))
        tx = Transaction(self.enc)
        actor = self._actor()
        with tx:
            for data in army.units:
                unit_id = self.enc.new_id(data["name"])
                tx.add(["units"], model.model_validate({**data, "id": unit_id}))
            self._keep_actor(tx, actor)
            n = len(army.units)
            joined = f"{n} unit joins" if n == 1 else f"{n} units join"
            text = "; ".join([f"Army list {path.name}: {joined} ({', '.join(army.sides)})",
                              *army.notes])
            out = self._commit(tx, text, "army")
        if self.keep_armies and self.path is not None:
            try:
                kept = armies.keep_beside(army, self.path)
            except OSError as exc:
                out.message += f"; not copied to armies/ ({exc.strerror or exc})"
            else:
                if kept is not None:
                    out.message += f"; copied to armies/{kept.name}"
        return out

    def _cmd_rewind(self, cmd: commands.Rewind) -> Outcome:
        index, where = self._rewind_point(cmd)
        if index == self.enc.cursor:
            raise CommandError(f"rewind: already at {where}")
        moved = history.jump(self.enc, index)
        if moved < 0:
            text = f"Back to {where}: {_changes(-moved)} undone; undo or redo takes it back"
        else:
            text = f"Forward to {where}: {_changes(moved)} redone; undo goes back"
        return Outcome(text, changed=True)

    def _rewind_point(self, cmd: commands.Rewind) -> tuple[int, str]:
        """The point ``rewind`` names: how many entries are applied there, in words."""
        if cmd.entry is not None:
            k = cmd.entry
            if not 0 <= k <= len(self.enc.log):
                raise CommandError(f"rewind entry {k}: the log has entries 1 to {len(self.enc.log)}"
                                   " (0: its start)")
            return k, f"entry {k}" if k else "the start of the log"
        if cmd.round is None:
            raise CommandError(REWIND_USAGE)
        round_ = cmd.round
        phase: int | None = None
        where = f"round {round_}"
        if cmd.phase is not None:
            phase = self._phase_index(cmd.phase)
            where += f", {self.ruleset.phases[phase]}"
        try:
            point = history.point_of(self.enc, round_, phase)
        except HistoryError:
            raise CommandError(f"rewind: {where} is not in the log before now") from None
        if point == 0 and round_ == 1 and not phase:
            point = self._setup_end()
            if point:
                where += " (after the setup: rewind entry 0 goes back before it)"
        return point, where

    def _setup_end(self) -> int:
        """How many applied entries open the log before its first entry of play: the
        table as the GM set it up, which ``rewind round 1`` keeps."""
        for n, entry in enumerate(self.enc.log[:self.enc.cursor]):
            if entry.kind not in SETUP_KINDS:
                return n
        return self.enc.cursor

    def _phase_index(self, word: str) -> int:
        phases = [p.lower() for p in self.ruleset.phases]
        if not phases:
            raise CommandError(f"{self.ruleset.id} has no phases")
        if digits(word) and 1 <= int(word) <= len(phases):
            return int(word) - 1
        hits = [i for i, p in enumerate(phases) if p.startswith(word)]
        if len(hits) != 1:
            raise CommandError(f"phase {word}: expected one of {', '.join(phases)} (or 1 to "
                               f"{len(phases)})")
        return hits[0]

    def _cmd_setting(self, cmd: commands.Setting) -> Outcome:
        if not cmd.params:
            return Outcome(self.settings_text())
        tx = Transaction(self.enc)
        parts = []
        with tx:
            for key, raw in cmd.params.items():
                spec = self.ruleset.setting_spec(key)
                if spec.path:
                    self.inside_folder(key, raw)
                value = spec.named(self.enc, spec.parse(raw))
                if spec.kept:  # a list of the encounter's own (secret_fields)
                    names = [n.strip() for n in str(value).split(",") if n.strip()]
                    tx.set([spec.kept], spec.listed(names))
                else:
                    tx.set(["settings", key], value)
                parts.append(f"{key} = {value if spec.names_side else raw}")
            domains.still_fit(self.enc, list(cmd.params), cmd.params, self.domain_settings())
            return self._commit(tx, f"Setting: {', '.join(parts)}", "setting")

    def settings_text(self) -> str:
        if not self.ruleset.settings:
            return f"{self.ruleset.id} has no settings"
        return "; ".join(
            f"{s.name}={s.of(self.enc)}" for s in self.ruleset.settings
        )

    def _cmd_help(self, cmd: commands.Help) -> Outcome:
        if cmd.topic:
            topic = cmd.topic
            if topic in GENERIC_HELP:
                return Outcome(GENERIC_HELP[topic])
            if topic in self.ruleset.actions:
                return Outcome(self.ruleset.actions[topic].usage())
            raise CommandError(f"no help for '{topic}'")
        generic = ", ".join(GENERIC_HELP)
        actions = ", ".join(sorted(self.ruleset.actions)) or "none"
        return Outcome(f"commands: {generic}; {self.ruleset.id} actions: {actions}")

    def help_lines(self) -> list[str]:
        lines = list(GENERIC_HELP.values())
        lines += [f"{a.usage()}   {a.help}" for a in self.ruleset.actions.values()]
        return lines


# --- value parsing for add/set ----------------------------------------------------------


def _changes(n: int) -> str:
    return "1 change" if n == 1 else f"{n} changes"


def pre_roll_odds(action: Action[Any], params: Any) -> list[tuple[str, float]]:
    """The exact odds of each outcome before any die, or none where the action has none
    (or cannot work them out for these parameters)."""
    if not action.has_odds:
        return []
    try:
        return [(label, float(p)) for label, p in action.odds(params)]
    except (RuleError, ValueError, LookupError, NotImplementedError, ArithmeticError):
        return []


def resolved_record(action: Action[Any], params: Any, res: Resolution,
                    odds: list[tuple[str, float]], dice: Dice, forced: list[str],
                    first_stage: int = 0) -> Resolved:
    """What the journal keeps of an action for the report: it never recomputes history.
    ``first_stage``: where its stages begin among ``dice``'s (one advance runs several)."""
    raw = params.as_dict() if hasattr(params, "as_dict") else dict(params)
    kept = {k: list(v) if isinstance(v, tuple) else v for k, v in raw.items()
            if v is not None and v != [] and v != ()}
    named = [p.name for p in action.params if p.kind == "target"]
    target = next((str(raw[k]) for k in (*named, "target", "defender") if raw.get(k)), "")
    stages = [StageRecord(role=r.role, sides=r.sides, count=r.count, need=r.need,
                          under=r.under, why=r.why) for r in dice.requests[first_stage:]]
    return Resolved(action=action.name, outcome=res.outcome, params=kept, odds=odds,
                    stages=stages, target=target, forced=forced[0] if forced else "",
                    happened=happened_label(action, params, res, odds))


def dice_words(action: Action[Any], params: Any) -> str:
    """The dice an action will ask for, as far as they are known before any falls:
    ``drive 3 d6 (Knights: 3 hits), drive 2 d6 (Archers: 2 hits)``."""
    known = [st for st in stages.known_stages(action, params) if st["count"]]
    roles = [st["role"] for st in known]
    return ", ".join(f"{st['role']} {st['count']} {st['die']}"
                     + (f" ({st['why']})" if st.get("why") and roles.count(st["role"]) > 1
                        else "") for st in known)


def happened_label(action: Action[Any], params: Any, res: Resolution,
                   odds: list[tuple[str, float]]) -> str:
    """The odds label of what happened, as the action names it ("" where none does, or
    it names one that is not among its odds)."""
    if not odds:
        return ""
    try:
        label = action.happened(params, res, odds)
    except (RuleError, TypeError, ValueError, AttributeError, LookupError):
        return ""
    return label if any(label == known for known, _ in odds) else ""


def _ends_with(tx: Transaction, enc: Encounter, gone: Combatant | Unit) -> list[str]:
    """The effects that end on the turn of one who leaves end as they leave (their turn
    will not come again); the log's words."""
    lines: list[str] = []
    for kind, items in (("combatants", enc.combatants), ("units", enc.units)):
        for who in items:
            ending = [e for e in who.effects if e.ends is not None and e.ends.of == "turn"
                      and e.ends.who == gone.id]
            if ending:
                tx.set([kind, who.id, "effects"], [e for e in who.effects if e not in ending])
                lines += [f"{who.name}: {e.name} ended ({gone.name} left)" for e in ending]
    return lines


def _faced_by(tx: Transaction, enc: Encounter, gone: Combatant | Unit) -> list[str]:
    """Whoever names the one who leaves in a field naming another combatant (an edc
    fighter's opponent) names no one from then on; the log's words. What others noted of
    them (a harn range) goes quietly."""
    lines: list[str] = []
    for who in enc.combatants:
        if who.id == gone.id:
            continue
        for key in type(who).names_another:
            if getattr(who, key, "") == gone.id:
                tx.set(["combatants", who.id, key], "")
                lines.append(f"{who.name}: no {key} ({gone.name} left)")
        for key in type(who).notes_on_others:
            notes = getattr(who, key)
            if any(n.id == gone.id for n in notes):
                tx.set(["combatants", who.id, key], [n for n in notes if n.id != gone.id])
    return lines


def _moved_ahead(before: list[str], after: list[str], who: str, holder: str | None) -> bool:
    """Did a change of initiative move ``who`` from after the one acting to ahead of them?"""
    if holder is None or who == holder or who not in after or holder not in after:
        return False
    was_after = (who not in before or holder not in before
                 or before.index(who) > before.index(holder))
    return was_after and after.index(who) < after.index(holder)


def _int(key: str, raw: str) -> int:
    return whole(key, raw)


def _fields(model: type[Any]) -> str:
    hidden = {"id", "stats", "pools", "wounds", "effects", "conditions"}
    return ", ".join(k for k in model.model_fields if k not in hidden)


SETUP_KINDS = frozenset({"add", "army", "setting", "set", "note", "remove"})
"""The kinds of entry that set the table up (before the first of any other kind)."""

_NOT_SET = frozenset({"stats", "pools", "wounds", "effects"})
"""Fields ``set NAME field=value`` does not change as a whole (stats are set one by one)."""


def _records(who: Any, params: dict[str, str]) -> dict[str, Any]:
    """The records a combatant holds as some of their fields are typed (weapon.br=180, not
    a stat of that name), each field checked against its domain."""
    fields = type(who).model_fields
    parts: dict[str, dict[str, str]] = {}
    for key, raw in params.items():
        head, _, sub = key.partition(".")
        if sub and head in fields and head not in _NOT_SET:
            parts.setdefault(head, {})[sub] = raw
    return {head: domains.nested(who, head, typed) for head, typed in parts.items()}


def asked_for(asked: list[str]) -> list[str]:
    """What a unit that joins still needs from the GM, as the message says it."""
    return [f"set {what}" for what in asked]


def rolled_by_role(rolled: list[Any], most: int = 12, certain: Iterable[str] = ()) -> str:
    """``save 2* 1* 4*; kill 5*``: tracker-rolled dice by role, in the order they fell;
    a role in ``certain`` (a stage no die could change) says so."""
    sure = set(certain)
    groups: list[tuple[str, list[str]]] = []
    for r in rolled[:most]:
        if groups and groups[-1][0] == r.role:
            groups[-1][1].append(f"{r.value}*")
        else:
            groups.append((r.role, [f"{r.value}*"]))
    shown = "; ".join(f"{role} {' '.join(values)}"
                      + (" (no die can change it)" if role in sure else "")
                      for role, values in groups)
    return shown + (" …" if len(rolled) > most else "")


Handler = Callable[[Session, Any], Outcome]


@cache
def handlers() -> dict[type[Command], Handler]:
    """What runs each command (the app carries out :data:`commands.APP_ONLY` itself); made
    on first use, as the commands load after the first screen."""
    return {
        commands.Add: Session._cmd_add,
        commands.Set: Session._cmd_set,
        commands.Remove: Session._cmd_remove,
        commands.Next: Session._cmd_next,
        commands.Undo: Session._cmd_undo,
        commands.Redo: Session._cmd_redo,
        commands.Roll: Session._cmd_roll,
        commands.Note: Session._cmd_note,
        commands.Effect: Session._cmd_effect,
        commands.Wound: Session._cmd_wound,
        commands.Damage: hitpoints.damage,
        commands.Heal: hitpoints.heal,
        commands.Setting: Session._cmd_setting,
        commands.Army: Session._cmd_army,
        commands.Rewind: Session._cmd_rewind,
        commands.Help: Session._cmd_help,
        commands.Act: Session._cmd_act,
    }
