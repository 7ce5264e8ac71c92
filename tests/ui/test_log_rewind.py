"""The log pane by keys: a cursor on entries, jumps by round, Enter to read an entry whole
and b to go back there."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tests.core.test_rewind import play
from tracker.core import history
from tracker.session.opening import load, open_encounter
from tracker.ui.app import TrackerApp
from tracker.ui.logview import LogView
from tracker.ui.panes.log import LogPane


def played_save(tmp_path: Path) -> tuple[Path, list[dict[str, object]]]:
    session, states = play(tmp_path)
    assert session.path is not None
    return session.path, states


async def focus_log(pilot, app: TrackerApp) -> LogView:  # type: ignore[no-untyped-def]
    view = app.query_one(LogView)
    for _ in range(6):
        if view.has_focus:
            break
        await pilot.press("tab")
    assert view.has_focus
    return view


def marked(app: TrackerApp) -> str:
    index = app.query_one(LogPane).marked_entry()
    assert index is not None
    return app.session.enc.log[index].text


async def test_the_log_cursor_jumps_by_round_and_b_goes_back_there(tmp_path):
    save, states = played_save(tmp_path)
    app = TrackerApp(open_encounter(save), theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await focus_log(pilot, app)
        assert marked(app) == "the river rises"  # the newest entry first
        await pilot.press("left_square_bracket")  # start of this round (3)
        assert marked(app).startswith("Round 3, command, High Elves first")
        await pilot.press("left_square_bracket")  # start of round 2
        assert marked(app).startswith("Round 2, command, High Elves first")
        await pilot.press("right_square_bracket")
        assert marked(app).startswith("Round 3, command, High Elves first")
        await pilot.press("left_square_bracket", "down", "down")
        assert marked(app) == "Phase: shooting"
        await pilot.press("b")
        await pilot.pause()
        assert history.state_of(app.session.enc) == states[6]
        status = str(app.query_one("#status", Static).render())
        assert status.startswith("Back to entry 6: 4 changes undone")
        # the cursor stays on the entry it went back to; the later ones are struck out
        assert marked(app) == "Phase: shooting"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert history.state_of(app.session.enc) == states[-1]
        await pilot.press("home", "b")
        await pilot.pause()
        assert history.state_of(app.session.enc) == states[1]
        await pilot.press("u")
        await pilot.pause()
        assert history.state_of(app.session.enc) == states[-1]


async def test_the_player_view_moves_through_the_log_but_never_rewinds(tmp_path):
    from tracker.ui.watch import WatchApp

    save, states = played_save(tmp_path)
    before = save.read_bytes()
    app = WatchApp(save, theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(LogView)
        view.focus()
        await pilot.press("home", "b", "right_square_bracket")
        await pilot.pause()
        assert view.cursor is not None and view.cursor > 0
    assert save.read_bytes() == before
    assert history.state_of(load(save)) == states[-1]


async def test_enter_in_the_log_shows_the_marked_entry_whole_with_every_die(tmp_path):
    from tracker.ui.screens.reading import ReadingScreen

    sample = tmp_path / "duel.toml"
    sample.write_bytes((Path(__file__).resolve().parents[2] / "saves"
                        / "d6battle-crossbow-duel.toml").read_bytes())
    app = TrackerApp(open_encounter(sample), theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await focus_log(pilot, app)
        entries = app.session.enc.log
        shot = next(k for k in range(len(entries)) if entries[k].kind == "shoot"
                    and entries[k].actor == "Longbowmen")
        while app.query_one(LogPane).marked_entry() != shot:
            await pilot.press("up")
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReadingScreen)
        text = str(screen.query_one("#reading-text", Static).render())
        assert text.startswith(entries[shot].text)  # whole, however long
        assert "dice: hit 2 3 4 5 6 6 · save 6 1 4 5 · kill 4 3 1" in text
        before = history.state_of(app.session.enc)
        await pilot.press("enter")  # closes it; nothing rewound
        await pilot.pause()
        assert not isinstance(app.screen, ReadingScreen)
        assert history.state_of(app.session.enc) == before
