"""Words and figures the report's layouts share: chances, dice, parameters, losses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tracker.core.words import plural as plural
from tracker.core.words import possessive
from tracker.report.gather import Die, Line
from tracker.report.losses import Loss


def pct(p: float | None) -> str:
    """A chance as a percentage to one decimal ("10.9%"; "—" when not known)."""
    if p is None:
        return "—"
    return f"{100 * p:.1f}%"


def stages_of(line: Line) -> list[tuple[int, list[Die]]]:
    """The line's dice in runs of one stage and role, in the order they fell (older
    saves kept no stage: their roles tell the stages apart)."""
    out: list[tuple[int, list[Die]]] = []
    for die in line.dice:
        if out and out[-1][0] == die.stage and out[-1][1][0].role == die.role:
            out[-1][1].append(die)
        else:
            out.append((die.stage, [die]))
    return out


def source_words(dice: list[Die]) -> str:
    """"entered", "rolled by the tracker", or how many of each."""
    rolled = sum(1 for d in dice if d.source == "rolled")
    if rolled == 0:
        return "entered"
    if rolled == len(dice):
        return "rolled by the tracker"
    return f"{len(dice) - rolled} entered, {rolled} rolled by the tracker"


def target_words(die: Die) -> str:
    if die.need is not None:
        return f"{die.need}+"
    if die.under is not None:
        return f"{die.under} or less"
    return ""


def dice_words(line: Line) -> list[str]:
    """One phrase a stage: "hit d6 ×6: 4 5 6 1 2 3 (4+: 3 successes; entered)"."""
    out: list[str] = []
    for _, dice in stages_of(line):
        first = dice[0]
        values = " ".join(f"{d.value}" + ("*" if d.source == "rolled" else "") for d in dice)
        bits = [source_words(dice)]
        if target_words(first):
            made = sum(1 for d in dice if d.success)
            bits.insert(0, f"{target_words(first)}: {plural(made, 'success', 'successes')}")
        out.append(f"{first.role} d{first.sides} ×{len(dice)}: {values} ({'; '.join(bits)})")
    return out


def param_words(params: dict[str, Any]) -> str:
    """The parameters that mattered: everything given or filled in but a plain "no"."""
    shown = [f"{k}={_value(v)}" for k, v in params.items() if v is not False and v != ""]
    return ", ".join(shown)


def _value(v: Any) -> str:
    if v is True:
        return "yes"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list):
        return "+".join(str(x) for x in v)
    return str(v)


def odds_words(line: Line) -> str:
    """The pre-roll odds of what happened, or why there are none."""
    if not line.recorded:
        return "odds not recorded (saved before the tracker kept them)"
    if not line.has_odds:
        return "no pre-roll odds for this action"
    if line.chance is None:
        return f"the odds kept do not name the outcome ({line.outcome})"
    return f"{line.happened}: {pct(line.chance)} before the dice"


def unrecorded_words(unrecorded: int, actions: int) -> str:
    """Said once, at the top of a report, where some actions were logged before the
    tracker kept their odds ("" where every action has its record)."""
    if not unrecorded:
        return ""
    if unrecorded == actions:
        return ("This battle was logged before the tracker kept the odds of each action: "
                "its dice and results are all here, but not the chances they had.")
    was = "was" if unrecorded == 1 else "were"
    return (f"{plural(unrecorded, 'action')} of {actions} {was} logged before the tracker "
            "kept the odds of each action: shown with their dice and results, without "
            "odds.")


def loss_words(loss: Loss) -> str:
    parts = []
    if loss.casualties:
        parts.append(plural(loss.casualties, "casualty", "casualties"))
    if loss.routed:
        parts.append(f"{loss.routed} routed")
    if loss.removed:
        parts.append(f"{loss.removed} destroyed")
    if loss.out:
        parts.append(f"{loss.out} out")
    if loss.wounds:
        parts.append(plural(loss.wounds, "wound"))
    if loss.by_gm:
        parts.append(f"{loss.by_gm} removed by the GM")
    return ", ".join(parts) or "—"


def where_words(line: Line) -> str:
    """The phase and the turn of a line: "shoot, English turn"."""
    bits = [b for b in (line.phase, f"{possessive(line.turn)} turn" if line.turn else "") if b]
    return ", ".join(bits)


def story(lines: list[Line]) -> Iterator[tuple[Line, int | None, str]]:
    """The lines in order, each with the round it opens (None: its round goes on) and the
    place it opens, in ``where_words`` ("": no new place), as the story heads them."""
    last_round, last_where = None, None
    for line in lines:
        opens = None
        if line.round != last_round:
            opens = last_round = line.round
            last_where = None
        where = where_words(line)
        if where and where != last_where:
            last_where = where
        else:
            where = ""
        yield line, opens, where
