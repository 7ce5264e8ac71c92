import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import skirmish
from tracker.core import history
from tracker.core.history import Transaction
from tracker.core.model import Combatant, Effect, Encounter, Wound


def test_a_transaction_commits_one_entry_that_undo_and_redo_walk():
    enc = skirmish()
    before = history.state_of(enc)
    tx = Transaction(enc)
    tx.set(["combatants", "aldo", "initiative"], 20)
    tx.add(["combatants", "bree", "wounds"], Wound(location="arm", level=2))
    entry = tx.commit("Aldo hastes; Bree is cut")
    after = history.state_of(enc)
    assert enc.cursor == 1 and entry.ops
    assert history.undo(enc) is entry
    assert history.state_of(enc) == before
    assert history.redo(enc) is entry
    assert history.state_of(enc) == after


def test_rollback_leaves_nothing_behind():
    enc = skirmish()
    before = history.state_of(enc)
    with pytest.raises(ValueError, match="refused"), Transaction(enc) as tx:
        tx.set(["combatants", "aldo", "initiative"], 1)
        tx.remove(["combatants"], "bree")
        raise ValueError("refused")
    assert history.state_of(enc) == before
    assert enc.log == []


def test_a_new_change_drops_the_undone_tail():
    enc = skirmish()
    for n in (1, 2, 3):
        tx = Transaction(enc)
        tx.set(["combatants", "aldo", "initiative"], n)
        tx.commit(f"set {n}")
    history.undo(enc)
    history.undo(enc)
    tx = Transaction(enc)
    tx.set(["combatants", "bree", "initiative"], 99)
    tx.commit("other")
    assert [e.text for e in enc.log] == ["set 1", "other"]
    assert history.redo(enc) is None


def test_a_no_change_is_not_recorded():
    enc = skirmish()
    tx = Transaction(enc)
    tx.set(["combatants", "aldo", "initiative"], 14)
    assert tx.ops == []


def test_replay_rebuilds_the_state_from_the_log():
    enc = skirmish()
    tx = Transaction(enc)
    tx.add(["combatants"], Combatant(id="orc", name="Orc", initiative=3))
    tx.commit("Orc joins")
    tx = Transaction(enc)
    tx.add(["combatants", "orc", "effects"], Effect(name="aimed", until_round=2))
    tx.set(["position", "round"], 2)
    tx.commit("next")
    rebuilt, entries = history.replay(enc)
    assert len(entries) == 2
    assert history.state_of(rebuilt) == history.state_of(enc)


names = st.sampled_from(["aldo", "bree", "grak"])
steps = st.one_of(
    st.tuples(st.just("init"), names, st.integers(-5, 30)),
    st.tuples(st.just("wound"), names, st.integers(0, 5)),
    st.tuples(st.just("cond"), names, st.sampled_from(["prone", "stunned", "aimed"])),
    st.tuples(st.just("undo"), names, st.just(0)),
    st.tuples(st.just("redo"), names, st.just(0)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(steps, max_size=25))
def test_undo_all_always_returns_to_the_start_and_redo_all_to_the_end(script):
    enc: Encounter = skirmish()
    start = history.state_of(enc)
    for kind, who, n in script:
        if kind == "undo":
            history.undo(enc)
        elif kind == "redo":
            history.redo(enc)
        else:
            tx = Transaction(enc)
            c = enc.find_combatant(who)
            if kind == "init":
                tx.set(["combatants", who, "initiative"], n)
            elif kind == "wound":
                tx.add(["combatants", who, "wounds"], Wound(location="leg", level=n))
            else:
                tx.set(["combatants", who, "conditions"], [*c.conditions, n])
            tx.commit(kind)
    end = history.state_of(enc)
    applied = enc.cursor
    while history.undo(enc):
        pass
    assert history.state_of(enc) == start
    for _ in range(applied):
        history.redo(enc)
    assert history.state_of(enc) == end


def test_an_entry_names_the_units_it_changed_or_none_when_units_come_and_go():
    from tests.conftest import battle
    from tracker.core.model import Unit

    enc = battle()
    first, second = enc.units[0], enc.units[1]
    tx = Transaction(enc)
    tx.set(["units", first.id, "strength"], 2)
    tx.add(["units", second.name, "conditions"], "shaken")  # by name: the id is named
    tx.set(["position", "phase"], 1)  # not a unit: the roster need not hear of it
    changed = tx.commit("hits and a condition")
    assert history.touched_units(enc, changed) == {first.id, second.id}
    assert history.touched_units(enc, history.undo(enc)) == {first.id, second.id}
    history.redo(enc)

    tx = Transaction(enc)
    tx.add(["units"], Unit(id="new", name="Reserves"))
    added = tx.commit("reserves arrive")
    assert history.touched_units(enc, added) is None

    tx = Transaction(enc)
    tx.set(["combatants"], [])
    assert history.touched_units(enc, tx.commit("nothing on the roster")) == set()
