"""The words the missile parameters choose from (``model.py``'s Literals say the same)."""

from __future__ import annotations

WEAPONS = ("bow", "crossbow", "sling", "thrown")
"""Weapon kinds; the missile skill table gives each its skill."""
MOVEMENTS = ("still", "moving", "evading")
"""A target's movement (Missile step 3)."""
LAST_ACTIONS = ("", "missile", "fire", "shoot", "throw", "charge", "load", "aim", "span",
                "defend")
"""A combatant's missile action this round: an attack, a round-long action, ``defend``
once it abandons one, or none."""
IMPACT = (r"(?i)\s*(?:[1-9]\d*)?d(?:[2-9]|[1-9]\d+)\s*(?:[+-]\s*\d+\s*)*|\s*[+-]?\d+\s*|")
"""A weapon's base impact: dice the strike can roll (``d12+4``, ``2d6+1``), a number, or
none given."""
