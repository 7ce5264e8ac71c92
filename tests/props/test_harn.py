"""HârnMaster, played at random from its volley sample (tests/props/harness.py): shots,
throws, loads, aims, spans, abandons, injuries and statuses, every advance and undo; what
a missile action starts ends where the Missile Sequence says (the round's half move and
action, the aim's +10, the Ignore defence), no one acts out of its turn or twice a round,
the journal and the report agree with the state; what the tracker refuses it refuses in
one line, changing nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import SAVES
from tests.props.harness import LONG, QUICK, Harness, Rules
from tracker.rules.harn import HarnCombatant, MissileWeapon
from tracker.rules.harn.effects import IGNORING
from tracker.session.opening import load
from tracker.session.session import Session

ATTACKS = {"missile", "fire", "shoot", "throw", "charge"}


def volley() -> Session:
    """The sample: Nolora's round 2 turn, five brigands and a destrier still to act; every
    brigand given a sling, the destrier nothing to shoot with."""
    enc = load(SAVES / "harn-nolora-volley.toml")
    for c in enc.combatants:
        if isinstance(c, HarnCombatant) and c.name.startswith("Brigand"):
            c.slings = 40  # as the encounter was set up, before its log
            c.weapon = MissileWeapon(name="sling", kind="sling", br=30, impact="d6")
    return Session(enc)


def params(action: str, session: Session, data: st.DataObject) -> dict[str, str]:
    """What the encounter does not fill: the range of an attack, an injury's level, a
    status; a load given or not as free."""
    if action in ATTACKS:
        out = {"range": str(data.draw(st.integers(5, 800), label="range"))}
        if data.draw(st.booleans(), label="moves with the shot"):
            out["shooter_moving"] = "yes"
        return out
    if action == "injury":
        return {"level": data.draw(st.sampled_from(["S1", "S2p", "G3"]), label="level")}
    if action == "status":
        key = data.draw(st.sampled_from(["movement", "moved", "in_hand"]), label="status")
        value = {"movement": st.sampled_from(["still", "moving", "evading"]),
                 "moved": st.sampled_from(["yes", "no"]),
                 "in_hand": st.sampled_from(["yes", "no"])}[key]
        return {key: data.draw(value, label=key)}
    return {}


RULES = Rules(params=params)


def check_states(session: Session) -> None:
    """What the missile state says holds with what the sequence of play says: the round's
    action is this round's; one Ignore defence at most, and in the bearer's own turn only
    the one begun in it."""
    rnd = session.enc.position.round
    pos = session.enc.position
    now = (pos.round, pos.side, pos.phase, pos.turn)
    for c in session.enc.combatants:
        assert isinstance(c, HarnCombatant)
        assert c.acted_round in (None, rnd), (c.name, c.acted_round, rnd)
        assert (c.acted_round is None) == (c.last_action == ""), (c.name, c.last_action)
        ignoring = [e for e in c.effects if e.name in IGNORING.values()]
        assert len(ignoring) <= 1, c.name
        for e in ignoring:  # ended as its next turn began: in its turn, only this turn's
            assert e.since is not None and e.since[0] <= rnd, (c.name, e.since)
            if session.play.current() == c.id:
                assert e.since == now, (c.name, e.since, now)


def run(session: Session, data: st.DataObject, steps: int, illegal: bool) -> None:
    """``steps`` commands (legal ones, or legal and illegal mixed), the harness's checks
    and the missile state's after every one."""
    h = Harness(session, data, RULES)
    h.check()
    for _ in range(steps):
        if illegal and data.draw(st.booleans(), label="illegal"):
            h.illegal()
        else:
            h.legal()
        check_states(session)


@QUICK
@given(st.data())
def test_legal_commands_keep_every_invariant(data: st.DataObject) -> None:
    run(volley(), data, 30, illegal=False)


@QUICK
@given(st.data())
def test_illegal_commands_are_refused_in_one_line_and_change_nothing(
        data: st.DataObject) -> None:
    run(volley(), data, 30, illegal=True)


@pytest.mark.slow
@LONG
@given(st.data())
def test_legal_commands_keep_every_invariant_long(data: st.DataObject) -> None:
    run(volley(), data, 60, illegal=False)


@pytest.mark.slow
@LONG
@given(st.data())
def test_illegal_commands_are_refused_long(data: st.DataObject) -> None:
    run(volley(), data, 60, illegal=True)
