"""The luck ledger: how each side's dice did against what their odds expected.

An action's dice come in stages the journal kept as the rules asked for them: ``count``
dice of ``sides``, each succeeding at ``need`` or more (or ``under`` or less). For each
such stage the number of successes follows a binomial distribution (exact, from
:mod:`tracker.core.odds`); the ledger adds those up per side, and per combatant or unit,
for each kind of die (hits, kills, saves ...), and says how many were expected, how many
came, and the chance of doing at least that well. This is the odds of the dice as they
were declared, not the action resolved again. Stages without a target per die (a 2d6
total, a d100 location) are not in the ledger.

Where an action's odds count one thing (kills, stands removed), the ledger also adds up
those counts per side from the odds the journal kept (:mod:`tracker.report.outcomes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tracker.core import odds
from tracker.report.gather import Line
from tracker.report.outcomes import counted

TARGET_ROLES = frozenset({"save", "defense", "defense_press", "oppose", "b"})
"""Dice the target rolls (its saves, its defence), not the actor: their luck is the
target's. A role ending in ``_b`` is also the target's (``hit_b``: unit B's hits)."""

MEASURES = {"hit": "hits", "kill": "kill rolls", "save": "saves", "attack": "attack successes",
            "defense": "defence successes", "morale": "morale passes"}
"""What a success of a role is called in the ledger (otherwise "ROLE successes")."""


def roller(role: str) -> str:
    """Whose dice a role's are: ``actor`` or ``target``."""
    return "target" if role in TARGET_ROLES or role.endswith("_b") else "actor"


def measure(role: str, action: str = "") -> str:
    """What the ledger calls a success of ``role`` ("hits"); roles named only for the
    two parties (``a``, ``b``) count the action's successes ("initiative successes")."""
    base = role[:-2] if role.endswith(("_a", "_b")) else role
    if base in ("a", "b"):
        return f"{action or 'roll'} successes"
    return MEASURES.get(base, f"{base} successes")


def per_die(sides: int, need: int | None, under: int | None) -> Fraction:
    """The chance one die of a stage succeeds."""
    if need is not None:
        return odds.at_least_one_in(sides, need)
    assert under is not None
    return Fraction(min(max(under, 0), sides), sides)


@dataclass
class Tally:
    """Dice of one kind for a side (``who`` ""), or for one combatant or unit."""

    side: str
    who: str
    measure: str
    dice: int = 0
    """Dice weighed (0 for a count the actions' odds give, such as kills)."""
    actions: int = 0
    actual: int = 0
    groups: dict[Fraction, int] = field(default_factory=dict)
    """How many dice had each chance of success (dice of one chance make one binomial,
    so a long battle convolves a few distributions, not one per action)."""
    counts: list[list[float]] = field(default_factory=list)
    """The distribution of each action's count, from its odds."""
    _dist: list[float] | None = field(default=None, repr=False)

    @property
    def dist(self) -> list[float]:
        """The chance of each number of successes over all these dice."""
        if self._dist is None:
            out = [1.0]
            for p, n in sorted(self.groups.items()):
                out = convolve(out, odds.binomial(n, p))
            for dist in self.counts:
                out = convolve(out, dist)
            self._dist = out
        return self._dist

    @property
    def most(self) -> int:
        """The most there could have been (every die a success, every count its top)."""
        return len(self.dist) - 1

    @property
    def source(self) -> str:
        """What the tally weighs: "6 dice", "2 actions' odds"."""
        parts = []
        if self.dice:
            parts.append(f"{self.dice} {'die' if self.dice == 1 else 'dice'}")
        if self.actions:
            parts.append(f"{self.actions} action's odds" if self.actions == 1
                         else f"{self.actions} actions' odds")
        return ", ".join(parts)

    @property
    def expected(self) -> float:
        return float(sum(n * p for p, n in self.groups.items())
                     + sum(odds.mean(dist) for dist in self.counts))

    @property
    def chance(self) -> float:
        """The chance of this many successes or more."""
        return odds.at_least(self.dist, self.actual)

    def add(self, n: int, p: Fraction, got: int) -> None:
        self.dice += n
        self.actual += got
        self.groups[p] = self.groups.get(p, 0) + n
        self._dist = None

    def add_count(self, dist: list[float], got: int) -> None:
        """An action's count (its kills, say) with its distribution before the dice."""
        self.actions += 1
        self.actual += got
        self.counts.append(dist)
        self._dist = None


def convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The distribution of the sum of two independent counts."""
    out = [0.0] * (len(a) + len(b) - 1)
    for i, pa in enumerate(a):
        if pa:
            for j, pb in enumerate(b):
                out[i + j] += pa * pb
    return out


@dataclass
class StageLuck:
    """One stage of one action: who rolled, how many dice, the chance each, successes."""

    side: str
    who: str
    measure: str
    dice: int
    p: Fraction
    actual: int


def stage_luck(line: Line) -> list[StageLuck]:
    """The stages of an action that the ledger counts."""
    out: list[StageLuck] = []
    for k, st in enumerate(line.stages):
        if st.need is None and st.under is None:
            continue
        dice = [d for d in line.dice if d.stage == k]
        if not dice:
            continue
        mine = roller(st.role) == "actor"
        who = line.actor if mine else line.target
        side = line.actor_side if mine else line.target_side
        if not who or not side:
            continue
        got = sum(1 for d in dice if d.success)
        out.append(StageLuck(side, who, measure(st.role, line.action), len(dice),
                             per_die(st.sides, st.need, st.under), got))
    return out


def ledger(lines: Iterable[Line]) -> list[Tally]:
    """Tallies per side (``who`` "") then per combatant or unit, each by measure, in the
    order they first rolled."""
    tallies: dict[tuple[str, str, str], Tally] = {}

    def tally(side: str, who: str, what: str) -> Tally:
        return tallies.setdefault((side, who, what), Tally(side, who, what))

    for line in lines:
        for luck in stage_luck(line):
            for who in ("", luck.who):
                tally(luck.side, who, luck.measure).add(luck.dice, luck.p, luck.actual)
        got = counted(line, line.odds)
        if got is not None and line.actor and line.actor_side:
            what, dist, actual = got
            for who in ("", line.actor):
                tally(line.actor_side, who, what).add_count(dist, actual)
    sides = list(dict.fromkeys(t.side for t in tallies.values()))
    return sorted(tallies.values(), key=lambda t: (sides.index(t.side), t.who != "", t.who))
