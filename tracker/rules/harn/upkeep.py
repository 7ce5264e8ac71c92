"""The round upkeep of the missile state, and how a combatant reads in the list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .effects import AIMED, IGNORING
from .later import model
from .settings import SPAN_PROGRESS_KEPT

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Combatant, Encounter


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """What the rules do as a round begins: with ``span_progress_kept`` off, a crossbow not
    spanned last round loses its spanning progress. (What ends with the round is declared
    in the sequence's lifetimes.)"""
    if SPAN_PROGRESS_KEPT.of(enc):
        return []
    last = enc.position.round - 1
    lines: list[str] = []
    for c in enc.combatants:
        if not isinstance(c, model.HarnCombatant) or not c.span_progress:
            continue
        if not any(e.name == IGNORING["span"] and e.since is not None and e.since[0] == last
                   for e in c.effects):
            tx.set(["combatants", c.id, "span_progress"], 0)
            lines.append(f"{c.name} stopped spanning: progress lost")
    return lines


def describe_combatant(c: Combatant) -> str:
    """IR, weapon and missile state in a few words."""
    if not isinstance(c, model.HarnCombatant):
        return f"IR{c.initiative}"
    bits = [f"IR{c.initiative}"]
    w = c.weapon
    if w is not None:
        bits.append(f"{w.name} BR{w.br}")
        if w.kind == "crossbow" and not c.loaded:
            if c.spanned:
                bits.append("spanned")
            elif c.span_progress:
                bits.append(f"spanning {c.span_progress}/{w.span_rounds}")
        if w.kind != "thrown":
            bits.append("loaded" if c.loaded else "unloaded")
    for e in c.effects:
        if e.name == AIMED and e.since is not None:
            bits.append(f"aimed r{e.since[0]}")
    if c.in_hand:
        bits.append("in hand")
    if c.movement != "still":
        bits.append(c.movement)
    if c.moved:
        bits.append("moved")
    return ", ".join(bits)
