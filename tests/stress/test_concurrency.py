"""Concurrent writers and simultaneous starts on one save (a few here; the full runs,
8 writers x 50 rounds and 100 starts, are `python -m bench.reliability`)."""

from __future__ import annotations

import pytest

from tests.stress.harness import run_starts, run_writers

pytestmark = pytest.mark.slow


def test_concurrent_execs_lose_no_update(tmp_path):
    result = run_writers(4, 3, tmp_path)
    assert result.broken == []
    assert result.exit_zero == 12 and result.refused == 0  # each waited its turn
    assert result.lost == []


def test_simultaneous_starts_never_make_two_writers(tmp_path):
    result = run_starts(8, 2, tmp_path, hold=1.5)
    assert result.broken == []
    assert result.most_writers_at_once == 1
    assert result.rounds_with_one_writer == 2
