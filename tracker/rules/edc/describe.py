"""The one-line summary of an edc fighter the combatants pane shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import CP
from .wounds import blood_loss_tn

if TYPE_CHECKING:
    from .model import EdcCombatant


def describe(c: EdcCombatant) -> str:
    """The fighter in a line; the CP is left out where there is none, and the Health where
    a player's view leaves it out (another side's pools and Health)."""
    bits = [f"RX {c.reflex}"]
    cp = c.find_pool(CP)
    if cp is not None:
        bits.append(f"CP {cp.left}/{cp.size}")
    if "health" not in c.unseen:  # a player's view says another side's Health in words
        bits.append(f"HT {c.health}/{c.health_max}")
    if c.pain:
        bits.append(f"Pain {c.pain}")
    bl = blood_loss_tn(c.wounds)
    if bl:
        bits.append(f"BL {bl}")
    if c.shock_spill:
        bits.append(f"Shock carried {c.shock_spill}")
    if c.marker:
        bits.append(c.marker)
    if c.holds_initiative:
        bits.append("initiative")
    if c.posture != "neutral":
        bits.append(c.posture)
    if c.prone:
        bits.append("down")
    if c.mounted:
        bits.append(f"mounted ({c.gait})")
    return ", ".join(bits)
