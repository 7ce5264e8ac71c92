"""What the dice step says of the chances as the dice land: the form's summary line,
then the odds before any die or given the dice so far (no Textual here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tracker.rules.base import Action
from tracker.rules.stage_odds import TooMany, outcome_odds
from tracker.ui.screens.resolve_text import odds_text

if TYPE_CHECKING:  # the odds load when the step first asks for them
    from tracker.rules.stage_odds import Memo


def summary_of(action: Action[Any], params: Any) -> str:
    """What the form says before any die (``mean 1.39 kills``), or nothing."""
    try:
        return action.summary(params) or ""
    except Exception as exc:  # a summary must never take the dice step down
        return f"(summary unavailable: {exc})"


def odds_lines(action: Action[Any], params: Any, answers: dict[str, list[int]],
               stale: Callable[[], bool], memo: Memo,
               show: Callable[[str], None]) -> str | None:
    """The odds as the dice stand, for ``show`` to put on screen; before any die they
    are shown at once and the walk over the dice goes on (into ``memo``), so that the
    first die's odds are at hand, and None says they are on screen already. An action
    whose dice decide no outcome with odds (an initiative total) has none."""
    if not action.by_chance:
        return ""
    before = ""
    prior: list[tuple[str, float]] | None = None
    if action.has_odds:
        try:
            prior = action.odds(params)
        except Exception as exc:  # odds must never take the dice step down
            before = f"(odds unavailable: {exc})"
        else:
            before = odds_text(prior, limit=5) or "-"
    some = any(answers.values())
    if before and not some:
        show(f"before any die: {before}")
        try:
            outcome_odds(action, params, answers, stale=stale, labels=prior, memo=memo)
        except Exception:  # too many ways, newer dice, or the rules refusing
            pass
        return None
    # the resolver itself, over every way the dice left can fall
    try:
        flags: dict[str, float] = {}
        walked = outcome_odds(action, params, answers, stale=stale, flags=flags,
                              labels=prior, memo=memo)
        head = "given the dice so far: " if some else "before any die: "
        text = head + odds_text(walked, limit=5)
        shown = [(label, p) for label, p in walked if p > 0][:5]
        more = [(k, p) for k, p in flags.items() if not _said(k, p, shown)]
        if any(p for _, p in more):
            text += "\nand: " + odds_text(more, limit=5)
        return text
    except TooMany:
        return (f"before any die: {before}" if before
                else "(too many ways left for the dice to fall to show odds)")
    except Exception as exc:  # odds must never take the dice step down
        return f"(odds unavailable: {exc})"


def _said(flag: str, p: float, shown: list[tuple[str, float]]) -> bool:
    """Whether the outcomes on screen already say ``flag``'s chance: one is named so, or
    those that name it as a word (``hit`` in ``critical hit``) add up to it."""
    named = sum(q for label, q in shown if flag in label.replace(":", " ").split())
    return any(flag == label for label, _ in shown) or abs(named - p) < 1e-9
