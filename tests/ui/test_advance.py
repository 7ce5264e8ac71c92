"""n, p and N by keys at the edges of the sequence: N asks before it skips whole phases or
a side's turn, and a duty owed as a round begins (edc's blood loss tests) opens the dice
step, one who owes it after another."""

from __future__ import annotations

from pathlib import Path

from tests.ui.keys import type_text
from tests.ui.test_app import app_on_sample, status
from tracker.ui.app import TrackerApp
from tracker.ui.screens.confirm import ConfirmScreen
from tracker.ui.screens.dice import DiceScreen


def last(app: TrackerApp) -> str:
    return app.session.enc.log[-1].text


# --- N asks first --------------------------------------------------------------------------


async def test_n_round_mid_turn_asks_and_enter_keeps_the_turn(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        entries = len(app.session.enc.log)
        await pilot.press("N")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.question == (
            "Skip the rest of the High Elves' turn and the Empire's whole turn?")
        await pilot.press("enter")  # Enter, the key that goes on, keeps the turn
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert len(app.session.enc.log) == entries and app.session.enc.position.round == 1


async def test_n_round_mid_turn_y_skips_and_the_log_says_what(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("N", "y")
        await pilot.pause()
        assert app.session.enc.position.round == 2
    assert last(app) == ("Round 2, command, High Elves first; High Elves' combat phase "
                         "skipped; Empire's whole turn skipped")


async def test_n_round_at_the_rounds_last_phase_asks_nothing(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(5):  # to the Empire's combat phase, the round's last
            await pilot.press("n")
            await pilot.pause()
        await pilot.press("N")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
    assert last(app) == "Round 2, command, High Elves first"


# --- a duty owed as a round begins ----------------------------------------------------------


async def to_round_three(app: TrackerApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """The edc sample: through both exchanges by n; round 3 owes Jacques' blood loss test,
    and its dice step opens."""
    await pilot.pause()
    for _ in range(8):
        await pilot.press("n")
        await pilot.pause()
    assert isinstance(app.screen, DiceScreen), status(app)


async def test_a_blood_loss_test_as_the_round_begins_asks_for_its_dice(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_round_three(app, pilot)
        step = app.screen
        assert isinstance(step, DiceScreen)
        assert step.title_text == "blood loss tests: Jacques"
        assert str(step.query_one("#dice-prompt").render()).startswith("Jacques")
        assert app.session.enc.position.round == 2  # nothing moved while it asks
        await type_text(pilot, "1278")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, DiceScreen)
        assert app.session.enc.position.round == 3
    entry = app.session.enc.log[-1]
    assert entry.text.startswith("Round 3, exchange 1, Roland first")
    assert "Jacques: Toughness 4 vs BL 3: 2 successes, holds" in entry.text
    assert [(r.role, r.value, r.source) for r in entry.rolls] == [
        ("toughness", v, "entered") for v in (1, 2, 7, 8)]


async def test_leaving_the_blood_loss_test_undone_takes_y_and_is_logged(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_round_three(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")  # keeps the test owed: nothing moves
        await pilot.pause()
        assert app.session.enc.position.round == 2
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("escape", "y")
        await pilot.pause()
        assert app.session.enc.position.round == 3
    assert "blood loss tests skipped by the GM (Jacques: Toughness 4 vs BL 3)" in last(app)
