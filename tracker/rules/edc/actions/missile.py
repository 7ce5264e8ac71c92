"""``missile``: loose a missile (edc). Missile Pool (MP) dice against the ATN (with range,
movement and environment), against the target's evasion (Full DTN 4, Partial 7, Duck &
Weave 9: ``tables.toml``) or shield block (the shield's missile DTN), from the CP in melee
or Reflex out of it. A hit rolls 2d6 on the missile hit location chart, steered by aim
dice set aside (at most Aim; the range table that limits the steering is not printed:
setting ``aim_shift_per_die``), and wounds as an exchange does.

"Choose to fire either in the first exchange (red die) or on the second exchange/not this
round": once per round, in either exchange.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import (
    Action,
    Figures,
    Odds,
    Omit,
    Params,
    Resolution,
    RuleError,
    Stage,
    param,
)

from ..acting import fighter, frozen, may_not_attack, shield_spent
from ..common import (
    DAMAGE_TYPES,
    EVASIONS,
    check,
    d10s,
    damage_table_param,
    successes_word,
    tn_rule,
)
from ..later import chances, damage, tables
from ..settings import AIM_SHIFT_PER_DIE
from ..wounds import WoundFields, wound_calls, wound_figures, wound_level, wound_summary
from .missile_fill import apply_missile, fill_missile, not_ready

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

DEFENCES = ("none", *EVASIONS, "block")


class MissileParams(Params):
    """The parameters of ``missile``."""

    actor: str = param("", "the shooter (spends MP)", kind="actor")
    target: str = param("", "the target", kind="target", unlike="actor")
    dice: int = param(help="MP dice rolled", ge=0)
    atn: int = param(help="ATN with range, movement and environment", ge=1)
    aim_dice: int = param(0, "MP dice set aside to aim a location (max Aim)", ge=0)
    aim: int = param(0, "the shooter's Aim", ge=0)
    aim_at: int = param(0, "2d6 location score aimed at (0: none)", ge=0, le=12)
    aim_shift_per_die: int = param(help="location shift per aim die", ge=0,
                                   setting=AIM_SHIFT_PER_DIE)
    location: str = param("", "location struck, if the GM sets it")
    defense: str = param("none", "target's defence: evade_full (DTN 4), "
                         "evade_partial (7), duck (9), block (shield)", choices=DEFENCES)
    defense_dice: int = param(0, "target's dice (CP in melee, else Reflex)", ge=0)
    defense_from: str = param("cp", "defence dice from the CP (in melee) or Reflex",
                              choices=("cp", "reflex"))
    shield_dtn: int = param(0, "the shield's missile DTN", ge=0)
    dtn: int = param(0, "DTN set by the GM (0: from the defence)", ge=0)
    damage_type: str = param("puncture", "damage type", choices=DAMAGE_TYPES)
    weapon_damage: int = param(0, "weapon damage added to the MoS")
    toughness: int = param(0, "target's Toughness", ge=0)
    armour: int = param(0, "target's armour", ge=0)
    wound_level: int = param(-1, "wound level (-1: MoS + damage - TO - AR)", ge=-1, le=5)
    target_cp: int = param(-1, "target's CP left (-1: unknown)", ge=-1)
    damage_table: str = damage_table_param()
    tn_above_ten: str = tn_rule()

    @property
    def defended(self) -> bool:
        return self.defense != "none" and self.defense_dice > 0

    def defence_tn(self) -> int:
        if self.dtn > 0:
            return self.dtn
        if self.defense == "block":
            if self.shield_dtn <= 0:
                raise RuleError("missile: a block needs the shield's missile DTN (shield_dtn=)")
            return self.shield_dtn
        found = tables.tables().missile.evade.get(self.defense)
        return 10 if found is None else found


class MissileShot(Figures):
    """The shot, its defence and where it strikes."""

    successes: int
    defense_successes: int
    dtn: int
    mos: int
    hit: bool
    botch: bool
    mp_spent: int
    location_roll: Omit[int] = None
    location_shift: Omit[int] = None
    location: Omit[str] = None


class MissileFigures(WoundFields, MissileShot):
    """What ``missile`` reports (the ``--json`` keys): the shot, then the wound."""


class Missile(Action[MissileParams]):
    name = "missile"
    help = ("Loose a missile: MP dice vs ATN, against the target's evade (DTN 4 / 7 / 9) or "
            "shield block; a hit rolls 2d6 for location, steered by aim dice set aside")
    phases = ("exchange 1", "exchange 2")
    once_per = "round"
    stages = (
        d10s("missile", "MP dice", "to hit", lambda p: p.dice),
        d10s("defense", "evade/block dice", "to evade or block",
             lambda p: p.defense_dice if p.defense != "none" else 0),
        Stage("location", "d6", "2d6 hit location", label="for the hit location"),
    )
    detail = ("figures: successes, defense_successes, dtn, mos, hit, botch, mp_spent; on a hit "
              "location_roll, location_shift, location and the wound figures (wound_level, "
              "shock, pain, blood_loss, knockdown_tn, knockout_roll). A shield blocks once per "
              "exchange.")

    def resolve(self, p: MissileParams, dice: Dice) -> Resolution:
        if p.aim_dice > p.aim:
            raise RuleError(f"missile: at most {p.aim} aim dice (Aim {p.aim})")
        rule = p.tn_above_ten
        shooter, target = p.actor or "shooter", p.target or "target"
        succ, botch = check(dice, "missile", p.dice, p.atn, rule, why=shooter)
        d_succ = dtn = 0
        text = f"{shooter} looses {p.dice} MP vs ATN {p.atn}: {successes_word(succ)}"
        if p.defended:
            dtn = p.defence_tn()
            d_succ = check(dice, "defense", p.defense_dice, dtn, rule, why=target).successes
            text += f"; {target} {p.defense.replace('_', ' ')}s with {p.defense_dice} vs "
            text += f"DTN {dtn}: {successes_word(d_succ)}"
        mos = succ - d_succ
        f = MissileFigures(successes=succ, defense_successes=d_succ, dtn=dtn, mos=mos,
                           hit=mos > 0, botch=botch,
                           mp_spent=p.dice + p.aim_dice)
        if not f.hit:
            text += "; misses" + (" (botch)" if f.botch else "")
            return Resolution("missile", "miss", text, f, dice.rolls)
        roll = sum(dice.roll_many("location", 6, 2, why=f"{target} hit"))
        shift = 0
        if p.aim_at:
            most = p.aim_dice * p.aim_shift_per_die
            shift = max(-most, min(most, p.aim_at - roll))
        location = p.location or damage.missile_location(p.damage_table, roll + shift)
        f.location_roll, f.location_shift, f.location = roll, shift, location
        text += f"; MoS {mos}, hits {location} (2d6 {roll}"
        text += f", aimed {shift:+d})" if shift else ")"
        level = wound_level(p.wound_level, mos, p.weapon_damage, p.toughness, p.armour)
        wf = wound_figures(level=level, location=location, damage_type=p.damage_type,
                           table=p.damage_table, mos=mos, cp_left=p.target_cp)
        f.take_wound(wf)
        if level > 0:
            text += "; " + wound_summary(wf)
            if wf.spill:
                text += f"; {wf.spill} Shock spills into next round"
            text += wound_calls(wf)
        else:
            text += "; no wound (level 0)"
        return Resolution("missile", "hit", text, f, dice.rolls)

    def odds(self, p: MissileParams) -> Odds:
        nd = p.defense_dice if p.defense != "none" else 0
        dist = chances.mos_odds(p.dice, p.atn, nd, p.defence_tn() if nd else 10, p.tn_above_ten)
        out: Odds = [("miss", sum(q for m, q in dist.items() if m <= 0))]
        out += [(f"hit, MoS {m}", dist[m]) for m in sorted(dist) if m > 0]
        return out

    def refusals(self, enc: Encounter, p: MissileParams) -> list[str]:
        """No shot while hesitating, nor with no missile ready; no defence while frozen;
        a shield blocks once an exchange, whatever the source."""
        t = fighter(enc, p.get("target"))
        shooter = fighter(enc, p.get("actor"))
        defends = p.get("defense", "none") != "none" and bool(p.get("defense_dice"))
        return [*may_not_attack(shooter), *not_ready(shooter), *(frozen(t) if defends else []),
                *shield_spent(t, defends and p.get("defense") == "block")]

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_missile(enc, given)

    def apply(self, enc: Encounter, p: MissileParams, res: Resolution,
              tx: Transaction) -> None:
        apply_missile(enc, p, res.figures_as(MissileFigures), tx)


MISSILE = Missile()
