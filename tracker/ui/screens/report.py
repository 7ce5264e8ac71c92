"""The battle report (``R``): the story round by round, losses over the rounds as
sparklines, and the luck ledger as bars, each with its numbers beside it."""

from __future__ import annotations

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Label, Sparkline, Static

from tracker.core.model import Encounter
from tracker.report.gather import Gathered, Line, gather
from tracker.report.ledger import Tally, ledger
from tracker.report.losses import FIELDS
from tracker.report.words import (
    dice_words,
    loss_words,
    odds_words,
    param_words,
    pct,
    story,
    unrecorded_words,
)
from tracker.ui.errors import log_unexpected

NARROW = 120
"""Below this many columns the story and the charts stack instead of standing side by side."""

BAR = 12
"""Cells of a ledger bar."""


class ReportScreen(Screen[None]):
    """The report of the open encounter, for the GM. The journal is read and the ledger
    weighed in a worker (a long battle reads thousands of entries back from disk); the
    panes fill in when it is done."""

    CSS_PATH = "report.tcss"
    BINDINGS = [
        Binding("escape,q,R", "dismiss(None)", "Close", id="report-close"),
    ]

    def __init__(self, enc: Encounter) -> None:
        super().__init__()
        self.enc = enc
        self.facts: Gathered | None = None
        self.tallies: list[Tally] = []

    def compose(self) -> ComposeResult:
        yield Label(f"Battle report: {self.enc.name} — Esc closes, Tab: story / charts",
                    id="report-title")
        with Horizontal(id="report-body"):
            with VerticalScroll(id="report-story"):
                yield Static("Reading the journal …", id="report-story-text")
            with VerticalScroll(id="report-charts"):
                yield Label("Casualties so far, round by round", classes="report-heading")
                yield Vertical(id="report-losses")
                yield Label("Luck ledger: actual against expected", classes="report-heading")
                yield Static("", id="report-ledger")

    def on_mount(self) -> None:
        self.query_one("#report-story").border_title = "Round by round"
        self.query_one("#report-charts").border_title = "Losses and luck"
        self._fit(self.size.width)
        self.read_report()

    @work(thread=True, exclusive=True, group="report", exit_on_error=False)
    def read_report(self) -> None:
        try:
            facts = gather(self.enc)
            tallies = ledger(facts.lines)
        except Exception as exc:  # a report never takes the table down: one line instead
            path = log_unexpected(exc, "battle report")
            self.app.call_from_thread(self._failed, f"the report could not be made: {exc} "
                                      f"(details in {path})")
            return
        self.app.call_from_thread(self._show, facts, tallies)

    def _failed(self, message: str) -> None:
        self.query_one("#report-story-text", Static).update(message)

    def _show(self, facts: Gathered, tallies: list[Tally]) -> None:
        if not self.is_attached:
            return
        self.facts, self.tallies = facts, tallies
        self.query_one("#report-story-text", Static).update(story_text(facts))
        self.query_one("#report-ledger", Static).update(ledger_text(tallies))
        self.query_one("#report-losses", Vertical).mount_all(list(self._loss_rows(facts)))

    def _loss_rows(self, g: Gathered) -> list[Widget]:
        if not g.sides or not g.losses.rounds:
            return [Label("No losses yet.", classes="report-note")]
        rows: list[Widget] = []
        for side in g.sides:
            rows.append(Horizontal(
                Label(side[:11], classes="loss-side"),
                Sparkline(running_total(g.losses.series(side, g.rounds, counted(g, side))),
                          summary_function=max, classes="loss-spark"),
                Label(loss_numbers(g, side), classes="loss-numbers"),
                classes="loss-row"))
        return rows

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        self.set_class(width < NARROW, "narrow")


def running_total(series: list[int]) -> list[float]:
    """Losses so far, from nothing before the first round to the end of each round."""
    out, total = [0.0], 0
    for value in series:
        total += value
        out.append(float(total))
    return out


def counted(g: Gathered, side: str) -> str:
    """What the side's numbers round by round count: the first kind of loss its total
    names (casualties, else routed, destroyed, out, wounds; a skirmish counts wounds)."""
    total = g.losses.total(side)
    return next((name for name in FIELDS if getattr(total, name)), "casualties")


def loss_numbers(g: Gathered, side: str) -> str:
    """"r1 3 · r2 5 = 8 casualties, 1 routed", "r1 0 · r2 1 = 1 wound": the rounds add up
    to the first figure of the total."""
    what = counted(g, side)
    per_round = " · ".join(f"r{r} {getattr(g.losses.of(side, r), what)}" for r in g.rounds)
    return f"{per_round} = {loss_words(g.losses.total(side))}"


def story_text(g: Gathered) -> Text:
    out = Text()
    if not g.lines:
        return Text("Nothing has happened yet.")
    note = unrecorded_words(g.unrecorded, g.actions)
    if note:
        out.append(f"{note}\n", style="italic")
    for line, opens, where in story(g.lines):
        if opens is not None:
            out.append(f"Round {opens}\n", style="bold underline")
        if where:
            out.append(f" {where}\n", style="bold")
        _story_line(out, line)
    return out


def _story_line(out: Text, line: Line) -> None:
    out.append(f"{line.index:>3} ", style="dim")
    if line.action:
        out.append(f"[{line.action}] ", style="bold")
        out.append(f"{line.text}\n")
        if line.recorded:  # else said once, at the top
            out.append(f"     odds: {odds_words(line)}\n", style="italic")
        if line.changed:
            shown = {k: line.params[k] for k in line.changed}
            out.append(f"     with {param_words(shown)}\n", style="dim")
    else:
        out.append(f"{line.text}\n")
    for note in line.notes:
        out.append(f"     {note}\n", style="italic")
    for words in dice_words(line):
        out.append(f"     {words}\n", style="dim")


def bar(actual: int, expected: float, most: int) -> str:
    """``actual`` out of the ``most`` there could have been as a bar of BAR cells, the
    expected number marked: ``██████┃░░░░`` (┃ falls inside the bar when it went better)."""
    if most <= 0:
        return " " * BAR
    filled = round(BAR * actual / most)
    mark = min(BAR - 1, round(BAR * expected / most))
    cells = ["█" if i < filled else "░" for i in range(BAR)]
    cells[mark] = "┃"
    return "".join(cells)


def ledger_text(tallies: list[Tally]) -> Text:
    if not tallies:
        return Text("No dice with a target per die were recorded with their odds.")
    out = Text()
    side = None
    for t in tallies:
        if t.side != side:
            out.append(f"{t.side}\n", style="bold")
            side = t.side
        who = "all" if not t.who else t.who
        out.append(f" {who[:14]:<14} {t.measure[:10]:<10} ")
        style = "green" if t.actual >= t.expected else "red"
        out.append(bar(t.actual, t.expected, t.most), style=style)
        out.append(f" {t.actual:>3}/{t.most:<3} exp {t.expected:4.1f}  "
                   f"{t.actual}+: {pct(t.chance)}\n")
    return out
