"""The battle report as Markdown: the story round by round, losses, the luck ledger."""

from __future__ import annotations

from tracker.report.gather import Gathered, Line
from tracker.report.ledger import Tally, ledger
from tracker.report.words import (
    dice_words,
    loss_words,
    odds_words,
    param_words,
    pct,
    story,
    unrecorded_words,
)


def render_md(g: Gathered) -> str:
    out = [f"# Battle report: {g.name}", ""]
    who = f"the player of {g.side}" if g.side else "the GM (everything)"
    out += [f"Ruleset: {g.ruleset}. For {who}. Dice marked * were rolled by the tracker; "
            "the others were entered.", ""]
    note = unrecorded_words(g.unrecorded, g.actions)
    if note:
        out += [note, ""]
    out += _story(g)
    out += _losses(g)
    out += _ledger(ledger(g.lines))
    return "\n".join(out).rstrip() + "\n"


def _story(g: Gathered) -> list[str]:
    out: list[str] = []
    if not g.lines:
        return ["Nothing has happened yet.", ""]
    for line, opens, where in story(g.lines):
        if opens is not None:
            out += [f"## Round {opens}", ""]
        if where:
            out += [f"### {where[0].upper()}{where[1:]}", ""]
        out += _line(line)
    return out


def _line(line: Line) -> list[str]:
    if not line.action:
        return [f"{line.index}. {_esc(line.text)}", *(f"   - {_esc(n)}" for n in line.notes),
                *(f"   - dice: {words}" for words in dice_words(line)), ""]
    head = f"**{_esc(line.actor)}** — {line.action}" if line.actor else line.action
    if line.target:
        head += f" → **{_esc(line.target)}**"
    out = [f"{line.index}. {head}", f"   - result: {_esc(line.text)}"]
    if line.recorded:  # one logged before the tracker kept odds: said once, at the top
        out.append(f"   - outcome: {line.outcome}; odds: {odds_words(line)}")
    shown = {k: line.params[k] for k in line.changed}
    if shown:
        out.append(f"   - parameters: {_esc(param_words(shown))}")
    if line.forced:
        out.append(f"   - forced past: {_esc(line.forced)}")
    out += [f"   - {_esc(note)}" for note in line.notes]
    for words in dice_words(line):
        out.append(f"   - dice: {words}")
    return out + [""]


def _losses(g: Gathered) -> list[str]:
    out = ["## Casualties and losses by round", ""]
    if not g.sides:
        return out + ["No sides.", ""]
    rounds = g.rounds
    out.append("| side | " + " | ".join(f"round {r}" for r in rounds) + " | total |")
    out.append("|---" * (len(rounds) + 2) + "|")
    for side in g.sides:
        cells = [loss_words(g.losses.of(side, r)) for r in rounds]
        out.append(f"| {_esc(side)} | " + " | ".join(cells)
                   + f" | {loss_words(g.losses.total(side))} |")
    return out + [""]


def _ledger(tallies: list[Tally]) -> list[str]:
    out = ["## Luck ledger", ""]
    if not tallies:
        return out + ["No dice with a target per die were recorded with their odds.", ""]
    out += ["Expected is the mean number the odds give (of each die, or of the action's "
            "outcomes for what its odds count, such as kills); the chance is that of doing "
            "at least as well as it went.", ""]
    out.append("| side | who | from | of | expected | actual | chance of at least that |")
    out.append("|---|---|---|---|---|---|---|")
    for t in tallies:
        who = _esc(t.who) if t.who else "**all**"
        out.append(f"| {_esc(t.side)} | {who} | {t.source} | {t.measure} | {t.expected:.2f} "
                   f"| {t.actual} | {pct(t.chance)} |")
    return out + [""]


def _esc(text: str) -> str:
    """Text that Markdown shows as written (a table cell keeps its pipes)."""
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")
