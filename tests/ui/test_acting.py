"""The actor an action's dialog offers first: whoever acts now, and can take it."""

from __future__ import annotations

from tests.ui.test_short_forms import app_on
from tests.ui.wait import settled, until
from tracker.ui.screens.resolve import ResolveScreen


async def to_the_morale_tests(app, pilot) -> None:  # type: ignore[no-untyped-def]
    """Warlord's sample: the last two units hold fire, and phase eight ends."""
    await pilot.pause()
    for line in ("holdfire 'Human longbowmen'", "holdfire \"Morgab's goblin archers\"",
                 "next"):
        assert app.run_line(line) is None, line
        await pilot.pause()


async def to_the_morale_dialog(app, pilot) -> None:  # type: ignore[no-untyped-def]
    """On to the morale tests, then n: the test owed opens its dialog."""
    await to_the_morale_tests(app, pilot)
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the morale dialog")


async def test_shooting_offers_the_first_unit_of_the_side_that_can_shoot(tmp_path):
    app = app_on(tmp_path, "d6battle-crossbow-duel.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(2):  # combat, resolution, then the English shoot
            await pilot.press("n")
            await pilot.pause()
        assert "Turn: English, shoot" in str(app.query_one("#status").render())
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("enter")  # shoot, the first action
        await settled(pilot)
        # Men-at-Arms (no missile weapon) come first on the roster; the Longbowmen shoot
        assert app.screen.query_one("#f-actor").value == "Longbowmen"


async def test_warmaster_shooting_offers_a_unit_with_shooting_attacks(tmp_path):
    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for line in ("next phase", "next phase", "next phase", "next phase"):
            assert app.run_line(line) is None, line  # on to the Empire's shooting
            await pilot.pause()
        assert app.session.play.where().phase == "shooting"
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("s")
        await pilot.press("enter")
        await settled(pilot)
        # the Empire Knights (attacks 3/0) come first on the roster; the Crossbowmen shoot
        assert app.screen.query_one("#f-actor").value == "Crossbowmen"


async def test_when_every_side_fires_at_once_the_first_unit_still_to_fire_is_offered(tmp_path):
    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("enter")  # fire, the first action
        await settled(pilot)
        # the Wood elf guards, first on the roster, have fired; the longbowmen have not
        assert app.screen.query_one("#f-actor").value == "Human longbowmen"


async def test_a_duty_the_roster_names_is_said_once_in_the_state(tmp_path):
    from tracker.rules.columns import STATE
    from tracker.ui.panes.roster import RosterPane

    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_morale_tests(app, pilot)
        pane = app.query_one(RosterPane)
        orcs = app.session.enc.find_unit("Orc warband")
        state = pane._texts(orcs)[list(pane.roster.columns).index(STATE)]
        assert state.split(", ").count("morale test") == 1, state


async def test_a_duty_opens_its_dialog_for_the_unit_that_owes_it(tmp_path):
    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        # only the Orc warband holds casualties, so only it tests; the Wood elf guards
        # stand first on the roster and under the cursor
        await to_the_morale_dialog(app, pilot)
        assert app.screen.query_one("#f-actor").value == "Orc warband"
        await pilot.press("enter")
        await until(pilot, lambda: app.session.enc.position.round == 2, "the next round")
        assert app.session.enc.log[-2].text == "Orc warband passed its morale test"
        assert app.session.enc.position.round == 2


async def test_the_status_says_the_duty_dialog_is_open_and_how_to_leave_it(tmp_path):
    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_morale_dialog(app, pilot)
        status = str(app.query_one("#status").render())
        assert status.startswith("the morale tests phase cannot end yet: morale tests "
                                 "(Orc warband: morale test)"), status
        assert status.endswith("its morale dialog is open (Esc leaves it undone, and "
                               "asks first)"), status


async def test_a_form_asks_the_unit_once_not_its_name_for_the_log_beside_it(tmp_path):
    from tests.ui.test_short_forms import shown

    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_morale_dialog(app, pilot)
        assert shown(app.screen) == ["actor", "result", "note"]
        for name in ("order", "fire", "holdfire", "movefire"):
            form = ResolveScreen(app.session, app.session.ruleset.action(name), {},
                                 app.run_command)
            fields = [f.name for f in form.fields]
            assert "actor" in fields and not [f for f in fields if f.endswith("_name")], name


async def test_an_n_typed_ahead_never_lands_in_the_fields_of_the_duty_n_opens(tmp_path):
    from tests.ui.keys import burst

    app = app_on(tmp_path, "warlord-wood-elves.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_morale_tests(app, pilot)
        burst(app, "n", "n")  # the GM presses n twice before the morale dialog is up
        await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the morale dialog")
        await settled(pilot)
        assert app.screen.query_one("#f-actor").value == "Orc warband"
        status = app.status_message
        assert status.endswith("; typed ahead, not used: n"), status
        # the keys typed once the dialog is up are the GM's answer, and go to it
        burst(app, "enter")
        await until(pilot, lambda: app.session.enc.position.round == 2, "the next round")
        assert app.session.enc.log[-2].text == "Orc warband passed its morale test"


async def test_the_action_list_greys_what_the_unit_may_not_do_now_and_says_why(tmp_path):
    from textual.widgets import Label, OptionList

    from tests.ui.keys import command
    from tracker.ui.screens.picker import PickerScreen

    app = app_on(tmp_path, "warmaster-river-crossing.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await command(pilot, "shoot 'Archers I' Handgunners --dice hit=1,2,3")  # all miss
        await pilot.press("home")  # back on Archers I, who has shot
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, PickerScreen), "the action list")
        picker = app.screen
        options = picker.query_one(OptionList)
        shoot = options.get_option("shoot")
        prompt = shoot.prompt  # the name and its words in two columns
        shown = " ".join(str(cell) for column in prompt.columns for cell in column.cells)
        assert shown.startswith("shoot not now: Archers I has already shot this phase"), shown
        # what Archers I may still do comes first; shoot after it, and the drive back
        # (every shot missed: no unit owes one)
        assert [key for key, _ in picker.items] == ["endphase", "shoot", "driveback"]
        assert picker.refused["driveback"] == ("no unit owes a drive back: none in play took"
                                               " hits this phase")
        await pilot.press("s")
        assert picker.items[options.highlighted][0] == "shoot"
        await pilot.press("enter")  # said, and no form opens
        await settled(pilot)
        assert app.screen is picker
        why = str(picker.query_one("#picker-why", Label).render())
        assert why.startswith("shoot: Archers I has already shot this phase"), why
        await pilot.press("escape")
        await settled(pilot)
        # in the combat phase no unit shoots, and the drive backs are done: with nothing
        # it may do, f says so, and neither a list nor a form opens
        await command(pilot, "next phase")
        assert app.session.play.where().phase == "combat"
        await pilot.press("f")
        await settled(pilot)
        assert not isinstance(app.screen, PickerScreen | ResolveScreen)
        status = app.status_message
        assert status == ("shoot is taken in the shooting or movement phase, not in the combat"
                          " phase"), status


async def test_an_action_a_duty_blocks_is_refused_before_its_form_as_the_list_greys_it(
        tmp_path):
    """One refusal: the action list's reason and the form's are the same words."""
    from tests.ui.keys import command

    app = app_on(tmp_path, "d6battle-crossbow-duel.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = app.session
        for _ in range(12):  # on to the English shooting phase
            where = session.play.where()
            if (where.side, where.phase) == ("English", "shoot"):
                break
            await command(pilot, "next phase force")
        await command(pilot, "shoot Longbowmen Foot --dice hit=6,6,6,6,6,6 save=1,1,1,1,1,1")
        shoot = session.ruleset.action("shoot")
        why = session.why_not(shoot, None)
        assert why.startswith("morale tests first (Foot Sergeants: morale test)"), why
        app.open_action("shoot")
        await settled(pilot)
        assert not isinstance(app.screen, ResolveScreen)
        assert app.status_message == why + " (force=yes at the : line takes it anyway)"


async def test_an_action_that_does_a_duty_opens_for_the_one_who_owes_it(tmp_path):
    """The morale test a volley owes is the French Foot Sergeants', in the English
    shooting phase: picked from the action list, its form names them, not an English
    unit."""
    from tests.ui.keys import command

    app = app_on(tmp_path, "d6battle-crossbow-duel.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = app.session
        for _ in range(12):
            where = session.play.where()
            if (where.side, where.phase) == ("English", "shoot"):
                break
            await command(pilot, "next phase force")
        await command(pilot, "shoot Longbowmen Foot --dice hit=6,6,6,6,6,6 save=1,1,1,1,1,1")
        app.open_action("morale")
        await until(pilot, lambda: isinstance(app.screen, ResolveScreen), "the morale form")
        await settled(pilot)
        assert app.screen.query_one("#f-actor").value == "Foot Sergeants"


def test_a_greyed_action_s_reason_does_not_name_it_twice():
    """harn's throw is refused with "throw: a bow is shot, not thrown (use shoot)"; its
    line in the list leads with its name already."""
    from tracker.ui.screens.picker import PickerScreen

    picker = PickerScreen("Resolve which action?", [("throw", "throw        Throw")],
                          refused={"throw": "throw: a bow is shot, not thrown (use shoot)"})
    prompt = picker._prompt("throw", "throw        Throw")
    shown = " ".join(str(cell) for column in prompt.columns for cell in column.cells)
    assert shown == "throw not now: a bow is shot, not thrown (use shoot)"


def test_an_action_out_of_its_phase_is_greyed_without_naming_it_twice():
    from tracker.ui.screens.picker import PickerScreen

    why = "order is taken in the before missile fire (1-7) phase, not in the missile fire phase"
    picker = PickerScreen("Resolve which action?", [("order", "order        Give orders")],
                          refused={"order": why})
    prompt = picker._prompt("order", "order        Give orders")
    shown = " ".join(str(cell) for column in prompt.columns for cell in column.cells)
    assert shown == ("order not now: taken in the before missile fire (1-7) phase, not in "
                     "the missile fire phase")


async def test_an_action_no_force_takes_is_greyed_cannot_and_offers_no_force(tmp_path):
    """Nolora carries a bow: span is greyed "cannot" (no force=yes gives her a crossbow)
    and Enter on it says why without offering force; shoot, refused until she loads, is
    "not now" and offers it."""
    from textual.widgets import Label, OptionList

    from tracker.ui.screens.picker import PickerScreen

    app = app_on(tmp_path, "harn-nolora-point-blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, PickerScreen), "the action list")
        picker = app.screen
        options = picker.query_one(OptionList)

        def line(key):
            prompt = options.get_option(key).prompt
            return " ".join(str(cell) for column in prompt.columns for cell in column.cells)

        assert line("span") == "span cannot: Nolora's weapon is a bow: only a crossbow is spanned"
        assert line("shoot").startswith("shoot not now: Nolora's DRW100 bow is not loaded")
        keys = [key for key, _ in picker.items]
        options.highlighted = keys.index("span")
        await pilot.press("enter")
        await settled(pilot)
        why = str(picker.query_one("#picker-why", Label).render())
        assert why == "span: Nolora's weapon is a bow: only a crossbow is spanned"
        options.highlighted = keys.index("shoot")
        await pilot.press("enter")
        await settled(pilot)
        why = str(picker.query_one("#picker-why", Label).render())
        assert why.endswith("(force=yes at the : line takes it anyway)"), why
