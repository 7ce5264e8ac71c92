"""The GM's app driven by keys alone, as at the table (Textual's Pilot)."""

from __future__ import annotations

import shutil
from pathlib import Path

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.widgets import Input, Static

from tests.conftest import SAVES, LockHolder
from tests.ui.keys import burst, command, keys_for, type_text
from tests.ui.wait import settled, until
from tracker.core.turns import current_actor
from tracker.session.opening import load, open_encounter
from tracker.store.lock import lock_path
from tracker.ui.app import TrackerApp
from tracker.ui.screens.confirm import ConfirmScreen
from tracker.ui.screens.form import FormScreen
from tracker.ui.screens.help import HelpScreen


def app_for(path: Path) -> TrackerApp:
    return TrackerApp(open_encounter(path), theme="tracker-dark")


def app_on_sample(tmp_path: Path, sample: str) -> TrackerApp:
    """The app on a copy of a shipped sample."""
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return app_for(path)


def actor(app: TrackerApp) -> str | None:
    return current_actor(app.session.enc)


def status(app: TrackerApp) -> str:
    return str(app.query_one("#status", Static).render())


async def test_add_two_combatants_advance_undo_quit_and_resume(skirmish_file):
    app = app_for(skirmish_file)
    async with app.run_test(size=(80, 24)) as pilot:
        for name, init in (("Wolf", "20"), ("Hawk", "2")):
            await pilot.press("a")
            assert isinstance(app.screen, FormScreen)
            await type_text(pilot, name)
            await pilot.press("tab", "tab")  # name -> side -> initiative
            field = app.screen.focused
            assert isinstance(field, Input) and field.id == "f-initiative"
            await pilot.press("ctrl+a", "ctrl+k")
            await type_text(pilot, init)
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, FormScreen), status(app)
        names = [c.name for c in app.session.enc.combatants]
        assert names[-2:] == ["Wolf", "Hawk"]
        # Wolf joined above Aldo before Aldo acted: Wolf's place this round has not passed
        assert actor(app) == "wolf"
        await pilot.press("n", "n")
        assert actor(app) == "grak"
        await pilot.press("u")
        assert actor(app) == "aldo"
        assert "Undone" in status(app)
        await pilot.press("q")
    enc = load(skirmish_file)
    assert current_actor(enc) == "aldo" and enc.find_combatant("hawk").initiative == 2
    again = app_for(skirmish_file)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.press("u")  # undo survives the restart
        assert actor(again) == "wolf"
        await pilot.press("u", "u")
        assert all(c.name != "Hawk" for c in again.session.enc.combatants)
        await pilot.press("ctrl+r")  # Wolf joined first, so comes back first
        assert again.session.enc.find_combatant("wolf").initiative == 20
        await pilot.press("q")


