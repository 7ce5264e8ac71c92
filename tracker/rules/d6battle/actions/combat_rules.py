"""The arithmetic of a close combat (d6battle ``combat``): each side's scores to hit, save
and kill, its combat bonuses (rows of ``combat.toml``), the combat result, and what a
failed combat morale test does (the results rows)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.core.tables import applicable, holds
from tracker.rules.errors import RuleError

from ..tables import CombatTable, armour_save, combat_table
from .combat_params import SIDES, CombatParams, Side, other
from .scores import NEVER, floor_of, kill_needed, score_needed

Bonus = tuple[str, int]


@dataclass(slots=True)
class Attack:
    """One side's attack on the other: the scores it needs and the kills it may cause."""

    dice: int
    needed: int
    save_needed: int
    kill_needed: int
    cap: int
    """Figures of the other side: the kills cannot pass it."""


def save_of(s: Side, x: str) -> int:
    if s.armour:
        if s.save:
            raise RuleError(f"give save_{x}= or armour_{x}=, not both")
        return armour_save(s.armour)
    return s.save


def attack(p: CombatParams, x: str) -> Attack:
    """Side x attacking the other side."""
    y = other(x)
    me, them = p.side(x), p.side(y)
    floor = floor_of(p.natural_one)
    save_left = save_of(them, y) - me.ap
    if me.figures > me.unit_size:
        raise RuleError(f"figures_{x} is more than size_{x}")
    return Attack(
        dice=me.figures,
        needed=score_needed(me.ca + me.mod, floor=2),  # a 1 always misses
        save_needed=score_needed(save_left, floor) if save_left > 0 else NEVER,
        kill_needed=kill_needed(them.durability, me.ka, floor),
        cap=them.unit_size,
    )


def bonuses(p: CombatParams, x: str, table: CombatTable) -> list[Bonus]:
    """Side x's combat bonuses, if it is at or above its minimum size at the end."""
    me, them = p.side(x), p.side(other(x))
    cap = table.rank.max[me.formation]
    if me.formation == "drilled" and not p.drilled_rank_bonus:
        cap = 0
    ranks = me.ranks - (1 if p.rank_bonus_ranks == "behind_front" else 0)
    facts = {
        "kind": me.kind,
        "ranks": max(0, min(cap, ranks)),
        "battle": me.battle,
        "disordered": me.disordered,
        "terrain": me.terrain,
        "charge": me.charge,
        "cancelled": p.countercharge_cancels and them.charge == "counter",
        "enemy_formation": them.formation,
        "facing": me.facing,
        "push": me.push,
        "bonus": me.bonus,
    }
    return [(row.name, int(value)) for row, value in applicable(table.bonuses, facts)]


@dataclass(slots=True)
class Result:
    """The combat result once the kills are known (before the morale test)."""

    score: dict[str, int]
    bonus: dict[str, list[Bonus]]
    left: dict[str, int]
    winner: str | None
    loser: str | None
    result: int


@dataclass(slots=True)
class Judge:
    """The combat's rules read once: bonuses, sizes, the tables; results worked out per
    pair of kills (the odds ask for every pair)."""

    p: CombatParams
    table: CombatTable = field(default_factory=combat_table)
    sides: dict[str, Side] = field(init=False, repr=False)
    bonus: dict[str, list[Bonus]] = field(init=False, repr=False)
    _fates: dict[tuple[int, str, bool, bool], tuple[str, int]] = field(
        init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.sides = {x: self.p.side(x) for x in SIDES}
        self.bonus = {x: bonuses(self.p, x, self.table) for x in SIDES}

    def result_of(self, kills: dict[str, int]) -> Result:
        """Scores from the kills each side caused (kills["a"]: figures of B that A killed)."""
        s = self.sides
        left = {x: max(0, s[x].unit_size - kills[other(x)]) for x in SIDES}
        bonus = {x: self.bonus[x] if left[x] >= s[x].min_size else [] for x in SIDES}
        score = {x: kills[x] + sum(v for _, v in bonus[x]) for x in SIDES}
        if score["a"] == score["b"]:
            return Result(score, bonus, left, None, None, 0)
        winner = "a" if score["a"] > score["b"] else "b"
        return Result(score, bonus, left, winner, other(winner),
                      abs(score["a"] - score["b"]))

    def failed_test(self, r: Result) -> tuple[str, int]:
        """What a failed combat morale test does: the loser 'stands' | 'routs' |
        'destroyed', and the winner's push & shove bonus for the next round."""
        assert r.loser and r.winner
        lo, wi = r.loser, r.winner
        if self.p.outnumber_when == "start":
            n_lo, n_wi = self.sides[lo].unit_size, self.sides[wi].unit_size
        else:
            n_lo, n_wi = r.left[lo], r.left[wi]
        key = (r.result, lo, n_lo > n_wi, n_lo >= 2 * n_wi)
        fate = self._fates.get(key)
        if fate is None:
            fate = self._fates[key] = self._fate(*key)
        return fate

    def _fate(self, result: int, lo: str, outnumbers: bool, doubles: bool) -> tuple[str, int]:
        loser = self.sides[lo]
        facts = {
            "result": result,
            "formation": loser.formation,
            "outnumbers": outnumbers,
            "doubles": doubles,
            "surrounded": loser.facings > 1,
        }
        stands = applicable(self.table.stands, facts)
        if stands:
            return "stands", int(stands[0][1])
        when = self.table.destroyed.when
        if all(holds(cond, facts.get(name)) for name, cond in when.items()):
            return "destroyed", 0
        if self.p.rout_destroyed == "any" and facts["surrounded"]:
            return "destroyed", 0
        return "routs", 0
