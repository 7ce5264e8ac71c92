"""Finding combatants and checking whose turn it is, for the actions' fill and apply."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tracker.rules.base import Scope
from tracker.rules.errors import RuleError

from ..settings import ONE_ACTION_PER_ROUND, setting

if TYPE_CHECKING:
    from tracker.core.model import Encounter

    from ..model import HarnCombatant


def combatant(enc: Encounter, name: Any) -> HarnCombatant | None:
    """The HârnMaster combatant ``name`` names (None for no name)."""
    from ..model import HarnCombatant

    if not name:
        return None
    try:
        found = enc.find_combatant(str(name))
    except LookupError as exc:
        raise RuleError(str(exc)) from None
    if not isinstance(found, HarnCombatant):
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


def check_turn(enc: Encounter, c: HarnCombatant, free: bool = False) -> None:
    """Refuse an action by a combatant out of the fight, or one that already acted this
    round (setting ``one_action_per_round``; a free action does not count)."""
    if c.out:
        raise RuleError(f"{c.name} is out of the fight")
    if free or not setting(enc, ONE_ACTION_PER_ROUND):
        return
    if c.acted_round == enc.position.round:
        raise RuleError(f"{c.name} already acted this round ({c.last_action or 'an action'})")



ROUND_LIMIT = "missile action"
"""What the one-action-a-round limit counts: the attacks, load, aim and span alike."""


def round_limit(limited: bool) -> tuple[Scope, str] | None:
    """One missile action a round (setting ``one_action_per_round``), for the sequence of
    play; None where the setting is off or the action is free."""
    return ("round", ROUND_LIMIT) if limited else None


_LEVEL = re.compile(r"\d+")


def injury_level(code: str) -> int:
    """The level number of an injury code: S2p -> 2, G4 -> 4, M1 -> 1."""
    m = _LEVEL.search(code or "")
    return int(m.group()) if m else 0
