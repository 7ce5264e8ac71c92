"""The dice step by keys: an action's dice asked for stage by stage, as at the table."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from textual.widgets import Label, Static

from tests.conftest import SAVES
from tests.ui.keys import burst, command, type_text
from tests.ui.test_warmaster_phase import fill_field
from tests.ui.wait import settled, until
from tracker.rules import get
from tracker.rules.stage_odds import Memo
from tracker.session.opening import open_encounter
from tracker.ui.app import TrackerApp
from tracker.ui.panes.log import LogPane, line
from tracker.ui.screens.dice import DiceEntry, DiceScreen
from tracker.ui.screens.dice_odds import odds_lines
from tracker.ui.screens.resolve import ResolveScreen, percent


def app_on(tmp_path: Path, sample: str) -> TrackerApp:
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark")


def text(screen: DiceScreen, wid: str) -> str:
    widget = screen.query_one(f"#{wid}")
    assert isinstance(widget, Static | Label)
    return str(widget.render())


async def edc_exchange_step(pilot, app: TrackerApp):  # type: ignore[no-untyped-def]
    """Roland's press, the next round (Jacques' blood loss test as it begins): an exchange
    by the first to act against the guardsman, 4 dice against 3, taken to its dice step."""
    await pilot.pause()
    await command(pilot, "next round --dice toughness=1,2,7,8")
    await pilot.press("f", "e")  # exchange
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    await fill_field(pilot, app, "defender", "Guardsman")
    await fill_field(pilot, app, "attack_dice", "4")
    await fill_field(pilot, app, "defense_dice", "3")
    await pilot.press("enter")
    await pilot.pause()
    return app.screen


async def odds_in(pilot, screen: DiceScreen) -> None:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: screen.odds_settled, "the odds of the dice in")


async def test_a_warmaster_shot_die_by_die(tmp_path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "enter")  # Archers I, shoot; the Empire Knights filled in
        await pilot.pause()
        await fill_field(pilot, app, "shooters", "Archers II")
        await pilot.press("enter")
        await pilot.pause()
        step = app.screen
        assert isinstance(step, DiceScreen)
        assert text(step, "dice-prompt") == "roll 6 d6 to hit (4+)"
        await odds_in(pilot, step)
        before = text(step, "dice-odds")
        assert before.startswith("before any die: ")
        # six dice at 4+, none in: at least 3 hits is 42/64
        assert "3+ 65.6%" in text(step, "dice-stage-odds")

        await type_text(pilot, "1 2,4")
        await odds_in(pilot, step)
        # three dice left at 4+ (each 1/2), one hit so far: 2+ more is 4/8
        assert text(step, "dice-stage-odds") == (
            "3 dice left on 4+ (1 of 3 so far): 1+ 87.5% · 2+ 50.0% · 3 12.5%")
        assert text(step, "dice-in") == "in: 1 2 4  (3 of 6) · 1 at 4+"
        moved = text(step, "dice-odds")
        assert moved.startswith("given the dice so far: ") and moved != before

        await type_text(pilot, "567")  # a d6 has no 7
        assert step.query_one(DiceEntry).value == "1 2,456"
        assert text(step, "dice-error") == "a d6 shows 1 to 6, not 7"
        await type_text(pilot, "61")  # the seventh die is one too many
        assert step.query_one(DiceEntry).value == "1 2,4566"
        assert text(step, "dice-error") == "this stage takes 6 dice (d6 hit)"
        await pilot.press("enter")  # right after a refused key: stops and says why
        assert text(step, "dice-error") == ("the 1 was not taken: the entry reads "
                                            "1 2 4 5 6 6; Enter again takes it as it stands")
        await pilot.press("enter")
        await pilot.pause()
        # four hits: four saves at the knights' armour of 4+
        assert text(step, "dice-prompt") == "4 hits: roll 4 d6 to save (4+)"
        assert text(step, "dice-done").startswith("hit      1 2 4 5 6 6 · 4 at 4+")
        await pilot.press("enter")  # too few: refused, with the count
        assert text(step, "dice-error") == "4 d6 to enter, 0 in (r rolls the other 4)"
        await type_text(pilot, "2")
        await odds_in(pilot, step)
        # three saves left at 4+; hits_per_stand 3: a stand goes when 3 stay unsaved
        assert text(step, "dice-odds") == (
            "given the dice so far: 0 stands removed 50.0% · 1 stand removed 50.0%\n"
            "and: drive back 100.0%")
        await pilot.press("r")  # the tracker rolls the other three saves
        await settled(pilot)
        assert not isinstance(app.screen, DiceScreen | ResolveScreen)
        entry = app.session.enc.log[-1]
        assert [(r.role, r.source) for r in entry.rolls] == (
            [("hit", "entered")] * 6 + [("save", "entered")] + [("save", "rolled")] * 3)
        shown = line(1, entry, undone=False).plain
        rolled = " ".join(f"{r.value}*" for r in entry.rolls[7:])
        assert shown.endswith(f"[1 2 4 5 6 6 2 {rolled}]")
        assert app.query_one(LogPane).border_title == "Log · * rolled"
        assert "tracker-rolled dice: save" in app.status_message


async def test_burst_keys_land_in_order_across_stages(tmp_path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "enter")
        await pilot.pause()
        await pilot.press("enter")  # Archers I alone: 3 dice
        await pilot.pause()
        assert isinstance(app.screen, DiceScreen)
        # the whole line at once, as tmux send-keys or a slow link delivers it
        # the 9 (no face of a d6) is refused, and the Backspace after it takes back only
        # the 9: the 4 and 5 stay
        burst(app, "4", "5", "9", "backspace", "6", "enter", "1", "2", "4", "enter")
        await until(pilot, lambda: app.session.enc.log, "the shot in the log")
        knights = app.session.enc.find_unit("Empire Knights")
        entry = app.session.enc.log[-1]
        assert [r.value for r in entry.rolls] == [4, 5, 6, 1, 2, 4]
        assert all(r.source == "entered" for r in entry.rolls)
        assert knights.hits == 2  # three hits, one saved


async def test_keys_typed_ahead_of_the_dice_step_reach_it_in_order(tmp_path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "enter")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, ResolveScreen)
        # the form's Enter and the dice after it in one read: none lands in the form
        burst(app, "enter", "1", "space", "2", "space", "4", "enter", "5")
        await until(pilot, lambda: isinstance(app.screen, DiceScreen)
                    and app.screen.query_one(DiceEntry).value == "5", "the save die typed")
        step = app.screen
        assert isinstance(step, DiceScreen)
        assert form.values()["actor"] == "Archers I"
        assert text(step, "dice-done").startswith("hit      1 2 4 · 1 at 4+")
        assert text(step, "dice-prompt") == "1 hit: roll 1 d6 to save (4+)"
        assert step.query_one(DiceEntry).value == "5"


async def test_esc_goes_back_to_the_form_and_backspace_to_the_stage_before(tmp_path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "enter", "enter")
        await pilot.pause()
        step = app.screen
        assert isinstance(step, DiceScreen)
        await type_text(pilot, "456")
        await pilot.press("enter", "backspace")
        assert text(step, "dice-prompt") == "roll 3 d6 to hit (4+)"
        assert step.query_one(DiceEntry).value == "4 5 6"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen)
        assert len(app.session.enc.log) == 0


async def test_an_edc_exchange_in_d10s_with_0_as_ten(tmp_path):
    app = app_on(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        step = await edc_exchange_step(pilot, app)
        assert isinstance(step, DiceScreen), app.screen
        prompt = text(step, "dice-prompt")
        assert prompt.endswith("roll 4 d10 to attack (6+)"), prompt
        await type_text(pilot, "0961")  # 0 reads as ten on these dice
        assert text(step, "dice-in") == "in: 10 9 6 1  (4 of 4) · 3 at 6+"
        await odds_in(pilot, step)
        assert text(step, "dice-odds").startswith("given the dice so far: ")
        await pilot.press("enter")
        await pilot.pause()
        assert text(step, "dice-prompt").endswith("roll 3 d10 to defend (6+)")
        await type_text(pilot, "823")
        await pilot.press("R")  # the rest (any press dice) by the tracker
        await until(pilot, lambda: app.session.enc.log[-1].kind == "exchange", "the exchange")
        assert not isinstance(app.screen, DiceScreen | ResolveScreen)
        entry = app.session.enc.log[-1]
        assert [r.value for r in entry.rolls[:7]] == [10, 9, 6, 1, 8, 2, 3]
        assert all(r.source == "entered" for r in entry.rolls[:7])
        assert all(r.source == "rolled" for r in entry.rolls[7:])


async def test_the_dice_step_says_how_to_type_the_die_it_asks_for(tmp_path):
    from tracker.ui.dice_input import DiceEntry

    app = app_on(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        step = await edc_exchange_step(pilot, app)
        assert isinstance(step, DiceScreen), app.screen
        entry = step.query_one(DiceEntry)
        assert entry.placeholder == "one digit a die, 0 (or 10 alone) a ten: 3071 or 3 0 7 1"
        await type_text(pilot, "10")  # a ten, not a 1 and a ten
        assert text(step, "dice-in") == "in: 10  (1 of 4) · 1 at 6+"
        await type_text(pilot, " 961")
        assert text(step, "dice-in") == "in: 10 9 6 1  (4 of 4) · 3 at 6+"


async def test_a_harn_shot_d100_as_tens_and_units_then_the_zone_die(tmp_path):
    app = app_on(tmp_path, "harn-nolora-point-blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await command(pilot, "load Nolora")
        await command(pilot, "injury Sentry level=S2p")  # owed as round 1 ends
        await command(pilot, "next round")
        await pilot.press("f", "m")  # missile
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        step = app.screen
        assert isinstance(step, DiceScreen), app.screen
        assert text(step, "dice-prompt") == "EML85: roll 1 d100 for the missile test (≤ 85)"
        await type_text(pilot, "4 5")  # tens and units typed apart
        assert text(step, "dice-in") == "in: 45  (1 of 1) · 1 at ≤ 85"
        await type_text(pilot, "1")
        assert "this stage takes 1 die" in text(step, "dice-error")
        await pilot.press("enter")  # the 1 was refused: the first Enter stops on the entry
        assert "the 1 was not taken: the entry reads 45" in text(step, "dice-error")
        await pilot.press("enter")
        await pilot.pause()
        prompt = text(step, "dice-prompt")
        assert prompt == "aim ZN1, keep one: roll 3 d6 for the zone struck", prompt
        await type_text(pilot, "345")
        await pilot.press("enter")
        await pilot.pause()
        prompt = text(step, "dice-prompt")
        assert prompt == "strike impact d12+6: roll 1 d12 for the strike impact", prompt
        await type_text(pilot, "7")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.enc.log[-1].kind == "missile", "the shot")
        assert not isinstance(app.screen, DiceScreen | ResolveScreen)
        entry = app.session.enc.log[-1]
        assert [(r.role, r.value) for r in entry.rolls] == [
            ("test", 45), ("zone", 3), ("zone", 4), ("zone", 5), ("impact", 7)]
        assert "= 13 (7+6)" in entry.text
        assert "ZN3" in entry.text


async def test_drive_backs_asked_by_n_with_odds_from_the_rules_alone(tmp_path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await command(pilot, "shoot 'Archers I' 'Empire Knights' --dice hit=4,5,6 save=1,2,3")
        await pilot.press("n")  # the drive back is owed: its dialog opens
        await pilot.pause()
        assert isinstance(app.screen, ResolveScreen)
        await pilot.press("enter")
        await pilot.pause()
        step = app.screen
        assert isinstance(step, DiceScreen)
        assert text(step, "dice-prompt") == (
            "Empire Knights: 3 hits: roll 3 d6 for the drive back")
        await odds_in(pilot, step)
        # endphase gives no odds of its own: the step works them out from its resolver
        assert text(step, "dice-odds").startswith("before any die: ")
        await type_text(pilot, "35")
        await odds_in(pilot, step)
        # a 6 on the last die confuses the knights
        assert text(step, "dice-odds") == (
            "given the dice so far: 0 routed 100.0%\nand: confused 16.7%")
        await type_text(pilot, "6")
        await pilot.press("enter")
        await until(pilot, lambda: len(app.session.enc.log) >= 3, "the drive back and the phase")
        # the end of the phase, then the next phase
        entry = app.session.enc.log[-2]
        assert entry.kind == "endphase" and "driven back 3 + 5 + 6" in entry.text
        assert [(r.role, r.value, r.source) for r in entry.rolls] == [
            ("drive", 3, "entered"), ("drive", 5, "entered"), ("drive", 6, "entered")]



def test_the_player_view_marks_the_dice_the_tracker_rolled(tmp_path):
    from tracker.session.commands import Act
    from tracker.session.opening import load
    from tracker.session.redaction import player_view
    from tracker.session.session import Session

    path = tmp_path / "wm.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)
    session = Session(load(path))
    # what the dice step hands on: three hits typed, the three saves rolled at the GM's word
    cmd = Act("shoot", names=["Archers I", "Empire Knights"],
              dice={"hit": [4, 5, 6], "save": [1, 2, 6]},
              sources={"hit": ["entered"] * 3, "save": ["rolled"] * 3})
    out = session.run(cmd)
    assert out.message.endswith("(tracker-rolled dice: save 1* 2* 6*)")
    for side in ("Empire", None):
        view = player_view(session.enc, side)
        shown = line(1, view.log[-1], undone=False).plain
        assert shown.endswith("[4 5 6 1* 2* 6*]"), shown


async def test_a_second_enter_in_the_action_list_goes_on_to_the_form(tmp_path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # the first Enter picks the action; the second is the form's, typed ahead of it
        burst(app, "f", "enter", "enter")
        await until(pilot, lambda: isinstance(app.screen, DiceScreen), "the dice step")
        assert app.is_running
        assert isinstance(app.screen, DiceScreen)
        assert app.screen_stack[-2].action.name == "shoot"  # type: ignore[attr-defined]


def shown_odds(line: str) -> dict[str, str]:
    """``given the dice so far: A 76.5% · B 23.5%`` as {label: percent}."""
    head, _, rest = line.partition(": ")
    out = {}
    for part in rest.split(" · "):
        if part != "…":
            label, _, pct = part.rpartition(" ")
            out[label] = pct
    return out


async def test_a_warmaster_shot_of_6_dice_moves_to_the_exact_odds_at_the_first_die(tmp_path):
    from math import comb

    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "enter")
        await pilot.pause()
        await fill_field(pilot, app, "shooters", "Archers II")
        await pilot.press("enter")
        await pilot.pause()
        step = app.screen
        assert isinstance(step, DiceScreen)
        assert text(step, "dice-prompt") == "roll 6 d6 to hit (4+)"
        await type_text(pilot, "4")  # one hit in, five dice to come
        await odds_in(pilot, step)
        moved = text(step, "dice-odds").split("\n")
        assert moved[0].startswith("given the dice so far: ")
    # by hand: the hit in goes through unsaved on a 1-3 save (1/2); each of the five
    # dice left hits on 4+ and then fails its 4+ save: 1/4. A stand goes at 3 unsaved.
    unsaved = [Fraction(0)] * 7
    for first in (0, 1):
        for k in range(6):
            unsaved[first + k] += Fraction(1, 2) * Fraction(comb(5, k) * 3 ** (5 - k), 4**5)
    stands = {0: sum(unsaved[:3]), 1: sum(unsaved[3:6]), 2: unsaved[6]}
    # 3, 4 or 5 unsaved: (360 + 105 + 16) of 2,048 (the five dice give 3 with 90 of
    # 1,024 ways, 2 with 270, 4 with 15, 5 with 1; the first hit adds 0 or 1)
    assert stands[1] == Fraction(481, 2048)
    assert shown_odds(moved[0]) == {
        "0 stands removed": percent(float(stands[0])),
        "1 stand removed": percent(float(stands[1])),
        "2 stands removed": percent(float(stands[2])),
    }
    # the drive back: any hit not saved
    assert moved[1] == f"and: drive back {percent(float(1 - unsaved[0]))}"


async def test_an_edc_exchange_4_vs_3_moves_to_the_exact_odds_at_the_first_die(tmp_path):
    import icepool

    app = app_on(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        step = await edc_exchange_step(pilot, app)
        assert isinstance(step, DiceScreen)
        assert text(step, "dice-prompt").endswith("roll 4 d10 to attack (6+)")
        await type_text(pilot, "7")  # one success in, three attack dice to come
        await odds_in(pilot, step)
        moved = text(step, "dice-odds").split("\n")
        assert moved[0].startswith("given the dice so far: ")
    # icepool: the margin of success, one success in and three d10s at 6+ against three
    success = icepool.d10 >= 6
    mos = (1 + 3 @ success) - 3 @ success
    chance = {int(m): mos.probability(m) for m in mos.outcomes()}
    shown = shown_odds(moved[0])
    assert len(shown) == 5
    for label, pct in shown.items():
        m = int(label.split(":")[0].removeprefix("MoS "))
        assert pct == percent(float(chance[m])), label
    assert shown["MoS 1: hit"] == percent(float(chance[1])) == "31.2%"
    # the defence botches on no success and two 1s or more: 13 of the 1,000 ways; the
    # chance of a hit is not said again: the hits shown add up to it
    assert moved[1] == f"and: defense botch {percent(13 / 1000)}"
    hits = [label for label in shown if label.endswith(": hit")]
    assert len(hits) == sum(1 for m in chance if m > 0)


@pytest.mark.parametrize("how", ["one read", "pressed"])
async def test_a_whole_shot_typed_ahead_from_the_main_screen_lands_every_die(tmp_path, how):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    # f: the action list; s: shoot; Enter: its form; Enter: the dice step; the hit dice,
    # Enter; the save dice, Enter; then a note at the command line. Nothing waits for a
    # dialog to open or close.
    keys = ["f", "s", "enter", "enter", "4", "5", "6", "enter", "1", "2", "6", "enter",
            "colon", *"note", "space", "x", "enter"]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if how == "one read":
            burst(app, *keys)
        else:
            await pilot.press(*keys)
        await until(pilot, lambda: len(app.session.enc.log) == 2, "the shot and the note")
        assert not isinstance(app.screen, DiceScreen | ResolveScreen), app.screen
        entry, note = app.session.enc.log[-2:]
        assert note.text == "x"
        assert entry.actor == "Archers I"
        assert [(r.role, r.value, r.source) for r in entry.rolls] == [
            ("hit", 4, "entered"), ("hit", 5, "entered"), ("hit", 6, "entered"),
            ("save", 1, "entered"), ("save", 2, "entered"), ("save", 6, "entered")]
        knights = app.session.enc.find_unit("Empire Knights")
        assert knights.hits == 2  # three hits, one saved


async def test_a_stage_no_die_can_change_is_rolled_by_the_tracker_and_said(tmp_path):
    """d6battle: the French Knights save at 1+ against longbows (save 7, AP 1), so every
    die saves; the GM types the hits and is not asked for the saves."""
    app = app_on(tmp_path, "d6battle-crossbow-duel.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for line_ in ("next", "next"):  # the French resolution, then the English shoot
            assert app.run_line(line_) is None, line_
            await pilot.pause()
        await pilot.press("f", "s", "enter")
        await pilot.pause()
        assert app.screen.query_one("#f-target").value == "French Knights"
        await pilot.press("enter")
        await pilot.pause()
        step = app.screen
        assert isinstance(step, DiceScreen)
        assert text(step, "dice-prompt") == "roll 6 d6 to hit (4+)"
        await type_text(pilot, "456123")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.enc.log[-1].kind == "shoot", "the shot")
        assert not isinstance(app.screen, DiceScreen)  # three hits, all saved: done
        entry = app.session.enc.log[-1]
        saves = [r for r in entry.rolls if r.role == "save"]
        assert [r.source for r in saves] == ["rolled"] * 3
        assert [r.source for r in entry.rolls if r.role == "hit"] == ["entered"] * 6
        assert "3 hits, 3 saved (1+)" in entry.text
        assert "tracker-rolled dice: save" in app.status_message
        assert app.session.enc.find_unit("French Knights").strength == 8


async def test_the_odds_walk_stops_when_the_dice_step_closes(tmp_path, monkeypatch):
    """A walk of the odds that would not end by itself (standing for a long one) stops
    once the GM leaves the dice step: it does not go on taking the CPU behind the form."""
    import time

    from textual.worker import WorkerState

    from tracker.ui.screens import dice_odds

    calls: list[str] = []

    def endless(*args, stale, **kwargs):  # type: ignore[no-untyped-def]
        calls.append("walking")
        while not stale():
            time.sleep(0.005)
        calls.append("stopped")
        raise dice_odds.TooMany

    monkeypatch.setattr(dice_odds, "outcome_odds", endless)
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "enter")
        await pilot.pause()
        await pilot.press("enter")
        step = app.screen
        assert isinstance(step, DiceScreen)
        await until(pilot, lambda: calls == ["walking"], "the walk to begin")
        walkers = [w for w in app.workers if w.group == "dice-odds"]
        await pilot.press("escape")  # back to the form: the step is gone
        await until(pilot, lambda: not isinstance(app.screen, DiceScreen), "the form")
        await until(pilot, lambda: calls == ["walking", "stopped"], "the walk to stop")
        assert all(w.state in (WorkerState.CANCELLED, WorkerState.SUCCESS) for w in walkers)


def test_the_odds_before_any_die_go_on_screen_once():
    """Before any die the odds are shown at once, while the walk over the dice goes on;
    the walk's end does not put the same words up a second time. After a die, the odds
    given the dice so far are the answer."""
    shoot = get("warmaster").action("shoot")
    params = shoot.parse_params({"attacks": "3", "armour": "4"})
    shown: list[str] = []
    memo: Memo = {}
    answer = odds_lines(shoot, params, {}, lambda: False, memo, shown.append)
    assert answer is None
    assert len(shown) == 1 and shown[0].startswith("before any die: ")
    answer = odds_lines(shoot, params, {"hit": [6]}, lambda: False, memo, shown.append)
    assert answer is not None and answer.startswith("given the dice so far: ")
    assert len(shown) == 1


async def test_enter_right_after_a_refused_key_stops_on_the_entry(tmp_path):
    """A GM who types 25 for a d20 and Enter at once meant no 2: the 5 is refused as it
    is typed, and the Enter that follows stops on the entry and says what it reads; a
    second Enter takes it."""
    app = app_on(tmp_path, "plain-goblin-ambush.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "enter")  # Tam attacks
        await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the form")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DiceScreen), "the dice step")
        step = app.screen
        burst(app, "2", "5", "enter")  # as fast as a GM types
        await until(pilot, lambda: "not taken" in text(step, "dice-error"), "the refusal")
        assert app.screen is step
        assert step.query_one(DiceEntry).value == "2"
        assert "the 5 was not taken: the entry reads 2" in text(step, "dice-error")
        before = len(app.session.enc.log)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is not step, "the attack taken")
        await until(pilot, lambda: len(app.session.enc.log) > before, "the attack logged")
        assert "Tam attacks Goblin 2: 2+6 = 8 vs AC 15: miss" in app.session.enc.log[-1].text


async def test_a_form_without_odds_says_whether_it_reads(tmp_path):
    """An action with no dice (a load) has no odds to show, but its form still says
    whether it reads before Enter: ready, or what is wrong."""
    app = app_on(tmp_path, "harn-nolora-volley.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await command(pilot, "next round")  # round 3: Nolora's bow is unloaded
        await pilot.press("f", "l", "enter")  # load
        await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the form")
        form = app.screen
        await until(pilot, lambda: form.odds_settled, "the form read")
        assert text(form, "odds") == "the form reads, no dice to roll: Enter takes it"
        await fill_field(pilot, app, "weapon", "thrown")
        await until(pilot, lambda: "thrown" in text(form, "odds"), "the form read again")
        assert text(form, "odds") == ("(fill the form: Nolora: thrown weapons have no "
                                      "Load action)")


async def test_backspace_right_after_a_refused_key_takes_back_only_that_key(tmp_path):
    """A GM who types 7 for a d6 sees it refused and presses Backspace to delete it: that
    Backspace clears the refusal and stays on the stage (the entry never held the 7); only
    a Backspace on an empty entry with nothing refused goes back to the stage before."""
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "enter")
        await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the form")
        await pilot.press("enter")  # Archers I: 3 dice to hit, then the saves
        await until(pilot, lambda: isinstance(app.screen, DiceScreen), "the dice step")
        step = app.screen
        await pilot.press("4", "5", "6", "enter")
        await until(pilot, lambda: "to save" in text(step, "dice-prompt"), "the saves")
        saves = text(step, "dice-prompt")
        await pilot.press("7")
        assert text(step, "dice-error") == "a d6 shows 1 to 6, not 7"
        await pilot.press("backspace")
        await settled(pilot)
        assert text(step, "dice-prompt") == saves and text(step, "dice-error") == ""
        await pilot.press("3", "9", "backspace")  # a die in, then a refused one taken back
        await settled(pilot)
        assert step.query_one(DiceEntry).value == "3"
        await pilot.press("backspace", "backspace")  # the 3, then back to the hits
        await until(pilot, lambda: "to hit" in text(step, "dice-prompt"), "the stage before")
        # a refusal longer than the step is wide wraps inside it, whole
        await pilot.press("1", "enter")  # the entry holds 4 5 6 again: a fourth die
        said = "the 1 was not taken: the entry reads 4 5 6; Enter again takes it as it stands"
        await until(pilot, lambda: text(step, "dice-error") == said, "the refusal")
        await settled(pilot)
        error = step.query_one("#dice-error", Label)
        assert error.size.height == 2 and error.size.width < len(said)
        assert step.query_one(".dice-step").region.contains_region(error.region)
