"""``shoot``: shoot a bow, sling or crossbow (Missile Actions: half move, 1 turn, any
defence); a thrown weapon is thrown instead."""

from __future__ import annotations

from tracker.rules.base import RuleError

from ..attack import AttackParams
from .missile import Missile


class Shoot(Missile):
    name = "shoot"
    help = "Shoot a bow, sling or crossbow (half move, 1 turn, any defence)"

    def prepared(self, p: AttackParams) -> AttackParams:
        if p.weapon == "thrown":
            raise RuleError("shoot: a thrown weapon is thrown (use throw or charge)")
        return p


SHOOT = Shoot()
