"""``charge``: a Charging Throw after the Charge movement, at a target at least five feet
away (Missile Actions: half move, 1 turn, any defence); the range band gives its impact."""

from __future__ import annotations

from ..attack import AttackParams
from .throw import Throw


class Charge(Throw):
    name = "charge"
    help = "Charging Throw after a Charge (target 5 ft+ away)"

    def prepared(self, p: AttackParams) -> AttackParams:
        return super().prepared(p).replace(charge=True)


CHARGE = Charge()
