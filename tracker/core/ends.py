"""When something a rule starts ends (:class:`Ends`), in a module of its own: a ruleset
declares its lifetimes with it as it loads, and loading a ruleset (`tracker resolve`) does
not load the encounter models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from tracker.core.words import possessive


class Ends(BaseModel):
    """When something a rule starts comes to an end, in the words of the sequence of play:
    the start or end of a round, of a phase, or of a turn (a combatant's, a group's, or a
    side's whole turn where the sides take turns).

    ``who`` narrows it: with ``of="turn"`` whose turn (a combatant or unit id, a group or
    a side; empty: the bearer's own), with ``of="phase"`` which phase (empty: any).
    With ``next`` the turn, phase or round it began in does not count: "until the end of
    its next turn" set during that very turn ends at the end of the following one.
    With ``round`` (``of="round"`` only) it ends with that round, whatever ``left`` says.
    """

    model_config = ConfigDict(extra="forbid")

    at: Literal["start", "end"] = "end"
    of: Literal["round", "phase", "turn"] = "round"
    who: str = ""
    next: bool = False
    round: int | None = None

    def describe(self, names: dict[str, str] | None = None, left: int = 1) -> str:
        when = "the start of" if self.at == "start" else "the end of"
        if self.of == "round":
            if self.round is not None:
                return f"until {when} round {self.round}"
            if left > 1:
                return f"for {left} more rounds"
            return f"until {when} {'the next' if self.next else 'this'} round"
        if self.of == "phase":
            phase = f"the {self.who} phase" if self.who else "the phase"
            if left > 1:
                return f"for {left} more of {phase}s"
            return f"until {when} {'the next' if self.next else 'this'} {phase[4:]}"
        who = (names or {}).get(self.who, self.who) if self.who else "its"
        whose = possessive(who) if self.who else who
        if left > 1:
            return f"until {when} {whose} turn, {left} turns from now"
        return f"until {when} {whose} {'next ' if self.next else ''}turn"
