"""``opponents``: the multiple-opponents terrain roll (edc). The outnumbered fighter rolls
CP dice against the table's TN, each opponent against his own (``tables.toml``; setting
``multiple_opponents_column`` says which unlabelled column is whose). Beating or tying all
lets him choose whom to face for the round; an opponent with more successes may engage or
decline; a botch faces up to three opponents of their choice (four smaller foes).

The roll settles whom he faces "for the round": once per round, before its first exchange.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import NonNegativeInt

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, RuleError, param

from ..common import check, combatant_or_none, d10s, successes_word, tn_rule
from ..later import tables
from ..pools import spend
from ..settings import MULTIPLE_OPPONENTS_COLUMN
from .own import OwnAction

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


MOST_OPPONENTS = 100
"""More foes than this on one fighter is a slip of the keys (the table's last row is
10 and more): each is rolled for."""


class OpponentsParams(Params):
    """The parameters of ``opponents``."""

    actor: str = param("", "the outnumbered fighter", kind="actor")
    dice: int = param(0, "outnumbered fighter's CP dice", ge=0)
    opponents: int = param(0, "number of opponents (0: count opponent_dice)", ge=0,
                           le=MOST_OPPONENTS)
    opponent_dice: tuple[NonNegativeInt, ...] | None = param(
        None, "each opponent's CP dice, e.g. 3,0,2")
    opponent_names: tuple[str, ...] | None = param(None, "the opponents, in the same order")
    tn: int = param(0, "outnumbered fighter's TN (0: the table)", ge=0)
    opponents_tn: int = param(0, "opponents' TN (0: the table)", ge=0)
    small_foes: bool = param(False, "small foes (dogs, wolves): up to 4 at once")
    multiple_opponents_column: str = param(
        help="which table column is the outnumbered fighter's",
        choices=MULTIPLE_OPPONENTS_COLUMN.choices, setting=MULTIPLE_OPPONENTS_COLUMN)
    tn_above_ten: str = tn_rule()


class OpponentsFigures(Figures):
    """What ``opponents`` reports (the ``--json`` keys)."""
    flag_words = {"may_choose": "he chooses whom to face"}

    tn: int
    opponents_tn: int
    successes: int
    opponent_successes: list[int]
    botch: bool
    may_choose: bool
    may_decline: list[int]
    """Opponent numbers (from 1) who beat him: they may engage or decline."""
    max_faced: int


class Opponents(OwnAction, Action[OpponentsParams]):
    name = "opponents"
    help = ("Multiple opponents: the outnumbered fighter's terrain roll against each "
            "opponent's, to face one at a time")
    phases = ("exchange 1",)
    once_per = "round"
    stages = (
        d10s("lone", "the outnumbered fighter's dice", "to face one at a time", lambda p: p.dice),
        d10s("opponent", "opponents' dice, first opponent first", "to choose whom to face",
             lambda p: sum(p.opponent_dice or ())),
    )
    detail = (
        "figures: tn, opponents_tn, successes, opponent_successes, botch, may_choose, "
        "may_decline (opponent numbers who beat him: they may engage or decline), max_faced. "
        "TNs (first, second column): 2 opponents 6 5; 3-5: 8 6; 6-9: 9 7; 10+: 10 8. "
        "An opponent who rolls no dice counts as no successes."
    )

    def resolve(self, p: OpponentsParams, dice: Dice) -> Resolution:
        dice_each = list(p.opponent_dice or ())
        n = p.opponents or len(dice_each)
        if n < 2:
            raise RuleError("opponents: at least 2 opponents (opponents=N or opponent_dice=...)")
        dice_each += [0] * (n - len(dice_each))
        if len(dice_each) > n:
            raise RuleError(f"opponents: {len(dice_each)} dice counts for {n} opponents")
        lone_tn, opp_tn = tables.opponents_tns(n, p.multiple_opponents_column)
        if p.tn > 0:
            lone_tn = p.tn
        if p.opponents_tn > 0:
            opp_tn = p.opponents_tn
        rule = p.tn_above_ten
        who = p.actor or "outnumbered fighter"
        succ, botch = check(dice, "lone", p.dice, lone_tn, rule, why=who)
        names = list(p.opponent_names or ())
        theirs = [
            check(dice, "opponent", k, opp_tn, rule,
                  why=names[i] if i < len(names) else f"opponent {i + 1}").successes
            for i, k in enumerate(dice_each)
        ]
        beaten_by = [i + 1 for i, s in enumerate(theirs) if s > succ]
        most = tables.most_faced(p.small_foes)
        f = OpponentsFigures(tn=lone_tn, opponents_tn=opp_tn, successes=succ,
                             opponent_successes=theirs, botch=botch,
                             may_choose=not botch and not beaten_by, may_decline=beaten_by,
                             max_faced=most if botch else 1)
        text = f"{who} vs {n}: {successes_word(succ)} (TN {lone_tn}); opponents " + ", ".join(
            str(s) for s in theirs
        ) + f" (TN {opp_tn})"
        if botch:
            outcome = "botch"
            text += f"; botch: faces up to {most} opponents of their choice"
        elif not beaten_by:
            outcome = "chooses"
            text += "; beats or ties all: chooses whom to face"
        else:
            outcome = "opponents choose"
            text += "; opponent " + ", ".join(map(str, beaten_by)) + " may engage or decline"
        return Resolution("opponents", outcome, text, f, dice.rolls)

    def apply(self, enc: Encounter, p: OpponentsParams, res: Resolution,
              tx: Transaction) -> None:
        c = combatant_or_none(enc, p.actor)
        if c is not None:
            spend(c, p.dice, tx, "the multiple-opponents roll")
        for name, k in zip(p.opponent_names or (), p.opponent_dice or (), strict=False):
            o = combatant_or_none(enc, name)
            if o is not None:
                spend(o, k, tx, "the multiple-opponents roll")


OPPONENTS = Opponents()
