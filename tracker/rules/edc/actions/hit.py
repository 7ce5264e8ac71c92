"""``hit``: a wound entered by hand (edc): level, location and damage type read from the
damage table, or Shock, Pain and Blood Loss (BL) typed in; the knockdown and knockout
rolls it calls for. A GM's tool with no dice and no limit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Params, Resolution, RuleError, param

from ..common import CP, DAMAGE_TYPES, combatant_or_none, damage_table_param, missing
from ..wounds import WoundFigures, add_wound, wound_calls, wound_figures

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class HitParams(Params):
    """The parameters of ``hit``."""

    target: str = param("", "the wounded fighter", kind="target")
    location: str = param(help="body part (head, neck, chest, abdomen, arm, leg)")
    level: int = param(help="wound level 0-5", ge=0, le=5)
    damage_type: str = param("cutting", "damage type", choices=DAMAGE_TYPES)
    shock: int = param(-1, "Shock (-1: from the table)", ge=-1)
    pain: int = param(-1, "Pain (-1: from the table)", ge=-1)
    blood_loss: int = param(-1, "BL (-1: from the table)", ge=-1)
    mos: int = param(0, "attacker's MoS (knockdown TN 2x, 3x blunt)", ge=0)
    cp: int = param(-1, "CP the fighter has left (-1: unknown)", ge=-1)
    note: str = param("", "what the wound is")
    damage_table: str = damage_table_param()


class Hit(Action[HitParams]):
    name = "hit"
    help = ("Enter a wound by hand: level, location and type from the damage table, "
            "or Shock / Pain / BL typed in")
    detail = ("figures: wound_level, location, damage_type, shock, pain, blood_loss, "
              "wound_note, cp_now and spill (when cp is known), knockdown_tn (0: none), "
              "knockout_roll")

    def resolve(self, p: HitParams, dice: Dice) -> Resolution:
        f = wound_figures(level=p.level, location=p.location, damage_type=p.damage_type,
                          table=p.damage_table, mos=p.mos, cp_left=p.cp, shock=p.shock,
                          pain=p.pain, blood_loss=p.blood_loss)
        who = p.target or "target"
        text = f"{who}: level {p.level} {p.damage_type} wound to {p.location}: "
        text += f"Shock {f.shock}, Pain {f.pain}, BL {f.blood_loss}"
        if f.spill:
            text += f"; {f.cp_now} CP left, {f.spill} Shock spills into next round"
        text += wound_calls(f)
        if f.wound_note:
            text += f" ({f.wound_note})"
        return Resolution("hit", f"level {p.level}", text, f, dice.rolls)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        c = combatant_or_none(enc, given.get("target"))
        if c is not None and missing(given, "cp"):
            return {"cp": c.pool(CP).left}
        return {}

    def apply(self, enc: Encounter, p: HitParams, res: Resolution, tx: Transaction) -> None:
        c = combatant_or_none(enc, p.target)
        if c is None:
            raise RuleError("hit: name the wounded fighter (target=NAME)")
        f = res.figures_as(WoundFigures)
        add_wound(enc, c, f, tx, note=p.note)


HIT = Hit()
