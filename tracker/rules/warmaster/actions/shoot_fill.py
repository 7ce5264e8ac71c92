"""What a shot takes from the encounter (``fill``) and writes back to it (``apply``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.sequence import phasing_side
from tracker.rules.availability import in_play, no_enemy
from tracker.rules.base import RuleError

from ..domains import KINDS
from ..sequence import SEQUENCE
from ..settings import CONFUSED_SHOOT
from .lookup import find_unit, on_field, shooting_phase

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from ..model import WarmasterUnit
    from .shoot import ShootFigures, ShootParams


def _shooters(given: dict[str, Any]) -> list[str]:
    names: list[str] = []
    for name in [given.get("actor"), *(given.get("shooters") or [])]:
        if name and name not in names:
            names.append(name)
    return names


def fill_shoot(enc: Encounter, given: dict[str, Any], phase: str) -> dict[str, Any]:
    """Target's stands, Hits, armour, position and state; attack dice from the shooters.
    In an encounter, units shoot in their Shooting phase, and at chargers in the enemy's
    movement phase only (once the drive backs are worked out the shooting is over:
    :func:`shooting_over`)."""
    out: dict[str, Any] = {}
    charging = given.get("charging")
    if charging is None:
        charging = phase == "movement"
        out["charging"] = charging
    elif phase and bool(charging) != (phase == "movement"):
        raise RuleError(
            "units shoot at chargers as they charge, in the enemy's movement phase"
            if charging else
            "in the movement phase units shoot only at chargers (charging=yes)")
    target: WarmasterUnit | None = None
    if given.get("target"):
        target = find_unit(enc, given["target"])
        out["target"] = target.name
        on_field(target)
        out["stands"] = target.strength
        out["hits_per_stand"] = target.hits_per_stand
        # a charger's odd hits are those carried into combat; others, this phase's
        out["leftover"] = (target.carried_hits % target.hits_per_stand if charging
                           else target.leftover_hits)
        out["armour"] = target.armour or 0
        out["position"] = target.position
        out["target_kind"] = target.kind if target.kind in KINDS else "other"
        out["exposed"] = min(target.exposed, target.strength)
        out["engaged"] = target.engaged
    names = _shooters(given)
    if not names:
        return out
    in_range = list(given.get("in_range") or [])
    if in_range and len(in_range) != len(names):
        raise RuleError(f"in_range= gives {len(in_range)} numbers for {len(names)} shooting units")
    attacks = 0
    for i, name in enumerate(names):
        unit = find_unit(enc, name)
        on_field(unit)
        if target is not None and unit.side == target.side:
            raise RuleError(f"{unit.name} and {target.name} are on the same side")
        if unit.shoot_attacks <= 0:
            raise RuleError(f"{unit.name} has no shooting attacks ({unit.attacks})")
        if unit.engaged and not charging:
            raise RuleError(
                f"{unit.name} is engaged in combat: it can only shoot at units charging it"
            )
        if unit.engaged and not in_range:
            raise RuleError(f"{unit.name} is engaged: give in_range= with its stands not engaged")
        stands = in_range[i] if in_range else unit.strength
        if stands > unit.strength:
            raise RuleError(f"{unit.name} has only {unit.strength} stands")
        attacks += stands * unit.shoot_attacks
    if given.get("attacks") is None:
        out["attacks"] = attacks
    return out


def apply_shoot(
    enc: Encounter, p: ShootParams, f: ShootFigures, tx: Transaction, target: WarmasterUnit
) -> None:
    """Stands removed, leftover hits, phase hits (or carried hits for chargers)."""
    path: list[str | int] = ["units", target.id]
    if f.stands_removed is not None:
        removed = f.stands_removed
        tx.set([*path, "strength"], target.strength - removed)
        if not f.charging:  # a charger's odd hits are counted in its carried hits
            tx.set([*path, "leftover_hits"], f.leftover)
        if removed:
            tx.set([*path, "casualties_turn"], target.casualties_turn + removed)
            tx.set([*path, "casualties_total"], target.casualties_total + removed)
            tx.set([*path, "exposed"], max(0, target.exposed - removed))
        if f.destroyed:
            tx.set([*path, "removed"], True)
    if f.charging:
        tx.set([*path, "carried_hits"], target.carried_hits + f.unsaved)
        return
    tx.set([*path, "hits"], target.hits + f.unsaved)
    shooters = [find_unit(enc, n) for n in p.shooter_names()]
    seen = list(target.shot_by)
    seen += [u.name for u in shooters if u.name not in seen]
    tx.set([*path, "shot_by"], seen)
    for unit in shooters:
        tx.set(["units", unit.id, "shot"], True)


def shooting_over(enc: Encounter, charging: bool | None) -> list[str]:
    """Once this phase's drive backs are worked out its shooting is over (a shot at
    chargers, in the enemy's movement phase, is not of it)."""
    if not charging and any(getattr(u, "drive_back_done", False) for u in enc.units):
        return ["the drive backs are worked out: the shooting of this phase is over"]
    return []


def shooter_unavailable(enc: Encounter, who: Any) -> list[str]:
    """Why ``who`` (None: no one yet) cannot shoot now: no shooting attacks, off the
    field, confused (the setting ``confused_shoot``), engaged but for shots at chargers;
    or no enemy unit in play that is a target (not engaged, but for chargers)."""
    phase = shooting_phase(enc)
    out: list[str] = []
    if who is not None:
        if not in_play(who):
            out.append(f"{who.name} is no longer on the field")
        elif getattr(who, "shoot_attacks", 0) <= 0:
            out.append(f"{who.name} has no shooting attacks ({who.attacks})")
        elif getattr(who, "confused", False) and not CONFUSED_SHOOT.of(enc):
            out.append(f"{who.name} is confused: it does not shoot (setting confused_shoot)")
        elif getattr(who, "engaged", False) and phase != "movement":
            out.append(f"{who.name} is engaged in combat: it shoots only at units charging it")
    side = phasing_side(enc, SEQUENCE)
    if phase == "movement":  # at chargers: the phasing side's units are the targets
        side = next((u.side for u in enc.units if u.side != side), None)

    def target(u: Any) -> bool:
        return in_play(u) and (phase == "movement" or not getattr(u, "engaged", False))

    return out + no_enemy(enc, who, side, "shoot at", target)
