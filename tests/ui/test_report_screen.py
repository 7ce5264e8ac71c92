"""The battle report screen (``R``), driven by keys: it opens on the open encounter, draws
the losses and the ledger with their numbers, fits 80x24, and Esc goes back."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from textual.widgets import Sparkline, Static

from tests.report.test_report import d6_session, volley
from tracker.session.opening import open_encounter
from tracker.store import save_encounter
from tracker.ui.app import TrackerApp
from tracker.ui.screens.report import ReportScreen, bar, ledger_text, running_total


def app_after_volley(tmp_path: Path) -> TrackerApp:
    s = d6_session()
    volley(s)
    path = tmp_path / "duel.toml"
    save_encounter(s.enc, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)


async def open_report(pilot) -> None:  # type: ignore[no-untyped-def]
    """Press R and wait for the report's worker to read the journal."""
    await pilot.press("R")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_r_opens_the_report_and_escape_closes_it(tmp_path: Path) -> None:
    app = app_after_volley(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_report(pilot)
        screen = app.screen
        assert isinstance(screen, ReportScreen)
        assert screen.has_class("narrow")
        sparks = list(screen.query(Sparkline))
        # Losses so far, round by round: the sample's round 1 cost the French 3 figures
        # (Longbowmen, 3 killed) and the English 1 (Crossbowmen, 1 killed); the volley of
        # round 2 kills 4 Foot Sergeants (5 hits, one 6 saved, KA 3 vs D 4 kills on 1+).
        assert [list(s.data or []) for s in sparks] == [[0.0, 3.0, 7.0], [0.0, 1.0, 1.0]]
        ledger = str(screen.query_one("#report-ledger", Static).render())
        assert "5/6" in ledger and "10.9%" in ledger
        for widget in screen.query("#report-story, #report-charts"):
            assert widget.region.right <= 80 and widget.region.bottom <= 24
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReportScreen)


async def test_the_report_stands_beside_the_story_when_wide(tmp_path: Path) -> None:
    app = app_after_volley(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_report(pilot)
        story = app.screen.query_one("#report-story")
        charts = app.screen.query_one("#report-charts")
        assert story.region.y == charts.region.y and story.region.right <= charts.region.x


def test_a_ledger_line_fits_the_narrow_pane_whatever_the_names() -> None:
    from tracker.report.ledger import Tally

    t = Tally("a side with a long name", "Sir Reginald of the Very Long Name", "hits")
    t.add(200, Fraction(1, 2), 150)
    width = 80 - 4  # the pane's border and padding
    assert all(len(line) <= width for line in ledger_text([t]).plain.splitlines())


def test_bars_and_running_totals() -> None:
    assert bar(5, 3.0, 6) == "██████┃███░░"
    assert bar(1, 3.0, 6) == "██░░░░┃░░░░░"
    assert bar(0, 0.0, 0) == " " * 12
    assert running_total([3, 0, 2]) == [0.0, 3.0, 3.0, 5.0]


async def test_a_report_that_cannot_be_made_says_so_in_one_line(tmp_path: Path,
                                                                 monkeypatch) -> None:
    import tracker.ui.screens.report as screen_module

    def broken(enc):  # type: ignore[no-untyped-def]
        raise ValueError("a journal record the report does not know")

    monkeypatch.setattr(screen_module, "gather", broken)
    app = app_after_volley(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_report(pilot)
        said = str(app.screen.query_one("#report-story-text", Static).render())
        assert "the report could not be made" in said and "errors.log" in said
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReportScreen)


async def test_a_skirmish_counts_its_wounds_round_by_round_as_in_the_total(
        tmp_path: Path) -> None:
    from tests.conftest import skirmish
    from tracker.session.session import Session
    from tracker.ui.screens.report import loss_numbers

    s = Session(skirmish())
    for line in ("note the ford", "next round", "wound aldo head level=2", "next round"):
        s.execute(line)
    path = tmp_path / "ford.toml"
    save_encounter(s.enc, path)
    app = TrackerApp(open_encounter(path), theme="tracker-dark", autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_report(pilot)
        screen = app.screen
        assert isinstance(screen, ReportScreen)
        assert loss_numbers(screen.facts, "party") == "r1 0 · r2 1 · r3 0 = 1 wound"
        sparks = [list(spark.data or []) for spark in screen.query(Sparkline)]
        assert [0.0, 0.0, 1.0, 1.0] in sparks
