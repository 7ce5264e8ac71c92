"""The d6battle turn: each side in turn shoots, fights its combats, then resolves (units
that failed a morale test from shooting, and units routed in combat, flee: the resolution
phase names them as it begins).

Who acts when: the side whose round it is shoots, unit by unit, each unit's shooting
effects resolved (its target's morale test taken) before the next unit shoots (the
morale tests owed block ``shoot``); the side with Strategic Advantage selects the order
of the combats (named as the combat phase begins).

What the rules start and where it ends (``LIFETIMES``): a morale test owed ends with the
shoot phase (not taken, if the GM forced past it); the shooting casualties the morale
table counts end with the shoot phase too; having moved ends with the unit's own side's
turn; a flight ends with the resolution phase (the unit has fled; it stays routed, the
text having no rally); a push & shove bonus ends with the next combat phase after the
one it was won in ("the next round of combat"); disorder ends where the setting
``disorder_ends`` says."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.lifetimes import Lasts, When
from tracker.core.sequence import Duty, Phase, SequenceOfPlay, phasing_side

from .settings import DISORDER_ENDS, STRATEGIC_ADVANTAGE
from .turn import fleeing

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


def morale_tests_due(enc: Encounter) -> list[tuple[str, str]]:
    return [(u.id, "morale test") for u in enc.units if u.morale_test and u.active]


MORALE_TESTS = Duty("morale tests", morale_tests_due, action="morale", blocks=("shoot",))
"""Step 4 of resolving shooting; "resolve the effect before moving to your next unit":
while one is owed no other unit shoots."""


def fleeing_now(enc: Encounter) -> str:
    """The units that flee in this resolution phase, for the GM to move on the table."""
    names = fleeing(enc)
    return f"flee now (move them): {', '.join(names)}" if names else ""


def choosing_combats(enc: Encounter) -> str:
    """Who selects the order of the combats of this combat phase."""
    side = str(STRATEGIC_ADVANTAGE.of(enc))
    side = side or phasing_side(enc, SEQUENCE) or ""
    return f"Strategic Advantage: {side} selects the order of the combats" if side else ""


def _fled(enc: Encounter, tx: Transaction, unit: Any) -> str:
    tx.set(["units", unit.id, "flee"], "")
    return f"{unit.name} fled (routed: the text has no rally)"


def _disorder_ends(at: str) -> Any:
    def end(enc: Encounter, tx: Transaction, unit: Any) -> str:
        if DISORDER_ENDS.of(enc) != at:
            return ""
        tx.set(["units", unit.id, "disordered"], False)
        return f"{unit.name}: no longer disordered"

    return end


SHOOT_ENDS = When(at="end", of="phase", who="shoot")
COMBAT_ENDS = When(at="end", of="phase", who="combat")

LIFETIMES = (
    Lasts("morale_test", SHOOT_ENDS, "morale test not taken"),
    Lasts("casualties_turn", SHOOT_ENDS, "shooting casualties no longer count for morale"),
    Lasts("moved", When(at="end", of="turn"), "no longer counts as moved"),
    Lasts("flee", When(at="end", of="phase", who="resolution"), "", then=_fled),
    Lasts("push_shove", When(at="end", of="phase", who="combat", next=True),
          "push & shove bonus lost (its next round of combat is over)",
          since="push_shove_since"),
    Lasts("disordered", COMBAT_ENDS, "", then=_disorder_ends("combat")),
    Lasts("disordered", When(at="end", of="turn"), "", then=_disorder_ends("turn")),
)

SEQUENCE = SequenceOfPlay(
    phases=(
        Phase("shoot", "side", duties=(MORALE_TESTS,)),
        Phase("combat", "side", reminder=choosing_combats),
        Phase("resolution", "side", reminder=fleeing_now),
    ),
    turns_by="side",
    lifetimes=LIFETIMES,
)
