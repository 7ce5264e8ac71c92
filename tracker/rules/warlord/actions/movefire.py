"""``movefire``: how far a unit may move this turn and still fire. Mounted figures move a
whole move and fire; foot lose the fraction their profile's Movement and Firing table
gives, before terrain; no unit charges and fires in the same turn."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, RuleError, param

from ..numbers import json_number, parse_fraction, show
from ..profiles import Weapon, load_sheet
from ..sequence import BEFORE_FIRE
from ..settings import PROFILES
from ..units import find_unit

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class MoveFireParams(Params):
    actor: str | None = param(None, "unit", kind="actor")
    move: float | None = param(None, "normal move in cm (default: from the race)", ge=0)
    race: str | None = param(None, "race on the profile sheet")
    weapon: str | None = param(None, "missile weapon (its move and fire loss)")
    loss: str | None = param(None, "fraction of the move lost to fire, e.g. 1/2 (overrides sheet)")
    terrain: str = param("1", "terrain factor on what is left, e.g. 1/2 in scrub")
    mounted: bool | None = param(None, "mounted figures move a whole move and fire")
    charge: bool | None = param(None, "the unit charges (it then cannot fire)")
    moved: float | None = param(None, "cm actually moved, recorded on the unit", ge=0)
    profiles: str = param(help="profile sheet TOML (empty: the sample sheet)", setting=PROFILES)
    actor_name: str | None = param(None, "unit's name for the log (from the encounter)",
                                   name_of="actor")


class MoveFireFigures(Figures):
    move: int | float
    loss: str
    after_fire: int | float
    terrain: str
    allowance: int | float
    allowance_exact: str
    moved: float | None


def _move_and_weapon(p: MoveFireParams) -> tuple[float, Weapon | None, str]:
    """The normal move, the weapon's line of the sheet, and a note on sample data."""
    move, weapon, note = p.move, None, ""
    if p.race:
        profile = load_sheet(p.profiles).race(p.race)
        if move is None:
            move = profile.move
            if profile.source("move") == "sample":
                note = "normal move is sample data"
        if p.weapon:
            weapon = profile.weapon(p.weapon)
    if move is None:
        raise RuleError("give move= (normal move in cm) or race=")
    return move, weapon, note


class MoveFire(Action[MoveFireParams]):
    name = "movefire"
    help = "Movement allowance of a unit that moves and fires (record moved= on the unit)"
    phases = (BEFORE_FIRE,)

    def resolve(self, p: MoveFireParams, dice: Dice) -> Resolution:
        """How far a unit may move this turn and still fire."""
        if p.charge:
            raise RuleError("a unit cannot charge and fire in the same game turn")
        move, weapon, sheet_note = _move_and_weapon(p)
        move_f = Fraction(str(move))
        if p.mounted:
            loss = Fraction(0)
        elif p.loss:
            loss = parse_fraction(p.loss, "loss")
        elif weapon is not None:
            loss = parse_fraction(weapon.move_fire_loss, "move_fire_loss")
        else:
            raise RuleError("give loss= (fraction of the move lost) or race= and weapon=")
        if loss > 1:
            raise RuleError(f"loss={p.loss}: at most the whole move (1)")
        terrain = parse_fraction(p.terrain, "terrain")
        after_fire = move_f * (1 - loss)
        allowance = after_fire * terrain
        moved = p.moved
        if moved is not None and Fraction(str(moved)) > allowance:
            raise RuleError(
                f"moved={moved:g}: only {show(allowance)} cm allowed when moving to fire"
            )
        line = f"{p.actor_name or p.actor or 'Unit'} move and fire: {show(move_f)} cm"
        if p.mounted:
            line += ", mounted: full move"
        else:
            line += f", loses {show(loss)} to fire → {show(after_fire)} cm"
        if terrain != 1:
            line += f"; terrain ×{show(terrain)} → {show(allowance)} cm"
        if moved is not None:
            line += f"; moved {moved:g} cm"
        if sheet_note:
            line += f" [{sheet_note}]"
        figures = MoveFireFigures(
            move=json_number(move_f), loss=str(loss), after_fire=json_number(after_fire),
            terrain=str(terrain), allowance=json_number(allowance),
            allowance_exact=str(allowance), moved=moved,
        )
        return Resolution("movefire", "allowed", line, figures, rolls=dice.rolls)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        if not given.get("actor"):
            return {}
        unit = find_unit(enc, given["actor"])
        found: dict[str, Any] = {"actor_name": unit.name, "race": unit.race,
                                 "weapon": unit.weapon, "mounted": unit.mounted,
                                 "charge": unit.charged}
        if unit.pace > 0:
            found["move"] = unit.pace
        return {k: v for k, v in found.items() if k not in given}

    def apply(self, enc: Encounter, p: MoveFireParams, res: Resolution,
              tx: Transaction) -> None:
        if p.actor and p.moved is not None:
            unit = find_unit(enc, p.actor)
            tx.set(["units", unit.id, "moved_cm"], p.moved)


MOVEFIRE = MoveFire()
