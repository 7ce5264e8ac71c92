"""The app sends the session typed commands: the `:` line is read once, by the command
line; the app's own commands (q, save-as, help) never reach the session; a key or the
log's Enter builds its command, and a pending duty comes back as an outcome."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.conftest import SAVES
from tests.ui.keys import command
from tests.ui.test_log_rewind import focus_log, played_save
from tracker.core import history
from tracker.session.commands import Command, Help, Quit, Rewind, SaveAs
from tracker.session.opening import load, open_encounter
from tracker.session.session import Outcome
from tracker.ui.app import TrackerApp
from tracker.ui.screens.help import HelpScreen


def watched(app: TrackerApp) -> tuple[list[Command], list[Command]]:
    """What the app carries out from the `:` line, and what the session runs."""
    carried: list[Command] = []
    ran: list[Command] = []
    carry_out, run = app.carry_out, app.session.run

    async def carry(cmd: Command) -> None:
        carried.append(cmd)
        await carry_out(cmd)

    def session_run(cmd: Command) -> Outcome:
        ran.append(cmd)
        return run(cmd)

    app.carry_out = carry  # type: ignore[method-assign]
    app.session.run = session_run  # type: ignore[method-assign]
    return carried, ran


def no_reading(self: TrackerApp, line: str) -> str | None:
    raise AssertionError(f"the app read {line!r} itself")


async def test_the_line_the_log_and_the_keys_send_typed_commands(tmp_path, monkeypatch):
    save, states = played_save(tmp_path)
    monkeypatch.setattr(TrackerApp, "run_line", no_reading)
    app = TrackerApp(open_encounter(save), theme="tracker-dark")
    carried, ran = watched(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await focus_log(pilot, app)
        await pilot.press("left_square_bracket", "left_square_bracket", "down", "down", "b")
        await pilot.pause()
        assert ran == [Rewind(entry=6)]
        assert history.state_of(app.session.enc) == states[6]
        await pilot.press("u")
        await pilot.pause()
        assert type(ran[-1]).__name__ == "Undo"
        await command(pilot, "help")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await command(pilot, "save-as kept")
        assert "saved as" in str(app.query_one("#status", Static).render())
        await pilot.press("colon", "q", "enter")
        await pilot.pause()
        assert not app.is_running
    assert carried == [Help(), SaveAs("kept"), Quit()]
    assert not any(isinstance(cmd, (Help, SaveAs, Quit)) for cmd in ran)
    assert history.state_of(load(tmp_path / "kept.toml")) == states[-1]


async def test_a_line_that_cannot_be_read_is_said_and_runs_nothing(tmp_path):
    save, _ = played_save(tmp_path)
    app = TrackerApp(open_encounter(save), theme="tracker-dark")
    carried, ran = watched(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await command(pilot, "undo now")
        status = str(app.query_one("#status", Static).render())
        assert status == "undo: did not expect 'now' (undo   take back the last change)"
    assert carried == ran == []


@pytest.mark.parametrize("keys", [("n",), ("colon", *"next", "enter")])
async def test_a_pending_duty_is_an_outcome_not_an_error(tmp_path: Path, keys):
    """`n` opens the duty's dialog from the outcome; `:next` says what is pending."""
    save = tmp_path / "river.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", save)
    session = open_encounter(save)
    session.session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
    app = TrackerApp(session, theme="tracker-dark")
    outcomes: list[Outcome] = []
    run = app.session.run

    def session_run(cmd: Command) -> Outcome:
        out = run(cmd)  # raises on a refusal: a pending duty must not
        outcomes.append(out)
        return out

    app.session.run = session_run  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        [out] = outcomes
        assert out.pending is not None and out.pending.action == "endphase"
        assert not out.changed
        status = str(app.query_one("#status", Static).render())
        if keys == ("n",):
            assert type(app.screen).__name__ == "ResolveScreen"
            assert status.startswith("the shooting phase cannot end yet")
        else:
            assert app.status_message == out.message
