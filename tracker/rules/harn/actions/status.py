"""``status``: what the GM adjudicates about a combatant: its movement as a target
(still, moving, evading), whether it half-moved this round (Shooter Moving), and whether
a projectile is in hand (Load is then free). Not an action of the Missile Actions table:
no limit on how often."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Resolution, RuleError, param

from ..kinds import MOVEMENTS
from .lookup import need
from .state import ActorParams

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

_FIELDS = ("movement", "moved", "in_hand")


class StatusParams(ActorParams):
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
    params_model = StatusParams

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        need(enc, given.get("actor"))
        return {}

    def resolve(self, p: StatusParams, dice: Dice) -> Resolution:
        who = p.actor or "combatant"
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
        c = need(enc, p.actor)
        for key in _FIELDS:
            value = getattr(p, key)
            if value is not None:
                tx.set(["combatants", c.id, key], value)


STATUS = Status()
