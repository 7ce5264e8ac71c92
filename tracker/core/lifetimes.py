"""Lifetimes: what a rule starts ends where the sequence of play says, as data.

Everything a rule starts declares when it ends, in the sequence's words (an
:class:`~tracker.core.model.Ends`): a timed effect carries its own, and a ruleset
declares the fields its rules set and when they end (:class:`Lasts`): Warmaster's
leftover hits end with the shooting phase, Warlord's held casualties with phase eight.

As the turn engine moves the position it passes :class:`Boundary` s (a turn ends, a
phase ends, a side's turn ends, a round ends, then the new ones start); at each,
:func:`expire` ends what ends there, through the transaction (so undo brings it back),
and returns a line for the log for each. Forcing past a duty changes none of this: the
phase still ends, so what the rules end there still ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .history import Transaction
    from .model import Combatant, Encounter, Ends, Position, Unit

    Bearer = Combatant | Unit

At = Literal["start", "end"]
Of = Literal["round", "phase", "turn"]


@dataclass(frozen=True, slots=True)
class Boundary:
    """A start or end the turn engine passes: of a round, a phase (``holder`` is its
    name) or a turn (``holder`` is whose: a combatant id, ``group:NAME``, ``side:NAME``
    or a side). ``where`` is the place of the round, phase or turn it starts or ends:
    (round,), (round, side, phase) or, for a turn, (round, side) when the sides take
    whole turns and (round, side, phase, turn) otherwise."""

    at: At
    of: Of
    holder: str
    where: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class When:
    """An end as a ruleset declares it for a field: the words of
    :class:`~tracker.core.model.Ends` (which a saved effect carries) with no pydantic,
    so that a ruleset's sequence loads without the models (``tracker resolve``)."""

    at: At = "end"
    of: Of = "round"
    who: str = ""
    next: bool = False
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Lasts:
    """A field a ruleset's rules set on a unit or combatant, and when it ends: reset to
    the field's default there, or ``then`` does what the rules do at that point
    (removing held casualties) and returns the words for the log. ``says`` is the log's
    words when the field is reset ("leftover hits discarded"); the unit's name leads.

    A field that ends at the *next* boundary of its kind (``ends.next``: d6battle's push
    & shove bonus, won in one combat phase, lasts to the end of the next) names in
    ``since`` the bearer's field that holds where it began (a :func:`since` tuple, or
    None); the boundary of the place it began in does not count, and that field ends
    with it. ``applies`` says whether this is the end the encounter's settings choose,
    where a setting names when a state ends (Warmaster's confusion); None: always."""

    field: str
    ends: Ends | When
    says: str
    then: Callable[[Encounter, Transaction, Any], str] | None = None
    since: str = ""
    applies: Callable[[Encounter], bool] | None = None


def since(pos: Position) -> tuple[int, int, int, int]:
    """Where something begins, for :attr:`Ends.next`."""
    return (pos.round, pos.side, pos.phase, pos.turn)


def holds_for(holder: str, bearer: Bearer) -> bool:
    """Is ``holder``'s turn the bearer's own (its own id, its group, or its side)?"""
    if holder == bearer.id:
        return True
    if holder.startswith("group:"):
        group = getattr(bearer, "group", "")
        return bool(group) and holder[6:] == group
    if holder.startswith("side:"):
        return holder[5:] == bearer.side
    return holder == bearer.side


def matches(ends: Ends | When, b: Boundary, bearer: Bearer, members: Callable[[str], set[str]],
            began: tuple[int, int, int, int] | None = None) -> bool:
    """Does boundary ``b`` count towards ``ends`` for ``bearer``? ``members`` gives the
    ids a holder stands for (a named combatant acts as part of its group)."""
    if b.at != ends.at or b.of != ends.of:
        return False
    if b.of == "round":
        if ends.round is not None and b.where[0] < ends.round:
            return False
    elif b.of == "phase":
        if ends.who and ends.who != b.holder:
            return False
    elif ends.who:
        if ends.who != b.holder and ends.who not in members(b.holder):
            return False
    elif not holds_for(b.holder, bearer):
        return False
    return not (ends.next and began is not None and began[:len(b.where)] == b.where)


def expire(enc: Encounter, tx: Transaction, b: Boundary, lasting: tuple[Lasts, ...],
           members: Callable[[str], set[str]]) -> list[str]:
    """End what ends at ``b``: timed effects, and the fields a ruleset declared. Returns
    a line for the log for each."""
    lines: list[str] = []
    for kind, items in (("combatants", enc.combatants), ("units", enc.units)):
        for who in items:
            lines += _effects(tx, kind, who, b, members)
            for lasts in lasting:
                line = _field(enc, tx, kind, who, lasts, b, members)
                if line:
                    lines.append(line)
    return lines


def _effects(tx: Transaction, kind: str, who: Bearer, b: Boundary,
             members: Callable[[str], set[str]]) -> list[str]:
    if not who.effects:
        return []
    kept, ended, changed = [], [], False
    for effect in who.effects:
        if effect.ends is None or not matches(effect.ends, b, who, members, effect.since):
            kept.append(effect)
        elif effect.left > 1 and effect.ends.round is None:
            kept.append(effect.model_copy(update={"left": effect.left - 1}))
            changed = True
        else:
            ended.append(effect.name)
    if not ended and not changed:
        return []
    tx.set([kind, who.id, "effects"], kept)
    return [f"{who.name}: {', '.join(ended)} ended"] if ended else []


def _field(enc: Encounter, tx: Transaction, kind: str, who: Bearer, lasts: Lasts,
           b: Boundary, members: Callable[[str], set[str]]) -> str:
    info = type(who).model_fields.get(lasts.field)
    began = getattr(who, lasts.since, None) if lasts.since else None
    if info is None or not matches(lasts.ends, b, who, members,
                                   tuple(began) if began is not None else None):
        return ""
    if lasts.applies is not None and not lasts.applies(enc):
        return ""
    default = info.get_default(call_default_factory=True)
    if getattr(who, lasts.field) == default:
        return ""
    if began is not None:
        tx.set([kind, who.id, lasts.since], None)
    if lasts.then is not None:
        return lasts.then(enc, tx, who)
    tx.set([kind, who.id, lasts.field], default)
    return f"{who.name}: {lasts.says}" if lasts.says else ""
