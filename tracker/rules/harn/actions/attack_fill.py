"""What an attack takes from the encounter (``fill``) and writes back to it (``apply``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.startup import lazy

from ..attack import AttackFigures, AttackParams
from ..effects import AIMED, aimed_last_round, end
from ..injuries import PENDING, injury_level
from ..tables import weapon
from .lookup import combatant, combatant_or_none, weapon_kind

if TYPE_CHECKING:
    from tracker.core import model
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.base import Resolution
    from tracker.rules.harn import model as harn_model

    from ..model import HarnCombatant
else:  # imported on first use (tracker.startup): `tracker resolve` needs no models
    model = lazy("tracker.core.model")
    harn_model = lazy("tracker.rules.harn.model")


def fill_attack(enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
    """Shooter's skill, weapon and missile state; target's movement, Dodge, TAR, zones."""
    p = dict(given)
    shooter = combatant(enc, p.get("actor"))
    target = combatant(enc, p.get("at"))
    if shooter is not None:
        _fill_shooter(enc, shooter, target, p)
    if target is not None:
        if p.get("target") is None:
            p["target"] = target.movement
        if p.get("dodge") is None and target.dodge:
            p["dodge"] = target.dodge
        if p.get("tar") is None:
            p["tar"] = target.tar
        if p.get("zones") is None and target.zones:
            p["zones"] = target.zones
    if p.get("numbering") and not p.get("count_zones"):
        zones = []
        for name in p["numbering"]:
            c = combatant(enc, name)
            zones.append(c.zones if c is not None else 0)
        if any(zones):
            p["count_zones"] = zones
    return {k: v for k, v in p.items() if k not in given}


def _fill_shooter(
    enc: Encounter, shooter: HarnCombatant, target: HarnCombatant | None, p: dict[str, Any]
) -> None:
    w = shooter.weapon
    kind = weapon_kind(shooter, p.get("weapon"))
    p["weapon"] = kind
    if p.get("ml") is None:
        p["ml"] = skill_ml(shooter, kind)
    if kind == "crossbow" and p.get("sb") is None and shooter.archery_sb:
        p["sb"] = shooter.archery_sb
    if p.get("shooter_moving") is None:
        p["shooter_moving"] = shooter.moved
    if p.get("aimed") is None:
        p["aimed"] = aimed_last_round(enc, shooter)
    if p.get("trauma") is None and (shooter.fatigue or shooter.impairment):
        p["trauma"] = abs(shooter.fatigue) + abs(shooter.impairment)
    if p.get("pull") is None and shooter.pull:
        p["pull"] = shooter.pull
    if w is not None and w.kind == kind:
        if p.get("br") is None and w.br:
            p["br"] = w.br
        if p.get("draw") is None and w.draw:
            p["draw"] = w.draw
        if kind == "thrown":
            if p.get("heft") is None and w.heft:
                p["heft"] = w.heft
            if p.get("object") is None:
                p["object"] = w.object
            if w.pb_zd and p.get("pb_zd") is None:
                p["pb_zd"] = w.pb_zd
        if not p.get("base_impact") and w.impact:
            p["base_impact"] = w.impact
        if p.get("impact_bonus") is None and w.impact_bonus:
            p["impact_bonus"] = w.impact_bonus
    if target is not None and p.get("range") is None:
        for note in shooter.ranges:
            if note.id == target.id:
                p["range"] = note.feet


def skill_ml(c: HarnCombatant, kind: str) -> int:
    """The combatant's ML in the skill a weapon of ``kind`` uses."""
    return int(getattr(c, weapon(kind).ml_field))


def load_problems(c: HarnCombatant, given_kind: Any) -> list[str]:
    """Why the shooter's missile state does not allow a shot: a bow, sling or crossbow
    not loaded."""
    kind = weapon_kind(c, given_kind)
    name = c.weapon.name if c.weapon is not None else kind
    if kind == "crossbow" and not c.loaded:
        how = "load a bolt" if c.spanned else "span it, then load a bolt"
        return [f"{c.name}'s {name} is not loaded ({how})"]
    if kind in ("bow", "sling") and not c.loaded:
        return [f"{c.name}'s {name} is not loaded (load first)"]
    return []


def apply_attack(enc: Encounter, p: AttackParams, res: Resolution, tx: Transaction) -> None:
    """Spend the shot, note the range, and record the injury on the creature struck."""
    f = res.figures_as(AttackFigures)
    shooter = combatant(enc, p.actor)
    target = combatant(enc, p.at)
    if shooter is not None:
        _spend(enc, shooter, target, p, f, res.action, tx)
    if f.result != "strike":
        return
    struck = combatant_or_none(enc, f.struck_name)
    if struck is None and f.hit == "target":
        struck = target
    if struck is not None:
        _wound(enc, struck, p, f, tx)


def _spend(
    enc: Encounter, shooter: HarnCombatant, target: HarnCombatant | None, p: AttackParams,
    f: AttackFigures, action: str, tx: Transaction,
) -> None:
    base: list[str | int] = ["combatants", shooter.id]
    if f.roll is not None and f.weapon != "thrown":
        tx.set(base + ["loaded"], False)
        if f.weapon == "crossbow":
            tx.set(base + ["spanned"], False)
            tx.set(base + ["span_progress"], 0)
    end(shooter, {AIMED}, tx)  # the shot uses the aim up
    tx.set(base + ["acted_round"], enc.position.round)
    tx.set(base + ["last_action"], action)
    if (p.shooter_moving and f.weapon != "thrown") or action == "charge":
        tx.set(base + ["moved"], True)
    if action == "charge":
        tx.set(base + ["movement"], "moving")  # a charging target is a moving one
    if target is not None and p.range is not None:
        if any(n.id == target.id for n in shooter.ranges):
            tx.set(base + ["ranges", target.id, "feet"], p.range)
        else:
            tx.add(base + ["ranges"], harn_model.RangeNote(id=target.id, feet=p.range))


def _wound(
    enc: Encounter, struck: HarnCombatant, p: AttackParams, f: AttackFigures, tx: Transaction
) -> None:
    location = f"ZN{f.zone}"
    if p.location:
        location += f" {p.location}"
    impact = f.impact or f"{f.impact_total:+d}"
    who = p.actor or "missile"
    note = f"{who}, {f.attack_type}: impact {impact}"
    if f.impact_ta:
        note += f", Impact TA x{f.impact_tas}"
    if not p.injury:
        note += PENDING
    wound = model.Wound(
        location=location,
        level=injury_level(p.injury),
        kind=p.injury or "missile",
        impact=f.strike_impact,
        round=enc.position.round,
        note=note,
    )
    tx.add(["combatants", struck.id, "wounds"], wound)
