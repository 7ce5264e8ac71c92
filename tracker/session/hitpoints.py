"""``damage`` and ``heal``: hit points taken and given back, to one combatant or several
at once (an area spell), by the rules of :mod:`tracker.rules.plain.health`.

A combatant whose hit points reach 0 is down: out of the fight and skipped in the order
(the turn stays with whoever had it, or passes on if they went down); healed above 0 it
is back. Undo brings back what either did, in one step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tracker.core.history import Transaction
from tracker.core.model import Combatant
from tracker.rules.plain.domains import POINTS
from tracker.rules.plain.health import heal as heal_points
from tracker.rules.plain.health import take_damage, tracked
from tracker.session.language import CommandError
from tracker.session.naming import phrases

if TYPE_CHECKING:
    from tracker.session.commands import Damage, Heal
    from tracker.session.session import Outcome, Session


def named(session: Session, words: list[str]) -> list[Combatant]:
    """The combatants the words name, each once, each with hit points kept."""
    found: list[Combatant] = []
    for name in phrases(session.enc, words):
        who = session.enc.find_combatant(name)
        if not tracked(who):
            if "hp" not in type(who).model_fields:
                raise CommandError(f"{who.name} has no hit points in {session.ruleset.id} "
                                   "(plain keeps them)")
            raise CommandError(f"{who.name} has no hit points yet: set {who.name} hp=N "
                               "(and max_hp=N) first")
        if all(c.id != who.id for c in found):
            found.append(who)
    if not found:
        raise CommandError("name who: damage NAME N [NAME ...]")
    return found


def follow_points(tx: Transaction, who: Combatant, values: dict[str, Any]) -> str:
    """``set NAME hp=N`` as damage and healing have it: at 0 the combatant is down, above
    0 from down it is back up; the words for the log ("" where nothing follows, or where
    the same change says ``out`` itself: the GM's word)."""
    new = values.get("hp")
    if new is None or "out" in values or "hp" not in type(who).model_fields:
        return ""
    if new == 0 and not who.out:
        tx.set(["combatants", who.id, "out"], True)
        return "down"
    if new > 0 and who.out and getattr(who, "hp", None) == 0:
        tx.set(["combatants", who.id, "out"], False)
        return "back up"
    return ""


def damage(session: Session, cmd: Damage) -> Outcome:
    """N damage to each named, temporary points first; down at 0."""
    return _change(session, cmd, take_damage, "damage")


def heal(session: Session, cmd: Heal) -> Outcome:
    """N hit points back to each named, up to the maximum; back up from 0."""
    return _change(session, cmd, heal_points, "heal")


Change = Callable[[Transaction, Any, int], str]
"""Takes or gives back hit points through a transaction; the log's words."""


def _change(session: Session, cmd: Damage, how: Change, kind: str) -> Outcome:
    if not POINTS.allows(cmd.amount):
        raise CommandError(f"{cmd.verb} {cmd.amount}: the amount {POINTS.words()}")
    who = named(session, cmd.names)
    actor = session.play.current()
    tx = Transaction(session.enc)
    with tx:
        lines = [how(tx, c, cmd.amount) for c in who]
        down = actor is not None and any(c.id == actor and c.out for c in who)
        place = session.play.keep_turn(tx, None if down else actor)
        text = "; ".join([*lines, *([place] if place else [])])
        return session.commit(tx, text, kind)
