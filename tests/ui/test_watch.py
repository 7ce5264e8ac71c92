"""The player view beside the GM's app: changes show up, secrets never do."""

from __future__ import annotations

import shutil

import pytest
from textual.widgets import Static

from tests.conftest import SAMPLES, SAVES, lock_is_free, skirmish
from tests.ui.keys import command
from tests.ui.wait import until
from tracker.core.model import Pool, Wound
from tracker.session.opening import open_encounter
from tracker.session.redaction import table_view as redact
from tracker.store import save_encounter
from tracker.store.lock import lock_path  # noqa: F401
from tracker.ui.app import TrackerApp
from tracker.ui.logview import LogView
from tracker.ui.screens.reading import ReadingScreen
from tracker.ui.watch import WatchApp


def log_text(app) -> str:
    return "\n".join(line.plain for line in app.query_one(LogView).lines)


async def test_a_gm_change_reaches_the_watcher_and_secrets_never_do(tmp_path):
    enc = skirmish()
    enc.gm_side = "foes"
    grak = enc.find_combatant("grak")
    grak.hidden = False
    grak.pools = [Pool(name="CP", size=9)]
    grak.wounds = [Wound(location="arm", level=2)]
    path = tmp_path / "ford.toml"
    save_encounter(enc, path)
    gm = TrackerApp(open_encounter(path), theme="tracker-dark")
    watcher = WatchApp(path, theme="tracker-dark")
    async with gm.run_test(size=(80, 24)) as gm_pilot, watcher.run_test(size=(80, 24)) as w:
        for line in ("note the bridge creaks", "note! Grak flees at half CP",
                     "add combatant Wolf side=foes initiative=3 hidden=yes", "next"):
            await command(gm_pilot, line)
        await gm.workers.wait_for_complete()
        # the watcher follows the file
        await until(w, lambda: "Turn: Grak" in log_text(watcher), "the watcher to show Grak's turn")
        shown = log_text(watcher)
        assert "the bridge creaks" in shown
        assert "half CP" not in shown
        assert "Wolf" not in shown
        view = watcher.session.enc
        assert [c.name for c in view.combatants] == ["Aldo", "Bree", "Grak"]
        assert view.find_combatant("grak").wounds == [] and view.find_combatant("grak").pools == []
        assert "Grak" in str(watcher.query_one("#topbar", Static).render())
        assert lock_path(path).read_text().split()[0] != ""  # the GM holds the lock
    assert lock_is_free(path)


def test_redact_keeps_the_players_side_and_drops_secret_entries():
    enc = skirmish()
    enc.gm_side = "foes"
    enc.find_combatant("aldo").wounds = [Wound(location="head", level=1)]
    enc.find_combatant("grak").hidden = False
    enc.find_combatant("grak").wounds = [Wound(location="leg", level=3)]
    view = redact(enc)
    assert view.find_combatant("aldo").wounds  # a player's own wounds are theirs to see
    assert view.find_combatant("grak").wounds == []
    assert enc.find_combatant("grak").wounds  # the GM's copy is untouched


def test_the_watcher_never_writes_or_locks(tmp_path):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    before = path.read_bytes()
    watcher = WatchApp(path)
    assert watcher.session.read_only
    assert lock_is_free(path)
    assert path.read_bytes() == before


def test_when_a_hidden_combatant_acts_the_players_see_no_one_else_marked():
    from tracker.core.turns import current_actor
    from tracker.session.redaction import HIDDEN_TURN

    enc = skirmish()  # Aldo 14, Grak 11 (hidden), Bree 9
    enc.position.turn = 1
    assert current_actor(enc) == "grak"
    view = redact(enc)
    assert view.position.turn == HIDDEN_TURN
    enc.position.turn = 2
    view = redact(enc)
    assert current_actor(view) == "bree" and view.position.turn == 1


@pytest.mark.parametrize("sample", SAMPLES)
async def test_the_player_view_draws_every_sample_with_its_secrets_hidden(
    sample, tmp_path, tracker_home
):
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    watcher = WatchApp(path, theme="tracker-dark")
    async with watcher.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "player view" in str(watcher.query_one("#topbar", Static).render())
        assert str(watcher.query_one("#status", Static).render()).startswith("watching ")
        for c in watcher.session.enc.combatants:
            assert c.pools == [] and c.wounds == [], c.name  # no GM side: all secret
    assert not (tracker_home / "errors.log").exists()


@pytest.mark.parametrize("served", [True, False])
async def test_w_shows_how_players_connect(skirmish_file, monkeypatch, served):
    if served:
        monkeypatch.setenv("TRACKER_TABLE", "ssh -p 2222 table.example")
    else:
        monkeypatch.delenv("TRACKER_TABLE", raising=False)
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        screen = app.screen  # a dialog that stays until closed, not a notice that goes
        assert isinstance(screen, ReadingScreen)
        shown = str(screen.query_one("#reading-text", Static).render())
        await pilot.pause(0.5)
        assert app.screen is screen
        await pilot.press("escape")
        assert app.screen is not screen
    if served:
        assert shown.startswith("ssh -p 2222 table.example\n")
        assert "GM key: this app" in shown
    else:
        assert f"tracker serve {skirmish_file} --ssh 2222" in shown


async def test_the_detail_line_follows_the_cursor_in_a_side_s_view(tmp_path):
    path = tmp_path / "ambush.toml"
    shutil.copy(SAVES / "plain-goblin-ambush.toml", path)
    watcher = WatchApp(path, theme="tracker-dark", side="party")
    async with watcher.run_test(size=(80, 24)) as pilot:
        await pilot.pause()

        def detail() -> str:
            return str(watcher.query_one("#combatant-detail", Static).render())

        assert detail().startswith("Tam")
        await pilot.press("down")
        await until(pilot, lambda: watcher.selected == "goblin-3", "the cursor on Goblin 3")
        assert detail().startswith("Goblin 3"), detail()
        assert "hp" not in detail()  # another side's hit points in words only
