"""Casualties and losses per side and round, read from the changes the log recorded.

A unit's strength counts what its ruleset removes (stands in Warmaster, figures in
Fantasy Warlord and the d6 battle game): the strength it lost in a round is its
casualties. Units that rout or are removed, combatants put out of the fight and wounds
taken are counted beside them. Only combatants and units the report may name count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tracker.core.model import Combatant, LogEntry, Unit


@dataclass
class Loss:
    """What one side lost in one round (or in the whole battle)."""

    casualties: int = 0
    """Stands or figures lost (less any regained)."""
    routed: int = 0
    removed: int = 0
    """Units removed as casualties (destroyed)."""
    out: int = 0
    """Combatants put out of the fight."""
    wounds: int = 0
    """Wounds taken."""

    def add(self, other: Loss) -> None:
        self.casualties += other.casualties
        self.routed += other.routed
        self.removed += other.removed
        self.out += other.out
        self.wounds += other.wounds

    def any(self) -> bool:
        return any((self.casualties, self.routed, self.removed, self.out, self.wounds))


FIELDS = ("casualties", "routed", "removed", "out", "wounds")
"""The columns of a loss, in the order the report shows them."""


@dataclass
class Losses:
    sides: list[str]
    rounds: list[int] = field(default_factory=list)
    table: dict[str, dict[int, Loss]] = field(default_factory=dict)

    def of(self, side: str, round_: int) -> Loss:
        return self.table.get(side, {}).get(round_, Loss())

    def total(self, side: str) -> Loss:
        out = Loss()
        for loss in self.table.get(side, {}).values():
            out.add(loss)
        return out

    def series(self, side: str, rounds: Iterable[int], what: str = "casualties") -> list[int]:
        """One figure of the side's losses, round by round."""
        return [int(getattr(self.of(side, r), what)) for r in rounds]


def count_losses(entries: Iterable[LogEntry], people: Mapping[str, Combatant | Unit],
                 sides: list[str]) -> Losses:
    """Losses per side and round from the ops of ``entries``."""
    out = Losses(list(sides))
    for entry in entries:
        for op in entry.ops:
            path = op.path
            if len(path) < 3 or path[0] not in ("units", "combatants"):
                continue
            who = people.get(str(path[1]))
            if who is None:
                continue
            loss = out.table.setdefault(who.side, {}).setdefault(entry.round, Loss())
            _count(loss, str(path[2]), op.op, len(path), op.before, op.after)
    out.rounds = sorted({r for by_round in out.table.values() for r in by_round})
    return out


def _count(loss: Loss, name: str, op: str, depth: int, before: object, after: object) -> None:
    if op == "set" and depth == 3:
        if name == "strength" and isinstance(before, int) and isinstance(after, int):
            loss.casualties += before - after
        elif name in ("routed", "removed", "out") and after is True and before is not True:
            setattr(loss, name, getattr(loss, name) + 1)
        elif name in ("routed", "removed", "out") and before is True and after is not True:
            setattr(loss, name, getattr(loss, name) - 1)
    elif name == "wounds" and depth == 3 and op == "add":
        loss.wounds += 1  # wounds taken; a wound healed later was still taken
