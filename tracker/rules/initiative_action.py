"""``initiative``: each combatant's initiative die, as rolled at the table, in every
ruleset that rolls it (``plain``, ``harn``; see :mod:`tracker.rules.initiative`).

Each one in the fight (or those named) rolls the ruleset's initiative dice plus its
``init_bonus``; the totals order the turns, highest first, equal ones as the ruleset's
``initiative_ties`` says. Where a group or a side acts together (``group_initiative``)
it rolls once, with the best bonus among it. Taken before the fight has begun, it begins
it; taken before anyone has acted in a round it gives the first turn to the highest.
The total becomes the field the ruleset names (plain: ``initiative``; harn:
``rolled_initiative``, this round's, beside the Initiative Rating). One who joins later
rolls alone (``initiative Orc``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tracker.core.dice import Dice
from tracker.core.sequence import Grouping, holder_of
from tracker.rules.base import Action, Figures, Params, Resolution, RuleError, Stage, param
from tracker.rules.initiative import bonus_of, initiative_dice

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Combatant, Encounter


class InitiativeParams(Params):
    """Who rolls, with what bonus, for whom; each ruleset's own names its dice setting."""

    who: tuple[str, ...] | None = param(None, "who rolls (default: everyone in the fight)",
                                     kind="names")
    bonuses: tuple[int, ...] | None = param(None, "each one's init_bonus, in that order "
                                               "(default: their own)")
    holders: tuple[str, ...] | None = param(None, "the group or side each one rolls for "
                                               "(default: as group_initiative says)")
    dice: str = param("", "the dice of initiative")


class Rolled(Figures):
    name: str
    dice: list[int]
    bonus: int
    total: int


class InitiativeFigures(Figures):
    totals: list[Rolled]


def holder_words(name: str, holder: str) -> str:
    """``Goblin (group)``, ``foes (side)`` or the combatant's name."""
    kind, _, what = holder.partition(":")
    return f"{what} ({kind})" if what else name


def name_of(enc: Encounter, who: Combatant) -> str:
    """How a combatant is named in the parameters: its name, or its id where another
    shares the name."""
    same = sum(1 for c in enc.combatants if c.name == who.name)
    return who.name if same == 1 else who.id


class Initiative(Action[InitiativeParams]):
    name = "initiative"
    help = "Each one's initiative die and bonus, highest first"
    stages = (Stage("initiative", "d20", "each one's initiative die, one after another",
                    label="for initiative"),)
    detail = ("figures: totals (name, dice, bonus, total), in the order rolled.\n"
              "initiative --dice initiative=14,9,17 · initiative Orc --dice initiative=11")
    by_chance = False  # a total to order by: no outcome has odds
    field: ClassVar[str] = "initiative"
    """The combatant's field the total goes to."""

    def resolve(self, p: InitiativeParams, dice: Dice) -> Resolution:
        who = list(p.who or ())
        if not who:
            raise RuleError("initiative: no one to roll for (add combatants first)")
        bonuses = list(p.bonuses or ())
        if bonuses and len(bonuses) != len(who):
            raise RuleError(f"bonuses={','.join(map(str, bonuses))}: one for each of the"
                            f" {len(who)} who roll")
        holders = list(p.holders or ()) + [""] * len(who)
        n = initiative_dice(p.dice)
        if n is None:
            raise RuleError(f"initiative_dice={p.dice}: dice like d20 or 2d6 (empty: typed)")
        rolls: list[Rolled] = []
        for i, name in enumerate(who):
            bonus = (bonuses[i] if bonuses else 0) + n.modifier
            shown = holder_words(name, holders[i])
            faces = dice.roll_many("initiative", n.sides, n.count, why=f"{shown} {bonus:+d}")
            rolls.append(Rolled(name=shown, dice=faces, bonus=bonus, total=sum(faces) + bonus))
        parts = [f"{r.name} {r.total} ({'+'.join(map(str, r.dice))}{r.bonus:+d})"
                 for r in rolls]
        return Resolution(self.name, "rolled", f"Initiative: {', '.join(parts)}",
                          InitiativeFigures(totals=rolls), rolls=dice.rolls)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        """Everyone in the fight (or those named), one for each group or side that acts
        together, with their bonuses."""
        setting = enc.settings.get("group_initiative", "none")
        together: Grouping = "group" if setting == "group" else \
            "side" if setting == "side" else "none"
        if given.get("who"):
            named = [enc.find_combatant(n) for n in given["who"]]
        else:
            named = [c for c in enc.combatants if not c.out]
        first: dict[str, list[Combatant]] = {}
        for c in named:
            first.setdefault(holder_of(c, together), []).append(c)
        out: dict[str, Any] = {"who": tuple(name_of(enc, cs[0]) for cs in first.values())}
        if given.get("bonuses") is None:
            out["bonuses"] = tuple(max(bonus_of(c) for c in cs) for cs in first.values())
        holders = tuple(key if key.startswith(("group:", "side:")) else "" for key in first)
        if given.get("holders") is None and any(holders):  # each rolls for itself: no field
            out["holders"] = holders
        return out

    def apply(self, enc: Encounter, p: InitiativeParams, res: Resolution,
              tx: Transaction) -> None:
        f = res.figures_as(InitiativeFigures)
        holders = list(p.holders or ()) + [""] * len(p.who or ())
        for name, holder, rolled in zip(p.who or (), holders, f.totals, strict=False):
            for c in _members(enc, name, holder):
                tx.set(["combatants", c.id, self.field], rolled.total)
        if not enc.under_way:
            tx.set(["under_way"], True)  # rolled by hand before the first advance


def _members(enc: Encounter, name: str, holder: str) -> list[Combatant]:
    kind, _, what = holder.partition(":")
    if kind == "group":
        return [c for c in enc.combatants if c.group == what]
    if kind == "side":
        return [c for c in enc.combatants if c.side == what]
    return [enc.find_combatant(name)]
