"""SVG snapshots of the dice step of each ruleset, a few dice in: at 80x24 each, and
Warmaster at 160x48."""

from __future__ import annotations

import pytest

from tests.snapshots.test_snapshots import app_on, steady
from tests.ui.wait import until
from tracker.ui.screens.dice import DiceScreen

CASES = {
    # sample: (command lines first, the action, the form's fields, the dice typed)
    "d6battle-crossbow-duel.toml": (["next phase", "next phase"], "shoot",
                                    {"weapon": "crossbow"}, "6 1 6"),
    "edc-roland-press.toml": (["next round --dice toughness=1,2,7,8"], "exchange",
                              {"defender": "Guardsman", "attack_dice": "4",
                               "defense_dice": "3"}, "0961\r82"),
    "harn-nolora-point-blank.toml": (["load Nolora", "injury Sentry level=S2p", "next round"],
                                     "missile", {}, "4 5\r3"),
    "warlord-wood-elves.toml": ([], "fire", {"actor": "Human longbowmen",
                                            "target": "Orc warband", "range": "short"}, "3"),
    "warmaster-river-crossing.toml": ([], "shoot", {"shooters": "Archers II"}, "124566\r2"),
}
KEYS = {" ": "space", "\r": "enter"}


@pytest.mark.parametrize(("sample", "size"), [
    *(pytest.param(sample, (80, 24), id=sample) for sample in sorted(CASES)),
    pytest.param("warmaster-river-crossing.toml", (160, 48),
                 id="warmaster-river-crossing.toml-160x48"),
])
def test_dice_step(snap_compare, tmp_path, sample, size):
    lines, action, given, typed = CASES[sample]
    app = app_on(sample, tmp_path)

    async def into_the_dice_step(pilot) -> None:
        for line in lines:
            app.session.execute(line)
        app.refresh_panes()
        app.open_action(action, **given)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press(*(KEYS.get(c, c) for c in typed))
        screen = app.screen
        assert isinstance(screen, DiceScreen)
        await until(pilot, lambda: screen.odds_settled, "the odds of the dice in")
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=into_the_dice_step)
