"""A save or its journal cut at a byte or with a bit flipped, records altered, forged or
from another encounter: none is accepted silently (opening refuses or `check` fails,
naming the file and the key or journal line), and after each `tracker repair` keeps
every entry before the damage in the log (the report and a replay agree), `check`
passes, and a copy of whatever repair changed is kept.

The suite cuts at (or flips one bit of) every 17th byte and the bytes around every line
break; its slow run (``-m slow``) and `python -m bench.reliability --cuts` cut at every
byte and flip every bit of every byte (the README's figures)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import journal_of
from tests.store.damage import (
    accepted,
    assert_never_accepted_and_repaired,
    expected_before,
    played,
    repaired,
    standings,
)
from tracker.session.opening import model_for
from tracker.store import journal
from tracker.store.verify import check_save

STRIDE = 17
"""The default run's stride; the slow run (``-m slow``) takes every byte, every bit."""


@pytest.mark.parametrize("stride", [pytest.param(STRIDE, id=f"every-{STRIDE}th-byte"),
                                    pytest.param(1, id="every-byte", marks=pytest.mark.slow)])
@pytest.mark.parametrize("how", ["cut", "flip"])
@pytest.mark.parametrize("which", ["state", "journal"])
def test_damage_anywhere_is_never_accepted_and_repair_keeps_what_came_before(tmp_path, which,
                                                                            how, stride):
    """A cut at a byte, or a bit of it flipped."""
    assert_never_accepted_and_repaired(tmp_path, which, how, stride)


def test_every_record_altered_is_found_with_its_line(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    jpath = journal_of(path)
    lines = jpath.read_bytes().split(b"\n")[:-1]
    for i, line in enumerate(lines):
        for old, new in ((b'"s":', b'"s": '), (b'"k":"', b'"k": "'), (b"}", b" }")):
            changed = list(lines)
            changed[i] = line.replace(old, new, 1)
            jpath.write_bytes(b"\n".join(changed) + b"\n")
            report = check_save(path, model_for)
            assert not report.ok, f"line {i + 1} altered ({old!r}) passed check"
            assert any(f"line {i + 1}" in p for p in report.problems), report.problems
            assert not accepted(path)
    jpath.write_bytes(b"\n".join(lines) + b"\n")
    assert accepted(path)
    marks, state, whole = standings(path), path.read_bytes(), jpath.read_bytes()
    for i, line in enumerate(lines):  # each altered in turn, then repaired
        changed = list(lines)
        changed[i] = line.replace(b"}", b" }", 1)
        jpath.write_bytes(b"\n".join(changed) + b"\n")
        path.write_bytes(state)
        at = sum(len(x) + 1 for x in lines[:i])
        assert repaired(path, expected_before(marks, whole, at, shifted=True)) is None, \
            f"line {i + 1}"


def test_a_forged_record_with_a_good_checksum_breaks_the_chain(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    jpath = journal_of(path)
    lines = jpath.read_bytes().split(b"\n")[:-1]
    for i in range(1, len(lines) - 1):
        data = json.loads(lines[i])
        if data["k"] != "entry":
            continue
        body = lines[i][: lines[i].rindex(b',"h":"')].replace(b'"round":', b'"round":9', 1)
        forged = list(lines)
        forged[i] = body + b',"h":"' + journal.digest(body).encode() + b'"}'
        jpath.write_bytes(b"\n".join(forged) + b"\n")
        report = check_save(path, model_for)
        assert not report.ok and not accepted(path), f"a forged line {i + 1} passed"


def test_records_of_another_encounter_are_never_applied(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    other = tmp_path / "other.toml"
    played(other)
    jpath = journal_of(path)
    mine = jpath.read_bytes()
    theirs = journal_of(other).read_bytes().split(b"\n")[:-1]
    # appended after the state's record (where a crash leaves committed records)
    for line in theirs:
        jpath.write_bytes(mine + line + b"\n")
        assert not accepted(path)
        report = check_save(path, model_for)
        assert any("another encounter" in p or "does not follow" in p
                   for p in report.problems), report.problems
    # in place of one of ours; repair keeps what came before it
    lines = mine.split(b"\n")[:-1]
    marks, state = standings(path), path.read_bytes()
    for i in range(len(lines)):
        swapped = list(lines)
        swapped[i] = theirs[min(i, len(theirs) - 1)]
        jpath.write_bytes(b"\n".join(swapped) + b"\n")
        path.write_bytes(state)
        assert not accepted(path), f"a foreign line {i + 1} was accepted"
        at = sum(len(x) + 1 for x in lines[:i])
        shifted = len(swapped[i]) != len(lines[i])
        assert repaired(path, expected_before(marks, mine, at, shifted)) is None, \
            f"line {i + 1}"
