"""The round upkeep of the missile state, and how a combatant reads in the list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .settings import SPAN_PROGRESS_KEPT, setting

if TYPE_CHECKING:
    from tracker.core.dice import Dice
    from tracker.core.history import Transaction
    from tracker.core.model import Combatant, Encounter


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """Upkeep: moved flags clear, an aim older than last round lapses, idle spanning may
    lose its progress."""
    from .model import HarnCombatant

    rnd = enc.position.round
    keep_span = setting(enc, SPAN_PROGRESS_KEPT)
    lines: list[str] = []
    for c in enc.combatants:
        if not isinstance(c, HarnCombatant):
            continue
        base: list[str | int] = ["combatants", c.id]
        if c.moved:
            tx.set(base + ["moved"], False)
        if c.aimed_round is not None and c.aimed_round < rnd - 1:
            tx.set(base + ["aimed_round"], None)
            lines.append(f"{c.name}'s aim lapses")
        spanned_last = c.last_action == "span" and c.acted_round == rnd - 1
        if not keep_span and c.span_progress and not spanned_last:
            tx.set(base + ["span_progress"], 0)
            lines.append(f"{c.name} stopped spanning: progress lost")
    return lines


def describe_combatant(c: Combatant) -> str:
    """IR, weapon and missile state in a few words."""
    from .model import HarnCombatant

    if not isinstance(c, HarnCombatant):
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
    if c.aimed_round is not None:
        bits.append(f"aimed r{c.aimed_round}")
    if c.in_hand:
        bits.append("in hand")
    if c.movement != "still":
        bits.append(c.movement)
    if c.moved:
        bits.append("moved")
    return ", ".join(bits)
