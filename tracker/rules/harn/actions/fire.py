"""``fire``: a missile attack with the actor's weapon, as ``missile`` (HM p. 163)."""

from __future__ import annotations

from .missile import Missile


class Fire(Missile):
    name = "fire"
    help = "Missile attack with the actor's weapon (as missile)"


FIRE = Fire()
