"""What a shot takes from the encounter (``fill``) and writes back to it (``apply``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.base import Resolution, RuleError

from ..later import model
from ..settings import SHOOTING_CASUALTIES
from .shoot_params import ShootFigures, ShootParams
from .who import in_the_fight, unit_named

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


def fill_shoot(enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
    """Firer's figures, SA, weapon and move; target's save, D, terrain and morale counts.
    A routed unit does not shoot, and a unit off the table is no target."""
    out: dict[str, Any] = {}
    shooter = unit_named(enc, given, "actor")
    in_the_fight(shooter, "shoot")
    target = unit_named(enc, given, "target")
    if target is not None and target.removed:
        raise RuleError(f"{target.name} is no longer on the table")
    if shooter is not None:
        if isinstance(shooter, model.D6Unit):
            if "figures" not in given:
                front = shooter.files if shooter.files and not given.get("mass") else None
                out["figures"] = min(shooter.strength, front) if front else shooter.strength
            out["sa"] = shooter.sa
            if shooter.weapon:
                out["weapon"] = shooter.weapon
            if shooter.moved:
                out["fire"] = "moving"
    if target is not None:
        if isinstance(target, model.D6Unit):
            if "save" not in given and "armour" not in given:
                out["save"] = target.save
            out["durability"] = target.durability
            if target.in_terrain:
                out["terrain"] = True
            if "unit_size" not in given:
                if SHOOTING_CASUALTIES.of(enc) == "battle":
                    out["unit_size"] = target.strength_start
                    out["casualties_before"] = target.casualties_total
                else:
                    out["unit_size"] = target.strength + target.casualties_turn
                    out["casualties_before"] = target.casualties_turn
    return {k: v for k, v in out.items() if k not in given}


def apply_shoot(enc: Encounter, p: ShootParams, res: Resolution, tx: Transaction) -> None:
    """Remove the figures killed from the target; flag it for a morale test."""
    if not p.target:
        raise RuleError("shoot: name the target unit to apply casualties")
    target = enc.find_unit(p.target)
    f = res.figures_as(ShootFigures)
    path: list[str | int] = ["units", target.id]
    kills = min(f.kills, target.strength)
    if kills:
        tx.set([*path, "strength"], target.strength - kills)
        tx.set([*path, "casualties_turn"], target.casualties_turn + kills)
        tx.set([*path, "casualties_total"], target.casualties_total + kills)
        if target.strength == 0:
            tx.set([*path, "removed"], True)
    if f.morale_test and target.strength > 0:
        tx.set([*path, "morale_test"], True)
