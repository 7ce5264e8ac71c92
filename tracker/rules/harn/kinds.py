"""The words the missile parameters choose from (``model.py``'s Literals say the same)."""

from __future__ import annotations

WEAPONS = ("bow", "crossbow", "sling", "thrown")
"""Weapon kinds; the missile skill table gives each its skill."""
MOVEMENTS = ("still", "moving", "evading")
"""A target's movement (Missile step 3)."""
