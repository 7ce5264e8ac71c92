"""``status``: what the GM adjudicates about a combatant: its movement as a target this
round (still, moving, evading), whether it half-moved this round (Shooter Moving), and
whether a projectile is in hand (Load is then free). A GM's record, not the combatant's
action: no limit on how often, in anyone's turn; a half move is refused where the
Missile Actions table allows none (after a load, aim, span or throw this round, or a shot
taken without it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, RuleError, param

from ..kinds import MOVEMENTS
from .lookup import check_may_move, need

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

_FIELDS = ("movement", "moved", "in_hand")


class StatusParams(Params):
    who: str = param("", "the combatant", kind="target")
    movement: str | None = param(None, "as a target: still, moving or evading",
                                 choices=MOVEMENTS)
    moved: bool | None = param(None, "half-moved this round (Shooter Moving)")
    in_hand: bool | None = param(None, "projectile in hand (free Load)")


class StatusFigures(Figures):
    movement: str | None
    moved: bool | None
    in_hand: bool | None


class Status(Action[StatusParams]):
    name = "status"
    help = "Set movement (still/moving/evading), moved this round, projectile in hand"

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        c = need(enc, given.get("who"), "who")
        if given.get("moved"):
            check_may_move(c)
        return {}

    def resolve(self, p: StatusParams, dice: Dice) -> Resolution:
        who = p.who or "combatant"
        bits = []
        if p.movement:
            bits.append(f"is {p.movement}")
        if p.moved is not None:
            bits.append("moves (half move)" if p.moved else "stays put")
        if p.in_hand is not None:
            bits.append("has a projectile in hand" if p.in_hand else "has no projectile in hand")
        if not bits:
            raise RuleError("status: give movement=, moved= or in_hand=")
        f = StatusFigures(movement=p.movement, moved=p.moved, in_hand=p.in_hand)
        return Resolution(self.name, "status", f"{who} " + ", ".join(bits), f, dice.rolls)

    def apply(self, enc: Encounter, p: StatusParams, res: Resolution, tx: Transaction) -> None:
        c = need(enc, p.who, "who")
        for key in _FIELDS:
            value = getattr(p, key)
            if value is not None:
                tx.set(["combatants", c.id, key], value)


STATUS = Status()
