"""Finding units and the phase, for the actions' fill and apply."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.rules.errors import RuleError

if TYPE_CHECKING:
    from tracker.core.model import Encounter

    from ..model import WarmasterUnit

PHASES = ["command", "movement", "shooting", "combat"]


def find_unit(enc: Encounter, name: str) -> WarmasterUnit:
    try:
        unit = enc.find_unit(name)
    except LookupError as exc:
        raise RuleError(str(exc)) from None
    return unit  # type: ignore[return-value]


def shooting_phase(enc: Encounter) -> str:
    """The phase the encounter stands in ("" past the last)."""
    i = enc.position.phase
    return PHASES[i] if 0 <= i < len(PHASES) else ""


def on_field(unit: WarmasterUnit) -> None:
    if unit.removed or unit.routed:
        raise RuleError(f"{unit.name} is no longer on the field")
