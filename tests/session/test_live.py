"""Following a save as the GM's tracker writes it: the follower's copy is the saved state
after every kind of change, and it reads the save whole only when it must."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import skirmish
from tracker.core import history
from tracker.session.live import Follower
from tracker.session.opening import load, open_encounter
from tracker.session.session import CommandError
from tracker.store import save_encounter

COMMANDS = [
    "next", "note the bridge creaks", "note! Grak waits", "set aldo +prone",
    "set aldo -prone", "wound bree arm level=2", "add combatant Wolf side=foes hidden=yes",
    "remove wolf", "undo", "undo", "redo", "roll 2d6",
]


def same(follower: Follower, path) -> None:  # type: ignore[no-untyped-def]
    saved = load(path)
    assert history.state_of(follower.enc) == history.state_of(saved)
    assert follower.enc.cursor == saved.cursor
    assert len(follower.enc.log) == len(saved.log)
    assert [e.text for e in follower.enc.log] == [e.text for e in saved.log]


def run(session, path, line: str) -> bool:  # type: ignore[no-untyped-def]
    try:
        session.execute(line)
    except CommandError:  # refused: nothing changed, nothing to save
        return False
    save_encounter(session.enc, path)
    return True


def test_the_follower_keeps_up_with_changes_undo_redo_and_a_change_after_undo(tmp_path):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    opened = open_encounter(path)
    follower = Follower(path, load)
    assert follower.poll() is False  # nothing new yet
    for line in ("next", "note one", "note two", "undo", "undo", "note three", "undo",
                 "redo", "wound aldo head level=1"):
        assert run(opened.session, path, line), line
        assert follower.poll() is True, line
        same(follower, path)
    assert follower.reloads == 1  # followed the journal all along
    opened.lock.release()


def test_a_restored_backup_is_read_whole(tmp_path):
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    opened = open_encounter(path)
    run(opened.session, path, "note one")
    follower = Follower(path, load)
    run(opened.session, path, "note two")
    follower.poll()
    same(follower, path)
    opened.lock.release()
    # the state goes back (a copy put over the save by hand would not: the journal's
    # later records are applied on opening; `tracker restore` logs the state it puts back)
    from tracker.session.opening import model_for
    from tracker.store.verify import restore_backup

    restore_backup(path, 1, model_for)
    assert follower.poll() is True
    same(follower, path)
    assert [e.text for e in follower.enc.log] == ["one"]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(COMMANDS), max_size=14), st.integers(1, 3))
def test_the_follower_matches_the_save_after_any_commands(tmp_path, lines, every):
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(dir=tmp_path))  # hypothesis may run an example twice
    path = folder / "ford.toml"
    save_encounter(skirmish(), path)
    opened = open_encounter(path)
    follower = Follower(path, load)
    for i, line in enumerate(lines):
        run(opened.session, path, line)
        if i % every == 0:  # a slow poll sees several saves at once
            follower.poll()
            same(follower, path)
    follower.poll()
    same(follower, path)
    opened.lock.release()
