"""``attack``: a d20 and a bonus against a defence of the target, then the damage dice.

The die and ``bonus`` against the target's defence (``vs=ac``, or any it names): equal
or more hits (setting ``equal_succeeds``); a natural 20 always hits and a natural 1
always misses (settings ``natural_20``, ``natural_1``). With ``advantage`` two dice are
rolled and the higher counts, with ``disadvantage`` the lower. A die of ``crit`` or more
that hits is a critical hit, its damage as ``crit_damage`` says. On a hit the damage
dice are rolled and the damage comes off the target's hit points (temporary first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution, RuleError, Stage, param
from tracker.startup import lazy

from ..damage import Damage, read_attack, read_damage
from ..domains import BONUS, CRIT, DEFENCE
from ..health import defence, standing, take_damage, tracked
from ..settings import CRIT_DAMAGE, EQUAL_SUCCEEDS, NATURAL_1, NATURAL_20
from .common import DAMAGE, ROLLS, combatant, damage_count, damage_stage, damage_total

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.plain.actions import attack_odds
else:  # imported on first use (tracker.startup): `tracker resolve` needs no icepool
    attack_odds = lazy("tracker.rules.plain.actions.attack_odds")

MISS, HIT, CRITICAL = 0, 1, 2
"""The kinds of an attack die, worst first: a die's kind never falls as the die rises."""
KINDS = ("miss", "hit", "critical hit")


class AttackParams(Params):
    actor: str | None = param(None, "who attacks", kind="actor")
    target: str | None = param(None, "who is attacked", kind="target", unlike="actor")
    bonus: int = param(0, "added to the attack die (default: the attacker's attack)",
                    ge=BONUS.ge, le=BONUS.le)
    damage: str = param("", "damage dice on a hit: 1d8+3, 2d6, 8 (default: the attacker's)")
    vs: str = param("ac", "the target's defence it is against: ac, or one the target names")
    defence: int | None = param(None, "that defence's value (default: the target's)", ge=DEFENCE.ge,
                             le=DEFENCE.le)
    crit: int = param(20, "the lowest die that is a critical hit", ge=CRIT.ge, le=CRIT.le)
    roll: str = param("normal", "advantage: two dice, the higher counts; disadvantage: the lower",
                   choices=ROLLS)
    hp: int | None = param(None, "the target's hit points, temporary ones too (default: its own)",
                        ge=0)
    natural_20: bool = param(help="a 20 always hits", setting=NATURAL_20)
    natural_1: bool = param(help="a 1 always misses", setting=NATURAL_1)
    equal_succeeds: bool = param(help="equal to the defence hits", setting=EQUAL_SUCCEEDS)
    crit_damage: str = param(help="a critical hit's damage", setting=CRIT_DAMAGE,
                          choices=CRIT_DAMAGE.choices)


class AttackFigures(Figures):
    flag_words = {"critical": "critical hit", "drops": "down"}
    dice: list[int]
    die: int
    total: int
    defence: int
    hit: bool
    critical: bool
    damage_dice: list[int]
    damage: int
    drops: bool


def lowest_hit(p: AttackParams) -> int:
    """The lowest die that hits, before the natural 1 and 20 (21: none can)."""
    defence_ = needed_defence(p)
    return defence_ - p.bonus + (0 if p.equal_succeeds else 1)


def needed_defence(p: AttackParams) -> int:
    if p.defence is None:
        who = p.target or "the target"
        raise RuleError(f"attack: {who} has no {p.vs}: give defence= (or set {who} {p.vs}=N)")
    return p.defence


def kind_of(die: int, p: AttackParams) -> int:
    """Miss, hit or critical hit, for the die that counts."""
    hits = die >= lowest_hit(p)
    if die == 20 and p.natural_20:
        hits = True
    if die == 1 and p.natural_1:
        hits = False
    if not hits:
        return MISS
    return CRITICAL if die >= p.crit else HIT


def classes(p: AttackParams) -> tuple[int, ...]:
    return tuple(kind_of(face, p) for face in range(1, 21))


def damage_of(p: AttackParams) -> Damage:
    if not p.damage.strip():
        raise RuleError("attack: give damage= (dice like 1d8+3), or the attacker an attack")
    return read_damage(p.damage)


def drop_label(kind: str, p: AttackParams) -> str:
    return f"{kind}: {p.target or 'the target'} down"


