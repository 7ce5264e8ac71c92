"""The dice step repeats the form's summary line (d6battle's mean kills, harn's target
numbers, plain's chance to hit and the saves), and says no odds for a roll that decides
no outcome with them (an initiative total)."""

from __future__ import annotations

import pytest

from tests.conftest import app_on_copy
from tests.ui.wait import settled, until
from tracker.ui.screens.dice import DiceScreen
from tracker.ui.screens.resolve import ResolveScreen

CASES = {
    # sample: (command lines first, the action, the form's fields)
    "d6battle-crossbow-duel.toml": (["next phase", "next phase"], "shoot",
                                    {"weapon": "crossbow"}),
    "harn-nolora-point-blank.toml": (["load Nolora", "injury Sentry level=S2p", "next round"],
                                     "missile", {}),
    "plain-goblin-ambush.toml": ([], "attack", {"target": "Goblin 3"}),
}


def shown(screen, wid: str) -> str:  # type: ignore[no-untyped-def]
    return str(screen.query_one(f"#{wid}").render())


async def form_then_step(pilot, app, action: str, **given: str):  # type: ignore[no-untyped-def]
    """The action's form, its odds settled, then Enter: the lines the form's odds said
    (the summary first) and the dice step."""
    app.open_action(action, **given)
    await settled(pilot)
    form = app.screen
    assert isinstance(form, ResolveScreen)
    await until(pilot, lambda: form.odds_settled, "the form's odds")
    said = shown(form, "odds").splitlines()
    await pilot.press("enter")
    step = app.screen
    assert isinstance(step, DiceScreen)
    return said, step


@pytest.mark.parametrize("sample", sorted(CASES))
async def test_the_dice_step_repeats_the_forms_summary_line(tmp_path, sample):
    lines, action, given = CASES[sample]
    app = app_on_copy(tmp_path, sample)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        for line in lines:
            app.session.execute(line)
        app.refresh_panes()
        said, step = await form_then_step(pilot, app, action, **given)
        assert len(said) >= 2 and not said[0].startswith("("), said
        summary = said[0]
        await until(pilot, lambda: step.odds_settled, "the dice step's odds")
        lines_shown = shown(step, "dice-odds").splitlines()
        assert lines_shown[0] == summary
        assert lines_shown[1].startswith("before any die: ")
        await pilot.press("1")  # a die lands: the summary is still of the form, and says so
        await until(pilot, lambda: step.odds_settled, "the dice step's odds")
        lines_shown = shown(step, "dice-odds").splitlines()
        assert lines_shown[0] == f"before any die: {summary}"
        assert lines_shown[1].startswith("given the dice so far: ")


async def test_an_initiative_die_shows_no_odds_before_or_after_it_lands(tmp_path):
    app = app_on_copy(tmp_path, "plain-goblin-ambush.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        app.open_action("initiative")
        await settled(pilot)
        await pilot.press("enter")
        step = app.screen
        assert isinstance(step, DiceScreen)
        for typed in ("", "12"):
            await pilot.press(*typed)
            await until(pilot, lambda: step.odds_settled, "the dice step's odds")
            assert shown(step, "dice-odds") == ""
            assert not step.query_one("#dice-odds").display
        assert shown(step, "dice-stage-odds") == "all dice in: Enter goes on"
        await pilot.press("enter", "5")
        await until(pilot, lambda: step.odds_settled, "the dice step's odds")
        assert "%" not in shown(step, "dice-odds")


async def test_a_d6battle_combats_odds_are_shown_whole_at_80x24(tmp_path):
    """Each outcome of a combat names both units (``Foot Sergeants wins, Men-at-Arms
    routs``): the summary, five of them and the yes/no figures take six rows at 80
    columns, none of them cut."""
    app = app_on_copy(tmp_path, "d6battle-crossbow-duel.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        _, step = await form_then_step(pilot, app, "combat", actor="Foot Sergeants",
                                       target="Men-at-Arms")
        for typed in ("", "645321"):
            await pilot.press(*typed)
            await until(pilot, lambda: step.odds_settled, "the dice step's odds")
            await pilot.pause()
            odds = step.query_one("#dice-odds")
            needed = odds.get_content_height(odds.container_size, app.size,
                                             odds.content_region.width)
            assert needed >= 5 and odds.content_region.height == needed
