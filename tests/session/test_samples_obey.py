"""The shipped samples obey the rules the tracker enforces: each action in a sample's log,
checked against the phase, turn and limit rules at the position it was taken (the log
replayed from its start, each action checked before it is applied again), is one the
tracker would take without ``force=yes``, and leaves the record of who acted that those
limits read (so it could not be taken again)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import SAMPLES, SAVES
from tracker.core import history
from tracker.core.model import Encounter, LogEntry
from tracker.rules.action import Action
from tracker.rules.errors import RuleError
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session


class Given(SimpleNamespace):
    """An action's parameters as far as its log entry keeps them (older entries keep no
    record of them): what the rules of who acts read, by name."""

    def get(self, name: str, default: Any = None) -> Any:
        return getattr(self, name, default)


def params_of(session: Session, action: Action[Any], entry: LogEntry) -> Any:
    """The action's parameters as they were taken: its record, its actor, the rest filled
    from the encounter as it stood."""
    raw: dict[str, Any] = dict(entry.resolved.params) if entry.resolved is not None else {}
    actor = next((p.name for p in action.params if p.kind == "actor"), None)
    if actor is not None and entry.actor and actor not in raw:
        raw[actor] = entry.actor
    try:
        return session.action_params_raw(action, raw, complete=True)
    except (RuleError, CommandError, LookupError, ValueError):
        return Given(**action.parse_params(raw, partial=True))


def broken_rules(enc: Encounter) -> list[str]:
    """Each action of the log the tracker would refuse where it was taken, in words."""
    work = enc.model_copy(deep=True)
    work.log.load_all()
    session = Session(work)
    while history.undo(work) is not None:
        pass
    found: list[str] = []
    for i in range(enc.cursor):
        entry = work.log[i]
        action = session.ruleset.actions.get(entry.kind)
        if action is not None:
            params = params_of(session, action, entry)
            try:
                ids = session.actor_ids(action, params)
            except AttributeError:  # an older entry's parameters: its actor alone
                ids = [session.find(entry.actor)[1].id] if entry.actor else []
            for problem in session.play.problems(action, params, ids):
                found.append(f"entry {i + 1} ({entry.kind} by {entry.actor}): {problem}")
            if entry.resolved is not None and entry.resolved.forced:
                found.append(f"entry {i + 1}: forced past {entry.resolved.forced}")
        history.redo(work)
        if action is not None:
            found += unrecorded(work, entry, i, ids, action)
    return found


def unrecorded(enc: Encounter, entry: LogEntry, i: int, ids: list[str],
               action: Action[Any]) -> list[str]:
    """Each actor of an action the applied entry leaves no ``acted`` record of, whose
    limits would then let it be taken again."""
    pos = enc.position
    if not ids and action.once_per:
        return [f"entry {i + 1} ({entry.kind}): names no one who took it, so its limit "
                "cannot hold"]
    return [f"entry {i + 1} ({entry.kind}): leaves no acted record of {who}"
            for who in ids
            if not any((a.actor, a.action, a.round, a.side, a.phase)
                       == (who, entry.kind, pos.round, pos.side, pos.phase)
                       for a in enc.acted)]


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_action_of_a_sample_was_allowed_where_it_was_taken(sample: str) -> None:
    assert broken_rules(load(SAVES / sample)) == []


def test_the_check_finds_an_action_out_of_its_sides_turn() -> None:
    """The check itself: the English shooting in the French turn is found."""
    from tracker.session.commands import parse

    enc = load(SAVES / "d6battle-crossbow-duel.toml")
    session = Session(enc)
    while history.undo(enc) is not None:
        pass
    session.run(parse("shoot Longbowmen Genoese --roll-rest force=yes"))
    assert broken_rules(enc) == [
        "entry 1 (shoot by Longbowmen): it is French's turn: Longbowmen (English) cannot "
        "shoot now",
        "entry 1: forced past it is French's turn: Longbowmen (English) cannot shoot now"]
