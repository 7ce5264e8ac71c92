from tests.conftest import battle, skirmish
from tracker.core import history
from tracker.core.history import Transaction
from tracker.core.model import Effect
from tracker.core.turns import acting_order, advance, current_actor


def test_acting_order_is_highest_initiative_first_and_skips_the_fallen():
    enc = skirmish()
    assert acting_order(enc) == ["aldo", "grak", "bree"]
    enc.combatants[0].out = True
    assert acting_order(enc) == ["grak", "bree"]


def test_next_turn_walks_the_order_then_starts_a_new_round():
    enc = skirmish()
    seen = []
    for _ in range(4):
        tx = Transaction(enc)
        step = advance(enc, tx, "turn")
        tx.commit(step.text)
        seen.append((enc.position.round, current_actor(enc)))
    assert seen == [(1, "grak"), (1, "bree"), (2, "aldo"), (2, "grak")]


def test_effects_expire_at_the_end_of_their_round_and_at_the_next_turn():
    enc = skirmish()
    aldo = enc.find_combatant("aldo")
    aldo.effects = [Effect(name="aimed", until_round=1), Effect(name="dazed", until_turn_of="aldo")]
    tx = Transaction(enc)
    tx.set(["position", "turn"], 2)
    tx.commit("to Bree")
    tx = Transaction(enc)
    step = advance(enc, tx, "turn")
    tx.commit(step.text)
    assert enc.position.round == 2
    assert aldo.effects == []
    assert "aimed" in step.text and "dazed" in step.text
    history.undo(enc)
    assert [e.name for e in aldo.effects] == ["aimed", "dazed"]


def test_mass_battles_take_turns_by_side_and_walk_phases():
    """Each side takes a whole turn of the phases; the next to act in a side's phase is
    its next phase, so no phase of the second side is skipped before the new round."""
    enc = battle()
    phases = ["command", "movement", "shooting"]
    tx = Transaction(enc)
    assert advance(enc, tx, "phase", phases=phases).text == "Phase: movement"
    advance(enc, tx, "phase", phases=phases)
    step = advance(enc, tx, "phase", phases=phases)
    assert step.text.startswith("Turn: empire")
    assert (enc.position.side, enc.position.phase) == (1, 0)
    step = advance(enc, tx, "turn", phases=phases)
    assert step.text == "Phase: movement" and not step.new_round
    advance(enc, tx, "turn", phases=phases)
    step = advance(enc, tx, "turn", phases=phases)
    assert step.new_round and enc.position.round == 2
    assert (enc.position.side, enc.position.phase) == (0, 0)
