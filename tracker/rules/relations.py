"""How an action parameter stands to another, or to the encounter: a target that is not
the actor, no more figures firing than the unit has. Checked as the parameters are
validated (:mod:`tracker.rules.params`), with the encounter where there is one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tracker.core.invalid import shown
from tracker.rules.errors import RuleError

if TYPE_CHECKING:
    from tracker.core.model import Encounter


@dataclass(frozen=True, slots=True)
class AtMost:
    """At most a number the encounter gives: a field of the unit or combatant another
    parameter names (``AtMost("actor", "strength", "figures")``: no more than the firing
    unit's figures)."""

    who: str
    field: str
    words: str

    def check(self, name: str, value: Any, who_name: Any, enc: Encounter) -> None:
        """RuleError if ``value`` is more than the encounter allows."""
        who = _who(enc, str(who_name or ""))
        limit = getattr(who, self.field, None) if who is not None else None
        if isinstance(limit, int) and isinstance(value, (int, float)) and value > limit:
            raise RuleError(f"{name}={shown(value)}: {who.name} has only {limit} {self.words}")


def unlike(name: str, value: Any, other_name: str, other: Any, enc: Encounter | None) -> None:
    """RuleError if ``value`` (or one of them) names the one ``other`` names."""
    for one in value if isinstance(value, tuple) else (value,):
        if _same(enc, one, other):
            raise RuleError(f"{name}={shown(value)}: the {other_name} itself ({one});"
                            " name another")


def _same(enc: Encounter | None, a: Any, b: Any) -> bool:
    """Do two names name the same combatant or unit (by the encounter, where given)?"""
    if not isinstance(a, str) or not isinstance(b, str) or not a or not b:
        return False
    if a.casefold() == b.casefold():
        return True
    if enc is None:
        return False
    first_one, second = _who(enc, a), _who(enc, b)
    return first_one is not None and first_one is second


def _who(enc: Encounter, name: str) -> Any:
    for find in (enc.find_combatant, enc.find_unit):
        try:
            return find(name)
        except LookupError:
            continue
    return None
