"""Finding combatants and checking whose turn it is, for the actions' fill and apply."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import Scope
from tracker.rules.errors import RuleError

from ..later import model, tables

if TYPE_CHECKING:
    from tracker.core.model import Encounter

    from ..model import HarnCombatant


def combatant(enc: Encounter, name: Any) -> model.HarnCombatant | None:
    """The HârnMaster combatant ``name`` names (None for no name)."""
    if not name:
        return None
    try:
        found = enc.find_combatant(str(name))
    except LookupError as exc:
        raise RuleError(str(exc)) from None
    if not isinstance(found, model.HarnCombatant):
        raise RuleError(f"{found.name} is not a HârnMaster combatant")
    return found


def combatant_or_none(enc: Encounter, name: Any) -> HarnCombatant | None:
    try:
        return combatant(enc, name)
    except RuleError:
        return None


def need(enc: Encounter, name: Any, what: str = "actor") -> HarnCombatant:
    found = combatant(enc, name)
    if found is None:
        raise RuleError(f"{what}= is required: which combatant?")
    return found


def weapon_kind(c: HarnCombatant | None, given: Any) -> str:
    """The weapon named, else the combatant's own, else a bow."""
    if given:
        return str(given)
    if c is not None and c.weapon is not None:
        return c.weapon.kind
    return "bow"


def turn_problems(c: HarnCombatant) -> list[str]:
    """A combatant out of the fight takes no action. How often it acts (one missile
    action a round) and when (in its own turn) are the sequence of play's to check."""
    return [f"{c.name} is out of the fight"] if c.out else []


def movement_problems(c: HarnCombatant, action: str, kind: Any = None,
                      moving: bool | None = None) -> list[str]:
    """An action whose Missile Actions row allows no movement is refused to a combatant
    that moved this round (``moving``: as the attack says, else its ``moved``)."""
    row = tables.row_for(weapon_kind(c, kind), action)
    moved = c.moved if moving is None else moving
    if row is not None and row.movement == "none" and moved:
        return [f"{c.name} moved this round: {action} allows no movement "
                f"(Missile Actions: {row.action}, movement none)"]
    return []


def check_may_move(c: HarnCombatant) -> None:
    """A half move is refused after an action that allows none this round, and after a
    shot taken without it: the Shooter Moving penalty applies "whether movement is before
    or after the shot", so the move is declared with the shot."""
    row = tables.row_for(weapon_kind(c, None), c.last_action)
    if row is None or c.moved:
        return
    if row.movement == "none":
        raise RuleError(f"{c.name} took {c.last_action} this round, which allows no movement"
                        " (abandon it first, if it may be abandoned)" if row.defence == "ignore"
                        else f"{c.name} took {c.last_action} this round, which allows no"
                        " movement")
    if c.last_action in tables.ATTACKS:
        raise RuleError(f"{c.name} shot this round without moving: the Shooter Moving penalty"
                        " applies whether movement is before or after the shot (declare the"
                        " half move with the shot: shooter_moving=yes)")



ROUND_LIMIT = "missile action"
"""What the one-action-a-round limit counts: the attacks, load, aim and span alike."""


def round_limit(limited: bool) -> tuple[Scope, str] | None:
    """One missile action a round (setting ``one_action_per_round``), for the sequence of
    play; None where the setting is off or the action is free."""
    return ("round", ROUND_LIMIT) if limited else None
