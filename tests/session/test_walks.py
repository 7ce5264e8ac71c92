"""Random walks of commands over every sample, as a GM who types anything would: each
step an action with names and values picked at random (some impossible), ``next``,
``undo``, ``rewind``, ``set``, ``remove``, ``effect`` and the rest. Whatever the walk
types, the tracker:

- refuses a command with a one-line reason and changes nothing, or takes it whole;
- never fails any other way;
- saves what it took as a file that reads back, in which ``tracker check`` finds
  nothing out of its domain or out of place;
- undoes what it took to the state before, and redoes it to the state after;
- rolls no die for ``next`` that it was not asked to (a stage no die can change is
  rolled, and the log says so).

And after any walk, three rounds of ``next force`` end what the rules started: each
field the ruleset's sequence says ends is back at its default, no effect outlives its
round.

Each walk is seeded: a failure names its sample, its seed and every line typed, so it
plays again the same. A few short walks run with the suite; the long ones are ``slow``
(``.ci/run`` runs them).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tests.conftest import SAVES
from tracker.core.history import state_of
from tracker.rules.params import Param
from tracker.session.commands import CommandError
from tracker.session.domains import misnamed, out_of_domain, out_of_place
from tracker.session.opening import load
from tracker.session.session import Session
from tracker.store.toml_store import save_encounter

SAMPLES = sorted(p.name for p in SAVES.glob("*.toml") if p.name != "bestiary.toml")

VALUES = ("0", "1", "2", "3", "-1", "-5", "6", "12", "99", "100", "1000", "999999999", "x",
          "", "yes", "no", "1.5", "d6", "2d6", "open", "cover", "none", "all", "up", "down",
          "'a b'", "1,2", "normal", "advantage", "head", "left_arm", "infantry", "cavalry")
"""Values typed for a field: some the field takes, most it does not."""

VERBS = ("act",) * 6 + ("next",) * 3 + (
    "undo", "redo", "set", "mark", "effect", "remove", "add", "rewind", "note", "setting",
    "wound", "next force", "next round", "roll", "damage", "heal")


def quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


def a_line(rng: random.Random, session: Session) -> str:
    """One command a GM might type here, or mistype."""
    enc, ruleset = session.enc, session.ruleset
    everyone = list(enc.everyone)
    names = [x.name for x in everyone] or ["Nobody"]
    name = quoted(rng.choice(names))
    value = rng.choice(VALUES)
    verb = rng.choice(VERBS)
    if verb == "act":
        action = ruleset.actions[rng.choice(sorted(ruleset.actions))]
        words = [action.name, *(quoted(rng.choice(names)) for _ in range(rng.randint(0, 2)))]
        if rng.random() < 0.5:  # as a GM means it: one whose turn it is, at another side
            slots = sum(p.kind in ("actor", "target") for p in action.params)
            words[1:] = [quoted(n) for n in a_pair(rng, session)][:slots]
        given: dict[str, str] = {}
        if rng.random() < 0.6:  # what the action needs, in its domain
            given.update((p.name, a_value(rng, p, names)) for p in action.params
                         if (p.required or p.default is None)
                         and p.kind not in ("actor", "target", "names"))
        fields = [p.name for p in action.params]
        for field in rng.sample(fields, k=min(len(fields), rng.choice((0, 0, 0, 1, 2)))):
            given[field] = rng.choice(VALUES)
        words += [f"{k}={v}" for k, v in given.items()]
        if rng.random() < 0.3:
            words.append("force=yes")
        if rng.random() < 0.3:
            words.append("--roll-rest")
        return " ".join(words)
    if verb == "set":
        fields = sorted(type(everyone[0]).model_fields) if everyone else ["hp"]
        return f"set {name} {rng.choice(fields)}={value}"
    if verb == "mark":
        return f"set {name} {rng.choice('+-')}{rng.choice(('prone', 'dazed', 'blessed'))}"
    if verb == "effect":
        return f"effect {name} dazed rounds={value} at={rng.choice(('start', 'end', 'x'))}"
    if verb == "remove":
        return f"remove {name}"
    if verb == "add":
        return f"add {quoted(rng.choice(names) + rng.choice(('', ' 2', 'x')))}"
    if verb == "rewind":
        return rng.choice((f"rewind round {value}", f"rewind entry {rng.randint(-1, 40)}",
                           "rewind phase shooting"))
    if verb == "note":
        return "note the ford floods"
    if verb == "setting":
        settings = [s.name for s in ruleset.settings] or ["none"]
        return f"setting {rng.choice(settings)}={value}"
    if verb == "wound":
        return f"wound {name} {value}"
    if verb == "roll":
        return f"roll {rng.choice(('d6', '2d6', '0d6', 'd0', '999999d6', '3d6kh5'))}"
    if verb in ("damage", "heal"):
        return f"{verb} {name} {value}"
    return verb


def a_value(rng: random.Random, p: Param, names: list[str]) -> str:
    """A value ``p`` takes, as far as its kind and its bounds say."""
    if p.choices:
        return rng.choice([c for c in p.choices if c] or [""])
    if p.kind in ("int", "float", "ints"):
        low = int(p.minimum) if p.minimum is not None else 0
        high = int(p.maximum) if p.maximum is not None else low + 12
        return str(rng.randint(low, max(low, min(high, low + 20))))
    if p.kind == "bool":
        return rng.choice(("yes", "no"))
    if p.kind == "names":
        return quoted(rng.choice(names))
    if "dice" in p.name or "dice" in p.help:
        return rng.choice(("d6", "2d6", "d20", "3"))
    return rng.choice(("S2p", "head", "open", "1", "thrust"))


def a_pair(rng: random.Random, session: Session) -> list[str]:
    """One who may act now, and one of another side (either left out where there is
    none)."""
    play = session.play
    holder, side = play.current(), play.side()
    acting = [x for x in session.enc.everyone
              if x.id == holder or x.side in (holder, side) or holder == "*"]
    if not acting:
        return []
    who = rng.choice(acting)
    others = [x for x in session.enc.everyone if x.side != who.side]
    return [who.name, *([rng.choice(others).name] if others else [])]


def walk(tmp_path: Path, sample: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    session = Session(load(path), path)
    typed: list[str] = []
    taken = 0

    def where() -> str:
        return f"{sample}, seed {seed}, after typing {typed}"

    for _ in range(steps):
        line = a_line(rng, session)
        typed.append(line)
        before, entries = state_of(session.enc), len(session.enc.log)
        try:
            out = session.execute(line)
        except CommandError as exc:
            assert state_of(session.enc) == before, f"a refusal changed the state: {where()}"
            assert len(session.enc.log) == entries, f"a refusal logged: {where()}"
            assert str(exc).strip() and "\n" not in str(exc), f"{exc!r}: {where()}"
            continue
        taken += 1
        if not out.changed:
            continue
        if line in ("next", "next force"):
            for entry in session.enc.log[entries:]:
                rolled = [r for r in entry.rolls if r.source == "rolled"]
                assert not rolled or "change it" in entry.text, \
                    f"next rolled {rolled} unasked ({entry.text}): {where()}"
        if out.entry is not None and line not in ("undo", "redo") and rng.random() < 0.3:
            after = state_of(session.enc)
            session.execute("undo")
            assert state_of(session.enc) == before, f"undo did not give back: {where()}"
            session.execute("redo")
            assert state_of(session.enc) == after, f"redo did not give back: {where()}"
        save_encounter(session.enc, path)
        again = load(path)
        found = out_of_domain(again) + out_of_place(again, session.ruleset) + misnamed(again)
        assert not found, f"tracker check finds {found}: {where()}"
        session = Session(again, path)
    assert taken >= steps // 5, f"a walk of refusals tries little ({taken} taken): {where()}"


@pytest.mark.parametrize("sample", SAMPLES)
def test_a_short_walk_over_each_sample_keeps_every_promise(tmp_path: Path, sample: str) -> None:
    walk(tmp_path, sample, seed=1, steps=60)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 52))
@pytest.mark.parametrize("sample", SAMPLES)
def test_long_walks_over_each_sample_keep_every_promise(
        tmp_path: Path, sample: str, seed: int) -> None:
    walk(tmp_path, sample, seed=seed, steps=150)


def lifetimes_over(tmp_path: Path, sample: str, seed: int, steps: int) -> None:
    """After a walk, three rounds of ``next force`` with nothing else taken: each field
    the ruleset's sequence says ends (its lifetimes) is back at its default on everyone
    in play, and no effect outlives the round it was to end with."""
    rng = random.Random(seed)
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    session = Session(load(path), path)
    typed: list[str] = []
    for _ in range(steps):
        typed.append(line := a_line(rng, session))
        try:
            session.execute(line)
        except CommandError:
            pass
    seq = session.ruleset.sequence
    assert seq is not None
    start = session.enc.position.round
    for _ in range(300):
        if session.enc.position.round >= start + 3:
            break
        session.execute("next force")
    else:
        raise AssertionError(f"three rounds not reached: {sample}, seed {seed}, {typed}")
    now = session.enc.position.round
    for who in session.enc.everyone:
        if not who.active:
            continue
        model = type(who).model_fields
        for lasting in seq.lifetimes:
            if lasting.field in model:
                default = model[lasting.field].get_default(call_default_factory=True)
                assert getattr(who, lasting.field) == default, (
                    f"{who.name}.{lasting.field} outlived its end: {sample}, seed {seed}, "
                    f"after typing {typed}")
        for effect in who.effects:
            ends = effect.ends
            assert ends is None or ends.round is None or ends.round >= now, (
                f"{who.name}: {effect.name} outlived round {ends.round}: {sample}, "
                f"seed {seed}, after typing {typed}")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("sample", SAMPLES)
def test_what_a_rule_starts_ends_where_the_rules_say_after_any_walk(
        tmp_path: Path, sample: str, seed: int) -> None:
    lifetimes_over(tmp_path, sample, seed, steps=100)
