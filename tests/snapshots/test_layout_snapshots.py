"""SVG snapshots of the screens at 80x24 as a game goes on: each roster after a shot,
after a rewind, after a resize from 120x40; the plain skirmish with three conditions; a
refusal in the status line.

Review each changed SVG (the report pytest writes) before accepting it with
``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

import pytest

from tests.snapshots.test_snapshots import app_on, steady
from tests.ui.scenes import plain_app
from tests.ui.wait import settled

SHOTS = {
    "d6battle-crossbow-duel.toml": ("next", "next", "shoot Longbowmen 'French Knights' "
                                    "--dice hit=6,5,4,3,2,1 save=1,2,6"),
    "warlord-wood-elves.toml": ("fire 'Human longbowmen' 'Orc warband' range=short "
                                "--dice d100=76",),
    "warmaster-river-crossing.toml": ("shoot 'Archers I' 'Empire Knights' "
                                      "--dice hit=5,4,6 save=2,3,1",),
}
"""Each sample with a roster, and the commands that take a shot in it, dice entered."""


def shot(sample: str, then: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        app = pilot.app
        for line in SHOTS[sample]:
            assert app.run_line(line) is None, line
        await settled(pilot)
        for line in then:
            assert app.run_line(line) is None, line
        await settled(pilot)
        await steady(pilot)

    return run_before


@pytest.mark.parametrize("sample", SHOTS)
def test_roster_after_a_shot(snap_compare, tmp_path, sample):
    assert snap_compare(app_on(sample, tmp_path), terminal_size=(80, 24),
                        run_before=shot(sample))


@pytest.mark.parametrize("sample", SHOTS)
def test_roster_after_a_shot_and_a_rewind(snap_compare, tmp_path, sample):
    app = app_on(sample, tmp_path)
    before = len(app.session.enc.log) + len(SHOTS[sample]) - 1  # the entries before it
    assert snap_compare(app, terminal_size=(80, 24),
                        run_before=shot(sample, (f"rewind entry {before}",)))


@pytest.mark.parametrize("sample", SHOTS)
def test_roster_after_a_shot_and_a_resize_from_120x40(snap_compare, tmp_path, sample):
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await shot(sample)(pilot)
        await pilot.resize_terminal(80, 24)
        await settled(pilot)
        await steady(pilot)

    assert snap_compare(app_on(sample, tmp_path), terminal_size=(120, 40),
                        run_before=run_before)


def test_plain_with_three_conditions(snap_compare, tmp_path):
    assert snap_compare(plain_app(tmp_path), terminal_size=(80, 24))


def test_a_refusal_in_the_status_line(snap_compare, tmp_path):
    app = app_on("warmaster-river-crossing.toml", tmp_path)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        assert pilot.app.run_line("shoot 'Archers I' 'Empire Knights' "
                                  "--dice hit=5,4,6 save=2,3,1") is None
        refusal = pilot.app.run_line("next phase")  # a drive back is owed first
        assert refusal is not None and refusal.startswith("the shooting phase cannot end")
        await settled(pilot)
        await steady(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
