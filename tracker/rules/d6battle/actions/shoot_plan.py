"""Everything about a shot known before any die: the checks of the weapon's special rules
and of mass shooting, the shooting modifiers (rows of ``shooting.toml``), impossible odds,
and the scores to hit, save and kill (d6battle ``shoot``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracker.core.tables import applicable
from tracker.rules.errors import RuleError

from ..tables import Weapon, armour_save, morale_casualties, shooting_table, weapon
from .scores import NEVER, floor_of, kill_needed, score_needed
from .shoot_params import ShootParams


@dataclass(slots=True)
class ShotPlan:
    """Everything about a shot that is known before any die is rolled."""

    weapon: Weapon
    range: str
    rof: int
    shots: int
    sa_modified: int
    modifiers: list[str]
    impossible_odds: bool
    needed: int
    ka: int
    ap: int
    save: int
    save_needed: int
    kill_needed: int
    remaining: int | None
    """Figures left in the target (the kills cannot pass it), when its size is given."""
    threshold: int | None
    """Casualties that force a morale test (the morale table), when its size is given."""
    notes: list[str] = field(default_factory=list)


def range_band(p: ShootParams, w: Weapon) -> str:
    """The band: as given, or from the distance when it was measured."""
    distance = p.distance
    if distance <= 0:
        return p.range
    reach = w.long.range if w.long else w.effective.range
    if distance > reach:
        raise RuleError(f'{w.name}: {distance:g}" is out of range (max {reach}")')
    by_distance = "effective" if distance <= w.effective.range else "long"
    if p.range == "long" and by_distance == "effective":
        raise RuleError(f'{w.name}: {distance:g}" is effective range (up to {w.effective.range}")')
    return by_distance


def check_fire(p: ShootParams, w: Weapon, notes: list[str]) -> None:
    """The weapon's special rules and the rules of mass shooting."""
    table = shooting_table()
    under, over = table.stand_and_shoot.under, table.mass.over
    bows, fire, distance = p.bows_no_move_shoot, p.fire, p.distance
    if fire == "moving" and w.binds("no_move_and_shoot", bows):
        raise RuleError(f"{w.name}: no move & shoot")
    if fire == "flee" and w.binds("no_shoot_and_flee", bows):
        raise RuleError(f"{w.name}: no shoot & flee")
    if fire == "stand" and w.binds("stand_and_shoot_under_5") and distance >= under:
        raise RuleError(f'{w.name}: may stand & shoot only under {under}"')
    if p.mass:
        if w.binds("no_mass_fire"):
            raise RuleError(f"{w.name}: no mass fire")
        if fire not in ("stationary", "stand"):
            raise RuleError("mass shooting: the firer must be stationary")
        if fire == "stand" and w.binds("no_mass_fire_charge_reaction"):
            raise RuleError(f"{w.name}: may not mass fire as a charge reaction")
        if not p.frontal:
            raise RuleError("mass shooting: only at units in the frontal attack zone")
        if 0 < distance <= over:
            raise RuleError(f'mass shooting: only at units over {over}" away')
        if distance == 0:
            notes.append(f'mass fire: target must be over {over}" away')
    if fire == "stand" and w.binds("stand_and_shoot_under_5") and distance == 0:
        notes.append(f'{w.name} stand & shoot only under {under}"')


def modifiers(p: ShootParams, w: Weapon, range_: str, notes: list[str]) -> list[tuple[str, int]]:
    """The shooting modifiers that apply, each with its label and value."""
    no_move_penalty = w.binds("no_move_penalty")
    facts: dict[str, Any] = {
        "skirmishers": p.skirmishers,
        # stand & shoot and fire & flee answer a charge: the target is a charger
        "chargers": p.chargers or p.fire in ("stand", "flee"),
        "range": range_,
        "fire": p.fire,
        "no_move_penalty": no_move_penalty,
        "terrain": p.terrain,
    }
    if p.fire == "moving" and no_move_penalty:
        notes.append(f"{w.name}: no negative for moving & shooting")
    out: list[tuple[str, int]] = []
    for row, value in applicable(shooting_table().modifiers, facts):
        count = int(facts.get(row.per, 0)) if row.per else 1
        label = f"{row.name} x{count}" if count > 1 else row.name
        out.append((label, int(value)))
    return out


def plan(p: ShootParams) -> ShotPlan:
    """Check the shot against the rules and work out every score needed."""
    w = weapon(p.weapon)
    range_ = range_band(p, w)
    band = w.band(range_)
    notes: list[str] = []
    check_fire(p, w, notes)

    rof, ka = 1, band.ka
    if w.rof_stationary > 1 and p.fire == "stationary":
        rof = w.rof_stationary
        ka = w.ka_rof2 if w.ka_rof2 is not None else ka

    mods = modifiers(p, w, range_, notes)
    sa_mod = p.sa + sum(v for _, v in mods)
    odds = shooting_table().impossible_odds
    impossible = sa_mod < odds.below
    if impossible:
        needed = odds.needed
        ka += odds.ka
    else:
        needed = score_needed(sa_mod, floor=2)  # a 1 always misses

    floor = floor_of(p.natural_one)
    save = p.save
    if p.armour:
        if save:
            raise RuleError("give save= or armour=, not both")
        save = armour_save(p.armour)
    save_left = save - band.ap
    save_needed = score_needed(save_left, floor) if save_left > 0 else NEVER

    remaining = threshold = None
    if p.unit_size > 0:
        if p.casualties_before > p.unit_size:
            raise RuleError(
                f"casualties_before={p.casualties_before} is more than unit_size={p.unit_size}"
            )
        remaining = p.unit_size - p.casualties_before
        threshold = morale_casualties(p.unit_size)
    return ShotPlan(
        weapon=w,
        range=range_,
        rof=rof,
        shots=p.figures * rof,
        sa_modified=sa_mod,
        modifiers=[f"{label} {v:+d}" for label, v in mods],
        impossible_odds=impossible,
        needed=needed,
        ka=ka,
        ap=band.ap,
        save=save,
        save_needed=save_needed,
        kill_needed=kill_needed(p.durability, ka, floor),
        remaining=remaining,
        threshold=threshold,
        notes=notes,
    )


def forces_test(p: ShootParams, threshold: int, kills: int) -> bool:
    """Whether these kills force a morale test: casualties reach the table's number (or,
    with the morale_retest setting, more casualties once it is reached)."""
    before = p.casualties_before
    if kills <= 0 or before + kills < threshold:
        return False
    return before < threshold or p.morale_retest
