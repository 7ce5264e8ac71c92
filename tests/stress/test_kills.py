"""SIGKILL at random moments of a real app session in a pseudo-terminal: no broken save,
no change lost that the screen showed as committed (a few kills here; the full run of
1,000 is `python -m bench.reliability --kills 1000`)."""

from __future__ import annotations

import pytest

from tests.stress.harness import run_kills

pytestmark = pytest.mark.slow


def test_kills_at_random_moments_of_an_app_session(tmp_path):
    result = run_kills(3, tmp_path / "drawn", seed=19, after_draw=True)
    early = run_kills(2, tmp_path / "early", seed=23, after_draw=False)  # while starting too
    assert result.kills == 3 and early.kills == 2
    assert early.broken == [] and early.lost == []
    assert result.broken == []
    assert result.lost == []
    assert result.shown_committed > 0  # the screen did show changes as committed
