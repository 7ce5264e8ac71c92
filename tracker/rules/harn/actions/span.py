"""``span``: span a crossbow (Missile Actions: no move, 1+ rounds, defence ignore): by
hand 1 round, with a mechanical spanner 2, 4 or 8 rounds; then a separate Load.

How often: one missile action a round (setting ``one_action_per_round``; see
``missile``); progress over several rounds is kept (setting ``span_progress_kept``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Impossible, Resolution, RuleError, param

from ..settings import one_action_param
from ..tables import tables
from .lookup import movement_problems, need, weapon_kind
from .state import ActorParams, InTurn, StateFigures, row_of, took

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from ..model import HarnCombatant


class SpanParams(ActorParams):
    span_rounds: int | None = param(None, "rounds to span: 1, 2, 4 or 8", ge=1)
    progress: int | None = param(None, "rounds already spent spanning", ge=0)
    one_action_per_round: bool = one_action_param()


class SpanFigures(StateFigures):
    span_rounds: int
    span_progress: int
    spanned: bool


class Span(InTurn[SpanParams]):
    name = "span"
    help = "Span a crossbow: 1 round by hand, 2/4/8 rounds with a spanner"

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        c = need(enc, given.get("actor"))
        if weapon_kind(c, None) != "crossbow":  # no force=yes gives one a crossbow
            what = f"'s weapon is a {c.weapon.kind}" if c.weapon else " has no crossbow"
            raise Impossible(f"{c.name}{what}: only a crossbow is spanned")
        out: dict[str, Any] = {}
        if given.get("span_rounds") is None and c.weapon is not None:
            out["span_rounds"] = c.weapon.span_rounds
        if given.get("progress") is None:
            out["progress"] = c.span_progress
        return out

    def state_problems(self, enc: Encounter, c: HarnCombatant, p: SpanParams) -> list[str]:
        """One spanned already; a move this round. (No crossbow to span is refused as the
        action is filled in: :meth:`fill`.)"""
        out = movement_problems(c, self.name)
        if c.spanned or c.loaded:
            out.append(f"{c.name}'s crossbow is already spanned")
        return out

    def resolve(self, p: SpanParams, dice: Dice) -> Resolution:
        span = tables().span
        rounds = p.span_rounds or span.by_hand
        if rounds not in span.rounds:
            *some, last = span.spanner
            raise RuleError(
                f"span_rounds={rounds}: {span.by_hand} by hand, or "
                f"{', '.join(map(str, some))} or {last} with a spanner"
            )
        done_before = p.progress or 0
        if done_before >= rounds:
            raise RuleError("span: the crossbow is already spanned")
        progress = done_before + 1
        spanned = progress >= rounds
        who = p.actor or "combatant"
        f = SpanFigures(**row_of("crossbow", "span"), span_rounds=rounds,
                        span_progress=progress, spanned=spanned)
        how = "by hand" if rounds == span.by_hand else \
            f"with a spanner, round {progress} of {rounds}"
        text = f"{who} spans the crossbow ({how}, defence: ignore)"
        text += ": spanned, load a bolt next" if spanned else ""
        return Resolution(self.name, "spanned" if spanned else "spanning", text, f, dice.rolls)

    def apply(self, enc: Encounter, p: SpanParams, res: Resolution, tx: Transaction) -> None:
        c = need(enc, p.actor)
        if res.figures["spanned"]:
            took(enc, c, self.name, tx, spanned=True, span_progress=0)
        else:
            took(enc, c, self.name, tx, span_progress=res.figures["span_progress"])


SPAN = Span()
