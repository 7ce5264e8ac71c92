"""``terrain``: a terrain roll (edc). CP dice against a TN the GM sets or reads from the
difficult-terrain table (terrain x movement, ``tables.toml``); one success is enough. An
opponent may spend CP against the same TN: more successes than the actor cancel the
benefit (a tie goes to the actor). Difficult fighting conditions are a roll by each
fighter, with the GM's consequences of failure and botch.

The text leaves open whether a terrain roll takes the fighter's single action of the
exchange (a press is a terrain roll made with the attack, an opposed roll answers
another's), so no limit is declared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Omit, Params, Resolution, RuleError, param

from ..common import (
    CP,
    MOVEMENTS,
    TERRAINS,
    check,
    combatant_or_none,
    d10s,
    successes_word,
    tn_rule,
)
from ..later import chances, tables
from ..pools import reduce_now, spend
from .own import OwnAction

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

EFFECTS = ("none", "half_dice", "half_cp", "prone")
_EFFECT_TEXT = {
    "half_dice": "next action -1/2 the dice",
    "half_cp": "loses half the CP",
    "prone": "falls (half CP on the ground)",
}


class TerrainParams(Params):
    """The parameters of ``terrain``."""

    actor: str = param("", "who makes the roll (spends CP)", kind="actor")
    dice: int = param(help="CP dice spent", ge=0)
    tn: int = param(0, "TN set by the GM (0: from terrain and movement)", ge=0)
    terrain: str = param("", "difficult terrain", choices=("", *TERRAINS))
    movement: str = param("normal", "movement column", choices=MOVEMENTS)
    modifier: int = param(0, "added to the TN (e.g. +0 to +4 for a stunt)")
    opponent: str = param("", "who opposes (spends CP)", kind="target", unlike="actor")
    oppose_dice: int = param(0, "opponent's CP dice against the same TN", ge=0)
    gain: str = param("none", "what success gives", choices=("none", "higher_footing"))
    failure_effect: str = param("none", "GM's consequence of failure", choices=EFFECTS)
    botch_effect: str = param("none", "GM's consequence of a botch", choices=EFFECTS)
    tn_above_ten: str = tn_rule()

    @property
    def roll_tn(self) -> int:
        if self.tn > 0:
            return self.tn + self.modifier
        if not self.terrain:
            raise RuleError("terrain: give tn= or terrain= with movement=")
        return tables.terrain_tn(self.terrain, self.movement) + self.modifier


class TerrainFigures(Figures):
    """What ``terrain`` reports (the ``--json`` keys)."""

    tn: int
    successes: int
    botch: bool
    opposed_successes: Omit[int] = None
    cancelled: bool = False
    success: bool = False
    cp_penalty: int = 0


class Terrain(OwnAction, Action[TerrainParams]):
    name = "terrain"
    help = ("Terrain roll: CP dice vs a TN (set, or difficult terrain x movement), "
            "optionally opposed; one success is enough")
    phases = ("exchange 1", "exchange 2")
    stages = (
        d10s("terrain", "the actor's dice", "for the terrain roll", lambda p: p.dice),
        d10s("oppose", "the opponent's dice", "to oppose it", lambda p: p.oppose_dice),
    )
    detail = (
        "figures: tn, successes, botch, opposed_successes, cancelled, success, "
        "cp_penalty. Terrain TNs (standing/crawling, cautious, normal/defending, "
        "hurried/attacking, sprinting): narrow 1 2 3 5 7; swampy/rocky 2 3 4 6 8; "
        "icy/slippery 2 4 6 8 10; tight 2 3 4 5 6; limited_room - - 5 6 8; pressing - - 4 3 3. "
        "Difficult fighting conditions (a storm-tossed deck): a roll by each fighter, "
        "failure_effect=half_cp botch_effect=prone."
    )

    def resolve(self, p: TerrainParams, dice: Dice) -> Resolution:
        tn = p.roll_tn
        rule = p.tn_above_ten
        who = p.actor or "fighter"
        succ, botch = check(dice, "terrain", p.dice, tn, rule, why=who)
        f = TerrainFigures(tn=tn, successes=succ, botch=botch)
        text = f"{who}: terrain roll {p.dice} vs TN {tn}: {successes_word(succ)}"
        if p.oppose_dice > 0:
            opp = p.opponent or "opponent"
            osucc = check(dice, "oppose", p.oppose_dice, tn, rule, why=opp).successes
            f.opposed_successes = osucc
            f.cancelled = osucc > succ
            text += f"; {opp} opposes with {p.oppose_dice}: {successes_word(osucc)}"
        f.success = succ > 0 and not f.cancelled
        if botch:
            outcome = "botch"
            text += "; botch" + (f": {_EFFECT_TEXT[p.botch_effect]}"
                                 if p.botch_effect != "none" else "")
        elif f.cancelled:
            outcome = "cancelled"
            text += "; matched, the benefit is cancelled"
        elif f.success:
            outcome = "success"
            text += "; success" + (", gains higher footing" if p.gain == "higher_footing"
                                   else "")
        else:
            outcome = "failure"
            text += "; failure"
            if p.failure_effect != "none":
                text += f": {_EFFECT_TEXT[p.failure_effect]}"
            if p.failure_effect == "half_dice":
                f.cp_penalty = p.dice // 2
        return Resolution("terrain", outcome, text, f, dice.rolls)

    def odds(self, p: TerrainParams) -> Odds:
        tn, rule = p.roll_tn, p.tn_above_ten
        botch, fail, ok = chances.success_odds(p.dice, tn, rule)
        if p.oppose_dice <= 0:
            return [("botch", botch[1]), ("failure", fail[1]), ("success", ok[1])]
        win = chances.opposed_win(p.dice, tn, p.oppose_dice, tn, rule)
        # a difference of floats: an impossible cancel can come out a hair below zero
        cancelled = max(0.0, ok[1] - win)
        return [("botch", botch[1]), ("failure", fail[1]), ("cancelled", cancelled),
                ("success", win)]

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        """Nothing to fill; refuses more dice than a fighter has left."""
        c = combatant_or_none(enc, given.get("actor"))
        o = combatant_or_none(enc, given.get("opponent"))
        for who, n in ((c, given.get("dice") or 0), (o, given.get("oppose_dice") or 0)):
            if who is not None and n > who.pool(CP).left:
                raise RuleError(f"{who.name} has {who.pool(CP).left} CP left; the roll needs {n}")
        return {}

    def apply(self, enc: Encounter, p: TerrainParams, res: Resolution,
              tx: Transaction) -> None:
        c = combatant_or_none(enc, p.actor)
        o = combatant_or_none(enc, p.opponent)
        if c is not None:
            spend(c, p.dice, tx, "the terrain roll")
        if o is not None:
            spend(o, p.oppose_dice, tx, "opposing the terrain roll")
        if c is None:
            return
        f = res.figures_as(TerrainFigures)
        effect = "none"
        if f.botch:
            effect = p.botch_effect
        elif f.success and p.gain == "higher_footing":
            tx.set(["combatants", c.id, "footing"], "higher")
        elif not f.success and not f.cancelled:
            effect = p.failure_effect
        if effect == "half_dice":
            reduce_now(c, p.dice // 2, tx, "Stumble")
        elif effect == "half_cp":
            reduce_now(c, c.pool(CP).left // 2, tx, "Overbalanced")
        elif effect == "prone":
            reduce_now(c, c.pool(CP).left // 2, tx, "Fell")
            tx.set(["combatants", c.id, "prone"], True)


TERRAIN = Terrain()
