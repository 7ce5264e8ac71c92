"""``throw``: throw a weapon or object (Missile Actions: no move, 1 turn, any defence)."""

from __future__ import annotations

from ..attack import AttackParams
from .missile import Missile


class Throw(Missile):
    name = "throw"
    help = "Throw a weapon or object (no move, 1 turn, any defence)"

    def prepared(self, p: AttackParams) -> AttackParams:
        """A throw is with a thrown weapon: the default, and the only one allowed."""
        if p.weapon is None:
            return p.replace(weapon="thrown")
        return super().prepared(p)

    def wrong_weapon(self, kind: str | None) -> str:
        if kind not in (None, "thrown"):
            return f"{self.name}: a {kind} is shot, not thrown (use shoot)"
        return ""


THROW = Throw()
