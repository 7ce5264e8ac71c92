"""Fuzzing the loader and the command parser: only clean errors, never a write.

hypothesis feeds random TOML documents, mutations of a real save and random bytes to the
loader, and random command lines to a session. Each case checks that the only exception
is the tracker's own error with a one-line message and that the input file is unchanged.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SAVES, examples, skirmish
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session
from tracker.store import SaveError

SAMPLE = tomllib.loads((SAVES / "warmaster-river-crossing.toml").read_text())
TRIED = {"toml": 0, "mutated": 0, "bytes": 0, "commands": 0}

scalars = st.one_of(
    st.integers(-10**6, 10**6), st.text(max_size=12), st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
keys = st.sampled_from(["schema", "name", "ruleset", "position", "units", "combatants",
                        "log", "cursor", "settings", "seed", "gm_side", "x"])


def check_load(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    try:
        load(path)
    except SaveError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)
    assert path.read_bytes() == data


def fuzz(count: int) -> settings:
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("count", examples(full=300, quick=60))
def test_random_toml_documents(tmp_path, count):
    @fuzz(count)
    @given(st.dictionaries(keys, values, max_size=8))
    def check(doc):  # type: ignore[no-untyped-def]
        TRIED["toml"] += 1
        check_load(tmp_path / "random.toml", tomli_w.dumps(doc).encode())

    check()


def _mutate(data: dict, path: list, value: object) -> dict:
    out = tomllib.loads(tomli_w.dumps(data))
    node = out
    for step in path[:-1]:
        node = node[step]
    last = path[-1]
    if value is _DELETE:
        if isinstance(node, list):
            node.pop(last)
        else:
            node.pop(last, None)
    else:
        node[last] = value
    return out


_DELETE = object()
PATHS = [["schema"], ["name"], ["ruleset"], ["cursor"], ["position", "round"],
         ["position", "phase"], ["units", 0, "strength"], ["units", 0, "armour"],
         ["units", 1, "position"], ["units", 2, "kind"], ["units", 0], ["settings", "x"],
         ["units", 3, "hits_per_stand"], ["seed"]]


@pytest.mark.parametrize("count", examples(full=400, quick=80))
def test_mutations_of_a_real_save(tmp_path, count):
    @fuzz(count)
    @given(st.sampled_from(PATHS), st.one_of(values, st.just(_DELETE)))
    def check(path, value):  # type: ignore[no-untyped-def]
        TRIED["mutated"] += 1
        try:
            doc = _mutate(SAMPLE, path, value)
            data = tomli_w.dumps(doc).encode()
        except (TypeError, ValueError):
            return  # a value TOML itself cannot hold
        check_load(tmp_path / "mutated.toml", data)

    check()


@pytest.mark.parametrize("count", examples(full=300, quick=60))
def test_random_bytes(tmp_path, count):
    @fuzz(count)
    @given(st.binary(max_size=300))
    def check(data):  # type: ignore[no-untyped-def]
        TRIED["bytes"] += 1
        check_load(tmp_path / "bytes.toml", b"schema = 1\n" + data)

    check()


words = st.sampled_from(["add", "set", "remove", "next", "undo", "redo", "roll", "note",
                         "effect", "wound", "heal", "setting", "army", "help", "combatant",
                         "unit", "aldo", "grak", "x=1", "initiative=9", "--dice", "hit=1,2",
                         "--seed", "3", "d6", "6d10>=7", "'", '"', "+prone", "-prone",
                         "level=2", "rounds=2", "side=", "=", ";", "round", "phase",
                         "rewind", "entry", "0", "1", "Halberdiers=2", "x.ros"])


@pytest.mark.parametrize("count", examples(full=600, quick=150))
def test_random_command_lines(count):
    @fuzz(count)
    @given(st.lists(st.one_of(words, st.text(max_size=6)), min_size=1, max_size=7))
    def check(parts):  # type: ignore[no-untyped-def]
        run_line(parts)

    check()


def run_line(parts: list[str]) -> None:
    TRIED["commands"] += 1
    session = Session(skirmish())
    try:
        session.execute(" ".join(parts))
    except CommandError as exc:
        assert str(exc) and "\n" not in str(exc)
