"""The missile states that last across a turn or a round, as timed effects that end where
the Missile Sequence says:

- ``aimed``: "+10 bonus if took Aim action previous round": begun by the Aim action, it
  ends with the shot that uses it, or at the end of the next round unused.
- ``loading``, ``aiming``, ``spanning``: the round-long actions that induce the Ignore
  defence ("1 round" in the Missile Actions table) last until the start of the actor's
  next turn; an aware combatant may abandon one to defend normally (``abandon``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.lifetimes import since
from tracker.startup import lazy

if TYPE_CHECKING:  # the models load with the encounter, not with `tracker resolve`
    from tracker.core import model
    from tracker.core.history import Transaction
    from tracker.core.model import Effect, Encounter

    from .model import HarnCombatant
else:  # imported on first use (tracker.startup): `tracker resolve` needs no models
    model = lazy("tracker.core.model")

AIMED = "aimed"
IGNORING = {"load": "loading", "aim": "aiming", "span": "spanning"}
"""The effect each round-long action leaves while it lasts (defence: ignore)."""
ACTION_OF = {name: action for action, name in IGNORING.items()}


def aim_effect(where: tuple[int, int, int, int]) -> model.Effect:
    """The aim's +10, begun at ``where``: the round it began in does not count."""
    return model.Effect(name=AIMED, ends=model.Ends(at="end", of="round", next=True), since=where,
                  note="+10 to a shot next round")


def ignoring_effect(action: str, where: tuple[int, int, int, int]) -> model.Effect:
    """The Ignore defence of a round-long action, until the start of the actor's next turn."""
    return model.Effect(name=IGNORING[action], ends=model.Ends(at="start", of="turn", next=True),
                  since=where, note="defence: ignore (may be abandoned to defend normally)")


def aimed_last_round(enc: Encounter, c: HarnCombatant) -> bool:
    """Took the Aim action the previous round: the aim's +10 applies."""
    rnd = enc.position.round
    return any(e.name == AIMED and e.since is not None and e.since[0] == rnd - 1
               for e in c.effects)


def ignoring(c: HarnCombatant) -> str:
    """The round-long action ``c`` is still taking (defence: ignore), or ""."""
    return next((ACTION_OF[e.name] for e in c.effects if e.name in ACTION_OF), "")


def begin(enc: Encounter, c: HarnCombatant, effect: Effect, tx: Transaction) -> None:
    """Start ``effect`` on ``c``, in place of one of the same name."""
    kept = [e for e in c.effects if e.name != effect.name]
    tx.set(["combatants", c.id, "effects"], [*kept, effect])


def end(c: HarnCombatant, names: set[str], tx: Transaction) -> None:
    """End the effects of these names on ``c`` (a shot uses the aim up)."""
    if any(e.name in names for e in c.effects):
        tx.set(["combatants", c.id, "effects"], [e for e in c.effects if e.name not in names])


def now(enc: Encounter) -> tuple[int, int, int, int]:
    return since(enc.position)
