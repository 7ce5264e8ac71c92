"""One view, one story: the panes of a player's view agree with the row of the combatant
under the cursor. Of another side's combatant the wounds and pools panes say they are
not shown, never "unhurt" or "no wounds" beside a row that says "hurt"; and the detail
line carries the health word the row does, and none of the numbers ``secret_fields``
keeps from the view."""

from __future__ import annotations

import shutil

import pytest
from textual.widgets import Static

from tests.conftest import SAVES
from tracker.rules.plain.health import WORDS
from tracker.session.opening import load
from tracker.store import save_encounter
from tracker.ui.panes.combatants import NOT_SHOWN as WOUNDS_NOT_SHOWN
from tracker.ui.panes.combatants import CombatantsPane
from tracker.ui.panes.pools import PoolsPane
from tracker.ui.panes.wounds import NOT_SHOWN, WoundsPane
from tracker.ui.watch import WatchApp


def text(widget: Static) -> str:
    return str(widget.render())


async def select(pilot, app: WatchApp, key: str) -> None:  # type: ignore[no-untyped-def]
    """The cursor to ``key``'s row, by keys (Home, then down)."""
    table = app.query_one(CombatantsPane).table
    await pilot.press("home")
    for _ in range(len(app.session.enc.combatants)):
        await pilot.pause()
        if table.selected_key == key:
            return
        await pilot.press("down")
    assert table.selected_key == key


def health_words(line: str) -> set[str]:
    return {w for w in line.replace(",", " ").replace(";", " ").split() if w in WORDS}


# every ruleset with wounds or pools: a side's view, and a wounded or hurt one of another
@pytest.mark.parametrize(("sample", "gm", "side", "other"), [
    ("plain-goblin-ambush.toml", "foes", "party", "goblin-3"),       # 4 of 7 hp: hurt
    ("harn-nolora-volley.toml", "brigands", "party", "destrier"),   # one wound
    ("edc-roland-press.toml", "party", "foes", "jacques"),          # a wound, CP and MP
])
async def test_another_sides_wounds_and_pools_are_said_not_shown(tmp_path, sample, gm, side,
                                                                  other):
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    enc = load(path)
    enc.gm_side = gm
    save_encounter(enc, path)
    app = WatchApp(path, theme="tracker-dark", side=side)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await select(pilot, app, other)
        pane = app.query_one(CombatantsPane)
        name = app.session.enc.find_combatant(other).name
        row = next(cells for key, cells in pane.rows(app.session.enc, None) if key == other)
        detail = text(app.query_one("#combatant-detail", Static))
        wounds = text(app.query_one(WoundsPane).body)
        assert wounds == NOT_SHOWN
        assert str(row[-2]) == WOUNDS_NOT_SHOWN  # the row's wounds cell says so too
        assert health_words(str(row[-1])) == health_words(detail)  # the row and its line
        assert "HT " not in detail  # no exact Health of another side either
        if app.query(PoolsPane):
            assert f"{name}: pools not shown" in text(app.query_one(PoolsPane).body)
        # the own side's, beside it, are shown
        own = next(c for c in app.session.enc.combatants if c.side == side)
        await select(pilot, app, own.id)
        assert text(app.query_one(WoundsPane).body) != NOT_SHOWN


@pytest.mark.parametrize(("side", "public"), [("party", False), (None, False), (None, True)])
async def test_a_goblins_numbers_are_in_no_line_of_any_view(tmp_path, side, public):
    path = tmp_path / "ford.toml"
    shutil.copy(SAVES / "plain-goblin-ambush.toml", path)
    app = WatchApp(path, theme="tracker-dark", side=side, public=public)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await select(pilot, app, "goblin-3")
        detail = text(app.query_one("#combatant-detail", Static))
        assert "Goblin 3 · foes" in detail and "hurt" in detail
        for number in ("AC", "attack", "(+2)"):
            assert number not in detail
        await select(pilot, app, "aria")
        detail = text(app.query_one("#combatant-detail", Static))
        # Aria's numbers are her side's and the table's to see, not a spectator's
        assert ("AC 17" in detail) == (not public), detail
