"""``shoot``: shoot a bow, sling or crossbow (Missile Actions: half move, 1 turn, any
defence); a thrown weapon is thrown instead."""

from __future__ import annotations

from .missile import Missile


class Shoot(Missile):
    name = "shoot"
    help = "Shoot a bow, sling or crossbow (half move, 1 turn, any defence)"

    def wrong_weapon(self, kind: str | None) -> str:
        if kind == "thrown":
            return "shoot: a thrown weapon is thrown (use throw or charge)"
        return ""


SHOOT = Shoot()
