"""Lifetimes as data: what a rule starts ends where the sequence of play says, and the
log says so."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import skirmish
from tracker.core import history
from tracker.core.history import Transaction
from tracker.core.lifetimes import Lasts, When
from tracker.core.model import Combatant, Effect, Encounter, Ends, Unit
from tracker.core.sequence import Phase, SequenceOfPlay, move
from tracker.session.opening import load
from tracker.session.session import Session
from tracker.store import save_encounter


def ford(tmp_path: Path) -> Session:
    """Aldo 14, Grak 11, Bree 9; Aldo acts."""
    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    return Session(load(path), path)


def effects(s: Session, name: str) -> list[str]:
    return [e.name for e in s.enc.find_combatant(name).effects]


def test_an_effect_set_in_the_named_turn_outlives_that_turn(tmp_path: Path) -> None:
    s = ford(tmp_path)
    s.execute("next")  # Grak acts
    out = s.execute("effect bree poisoned until=grak at=end")
    assert out.message == "Bree: poisoned, until the end of Grak's next turn"
    assert "poisoned ended" not in s.execute("next").message  # Grak's turn ends: not this one
    assert effects(s, "bree") == ["poisoned"]
    s.execute("next")  # Bree's turn ends, round 2: Aldo
    assert effects(s, "bree") == ["poisoned"]
    s.execute("next")  # Aldo's turn ends, Grak's starts
    assert effects(s, "bree") == ["poisoned"]
    assert "Bree: poisoned ended" in s.execute("next").message  # Grak's next turn ends
    assert effects(s, "bree") == []


def test_one_round_on_its_own_turn_reads_as_one_end(tmp_path: Path) -> None:
    s = ford(tmp_path)
    out = s.execute("effect aldo poisoned rounds=1 turn=yes")
    assert out.message == "Aldo: poisoned, until the start of Aldo's next turn"


def test_rounds_with_a_turn_count_that_many_of_those_turns(tmp_path: Path) -> None:
    s = ford(tmp_path)
    out = s.execute("effect aldo blessed rounds=2 turn=yes at=end")
    assert "blessed" in out.message
    for _ in range(3):  # Aldo's turn (not counted: it began in it), Grak, Bree
        s.execute("next")
    assert effects(s, "aldo") == ["blessed"]
    s.execute("next")  # Aldo's round-2 turn ends: one of two
    assert effects(s, "aldo") == ["blessed"]
    for _ in range(2):
        s.execute("next")
    assert "Aldo: blessed ended" in s.execute("next").message  # the round-3 turn ends
    assert effects(s, "aldo") == []


def test_an_effect_for_rounds_ends_with_the_last_of_them_and_undo_brings_it_back(
        tmp_path: Path) -> None:
    s = ford(tmp_path)
    s.execute("effect bree shaken rounds=2")
    assert s.execute("next round").message.count("shaken") == 0
    line = s.execute("next round").message
    assert "Bree: shaken ended" in line
    s.execute("undo")
    assert effects(s, "bree") == ["shaken"]


def test_a_negative_count_of_rounds_is_refused(tmp_path: Path) -> None:
    import pytest

    from tracker.session.commands import CommandError

    s = ford(tmp_path)
    with pytest.raises(CommandError, match="rounds=-1: must be at least 0"):
        s.execute("effect bree shaken rounds=-1")
    assert effects(s, "bree") == []


def test_set_minus_an_effect_ends_it_early(tmp_path: Path) -> None:
    s = ford(tmp_path)
    s.execute("effect bree shaken rounds=3")
    assert s.execute("set bree -shaken").message == "Bree: no longer shaken"
    assert effects(s, "bree") == []


# --- a ruleset's fields ---------------------------------------------------------------------


class Marked(Unit):
    leftover: int = 0
    held: int = 0


class MarkedEncounter(Encounter):
    units: list[Marked] = []  # type: ignore[assignment]


def _remove_held(enc: Encounter, tx: Transaction, unit: Marked) -> str:
    held = unit.held
    tx.set(["units", unit.id, "strength"], unit.strength - held)
    tx.set(["units", unit.id, "held"], 0)
    return f"{unit.name}: {held} casualties removed"


SEQ = SequenceOfPlay(
    phases=(Phase("command", "side"), Phase("shooting", "side"), Phase("combat", "side")),
    turns_by="side",
    lifetimes=(
        Lasts("leftover", Ends(at="end", of="phase", who="shooting"), "leftover hits discarded"),
        Lasts("held", Ends(at="end", of="phase", who="shooting"), "", then=_remove_held),
    ),
)


def battle() -> MarkedEncounter:
    return MarkedEncounter(name="Field", ruleset="plain", units=[
        Marked(id="a", name="Archers", side="elves", strength=3, strength_start=3),
        Marked(id="k", name="Knights", side="empire", strength=3, strength_start=3),
    ])


def step(enc: Encounter, what: str, seq: SequenceOfPlay = SEQ) -> str:
    tx = Transaction(enc)
    with tx:
        text = move(enc, tx, what, seq).text
        tx.commit(text)
    return text


def test_a_field_ends_with_its_phase_and_the_log_says_so():
    enc = battle()
    step(enc, "phase")  # the elves' shooting
    enc.units[1].leftover = 2
    enc.units[1].held = 1
    line = step(enc, "phase")  # the shooting phase ends
    assert "Knights: leftover hits discarded" in line
    assert "Knights: 1 casualties removed" in line
    assert enc.units[1].leftover == 0 and enc.units[1].strength == 2
    history.undo(enc)
    assert enc.units[1].leftover == 2 and enc.units[1].strength == 3


def test_leaving_the_round_early_still_ends_every_phase_passed():
    """`next round` from the command phase passes the shooting phase's end (of both
    sides): what the rules end there still ends."""
    enc = battle()
    enc.units[0].leftover = 1
    line = step(enc, "round")
    assert "Archers: leftover hits discarded" in line
    assert enc.units[0].leftover == 0


def test_a_field_not_set_says_nothing():
    enc = battle()
    step(enc, "phase")
    assert "discarded" not in step(enc, "phase")


def test_an_older_save_keeps_its_effects_ends():
    old = Effect.model_validate({"name": "aimed", "until_round": 2})
    assert old.ends == Ends(at="end", of="round", round=2)
    turn = Effect.model_validate({"name": "dazed", "until_turn_of": "aldo", "at": "end"})
    assert turn.ends == Ends(at="end", of="turn", who="aldo")


# --- a ruleset's own acting order, and what a phase's start changes of it --------------------


class Leading(Combatant):
    leads: bool = False
    next_leads: bool = False


class LeadingEncounter(Encounter):
    combatants: list[Leading] = []  # type: ignore[assignment]


def _lead(enc: Encounter, tx: Transaction, who: Leading) -> str:
    tx.set(["combatants", who.id, "leads"], True)
    tx.set(["combatants", who.id, "next_leads"], False)
    return f"{who.name} leads"


LED = SequenceOfPlay(
    phases=(Phase("first"), Phase("second")),
    order=lambda enc: [c.id for c in sorted(enc.combatants, key=lambda c: not c.leads)],
    lifetimes=(Lasts("next_leads", Ends(at="start", of="phase"), "", then=_lead),
               Lasts("leads", Ends(at="end", of="round"), "no longer leads")),
)


def test_the_order_a_ruleset_gives_is_read_after_the_phase_start_ends_what_it_ends():
    """Who acts first in a phase is read once what ends as it begins has ended (edc: the
    initiative won in the last exchange is taken as the next begins)."""
    enc = LeadingEncounter(name="duel", ruleset="plain", combatants=[
        Leading(id="b", name="Bree"), Leading(id="a", name="Aldo")])
    enc.combatants[1].next_leads = True
    assert step(enc, "phase", LED).startswith("Phase: second, Aldo first; Aldo leads")
    enc.combatants[1].next_leads = True
    text = step(enc, "round", LED)
    assert text.startswith("Round 2, first, Aldo first; Aldo: no longer leads; Aldo leads")


# --- a field that ends at the next boundary of its kind ---------------------------------------


class Pushing(Unit):
    push: int = 0
    push_since: tuple[int, int, int, int] | None = None


class PushingEncounter(Encounter):
    units: list[Pushing] = []  # type: ignore[assignment]


NEXT_SEQ = SequenceOfPlay(
    phases=(Phase("shooting", "side"), Phase("combat", "side")),
    turns_by="side",
    lifetimes=(Lasts("push", When(at="end", of="phase", who="combat", next=True),
                     "push lost", since="push_since"),),
)


def test_a_field_that_ends_at_the_next_phase_of_its_kind_outlives_the_one_it_began_in():
    enc = PushingEncounter(name="Field", ruleset="plain", units=[
        Pushing(id="a", name="Archers", side="elves"),
        Pushing(id="k", name="Knights", side="empire")])

    def go(what: str) -> str:
        tx = Transaction(enc)
        with tx:
            text = move(enc, tx, what, NEXT_SEQ).text
            tx.commit(text)
        return text

    go("phase")  # the elves' combat
    enc.units[1].push = 1
    enc.units[1].push_since = (1, 0, 1, 0)
    assert "push lost" not in go("phase")  # the combat it was won in ends: not this one
    assert enc.units[1].push == 1
    go("phase")  # the empire's combat
    assert "Knights: push lost" in go("phase")  # the next combat phase ends
    assert (enc.units[1].push, enc.units[1].push_since) == (0, None)
    history.undo(enc)
    assert (enc.units[1].push, enc.units[1].push_since) == (1, (1, 0, 1, 0))
