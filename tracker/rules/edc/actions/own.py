"""Actions a fighter takes as his own in an exchange (a terrain roll, a ride-by, throwing
red): none while hesitation freezes him, and none that attacks while he hesitates at all
("can only defend for 1 full exchange"; "unable to act at all for an entire exchange")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..acting import fighter, frozen, may_not_attack

if TYPE_CHECKING:
    from tracker.core.model import Encounter


class OwnAction:
    """Mixin before :class:`~tracker.rules.base.Action`: refuses the action to a fighter
    hesitation stops (``force=yes`` overrides it, as any limit)."""

    slots: ClassVar[tuple[str, ...]] = ("actor",)
    """The parameters naming the fighters whose own action it is."""
    attacks: ClassVar[bool] = False
    """An attack: refused while hesitating, not only while frozen."""

    def refusals(self, enc: Encounter, p: Any) -> list[str]:
        check = may_not_attack if self.attacks else frozen
        return [line for slot in self.slots for line in check(fighter(enc, p.get(slot)))]
