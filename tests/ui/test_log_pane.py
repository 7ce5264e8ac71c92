"""The log pane shows the newest entries of a long log and follows new ones."""

from __future__ import annotations

from tests.ui.keys import command
from tracker.session.opening import load, open_encounter
from tracker.session.session import Session
from tracker.store import save_encounter
from tracker.ui.app import TrackerApp
from tracker.ui.logview import LogView
from tracker.ui.panes.log import SHOWN


def app_with_notes(path, count: int) -> TrackerApp:  # type: ignore[no-untyped-def]
    """The app on a save whose log is ``count`` notes, 'entry 1' to 'entry N'."""
    session = Session(load(path), path)
    for n in range(1, count + 1):
        session.execute(f"note entry {n}")
    save_encounter(session.enc, path)
    return TrackerApp(open_encounter(path), theme="tracker-dark")


async def test_a_long_log_opens_with_its_newest_entries_and_reads_no_more(skirmish_file):
    app = app_with_notes(skirmish_file, SHOWN + 50)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        view = app.query_one(LogView)
        rows = [line.plain for line in view.lines]
        assert rows[0] == "r1 entry 51" and rows[-1] == f"r1 entry {SHOWN + 50}"
        assert app.session.enc.log.in_memory == SHOWN  # the journal was read that far only
        assert view.is_vertical_scroll_end
        await command(pilot, "note latest")
        assert view.lines[-1].plain == "r1 latest" and view.is_vertical_scroll_end


async def test_the_first_screen_reads_only_the_entries_it_can_show(
    skirmish_file, monkeypatch
):
    """Before the first screen, twice the terminal's height of the newest entries are
    read from the journal; the rest of the newest 200 come in above them after it."""
    from tracker.ui.panes.log import LogPane

    read_before: list[int] = []
    write_older = LogPane._write_older

    def recorded(self, *args):  # type: ignore[no-untyped-def]
        read_before.append(app.session.enc.log.in_memory)
        write_older(self, *args)

    monkeypatch.setattr(LogPane, "_write_older", recorded)
    app = app_with_notes(skirmish_file, SHOWN + 50)
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        assert read_before == [60]
        view = app.query_one(LogView)
        assert app.session.enc.log.in_memory == SHOWN and view.is_vertical_scroll_end
        rows = [line.plain for line in view.lines]
        assert rows == [f"r1 entry {n}" for n in range(51, SHOWN + 51)]
        # an undo redraws the log: older entries are drawn once, for the new drawing
        await pilot.press("u")
        await pilot.pause()
        rows = [line.plain for line in view.lines]
        assert len(rows) == SHOWN and rows[-1] == f"r1 entry {SHOWN + 50}"
        assert len(read_before) == 2


async def test_a_long_entry_is_one_row_cut_to_the_pane_at_any_width(skirmish_file):
    """One row an entry, never wrapped to the pane's first column; the whole entry is
    the Enter key's (and the report's)."""
    session = Session(load(skirmish_file), skirmish_file)
    session.execute("note " + " ".join(["volley"] * 40))
    session.execute("note short")
    save_encounter(session.enc, skirmish_file)
    app = TrackerApp(open_encounter(skirmish_file), theme="tracker-dark")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        view = app.query_one(LogView)
        for size in ((100, 40), (80, 24)):
            rows = [line.plain for line in view.lines]
            assert rows[-1] == "r1 short"
            assert rows[-2].startswith("r1 volley volley") and rows[-2].endswith("…")
            assert len(rows[-2]) <= view.size.width
            await pilot.resize_terminal(*size)
            await pilot.pause()


def _row_text(view: LogView, y: int) -> str:
    return "".join(segment.text for segment in view.render_line(y)).rstrip()


async def test_the_older_entries_are_wrapped_once_the_first_screen_is_drawn(skirmish_file):
    app = app_with_notes(skirmish_file, SHOWN)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        view = app.query_one(LogView)
        # all rows are in the scroll area without asking for them
        assert view.virtual_size.height == SHOWN
        view.scroll_home(animate=False, immediate=True)
        await pilot.pause()
        assert _row_text(view, 0) == "r1 entry 1"

        # a new width wraps the newest rows first; a GM who scrolled up into them
        # before the older ones land keeps the same row at the top of the view
        view._width = 0
        view.on_resize(None)  # type: ignore[arg-type]
        tail = len(view._rows)
        assert 0 < tail < SHOWN
        view.scroll_to(y=3, animate=False, immediate=True)
        assert _row_text(view, 0) == f"r1 entry {SHOWN - tail + 4}"
        view._wrap_older()
        assert len(view._rows) == SHOWN
        assert _row_text(view, 0) == f"r1 entry {SHOWN - tail + 4}"


async def test_a_refresh_redraws_the_log_only_when_it_changed(skirmish_file):
    app = app_with_notes(skirmish_file, 5)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        view = app.query_one(LogView)
        rows = view._rows
        app.refresh_panes()  # nothing new: the drawn rows stay as they are
        assert view._rows is rows
        # an undo, then another entry, seen at once (as the player view may see them):
        # the same count and cursor, a new newest entry
        changed, app.session.on_change = app.session.on_change, None
        app.session.execute("undo")
        app.session.execute("note another")
        app.session.on_change = changed
        app.refresh_panes()
        await pilot.pause()
        assert [line.plain for line in view.lines][-2:] == ["r1 entry 4", "r1 another"]


def test_an_end_of_phase_reads_as_its_own_words_in_its_row(tmp_path):
    """A row is who did what to whom and what came of it ("Archers I shoots Empire
    Knights: 1 stand removed"); an end of phase has no one acting and no target, so its
    row is its own words ("End of shooting: Empire Knights driven back 2 + 4 + 5 = 11
    cm"), not "endphase: 0 routed"."""
    import shutil

    from tests.conftest import SAVES
    from tracker.ui.panes.log import summary

    path = tmp_path / "river.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)
    session = Session(load(path), path)
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,6 save=1,2,3')
    session.execute("endphase --dice drive=2,4,5")
    shot, end = session.enc.log[-2], session.enc.log[-1]
    assert summary(shot) == "Archers I shoots Empire Knights: 1 stand removed"
    assert summary(end) == "End of shooting: Empire Knights driven back 2 + 4 + 5 = 11 cm"
