"""Everything a missile attack decides before the dice: the range band from Base Range
(BR), the missile skill, the situational modifiers (rows of ``tables.toml``) and the EML."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tracker.core.tables import applicable
from tracker.rules.errors import RuleError

from .attack import AttackParams
from .tables import Band, band_for, check_aim, tables, weapon


@dataclass(slots=True)
class Plan:
    """Band, skill, modifiers and EML of one attack."""

    weapon: str
    range_ft: int
    br: float
    band: Band
    ml: int
    skill: str
    modifiers: list[tuple[str, int]]
    eml_adjusted: int
    eml: int
    spoiled: bool
    targets: int
    zone_die: int
    impact_mod: int
    notes: list[str]

    @property
    def volley(self) -> bool:
        return self.band.volley


def plan_attack(p: AttackParams) -> Plan:
    """Range band, missile skill and every situational modifier; RuleError if illegal."""
    kind = p.weapon or "bow"
    notes: list[str] = []
    if p.range is None:
        raise RuleError("range= is required (feet to the target)")
    if p.br is None:
        raise RuleError("br= is required (the weapon's Base Range in feet)")
    range_ft = p.range
    br: float = p.br
    if p.wet:
        if kind in ("bow", "crossbow"):
            br = br / 2
            notes.append("wet string: BR halved")
        else:
            notes.append("wet: no effect on slings and thrown weapons")
    band = band_for(range_ft, br)
    _check_range(p, kind, band, range_ft)
    ml, skill = _skill(p, kind)
    _check_thrown(p, kind)
    if p.aimed:
        check_aim(kind, p.pull, p.draw, "aimed")
    if p.shooter_moving and kind == "thrown":
        notes.append("moving shooter: no penalty for throwers")
    mods: list[tuple[str, int]] = []
    if band.modifier:
        mods.append((band.label, band.modifier))
    mods += situational(p, kind, band)

    test = tables().test
    adjusted = ml + sum(v for _, v in mods)
    eml = min(test.eml_max, max(test.eml_min, adjusted))
    spoiled = adjusted <= test.spoiled_at

    tar = p.tar if p.tar is not None else 1
    targets = p.targets
    if targets is None:
        targets = max(1, tar) if band.volley else 0
    zone_die = band.zd
    if band.thrown_weapon_zd and kind == "thrown":
        zone_die = p.pb_zd or p.thrown_pb_zd
    impact_mod = band.charge if p.charge and band.charge is not None else band.impact
    zones = body_zones(p, p.zones or 0)
    if p.zone_aim > zones:
        raise RuleError(f"zone_aim=ZN{p.zone_aim}: the target has only {zones} zones")
    return Plan(
        kind, range_ft, br, band, ml, skill, mods, adjusted, eml, spoiled,
        targets, zone_die, impact_mod, notes,
    )


def _check_range(p: AttackParams, kind: str, band: Band, range_ft: int) -> None:
    """The Overhead Restriction on Volley ranges, and where a Charging Throw may go."""
    limits = tables().limits
    if p.overhead is not None and p.overhead < limits.volley_min_overhead and band.volley:
        raise RuleError(
            f"overhead {p.overhead} ft: under {limits.volley_min_overhead} ft forbids Volley"
            f" ranges ({band.label})"
        )
    if not p.charge:
        return
    if kind != "thrown":
        raise RuleError("charge: only a thrown weapon attacks after a Charge")
    if range_ft < limits.charge_min_range:
        raise RuleError(f"charge: the target must be at least {limits.charge_min_range} ft away")
    if band.charge is None:
        raise RuleError(f"charge: no Charging Throw at {band.label} range")


def facts(p: AttackParams, kind: str, band: Band) -> dict[str, Any]:
    """What the situational modifier rows are matched against."""
    tar = p.tar if p.tar is not None else 1
    crosswind = p.crosswind
    return {
        "target": p.target or "still",
        "volley": band.volley,
        "attack_type": band.attack_type,
        "weapon": kind,
        "dodge": p.dodge or 0,
        "area_moving": p.area_moving,
        "shooter_moving": bool(p.shooter_moving),
        "heft": abs(p.heft or 0),
        "object": p.object or "none",
        "crosswind": crosswind,
        "crosswind_over_1": max(0, crosswind - 1),
        "trauma": abs(p.trauma or 0),
        "aimed": bool(p.aimed),
        "tar": tar,
        "tar_over_1": tar - 1,
        "overhead": p.overhead,
        "crosswind_direct": p.crosswind_direct,
        "massive_target": p.massive_target,
    }


def situational(p: AttackParams, kind: str, band: Band) -> list[tuple[str, int]]:
    """The situational modifier rows that apply, by name (a name may show a fact)."""
    known = facts(p, kind, band)
    return [
        (row.name.format_map(known), int(value))
        for row, value in applicable(tables().situational, known)
    ]


def _skill(p: AttackParams, kind: str) -> tuple[int, str]:
    w = weapon(kind)
    if w.sb_multiple and p.sb is not None:
        by_sb = p.sb * w.sb_multiple
        if p.ml is None or by_sb > p.ml:
            return by_sb, f"{w.skill} SB{p.sb} x {w.sb_multiple}"
    if p.ml is None:
        raise RuleError(f"ml= is required (the shooter's {w.skill} ML)")
    return p.ml, f"{w.skill} ML"


def _check_thrown(p: AttackParams, kind: str) -> None:
    if kind == "thrown":
        return
    if p.heft:
        raise RuleError("heft= applies to thrown weapons and objects only")
    if (p.object or "none") != "none":
        raise RuleError("object= applies to thrown objects only (weapon=thrown)")


def body_zones(p: AttackParams, zones: int) -> int:
    """Zones of a creature's Body Location table; 0 counts as a humanoid's."""
    return zones if zones > 0 else p.humanoid_zones
