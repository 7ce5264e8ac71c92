"""``save``: several targets each roll a d20 and a bonus against a DC (a spell's area,
a trap, a poison); one damage roll serves them all.

A total equal to the DC or more saves (setting ``equal_succeeds``). Those who fail take
the damage, and the ``condition`` if one is named; with ``half`` those who save take
half the damage, rounded as ``half_rounds`` says. The damage dice are rolled once,
after the saves, and only where someone takes damage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution, RuleError, Stage, param
from tracker.startup import lazy

from ..damage import Damage, read_damage
from ..domains import DC, Bonus
from ..health import standing, take_damage, tracked
from ..settings import EQUAL_SUCCEEDS, HALF_ROUNDS
from .common import DAMAGE, ROLLS, combatant, damage_stage, halved

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.plain.actions import save_odds
else:  # imported on first use (tracker.startup): `tracker resolve` needs no icepool
    save_odds = lazy("tracker.rules.plain.actions.save_odds")


class SaveParams(Params):
    targets: tuple[str, ...] | None = param(None, "who saves", kind="names")
    dc: int = param(help="the difficulty: the total to reach", ge=DC.ge, le=DC.le)
    bonus: tuple[Bonus, ...] | None = param(None, "added to the die: one for all, or one each in "
                                               "order (default: stat, else 0)")
    stat: str = param("", "a stat of each target added to its die: dex, wis_save")
    damage: str = param("", "damage dice, rolled once for all: 8d6 (none: no damage)")
    half: bool = param(True, "those who save take half the damage")
    condition: str = param("", "a condition those who fail take: poisoned")
    roll: str = param("normal", "advantage: two dice, the higher counts; disadvantage: the lower",
                   choices=ROLLS)
    hp: tuple[Annotated[int, Field(ge=-1)], ...] | None = param(
        None, "each one's hit points, temporary ones too (-1: not kept; default: their own)")
    by: str = param("", "who or what forces the save, for the log")
    equal_succeeds: bool = param(help="equal to the DC saves", setting=EQUAL_SUCCEEDS)
    half_rounds: str = param(help="half damage rounds", setting=HALF_ROUNDS,
                          choices=HALF_ROUNDS.choices)


class Saved(Figures):
    flag_words = {"saved": "a save made", "drops": "down"}
    name: str
    dice: list[int]
    total: int
    saved: bool
    damage: int
    drops: bool


class SaveFigures(Figures):
    saves: list[Saved]
    damage_dice: list[int]
    damage: int
    failed: int
    down: int


def bonuses(p: SaveParams) -> list[int]:
    """Each target's bonus, in order."""
    who = targets(p)
    given = list(p.bonus or (0,))
    if len(given) == 1:
        return given * len(who)
    if len(given) != len(who):
        raise RuleError(f"bonus={','.join(map(str, given))}: one for all, or one for each of"
                        f" the {len(who)} targets")
    return given


def targets(p: SaveParams) -> list[str]:
    if not p.targets:
        raise RuleError("save: name who saves (save Goblin Orc dc=15 ...)")
    return list(p.targets)


def points(p: SaveParams) -> list[int | None]:
    """Each target's hit points (None: not kept)."""
    who = targets(p)
    hp = list(p.hp or ())
    if hp and len(hp) != len(who):
        raise RuleError(f"hp={','.join(map(str, hp))}: one for each of the {len(who)} targets")
    return [v if v >= 0 else None for v in hp] if hp else [None] * len(who)


def lowest_save(p: SaveParams, bonus: int) -> int:
    """The lowest die that saves (21: none does)."""
    return p.dc - bonus + (0 if p.equal_succeeds else 1)


def damage_of(p: SaveParams) -> Damage | None:
    return read_damage(p.damage) if p.damage.strip() else None


def taken(p: SaveParams, amount: int, saved: bool) -> int:
    if not saved:
        return amount
    return halved(amount, p.half_rounds) if p.half else 0


def outcome_word(p: SaveParams, failed: int, down: int) -> str:
    """``2 down`` where hit points are kept and there is damage, else ``1 fails``."""
    if damage_of(p) is not None and any(v is not None for v in points(p)):
        return f"{down} down"
    return f"{failed} {'fails' if failed == 1 else 'fail'}"


