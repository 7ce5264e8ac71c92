"""One whole round of each sample played by n alone (and the dialogs it opens): every
phase, step and duty of the ruleset visited, in order, as the log records them."""

from __future__ import annotations

from pathlib import Path

from tests.ui.keys import command, type_text
from tests.ui.test_app import app_on_sample, status
from tests.ui.wait import until
from tracker.ui.app import TrackerApp
from tracker.ui.screens.confirm import ConfirmScreen
from tracker.ui.screens.dice import DiceScreen
from tracker.ui.screens.resolve import ResolveScreen


def advances(app: TrackerApp, since: int) -> list[str]:
    return [e.text for e in app.session.enc.log[since:] if e.kind == "next"]


async def round_by_n(app: TrackerApp, pilot, presses: int = 20) -> list[str]:  # type: ignore[no-untyped-def]
    start_round, since = app.session.enc.position.round, len(app.session.enc.log)
    for _ in range(presses):
        if app.session.enc.position.round > start_round:
            break
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, (ResolveScreen, ConfirmScreen)), status(app)
    return advances(app, since)


async def test_warmaster_round_by_n_the_drive_backs_open_their_dialog(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await command(pilot, 'shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
        await pilot.press("n")  # the shooting phase cannot end: its drive back opens
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen) and app.screen.action.name == "endphase"
        await pilot.press("escape")  # the GM declines: asked whether to leave it undone
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert "drive backs" in status(app) and app.session.enc.position.phase == 2
        await command(pilot, "endphase --dice drive=3,4")
        lines = await round_by_n(app, pilot)
    assert lines == [
        "Phase: combat; Empire Knights: odd hits discounted",
        "Turn: Empire, command",
        "Phase: movement",
        "Phase: shooting",
        "Phase: combat",
        "Round 2, command, High Elves first",
    ]


async def to_leave_the_drive_back_undone(pilot) -> None:  # type: ignore[no-untyped-def]
    """Warmaster's sample: Archers I hit the Empire Knights twice; n opens the drive
    back's dialog and Esc asks whether to leave it undone."""
    await pilot.pause()
    await command(pilot, 'shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
    await pilot.press("n", "escape")
    await pilot.pause()


async def test_warmaster_leaving_a_duty_undone_is_a_choice_the_log_keeps(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_leave_the_drive_back_undone(pilot)
        await pilot.press("y")
        await pilot.pause()
        last = app.session.enc.log[-1].text
    assert last.startswith("drive backs skipped by the GM (Empire Knights: 2 hits to drive"
                           " back)")


async def test_edc_round_by_n_walks_both_exchanges(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        since = len(app.session.enc.log)
        for _ in range(8):  # the eighth begins round 3: Jacques' blood loss test, its dice
            await pilot.press("n")
            await pilot.pause()
        assert isinstance(app.screen, DiceScreen), status(app)
        await type_text(pilot, "1278")
        await pilot.press("enter")
        await pilot.pause()
        lines = advances(app, since)
        # the cursor follows the turn: it stands on whoever acts now
        acting = app.session.play.current()
        assert app.query_one("#combatants-table").selected_key == acting
    assert lines[:4] == ["Turn: Marguerite", "Turn: Jacques", "Turn: Guardsman",
                         "Phase: exchange 2, Roland first; Roland keeps the initiative"]
    assert lines[4:7] == ["Turn: Marguerite", "Turn: Jacques", "Turn: Guardsman"]
    assert lines[7].startswith("Round 3, exchange 1, Roland first")


async def test_d6battle_round_by_n_with_a_morale_test_due(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "d6battle-crossbow-duel.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n", "n")  # French resolution, then the English shoot
        await pilot.pause()
        await command(pilot, "shoot Longbowmen Foot figures=12 --dice "
                      "hit=6,6,6,6,6,6,6,6,6,6,6,6 save=1,1,1,1,1,1,1,1,1,1,1,1 "
                      "kill=6,6,6,6,6,6,6,6,6,6,6,6")
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen) and app.screen.action.name == "morale"
        await pilot.press("escape", "n")
        await pilot.pause()
        await command(pilot, "morale Foot --dice morale=1,1")
        lines = await round_by_n(app, pilot)
    # the Genoese fled in round 1; the Foot held: no one flees
    assert lines[:2] == [
        "Phase: combat; Foot Sergeants: shooting casualties no longer count for morale; "
        "Strategic Advantage: English selects the order of the combats",
        "Phase: resolution"]
    assert lines[2].startswith("Round 3, shoot, French first")


async def test_harn_round_by_n_everyone_in_initiative_order(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "harn-nolora-volley.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        order = app.session.play.order()
        start = app.session.enc.position.round
        lines = await round_by_n(app, pilot)
    names = [app.session.enc.find_combatant(i).name for i in order[1:]]
    assert lines[:-1] == [f"Turn: {n}" for n in names]
    assert lines[-1].startswith(f"Round {start + 1}, Nolora first")


async def test_warlord_round_by_n_fire_casualties_together_then_morale(tmp_path: Path) -> None:
    app = app_on_sample(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.session.play.where().phase == "missile fire (8)"
        await pilot.press("n")  # two units still hold fire orders: the phase stays
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen) and app.screen.action.name == "endphase"
        await pilot.press("escape", "n")  # not forfeited: they fire first
        await pilot.pause()
        assert "fire orders" in status(app) and app.session.enc.position.phase == 1
        await command(pilot, "fire human orc range=long --dice d100=1")
        await command(pilot, "fire morgab wood range=medium --dice d100=1")
        since = len(app.session.enc.log)
        await pilot.press("n")  # every unit has fired: the casualties come off together
        await pilot.pause()
        assert not isinstance(app.screen, (ResolveScreen, ConfirmScreen)), status(app)
        await pilot.press("n")  # the morale tests are due: their dialog opens
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen) and app.screen.action.name == "morale"
        await pilot.press("escape", "n")
        await pilot.pause()
        await command(pilot, "morale orc-warband result=passed")
        await command(pilot, "morale wood result=failed")
        first = advances(app, since) + await round_by_n(app, pilot)
        units = {u.id: u for u in app.session.enc.units}
        second = await round_by_n(app, pilot)
    assert first[0] == ("End of missile fire: Wood elf guards loses 1 (10 → 9), morale test; "
                        "Orc warband loses 2 (20 → 18), morale test; Phase: morale tests")
    assert first[1:] == ["Round 2, before missile fire (1-7)"]
    assert (units["orc-warband"].strength, units["orc-warband"].held_casualties) == (18, 0)
    assert "failed morale test" in units["wood-elf-guards"].conditions
    # a turn with no fire orders: nothing held, nothing to test
    assert second == ["Phase: missile fire (8)", "Phase: morale tests",
                      "Round 3, before missile fire (1-7)"]


async def test_enter_at_leave_it_undone_keeps_the_duty(tmp_path: Path) -> None:
    """Enter is how a GM goes on; at "leave the drive backs undone?" it answers no."""
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_leave_the_drive_back_undone(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.session.enc.position.phase == 2  # still shooting, the drive back owed
        knights = app.session.enc.find_unit("Empire Knights")
        assert knights.hits == 2 and not knights.drive_back_done
        assert "skipped" not in app.session.enc.log[-1].text
        # the status no longer says a dialog is open: the duty is kept, and how to take it
        status = app.status_message
        assert "dialog is open" not in status and "step is open" not in status, status
        assert status.endswith(": kept, still owed (n asks for it again)"), status


async def to_the_injury_dialog(pilot, app) -> None:  # type: ignore[no-untyped-def]
    """The point-blank sample with a second brigand: ``n`` until the injury dialog the
    Sentry's strike owes opens."""
    await pilot.pause()
    await command(pilot, "add combatant Lookout side=brigands initiative=10")
    for _ in range(3):
        await pilot.press("n")
        await pilot.pause()
        if isinstance(app.screen, ResolveScreen):
            break
    assert isinstance(app.screen, ResolveScreen) and app.screen.action.name == "injury"


async def test_harn_an_injury_level_owed_opens_its_dialog_for_the_wounded(tmp_path: Path) -> None:
    """The sample's strike on the Sentry has no injury level yet: the round does not end
    without it, and n opens the injury dialog on the Sentry's wound, whoever else is there."""
    app = app_on_sample(tmp_path, "harn-nolora-point-blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_injury_dialog(pilot, app)
        assert app.screen.values()["who"] == "Sentry"
        await pilot.press("tab")  # to the level
        await type_text(pilot, "S2p")
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.enc.position.round == 2, status(app)
    sentry = app.session.enc.find_combatant("Sentry")
    assert (sentry.wounds[0].level, sentry.wounds[0].kind) == (2, "S2p")


async def test_the_exchange_form_says_enter_is_refused_before_enter(tmp_path: Path) -> None:
    """Roland's press, exchange 1 of round 2: the Guardsman has acted this exchange, so
    Marguerite's attack on him is refused; the form says so first, above the odds."""
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")  # Marguerite's turn
        await pilot.pause()
        app.open_action("exchange", attack_dice="5", defense_dice="3")
        await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the form")
        form = app.screen
        await until(pilot, lambda: form.odds_settled, "the form read")
        said = str(form.query_one("#odds").render())
        assert said.startswith("reads, but Enter is refused: Guardsman has already acted "
                               "this exchange"), said
        assert "MoS 1: hit" in said  # the odds still beside it