class Attack(Action[AttackParams]):
    name = "attack"
    help = "A d20 and a bonus against a defence, then the damage"
    stages = (
        Stage("attack", "d20", "the attack die (two with advantage or disadvantage)",
              label="to hit", count=lambda p: 1 if p.roll == "normal" else 2),
        damage_stage("the damage dice, on a hit"),
    )
    detail = (
        "figures: dice (the attack dice), die (the one that counts), total, defence, hit,"
        " critical, damage_dice, damage, drops (the target's hit points reach 0).\n"
        "attack Aria Goblin bonus=5 damage=1d8+3 --dice attack=14 damage=6"
    )

    def resolve(self, p: AttackParams, dice: Dice) -> Resolution:
        dmg = damage_of(p)
        target = p.target or "the target"
        n = 1 if p.roll == "normal" else 2
        need = max(2 if p.natural_1 else 1, min(lowest_hit(p), 20 if p.natural_20 else 21))
        why = {"advantage": "advantage, the higher counts",
               "disadvantage": "disadvantage, the lower counts"}.get(p.roll, "")
        rolled = dice.roll_many("attack", 20, n, need=need, why=why, classes=classes(p))
        die = max(rolled) if p.roll == "advantage" else min(rolled)
        kind = kind_of(die, p)
        total = die + p.bonus
        head = (f"{p.actor or 'The attacker'} attacks {target}: {_dice(rolled, die)}{p.bonus:+d}"
                f" = {total} vs {p.vs.upper()} {p.defence}")
        if kind == MISS:
            f = AttackFigures(dice=rolled, die=die, total=total, defence=needed_defence(p),
                              hit=False, critical=False, damage_dice=[], damage=0, drops=False)
            return Resolution(self.name, "miss", f"{head}: miss", f, rolls=dice.rolls)
        critical = kind == CRITICAL
        count = damage_count(dmg, critical, p.crit_damage)
        why_dmg = "critical hit" if critical and count > dmg.count else ""
        faces = dice.roll_many(DAMAGE, dmg.sides, count, why=why_dmg) if count else []
        amount = damage_total(dmg, faces, critical, p.crit_damage)
        drops = p.hp is not None and amount >= p.hp
        word = KINDS[kind]
        text = f"{head}: {word}, {amount} damage ({dmg}: {_sum(faces, dmg.modifier)})"
        if drops:
            text += f"; {target} is down"
        f = AttackFigures(dice=rolled, die=die, total=total, defence=needed_defence(p),
                          hit=True, critical=critical, damage_dice=faces, damage=amount,
                          drops=drops)
        return Resolution(self.name, word, text, f, rolls=dice.rolls)

    def odds(self, p: AttackParams) -> Odds:
        return attack_odds.odds(p)

    def summary(self, p: AttackParams) -> str | None:
        return attack_odds.summary(p)

    def happened(self, p: AttackParams, res: Resolution, odds: Odds) -> str:
        f = res.figures_as(AttackFigures)
        label = drop_label(res.outcome, p) if f.drops else res.outcome
        return label if any(known == label for known, _ in odds) else ""

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        attacker = combatant(enc, given.get("actor"))
        usual = getattr(attacker, "attack", "") if attacker is not None else ""
        if usual:
            bonus, dmg = read_attack(usual)  # the model checked it as it came in
            if "bonus" not in given:
                out["bonus"] = bonus
            if not given.get("damage"):
                out["damage"] = str(dmg)
        target = combatant(enc, given.get("target"))
        if target is not None:
            vs = str(given.get("vs") or "ac")
            if given.get("defence") is None:
                out["defence"] = defence(target, vs)
            if given.get("hp") is None and tracked(target):
                out["hp"] = standing(target)
        return out

    def apply(self, enc: Encounter, p: AttackParams, res: Resolution, tx: Transaction) -> None:
        f = res.figures_as(AttackFigures)
        target = combatant(enc, p.target)
        if f.hit and f.damage and target is not None and tracked(target):
            take_damage(tx, target, f.damage)


def _sum(faces: list[int], modifier: int) -> str:
    """``6+3``: the damage dice as they fell, and the bonus."""
    return "+".join(map(str, faces)) + (f"{modifier:+d}" if modifier else "") if faces \
        else str(modifier)


def _dice(rolled: list[int], die: int) -> str:
    """``14`` or, with two dice, ``[14 6] 14``."""
    return str(die) if len(rolled) == 1 else f"[{' '.join(map(str, rolled))}] {die}"


ATTACK = Attack()
