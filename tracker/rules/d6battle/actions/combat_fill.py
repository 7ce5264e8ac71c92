"""What a combat takes from the encounter (``fill``) and writes back to it (``apply``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.lifetimes import since
from tracker.rules.base import Resolution, RuleError

from ..later import model
from ..tables import combat_table
from .combat_params import SIDES, CombatFigures, CombatParams, combat_key, other
from .who import flank_tested, in_the_fight, unit_named

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter, Unit

    from ..model import D6Unit


def ranks_of_six(unit: D6Unit) -> int:
    """Ranks holding 6 or more figures (the rank bonus table's number), from its frontage
    (files) and figures."""
    need = combat_table().rank.figures
    files = unit.files
    if not files and unit.ranks:
        files = -(-unit.strength // unit.ranks)
    if not files or files < need:
        return 0
    full, rest = divmod(unit.strength, files)
    return full + (1 if rest >= need else 0)


def fill_combat(enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
    """Each side's profile, armour, formation, ranks, disorder and push & shove. Both
    units must be in the fight, and a unit charged in the flank tests first."""
    out: dict[str, Any] = {}
    units = {x: unit_named(enc, given, key) for x, key in (("a", "actor"), ("b", "target"))}
    for x in SIDES:
        in_the_fight(units[x], "fight")
    for x in SIDES:
        flank_tested(enc, units[other(x)], given, x)
    for x in SIDES:
        unit = units[x]
        if not isinstance(unit, model.D6Unit):
            continue
        front = unit.files
        out[f"figures_{x}"] = min(unit.strength, front) if front else unit.strength
        out.update({
            f"size_{x}": unit.strength,
            f"ca_{x}": unit.ca,
            f"ka_{x}": unit.ka,
            f"ap_{x}": unit.ap,
            f"durability_{x}": unit.durability,
            f"mo_{x}": unit.mo,
            f"kind_{x}": unit.kind,
            f"formation_{x}": unit.formation,
            f"ranks_{x}": ranks_of_six(unit),
            f"disordered_{x}": unit.disordered,
            f"terrain_{x}": unit.difficult_terrain,
            f"push_{x}": unit.push_shove,
            f"min_size_{x}": unit.min_size,
        })
        if f"armour_{x}" not in given:
            out[f"save_{x}"] = unit.save
    return {k: v for k, v in out.items() if k not in given}


def apply_combat(enc: Encounter, p: CombatParams, res: Resolution, tx: Transaction) -> None:
    """Casualties on both units, push & shove for the winner, the loser's rout."""
    if not p.actor or not p.target:
        raise RuleError("combat: name both units to apply the result")
    units = {"a": enc.find_unit(p.actor), "b": enc.find_unit(p.target)}
    f = res.figures_as(CombatFigures)
    kills = {"a": f.kills_a, "b": f.kills_b}
    for x in SIDES:
        unit = units[x]
        path: list[str | int] = ["units", unit.id]
        lost = min(kills[other(x)], unit.strength)
        if lost:
            tx.set([*path, "strength"], unit.strength - lost)
            tx.set([*path, "casualties_total"], unit.casualties_total + lost)
        tx.set([*path, "engaged"], unit.strength > 0)
        if unit.strength == 0:
            tx.set([*path, "removed"], True)
        if isinstance(unit, model.D6Unit):  # last round's bonus is spent; the winner's is new
            won = f.push_shove if f.winner == x else 0
            tx.set([*path, "push_shove"], won)
            tx.set([*path, "push_shove_since"], since(enc.position) if won else None)
    if f.loser:
        unit = units[f.loser]
        path = ["units", unit.id]
        if f.loser_outcome in ("routs", "destroyed"):
            tx.set([*path, "routed"], True)
            tx.set([*path, "engaged"], False)
            if isinstance(unit, model.D6Unit):
                tx.set([*path, "flee"], "rout")
        if f.loser_outcome == "destroyed":
            tx.set([*path, "removed"], True)
        winner = units[other(f.loser)]
        if f.loser_outcome in ("routs", "destroyed") and not _other_combats(enc, winner, p):
            tx.set(["units", winner.id, "engaged"], False)  # its enemy has fled


def _other_combats(enc: Encounter, unit: Unit, p: CombatParams) -> bool:
    """Whether ``unit`` fought another combat in this phase (it is still engaged there)."""
    pos = enc.position
    return any(a.actor == unit.id and a.action == "combat" and a.key != combat_key(p)
               and (a.round, a.side, a.phase) == (pos.round, pos.side, pos.phase)
               for a in enc.acted)

