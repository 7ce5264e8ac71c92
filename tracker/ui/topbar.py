"""The header: the encounter, and where the fight stands (round, phase, who acts).

Where the fight stands is never cut: at 80 columns the ruleset's id goes first, then the
encounter's name is shortened.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tracker.session.session import Session


def where_text(session: Session) -> str:
    """Round, phase and who acts: "Round 2 · shooting · ▶ Empire"."""
    play = session.play
    where = play.where()
    bits = [f"Round {where.round}"]
    if where.phase:
        bits.append(where.phase)
    if where.actor_id is not None:
        order = play.order()
        count = f" ({min(session.enc.position.turn, len(order) - 1) + 1}/{len(order)})" \
            if len(order) > 1 else ""
        bits.append(f"▶ {where.actor}{count}")
    elif play.order() and session.enc.position.turn >= len(play.order()):
        bits.append("the round's turns are over")  # the last left on their own turn
    elif where.phase:
        bits.append("duties only")
    return " · ".join(bits)


def topbar_text(session: Session, extra: str = "") -> str:
    """The whole header as one line (what a wide terminal shows)."""
    bits = [session.enc.name, session.ruleset.id, where_text(session)]
    if session.read_only:
        bits.append("READ-ONLY")
    if extra:
        bits.append(extra)
    return " · ".join(bits)


def fit(name: str, ruleset: str, where: str, tail: str, width: int) -> str:
    """The header in ``width`` columns: ``where`` and ``tail`` whole, the rest shortened."""
    ends = " · ".join(b for b in (where, tail) if b)
    full = " · ".join(b for b in (name, ruleset, ends) if b)
    if len(full) <= width:
        return full
    without = " · ".join(b for b in (name, ends) if b)
    if len(without) <= width:
        return without
    room = width - len(ends) - 3
    if room >= 4:
        return f"{name[: room - 1]}… · {ends}"
    return ends[:width]


class TopBar(Static):
    """One line; redrawn to the width it has."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self._parts = ("", "", "", "")

    def show(self, session: Session, extra: str = "") -> None:
        tail = " · ".join(b for b in ("READ-ONLY" if session.read_only else "", extra) if b)
        self._parts = (session.enc.name, session.ruleset.id, where_text(session), tail)
        self.refresh()

    def render(self) -> Text:
        width = max(10, self.size.width - 2)  # the padding
        return Text(fit(*self._parts, width), no_wrap=True)

    def on_resize(self) -> None:
        self.refresh()