async def test_the_command_line_runs_commands_and_shows_errors(skirmish_file):
    app = app_for(skirmish_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon")
        await type_text(pilot, "next round")
        await pilot.press("enter")
        assert app.session.enc.position.round == 2
        assert "Round 2" in str(app.query_one("#topbar", Static).render())
        await pilot.press("colon")
        await type_text(pilot, "set nobody x=1")
        await pilot.press("enter")
        assert "no combatant named 'nobody'" in status(app)
        assert app.query_one("#status").has_class("error")
        await pilot.press("colon", "up")
        assert app.focused.value == "set nobody x=1"
        await pilot.press("escape")
        assert not app.query_one("#cmdline").is_open


async def test_help_lists_every_key(skirmish_file):
    app = app_for(skirmish_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = {row[0] for _, rows in app.screen.keys for row in rows}
        for key in (":", "n", "N", "p", "f", "E", "a", "e", "u", "ctrl+r", "?", "q", "o", "v"):
            assert any(key in k.split(" / ") for k in keys), key
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_help_says_what_each_key_does_under_the_pane_it_works_in(skirmish_file):
    app = app_for(skirmish_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        groups = dict(app.screen.keys)
        main = dict(groups["On the main screen"])
        assert main["n"].startswith("next to act: the next combatant")
        assert main["N"].startswith("next round")
        assert dict(groups["In the unit roster"])["o"].startswith("sort the units")
        assert "[" in dict(groups["In the log"])
        assert dict(groups["At a question"])["n / Enter / Esc"].startswith("no")
        # every key of the app and its panes says what it does, not the footer's word
        words = [what for where in ("On the main screen", "In the unit roster", "In the log")
                 for _, what in groups[where]]
        assert not [w for w in words if " " not in w], words
        assert not any("anywhere" in where for where in groups)


async def test_edit_and_remove_the_selected_combatant(skirmish_file):
    app = app_for(skirmish_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")  # Aldo, Grak, Bree in order: Grak
        assert app.selected == "grak"
        await pilot.press("e")
        assert isinstance(app.screen, FormScreen)
        await pilot.press("tab", "tab")
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "x")
        await pilot.press("enter")
        assert "initiative=x" in str(app.screen.query_one("#form-error").render())
        await pilot.press("ctrl+a", "ctrl+k", "5", "enter")
        await pilot.pause()
        assert app.session.enc.find_combatant("grak").initiative == 5
        await pilot.press("x", "y")
        assert all(c.id != "grak" for c in app.session.enc.combatants)


async def test_every_question_takes_y_or_n_and_enter_gives_the_safe_answer(skirmish_file):
    app = app_for(skirmish_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")  # Aldo, under the cursor
        assert isinstance(app.screen, ConfirmScreen)
        assert str(app.screen.query(".dialog-hint").last().render()) == (
            "y: remove    n / Enter / Esc: keep")
        await pilot.press("enter")  # Enter keeps him
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert any(c.id == "aldo" for c in app.session.enc.combatants)
        await pilot.press("x", "n")
        await pilot.pause()
        assert any(c.id == "aldo" for c in app.session.enc.combatants)
        await pilot.press("x", "y")
        await pilot.pause()
        assert all(c.id != "aldo" for c in app.session.enc.combatants)


async def test_a_read_only_opener_cannot_change_anything(skirmish_file):
    other = LockHolder(skirmish_file)
    before = skirmish_file.read_bytes()
    try:
        second = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
        async with second.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(second.screen, ConfirmScreen)  # take it over?
            assert "pid" in second.screen.question
            await pilot.press("n")  # no: a read-only view
            assert "READ-ONLY" in str(second.query_one("#topbar", Static).render())
            await pilot.press("n")
            assert "read-only" in status(second)
            assert second.session.enc.position.turn == 0
            await pilot.press("q")
    finally:
        other.__exit__()
    assert skirmish_file.read_bytes() == before
    assert lock_path(skirmish_file).read_text().startswith(str(other.proc.pid))


async def test_warmaster_shooting_from_the_act_dialog(tmp_path):
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        await command(pilot, "shoot 'Archers I' 'Empire Knights' --dice hit=1,4,6 save=2,3")
        knights = app.session.enc.find_unit("Empire Knights")
        assert knights.hits == 2 and knights.leftover_hits == 2, status(app)
        await pilot.press("f")
        await pilot.press("enter")  # the first action: shoot
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ResolveScreen"
        await pilot.press("escape")
        await pilot.press("q")
    assert load(app.session.path).find_unit("Empire Knights").hits == 2


async def test_a_broken_theme_falls_back_with_a_notice(skirmish_file, tracker_home):
    themes = tracker_home / "themes"
    themes.mkdir(parents=True)
    (themes / "broken.toml").write_text('name = "broken"\nprimary = "not-a-colour"\n')
    app = TrackerApp(open_encounter(skirmish_file), theme="broken")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "tracker-dark"
        assert not app._notifications  # said in the status line: nothing covers a pane
        message = app.status_message
        assert "broken.toml" in message and "primary" in message, message
        assert "theme 'broken' not found" in message, message


def ansi_red(app: TrackerApp) -> tuple[int, int, int] | int | None:
    """How the app draws the terminal's red: a true colour, or the ANSI colour itself."""
    line = [Segment("x", Style(color="red"))]
    for line_filter in app.get_line_filters():
        line = line_filter.apply(line, Color(0, 0, 0))
    colour = line[0].style.color if line[0].style else None
    assert colour is not None
    return tuple(colour.triplet) if colour.triplet else colour.number


async def test_the_theme_asked_for_is_drawn_with_its_colours_and_ansi_filter(tmp_path):
    """The theme named at start is the one drawn, the terminal's colours given the true
    colours of a light or a dark theme (or left alone, for an ANSI theme)."""
    path = tmp_path / "battle.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)

    def background(app: TrackerApp, name: str) -> Color:
        theme = app.get_theme(name)
        assert theme is not None and theme.background is not None
        return Color.parse(theme.background)

    app = TrackerApp(open_encounter(path), theme="tracker-light")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "tracker-light" and "-light-mode" in app.classes
        assert app.screen.styles.background == background(app, "tracker-light")
        assert ansi_red(app) == tuple(app.ansi_theme_light.ansi_colors[1])
        app.theme = "tracker-dark"  # while running, the usual way
        await pilot.pause()
        assert app.screen.styles.background == background(app, "tracker-dark")
        assert "-dark-mode" in app.classes and "-light-mode" not in app.classes
        assert ansi_red(app) == tuple(app.ansi_theme_dark.ansi_colors[1])
    app = TrackerApp(open_encounter(path), theme="tracker-16")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "-theme-tracker-16" in app.classes
        assert ansi_red(app) == 1  # the terminal's own red


async def test_the_footer_is_rebuilt_only_when_its_keys_change(tmp_path, monkeypatch):
    from textual.widgets import Footer

    from tracker.ui.footer import KeyFooter

    rebuilt: list[int] = []
    recompose = Footer.recompose

    async def counted(self: Footer) -> None:
        rebuilt.append(1)
        await recompose(self)

    monkeypatch.setattr(Footer, "recompose", counted)
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        footer = app.query_one(KeyFooter)
        assert len(rebuilt) == 1  # focus, app focus and the screen's start change nothing
        shown = footer._shown
        assert shown and any(key[2] == "Act" for key in shown)
        await pilot.press("colon")  # the command line turns the letter keys off
        await pilot.pause()
        assert len(rebuilt) == 2 and footer._shown != shown
        await pilot.press("escape")
        await pilot.pause()
        assert len(rebuilt) == 3 and footer._shown == shown


async def test_the_end_of_phase_key_opens_the_rulesets_end_of_phase(tmp_path):
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ResolveScreen"
        assert app.screen.action.name == "endphase"


async def test_a_refused_dialog_keeps_what_the_encounter_filled_in(tmp_path):
    """Roland has no CP left in the round's second exchange: asking for 3 attack dice is
    refused, and ATN and DTN stay."""
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(100, 40)) as pilot:
        await command(pilot, "next phase")
        assert app.session.enc.find_combatant("Roland").pool("CP").left == 0
        await pilot.press("f", "enter")  # the first action: exchange
        await pilot.pause()
        screen = app.screen
        assert screen.__class__.__name__ == "ResolveScreen"
        assert screen.action.name == "exchange"
        atn, dtn = screen.query_one("#f-atn", Input), screen.query_one("#f-dtn", Input)
        filled = (atn.value, dtn.value)
        assert all(filled), filled
        screen.query_one("#f-attack_dice", Input).focus()
        await type_text(pilot, "3")
        await pilot.pause()
        await screen.workers.wait_for_complete()
        await pilot.pause()
        assert (atn.value, dtn.value) == filled
        odds = str(screen.query_one("#odds", Static).render())
        assert "Roland has 0 CP left; the attack needs 3" in odds, odds


async def test_keys_that_arrive_in_one_burst_all_stay_in_the_dialog(tmp_path):
    """Over SSH a GM's keys come in bursts: clearing a field and typing must both land."""
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(100, 40)) as pilot:
        # a new round, Jacques' blood loss test as it begins: Roland's CP is back
        await command(pilot, "next round --dice toughness=1,2,7,8")
        await pilot.press("f", "enter")
        await pilot.pause()
        screen = app.screen
        assert screen.action.name == "exchange"
        box = screen.query_one("#f-defense_dice", Input)
        assert box.value == "0" and "follows" in box.classes
        box.value = ""  # ctrl+k, then a key, before the app has handled either change
        box.value = "3"
        await pilot.pause()
        assert box.value == "3" and "follows" not in box.classes
        assert "defense_dice=3" in screen._line(screen.values())
        # typing back what the encounter gives makes the field follow it again
        box.value = "0"
        await pilot.pause()
        assert "follows" in box.classes


async def test_tab_and_the_next_key_in_one_burst_land_in_the_next_field(tmp_path):
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(100, 40)) as pilot:
        await command(pilot, "next round --dice toughness=1,2,7,8")
        await pilot.press("f", "enter")
        await pilot.pause()
        screen = app.screen
        assert screen.focused is not None and screen.focused.id == "f-attacker"
        burst(app, "tab", "tab", "7", "down", "down", "backspace", "4")
        await settled(pilot)
        values = screen.values()
        assert (values["attacker"], values["attack_dice"], values["defense_dice"]) \
            == ("Roland", "7", "4")


async def test_the_apps_letters_are_text_in_a_dialog_and_keys_typed_ahead_reach_it(tmp_path):
    """Every key of the main screen is a letter someone may type in a name; and a GM who
    types 'a' and a name at once finds the whole name in the form."""
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        before = (app.session.enc.position.model_dump(), len(app.session.enc.log))
        name = "Nap quest: fexuwEs? tN"  # every letter the main screen binds, and : ?
        burst(app, "a", *keys_for(name), "tab", "tab", "1", "2")
        await settled(pilot)
        screen = app.screen
        assert isinstance(screen, FormScreen)
        values = screen.values()
        # the third field of an Esprit de Corps fighter is Reflex, which orders acting
        assert (values["name"], values["reflex"]) == (name, "12")
        assert (app.session.enc.position.model_dump(), len(app.session.enc.log)) == before
        await pilot.press("escape")
        assert app.is_running


async def test_a_first_letter_picks_an_action_blind(tmp_path):
    app = app_on_sample(tmp_path, "harn-nolora-point-blank.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        burst(app, "f", "l", "enter")  # typed ahead of the list
        await settled(pilot)
        assert app.screen.action.name == "load"
        await pilot.press("escape", "f")
        await pilot.pause()
        picker = app.screen
        options = picker.query_one("OptionList")
        highlighted = []
        # what Nolora may still do this round comes first, what she may not after it, in
        # the list's order (aim: she has shot this round; abandon: nothing under way)
        for _ in range(3):  # aim, abandon, then round to aim again
            await pilot.press("a")
            highlighted.append(picker.items[options.highlighted][0])
        assert highlighted == ["aim", "abandon", "aim"]
        await pilot.press("z")  # no action starts with z: nothing moves
        assert picker.items[options.highlighted][0] == "aim"


async def test_the_focused_field_says_what_it_is_for_and_a_setting_its_default(tmp_path):
    app = app_on_sample(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        help_line = app.screen.query_one("#field-help", Static)
        assert str(help_line.render()).startswith("remainder_rounding: ")
        await pilot.press("tab")
        text = " ".join(str(help_line.render()).split())
        assert text.startswith("morale_test_when: which units test morale")
        assert text.endswith("; default any_loss")


async def test_a_summary_the_ruleset_cannot_make_leaves_the_pane_drawn(
    tmp_path, tracker_home, monkeypatch
):
    app = app_on_sample(tmp_path, "edc-roland-press.toml")

    def broken(_who):  # type: ignore[no-untyped-def]
        raise KeyError("CP")

    monkeypatch.setattr(app.session.ruleset, "describe_combatant", broken)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        detail = str(app.query_one("#combatant-detail", Static).render())
        assert detail.startswith("Roland · party: reflex 7"), detail
    assert "summing up Roland" in (tracker_home / "errors.log").read_text()


async def test_moving_the_cursor_and_acting_in_one_burst_act_on_the_row_moved_to(tmp_path):
    app = app_on_sample(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        burst(app, "down", "e")
        await settled(pilot)
        assert app.screen.title_text == "Edit Archers II"
        await pilot.press("escape")
        burst(app, "down", "x", "y")  # the Bolt Thrower, removed at once
        await until(pilot, lambda: all(u.name != "Bolt Thrower" for u in app.session.enc.units),
                    "the Bolt Thrower removed")
        names = [u.name for u in app.session.enc.units]
        assert "Bolt Thrower" not in names and "Archers II" in names


async def test_the_command_palette_runs_the_apps_keys_by_name(tmp_path):
    app = app_on_sample(tmp_path, "edc-roland-press.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()

        def acting() -> str | None:
            return current_actor(app.session.enc, app.session.ruleset.order_stat)

        assert acting() == "roland"
        await pilot.press("ctrl+p")
        await type_text(pilot, "Next (n)")
        await settled(pilot)  # the palette searches in a worker
        await pilot.press("enter")
        await until(pilot, lambda: len(app.screen_stack) == 1, "the palette to close")
        assert len(app.screen_stack) == 1
        assert acting() == "marguerite"
