"""Initiative from the table's dice, in every ruleset that rolls it (``plain``, ``harn``).

Everyone's initiative is owed as the fight's first round begins (the first ``n`` of a new
encounter) and, where the ruleset says so, as each round begins: a duty owed as the
round begins (:class:`~tracker.core.sequence.Duty`, ``at="start"``). ``next`` asks for
each one's die (the app's dice step, ``R`` rolling the rest; ``next --dice
initiative=...``; ``--roll-rest``), or stops and names the dice it needs; ``next force``
begins the round without them, the order standing as it was, and the log says so. The
``initiative`` action (:mod:`tracker.rules.initiative_action`) rolls them; the tracker
never rolls one unasked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tracker.core.dice import DiceError, Notation, parse_notation
from tracker.core.sequence import Duty
from tracker.rules.errors import RuleError
from tracker.rules.setting import Setting

if TYPE_CHECKING:
    from tracker.core.model import Encounter

MOST_DICE = 10
"""No more initiative dice than this for one combatant."""


def initiative_dice(text: str) -> Notation | None:
    """The dice of initiative as the GM names them (``d20``, ``2d6+1``; None: empty,
    none are rolled); RuleError saying what they may be."""
    if not text.strip():
        return None
    try:
        n = parse_notation(text, what="initiative_dice")
    except DiceError:
        n = None
    if n is None or not n.count or n.keep or n.cmp:
        raise RuleError(f"initiative_dice={text}: dice like d20 or 2d6 (empty: typed)")
    if not (n.count <= MOST_DICE and 2 <= n.sides <= 100):
        raise RuleError(f"initiative_dice={text}: 1 to {MOST_DICE} dice of 2 to 100 sides")
    return n


INITIATIVE_DICE = Setting(
    "initiative_dice",
    "",
    "dice rolled for initiative as the fight begins and as each round begins, plus the "
    "combatant's init_bonus stat (empty: the Initiative Rating orders the turns)",
    check=initiative_dice,
)
"""harn's: tables that roll initiative anew each round name the dice (``d100``)."""

BONUS = "init_bonus"


def dice_of(enc: Encounter, dice: Setting) -> str:
    """The encounter's dice of initiative (empty: none are rolled)."""
    return str(dice.of(enc)).strip()


def bonus_of(who: object) -> int:
    """A combatant's initiative bonus: its ``init_bonus`` field, else the stat."""
    bonus = getattr(who, BONUS, 0)
    if bonus:
        return int(bonus)
    stats = getattr(who, "stats", {})
    return int(stats.get(BONUS, 0))


def initiative_owed(dice: Setting, each_round: Callable[[Encounter], bool]) -> Duty:
    """Everyone's initiative, owed as the fight begins and as each round begins where
    ``each_round`` says so, while ``dice`` names any."""

    def rolling(enc: Encounter) -> list[tuple[str, str]]:
        spec = dice_of(enc, dice)
        if not spec or (enc.under_way and not each_round(enc)):
            return []
        out = []
        for c in enc.combatants:
            if not c.out:
                bonus = bonus_of(c)
                out.append((c.id, f"{spec}{bonus:+d}" if bonus else spec))
        return out

    return Duty("initiative", rolling, action="initiative", at="start")