class Save(Action[SaveParams]):
    name = "save"
    help = "Several targets save against a DC; one damage roll"
    stages = (
        Stage("save", "d20", "each target's save, one after another", label="to save"),
        damage_stage("the damage, rolled once for all"),
    )
    detail = (
        "figures: saves (name, dice, total, saved, damage, drops), damage_dice, damage,"
        " failed, down.\n"
        "save Goblin Orc dc=15 bonus=2 damage=8d6 --dice save=12,17 damage=3,4,5,6,2,1,6,5"
    )

    def resolve(self, p: SaveParams, dice: Dice) -> Resolution:
        who, plus, hp = targets(p), bonuses(p), points(p)
        dmg = damage_of(p)
        n = 1 if p.roll == "normal" else 2
        rows: list[tuple[str, list[int], int, bool]] = []
        for name, bonus in zip(who, plus, strict=True):
            need = lowest_save(p, bonus)
            faces = dice.roll_many("save", 20, n, need=max(1, need), why=f"{name} {bonus:+d}",
                                   classes=tuple(int(v >= need) for v in range(1, 21)))
            die = max(faces) if p.roll == "advantage" else min(faces)
            rows.append((name, faces, die + bonus, die >= need))
        amount, faces = 0, []
        if dmg is not None and any(p.half or not saved for *_, saved in rows):
            faces = dice.roll_many(DAMAGE, dmg.sides, dmg.count, why="once for all") \
                if dmg.count else []
            amount = max(0, sum(faces) + dmg.modifier)
        saves = []
        for (name, rolled, total, saved), left in zip(rows, hp, strict=True):
            got = taken(p, amount, saved)
            saves.append(Saved(name=name, dice=rolled, total=total, saved=saved, damage=got,
                               drops=left is not None and got > 0 and got >= left))
        failed = sum(1 for s in saves if not s.saved)
        down = sum(1 for s in saves if s.drops)
        f = SaveFigures(saves=saves, damage_dice=faces, damage=amount, failed=failed, down=down)
        return Resolution(self.name, outcome_word(p, failed, down), _text(p, dmg, f), f,
                          rolls=dice.rolls)

    def odds(self, p: SaveParams) -> Odds:
        return save_odds.odds(p)

    def summary(self, p: SaveParams) -> str | None:
        return save_odds.summary(p)

    def happened(self, p: SaveParams, res: Resolution, odds: Odds) -> str:
        return res.outcome if any(label == res.outcome for label, _ in odds) else ""

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        found = [combatant(enc, name) for name in given.get("targets") or ()]
        out: dict[str, Any] = {}
        stat = str(given.get("stat") or "")
        if stat and given.get("bonus") is None and all(c is not None for c in found):
            out["bonus"] = tuple(c.stats.get(stat, 0) for c in found if c is not None)
        if given.get("hp") is None and found:
            out["hp"] = tuple(-1 if c is None or not tracked(c) else standing(c)
                              for c in found)
        return out

    def apply(self, enc: Encounter, p: SaveParams, res: Resolution, tx: Transaction) -> None:
        f = res.figures_as(SaveFigures)
        for name, saved in zip(targets(p), f.saves, strict=True):
            who = combatant(enc, name)
            if who is None:
                continue
            if saved.damage and tracked(who):
                take_damage(tx, who, saved.damage)
            condition = p.condition.strip()
            if condition and not saved.saved and condition not in who.conditions:
                tx.set(["combatants", who.id, "conditions"], [*who.conditions, condition])


def _text(p: SaveParams, dmg: Damage | None, f: SaveFigures) -> str:
    by = f" ({p.by})" if p.by else ""
    each = ", ".join(f"{s.name} {s.total} {'saves' if s.saved else 'fails'}" for s in f.saves)
    text = f"Save DC {p.dc}{by}: {each}"
    if dmg is not None and any(s.damage for s in f.saves) or f.damage_dice:
        rolled = "+".join(map(str, f.damage_dice)) or "0"
        hurt = ", ".join(f"{s.name} {s.damage}" + (" (down)" if s.drops else "")
                         for s in f.saves if s.damage)
        text += f"; {dmg} ({rolled}) = {f.damage} damage" + (f": {hurt}" if hurt else "")
    failed = [s.name for s in f.saves if not s.saved]
    if p.condition.strip() and failed:
        text += f"; now {p.condition.strip()}: {', '.join(failed)}"
    return text


SAVE = Save()
