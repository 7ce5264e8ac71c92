"""What the actions of the Missile Actions table share: the actor parameter, the row
(movement, time, defence) they report, when they are taken (in the actor's own turn, one
a round) and what taking one leaves on the actor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeVar

from tracker.rules.base import Action, Figures, Params, Scope, param

from ..effects import IGNORING, begin, ignoring_effect, now
from ..later import tables
from .lookup import combatant_or_none, movement_problems, round_limit, turn_problems

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from ..model import HarnCombatant


class ActorParams(Params):
    actor: str = param("", "the combatant", kind="actor")


class StateFigures(Figures):
    """The Missile Actions row of the action taken with this weapon."""

    weapon: str
    movement: str
    time: str
    defence: str


def row_of(kind: str, action: str) -> dict[str, str]:
    """The figures a ``StateFigures`` takes from the Missile Actions table."""
    row = tables.missile_action(kind, action)
    return {"weapon": kind, "movement": row.movement, "time": row.time, "defence": row.defence}


P = TypeVar("P", bound=Params)


class InTurn(Action[P]):
    """An action of the Missile Actions table: taken in the actor's own turn (the higher
    Initiative Rating acts first), one missile action a round (setting
    ``one_action_per_round``)."""

    once_per = "round"

    def limit(self, p: P) -> tuple[Scope, str] | None:
        return round_limit(bool(getattr(p, "one_action_per_round", True)))

    def turn_rule(self, phase: str, p: P) -> Literal["own", "enemy", "any"]:
        return "own"

    def refusals(self, enc: Encounter, p: P) -> list[str]:
        """What the actor's state refuses: out of the fight, and what
        :meth:`state_problems` says of this action (the GM may force past either)."""
        c = combatant_or_none(enc, p.get("actor"))
        if c is None:
            return []
        return [*turn_problems(c), *self.state_problems(enc, c, p)]

    def state_problems(self, enc: Encounter, c: HarnCombatant, p: P) -> list[str]:
        """Why the actor's missile state refuses this action; by default, a move this
        round where the action allows none."""
        return movement_problems(c, self.name, p.get("weapon"))


def took(enc: Encounter, c: HarnCombatant, action: str, tx: Transaction, **extra: Any) -> None:
    """``c`` took ``action`` as this round's missile action: a round-long one (load, aim,
    span) induces the Ignore defence until the start of its next turn."""
    base: list[str | int] = ["combatants", c.id]
    tx.set(base + ["acted_round"], enc.position.round)
    tx.set(base + ["last_action"], action)
    for key, value in extra.items():
        tx.set(base + [key], value)
    if action in IGNORING:
        begin(enc, c, ignoring_effect(action, now(enc)), tx)
