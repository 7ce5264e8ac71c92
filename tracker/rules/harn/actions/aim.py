"""``aim``: aim a bow, crossbow or thrown weapon for a round (Missile Actions: no move,
1 round, defence ignore): +10 to a shot the next round. A bow may be aimed only if Pull
exceeds Draw by 75; a sling has no Aim action.

How often: one missile action a round (setting ``one_action_per_round``; see ``missile``),
in the aimer's own turn. The +10 is the ``aimed`` effect, which ends with the shot that
uses it or, unused, at the end of the next round; while the aim lasts (until the start of
the aimer's next turn) it ignores defence (``aiming``), and may abandon it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Resolution, RuleError, param

from ..effects import aim_effect, begin, now
from ..kinds import WEAPONS
from ..settings import AIM_NEEDS_LOAD, one_action_param
from ..tables import check_aim
from .lookup import movement_problems, need, weapon_kind
from .state import ActorParams, InTurn, StateFigures, row_of, took

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from ..model import HarnCombatant


class AimParams(ActorParams):
    weapon: str | None = param(None, "bow, crossbow, sling or thrown", choices=WEAPONS)
    pull: int | None = param(None, "shooter's Pull", ge=0)
    draw: int | None = param(None, "bow's Draw", ge=0)
    one_action_per_round: bool = one_action_param()


class Aim(InTurn[AimParams]):
    name = "aim"
    help = "Aim (1 round): +10 to a shot next round; a bow needs Pull - Draw >= 75"

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        c = need(enc, given.get("actor"))
        kind = weapon_kind(c, given.get("weapon"))
        out: dict[str, Any] = {"weapon": kind}
        if given.get("pull") is None and c.pull:
            out["pull"] = c.pull
        if given.get("draw") is None and c.weapon is not None and c.weapon.draw:
            out["draw"] = c.weapon.draw
        known = {**given, **out}
        check_aim(kind, known.get("pull"), known.get("draw"), self.name)
        return out

    def state_problems(self, enc: Encounter, c: HarnCombatant, p: AimParams) -> list[str]:
        """A bow or crossbow not loaded (setting ``aim_needs_load``); a move this round; a
        sling (no Aim action), or a bow whose Draw the Pull does not exceed by 75."""
        kind = weapon_kind(c, p.get("weapon"))
        out = movement_problems(c, self.name, kind)
        pull = c.pull if p.get("pull") is None else p.get("pull")
        draw = p.get("draw")
        if draw is None and c.weapon is not None and c.weapon.draw:
            draw = c.weapon.draw
        try:
            check_aim(kind, pull or None, draw, self.name)
        except RuleError as exc:
            out.append(str(exc))
        if kind in ("bow", "crossbow") and not c.loaded and AIM_NEEDS_LOAD.of(enc):
            out.append(f"{c.name}'s {kind} is not loaded: load before aiming")
        return out

    def resolve(self, p: AimParams, dice: Dice) -> Resolution:
        kind = p.weapon or "bow"
        check_aim(kind, p.pull, p.draw, self.name)
        who = p.actor or "combatant"
        text = f"{who} aims the {kind} (1 round, defence: ignore): +10 to a shot next round"
        return Resolution(self.name, "aimed", text, StateFigures(**row_of(kind, "aim")),
                          dice.rolls)

    def apply(self, enc: Encounter, p: AimParams, res: Resolution, tx: Transaction) -> None:
        c = need(enc, p.actor)
        begin(enc, c, aim_effect(now(enc)), tx)
        took(enc, c, self.name, tx)


AIM = Aim()
