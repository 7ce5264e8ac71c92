"""Casualties and losses per side and round, read from the changes the log recorded.

A unit's strength counts what its ruleset removes (stands in Warmaster, figures in
Fantasy Warlord and the d6 battle game): the strength it lost in a round is its
casualties. Units that rout or are removed, combatants put out of the fight and wounds
taken are counted beside them. A unit or combatant the GM removed from the encounter
(``x``, ``remove``) still counts: the strength it had when removed is lost with it (as
the journal's change kept it), and the report says the GM removed it. Only combatants
and units the report may name count.
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
    by_gm: int = 0
    """Units and combatants the GM removed from the encounter (their strength then is
    among the casualties; a combatant still in the fight is among those out)."""

    def add(self, other: Loss) -> None:
        self.casualties += other.casualties
        self.routed += other.routed
        self.removed += other.removed
        self.out += other.out
        self.wounds += other.wounds
        self.by_gm += other.by_gm

    def any(self) -> bool:
        return any(getattr(self, name) for name in FIELDS)


FIELDS = ("casualties", "routed", "removed", "out", "wounds", "by_gm")
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
    entries = list(entries)
    side_of = {key: who.side for key, who in people.items()}
    for entry in entries:  # those the GM removed count up to their removal too
        for op in entry.ops:
            if (op.op == "remove" and op.path in (["units"], ["combatants"])
                    and isinstance(op.before, dict) and isinstance(op.before.get("id"), str)
                    and isinstance(op.before.get("side"), str)):
                side_of.setdefault(op.before["id"], op.before["side"])
    for entry in entries:
        for op in entry.ops:
            path = op.path
            if (op.op == "remove" and path in (["units"], ["combatants"])
                    and isinstance(op.before, dict)):
                gone = _removed(op.before, path[0] == "units")
                if gone is not None:
                    whose, taken = gone
                    out.table.setdefault(whose, {}).setdefault(entry.round, Loss()).add(taken)
                continue
            if len(path) < 3 or path[0] not in ("units", "combatants"):
                continue
            found = side_of.get(str(path[1]))
            if found is None:
                continue
            loss = out.table.setdefault(found, {}).setdefault(entry.round, Loss())
            _count(loss, str(path[2]), op.op, len(path), op.before, op.after)
    out.rounds = sorted({r for by_round in out.table.values() for r in by_round})
    return out


def _removed(before: Mapping[str, object], unit: bool) -> tuple[str, Loss] | None:
    """What a unit or combatant the GM removed takes with it, from the state the journal
    kept of it: a unit its strength then, a combatant still in the fight is out."""
    side = before.get("side")
    if not isinstance(side, str):
        return None
    loss = Loss(by_gm=1)
    strength = before.get("strength")
    if unit and isinstance(strength, int) and not isinstance(strength, bool):
        loss.casualties = max(strength, 0)
    elif not unit and before.get("out") is not True:
        loss.out = 1
    return side, loss


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
