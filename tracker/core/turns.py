"""Acting order and the march of rounds, turns and phases, with timed effects expiring.

Skirmish rulesets order combatants by a stat, highest first; mass-battle rulesets take
turns by side, each turn walking the ruleset's phases.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .dice import Dice
from .history import Transaction
from .model import Combatant, Encounter

RoundStart = Callable[[Encounter, Transaction, Dice], list[str]]


def order_value(c: Combatant, stat: str) -> int:
    if stat in type(c).model_fields:
        value = getattr(c, stat)
        return int(value) if isinstance(value, (int, float)) else 0
    return c.stats.get(stat, c.initiative)


def acting_order(enc: Encounter, stat: str = "initiative") -> list[str]:
    """Ids of who acts, in order: combatants by ``stat`` (highest first), else unit sides."""
    if enc.combatants:
        active = [c for c in enc.combatants if not c.out]
        active.sort(key=lambda c: (-order_value(c, stat), c.name.lower()))
        return [c.id for c in active]
    return sides(enc)


def sides(enc: Encounter) -> list[str]:
    seen: list[str] = []
    for who in enc.everyone:
        if who.side not in seen:
            seen.append(who.side)
    return seen


def actor_name(enc: Encounter, actor: str) -> str:
    for c in enc.combatants:
        if c.id == actor:
            return c.name
    return actor


@dataclass
class Step:
    """What advancing did, for the log line."""

    text: str
    new_round: bool = False


def _expire_round(enc: Encounter, tx: Transaction, ended_round: int) -> list[str]:
    gone: list[str] = []
    for kind, items in (("combatants", enc.combatants), ("units", enc.units)):
        for who in items:
            keep = [e for e in who.effects if e.until_round is None or e.until_round > ended_round]
            if len(keep) != len(who.effects):
                lost = [e.name for e in who.effects if e not in keep]
                tx.set([kind, who.id, "effects"], keep)
                gone.append(f"{who.name}: {', '.join(lost)} ended")
    return gone


def _expire_turn(enc: Encounter, tx: Transaction, actor: str) -> list[str]:
    gone: list[str] = []
    for kind, items in (("combatants", enc.combatants), ("units", enc.units)):
        for who in items:
            mine = {who.id, who.side} if kind == "units" else {who.id}
            if actor not in mine:
                continue
            keep = [e for e in who.effects if e.until_turn_of not in mine]
            if len(keep) != len(who.effects):
                lost = [e.name for e in who.effects if e not in keep]
                tx.set([kind, who.id, "effects"], keep)
                gone.append(f"{who.name}: {', '.join(lost)} ended")
    return gone


def advance(
    enc: Encounter,
    tx: Transaction,
    what: str,
    *,
    stat: str = "initiative",
    phases: list[str] | None = None,
    start_round: RoundStart | None = None,
    dice: Dice | None = None,
) -> Step:
    """Move to the next turn, phase or round inside ``tx``; returns the log line."""
    phases = phases or []
    pos = enc.position
    order = acting_order(enc, stat)
    if what == "phase" and phases and pos.phase + 1 < len(phases):
        tx.set(["position", "phase"], pos.phase + 1)
        return Step(f"Phase: {phases[pos.phase]}")
    if what in ("turn", "phase") and pos.turn + 1 < len(order):
        tx.set(["position", "turn"], pos.turn + 1)
        tx.set(["position", "phase"], 0)
        actor = order[pos.turn]
        notes = _expire_turn(enc, tx, actor)
        text = f"Turn: {actor_name(enc, actor)}"
        return Step("; ".join([text, *notes]))
    # a new round
    ended = pos.round
    notes = _expire_round(enc, tx, ended)
    tx.set(["position", "round"], ended + 1)
    tx.set(["position", "turn"], 0)
    tx.set(["position", "phase"], 0)
    order = acting_order(enc, stat)
    if order:
        notes += _expire_turn(enc, tx, order[0])
    if start_round is not None:
        notes += start_round(enc, tx, dice or Dice(seed=enc.seed + len(enc.log)))
    first = f", {actor_name(enc, order[0])} first" if order else ""
    return Step("; ".join([f"Round {ended + 1}{first}", *notes]), new_round=True)


def current_actor(enc: Encounter, stat: str = "initiative") -> str | None:
    order = acting_order(enc, stat)
    if not order:
        return None
    return order[min(enc.position.turn, len(order) - 1)]
