"""Fantasy Warlord units in an encounter: finding them, the figures that may fire, the
targets they may fire on, and the firing modifiers the encounter says apply."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from tracker.rules.errors import RuleError

from .later import model
from .numbers import parse_fraction, show
from .settings import REQUIRE_FIRE_ORDER
from .tables import max_targets

if TYPE_CHECKING:
    from tracker.core.model import Encounter

    from .model import WarlordUnit
    from .profiles import FiringModifier, RaceProfile, Weapon


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def find_unit(enc: Encounter, name: str) -> model.WarlordUnit:
    """The Fantasy Warlord unit ``name`` names, or RuleError saying why not."""
    try:
        unit = enc.find_unit(name)
    except LookupError as exc:
        raise RuleError(str(exc)) from None
    if not isinstance(unit, model.WarlordUnit):
        raise RuleError(f"{unit.name} is not a Fantasy Warlord unit")
    return unit


def warlord_units(enc: Encounter) -> list[model.WarlordUnit]:
    return [u for u in enc.units if isinstance(u, model.WarlordUnit)]


def require_fire_order(enc: Encounter) -> bool:
    return bool(REQUIRE_FIRE_ORDER.of(enc))


def eligible_total(unit: WarlordUnit, ranks_for_firing: int) -> int:
    """Figures in the ranks that may fire: files × ranks for firing, at most the strength."""
    if unit.files is None or unit.files <= 0:
        return unit.strength
    return min(unit.strength, unit.files * ranks_for_firing)


def still_to_fire(enc: Encounter) -> list[WarlordUnit]:
    """Units in play still holding a fire order with a missile weapon."""
    return [u for u in warlord_units(enc) if u.active and u.weapon and u.has_fire_order()]


def _applies(m: FiringModifier, firer: WarlordUnit, target: WarlordUnit | None) -> bool:
    if m.per == "target_rank":
        return target is not None
    if m.when == "target_moved_over":
        return target is not None and target.moved_cm > m.over
    if m.when == "firer_moved":
        return firer.moved_cm > 0
    if m.when == "firer_trait":
        return m.trait in firer.traits
    if m.when == "target_trait":
        return target is not None and m.trait in target.traits
    if m.when == "target_mounted":
        return target is not None and target.mounted
    return False


def auto_modifiers(
    profile: RaceProfile, firer: WarlordUnit, target: WarlordUnit | None
) -> list[str]:
    """Keys of the firer's modifiers the encounter says apply (moved, traits, target ranks)."""
    return [m.key for m in profile.modifiers if _applies(m, firer, target)]


def target_problem(firer: WarlordUnit | None, target: WarlordUnit) -> str | None:
    """Why ``firer`` may not fire on ``target`` (None: it may), in one line."""
    if not target.active:
        return f"{target.name} is routed or removed"
    if target.engaged:
        return f"{target.name} is locked in combat: missile troops cannot fire on it"
    if target.strength - target.held_casualties <= 0:
        return f"every figure of {target.name} is already killed this phase"
    if firer is not None and target.id not in firer.fire_targets:
        most = max_targets()
        if len(firer.fire_targets) >= most:
            return f"{firer.name} already fires on {_WORDS.get(most, str(most))} targets this turn"
    return None


def valid_targets(enc: Encounter, firer: WarlordUnit) -> list[tuple[WarlordUnit, str | None]]:
    """Every other side's unit with the reason it may not be fired on (None: valid).

    Valid targets come first, those already fired on this turn before the rest; the
    tracker keeps no distances, so sight, arc and range stay with the GM.
    """
    rows = [(u, target_problem(firer, u)) for u in warlord_units(enc) if u.side != firer.side]
    rows.sort(key=lambda r: (r[1] is not None, r[0].id not in firer.fire_targets))
    return rows


def moved_too_far(unit: WarlordUnit, weapon: Weapon, race_move: float) -> str:
    """Why ``unit`` may not fire after the move it made this turn (empty: it may): foot
    lose the fraction the Movement and Firing table gives (terrain, which only takes more
    off, is the GM's: ``movefire terrain=``); mounted figures move a whole move and fire."""
    move = unit.pace or race_move
    if unit.mounted or not unit.moved_cm or move <= 0:
        return ""
    loss = parse_fraction(weapon.move_fire_loss, "move_fire_loss")
    allowed = Fraction(str(move)) * (1 - loss)
    if Fraction(str(unit.moved_cm)) <= allowed:
        return ""
    return (f"{unit.name} moved {unit.moved_cm:g} cm this turn: a unit that fires may move"
            f" only {show(allowed)} cm (its Movement and Firing table)")
