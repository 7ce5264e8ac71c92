"""Who may act in a d6battle action: units still in the fight, a command test before a
flank charge's combat, a morale test only where shooting forced one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.errors import RuleError

if TYPE_CHECKING:
    from tracker.core.model import Encounter, Unit


def unit_named(enc: Encounter, given: dict[str, Any], key: str) -> Unit | None:
    """The unit a parameter names, if it names one."""
    return enc.find_unit(str(given[key])) if given.get(key) else None


def in_the_fight(unit: Unit | None, does: str) -> None:
    """A routed or removed unit neither shoots nor fights."""
    if unit is None:
        return
    if unit.removed:
        raise RuleError(f"{unit.name} is no longer on the table: it does not {does}")
    if unit.routed:
        raise RuleError(f"{unit.name} has routed: it does not {does}")


def took_now(enc: Encounter, unit: Unit, action: str) -> bool:
    """Whether ``unit`` took ``action`` in the phase the fight stands in."""
    pos = enc.position
    return any((a.actor, a.action, a.round, a.side, a.phase)
               == (unit.id, action, pos.round, pos.side, pos.phase) for a in enc.acted)


def flank_tested(enc: Encounter, charged: Unit | None, given: dict[str, Any], x: str) -> None:
    """"If charged in the flank take a command test": side ``x`` charging the other's
    flank fights once the charged unit has tested in this combat phase."""
    if charged is None or given.get(f"charge_{x}") != "yes":
        return
    if given.get(f"facing_{x}") == "flank" and not took_now(enc, charged, "command"):
        raise RuleError(f"{charged.name} was charged in the flank: its command test comes "
                        f"first (command {charged.name})")


def owes_morale_test(unit: Unit | None) -> None:
    """A morale test from shooting is taken where the casualties force one."""
    if unit is not None and not unit.morale_test:
        raise RuleError(f"{unit.name} owes no morale test (shooting casualties force one)")
