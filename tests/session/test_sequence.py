"""The sequence of play, headless: every phase visited, every duty done, every action
within its limits, on the shipped samples (as `tracker exec` plays them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAVES
from tests.test_cli import tracker
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.play import PendingDuty
from tracker.session.session import Session


def session_on(tmp_path: Path, sample: str) -> Session:
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return Session(load(path), path)


def walk(session: Session, until_round: int, limit: int = 40) -> list[str]:
    """Press n until the round is reached; the log lines of every advance."""
    lines = []
    for _ in range(limit):
        if session.enc.position.round >= until_round:
            return lines
        lines.append(session.execute("next").message)
    raise AssertionError(f"round {until_round} not reached: {lines}")


# --- Warmaster: the drive backs end the shooting phase --------------------------------------


def shot_that_hits(session: Session) -> None:
    session.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,6 save=1,2,3')


def test_warmaster_shooting_cannot_end_with_hits_to_drive_back(tmp_path: Path) -> None:
    s = session_on(tmp_path, "warmaster-river-crossing.toml")
    s.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
    knights = s.enc.find_unit("Empire Knights")
    assert (knights.hits, knights.leftover_hits) == (2, 2)  # type: ignore[attr-defined]
    before = s.enc.model_dump()
    for what in ("next", "next phase", "next round"):
        out = s.execute(what)  # an outcome that names the duty, not an error
        assert isinstance(out.pending, PendingDuty) and not out.changed
        assert out.pending.action == "endphase"
        assert out.pending.first == knights.id
        assert "Empire Knights: 2 hits to drive back" in out.message
        assert "endphase" in out.message and "next force" in out.message
        assert s.enc.model_dump() == before  # nothing moved
    s.execute("endphase --dice drive=3,4")
    assert knights.driven_back == 7  # type: ignore[attr-defined]
    assert s.execute("next").message.startswith("Phase: combat")
    walk(s, until_round=2)
    assert (knights.hits, knights.leftover_hits) == (0, 0)  # type: ignore[attr-defined]


def test_warmaster_every_phase_of_both_turns_is_visited_in_order(tmp_path: Path) -> None:
    s = session_on(tmp_path, "warmaster-river-crossing.toml")
    lines = walk(s, until_round=2)
    assert lines == [
        "Phase: combat",
        "Turn: Empire, command",
        "Phase: movement",
        "Phase: shooting",
        "Phase: combat",
        "Round 2, command, High Elves first",
    ]


def test_warmaster_a_unit_shoots_once_in_its_turn(tmp_path: Path) -> None:
    s = session_on(tmp_path, "warmaster-river-crossing.toml")
    s.execute('shoot "Archers I" Halberdiers --dice hit=1,1,1')
    with pytest.raises(CommandError, match="Archers I has already shot this phase"):
        s.execute('shoot "Archers I" Crossbowmen --dice hit=1,1,1')
    out = s.execute('shoot "Archers I" Crossbowmen force=yes --dice hit=1,1,1')
    assert "forced by the GM: Archers I has already shot this phase" in out.message


def test_warmaster_the_other_side_shoots_only_at_chargers(tmp_path: Path) -> None:
    s = session_on(tmp_path, "warmaster-river-crossing.toml")
    with pytest.raises(CommandError, match="it is High Elves' turn|High Elves' turn"):
        s.execute('shoot Crossbowmen "Archers I" --dice hit=1,1,1')


def test_exec_exits_2_naming_the_pending_duty_and_the_second_shot(tmp_path: Path) -> None:
    path = tmp_path / "river.toml"
    shutil.copy(SAVES / "warmaster-river-crossing.toml", path)
    home = tmp_path / "home"
    ok = tracker("exec", str(path), 'shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2',
                 env_home=home)
    assert ok.returncode == 0, ok.stderr
    run = tracker("exec", str(path), "next round", env_home=home)
    assert run.returncode == 2
    assert "drive backs" in run.stderr and "Empire Knights" in run.stderr
    run = tracker("exec", str(path), 'shoot "Archers I" Halberdiers --dice hit=1,1,1',
                  env_home=home)
    assert run.returncode == 2 and "already shot this phase" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    run = tracker("exec", str(path), "next round --roll-rest", env_home=home)
    assert run.returncode == 0, run.stderr
    assert "Empire Knights driven back" in run.stdout
    assert load(path).find_unit("Empire Knights").leftover_hits == 0  # type: ignore[attr-defined]


def test_next_force_skips_knowingly_and_says_so(tmp_path: Path) -> None:
    s = session_on(tmp_path, "warmaster-river-crossing.toml")
    s.execute('shoot "Archers I" "Empire Knights" --dice hit=4,5,1 save=1,2')
    out = s.execute("next force")
    assert out.message.startswith(
        "drive backs skipped by the GM (Empire Knights: 2 hits to drive back)")


# --- Esprit de Corps: two exchanges a round -------------------------------------------------


def test_edc_exchange_two_comes_before_the_next_round(tmp_path: Path) -> None:
    s = session_on(tmp_path, "edc-roland-press.toml")
    lines = [s.execute("next").message for _ in range(7)]
    assert lines[:3] == ["Turn: Marguerite", "Turn: Jacques", "Turn: Guardsman"]
    # Roland won round 2's first exchange, holding the initiative: he keeps it
    assert lines[3] == "Phase: exchange 2, Roland first; Roland keeps the initiative"
    assert lines[4:7] == ["Turn: Marguerite", "Turn: Jacques", "Turn: Guardsman"]
    # round 3 begins with Jacques' blood loss test: its dice are asked for
    assert s.execute("next").pending is not None
    line = s.execute("next --dice toughness=1,2,7,8").message
    assert line.startswith("Round 3, exchange 1, Roland first")
    assert "Jacques: Toughness 4 vs BL 3: 2 successes, holds" in line
    assert "CP" in line  # the upkeep refreshed the pools


def test_edc_a_fighter_takes_one_exchange_in_each_exchange(tmp_path: Path) -> None:
    s = session_on(tmp_path, "edc-roland-press.toml")
    # Roland's press is the sample's first exchange of round 2: neither may take another
    assert s.play.acted_now("roland") == ["acted"]
    with pytest.raises(CommandError, match="Guardsman has already acted this exchange"):
        s.execute("exchange Marguerite Guardsman attack_dice=1 defense_dice=1 "
                  "--dice attack=2 defense=2")
    # the Guardsman has parried: Marguerite's knife goes in with no defence rolled
    s.execute("exchange Marguerite Guardsman attack_dice=1 --dice attack=2")
    with pytest.raises(CommandError, match=r"Marguerite has already acted this exchange "
                                           r"\(exchange is once an exchange\)"):
        s.execute("exchange Marguerite Guardsman attack_dice=1 --dice attack=2")


# --- d6battle: morale tests before the shoot phase ends -------------------------------------


def test_d6battle_turns_walk_shoot_combat_resolution_for_each_side(tmp_path: Path) -> None:
    s = session_on(tmp_path, "d6battle-crossbow-duel.toml")  # round 2, French combat
    lines = walk(s, until_round=3)
    choose = "Phase: combat; Strategic Advantage: English selects the order of the combats"
    assert lines == ["Phase: resolution", "Turn: English, shoot", choose, "Phase: resolution",
                     lines[-1]]
    assert lines[-1].startswith("Round 3, shoot, French first")


def test_d6battle_a_queued_morale_test_holds_the_shoot_phase(tmp_path: Path) -> None:
    s = session_on(tmp_path, "d6battle-crossbow-duel.toml")
    s.execute("next")
    s.execute("next")  # the English shoot
    s.execute("shoot Longbowmen Foot figures=12 --dice hit=6,6,6,6,6,6,6,6,6,6,6,6 "
              "save=1,1,1,1,1,1,1,1,1,1,1,1 kill=6,6,6,6,6,6,6,6,6,6,6,6")
    assert s.enc.find_unit("Foot Sergeants").morale_test
    pending = s.execute("next").pending
    assert pending is not None and "Foot Sergeants: morale test" in pending.message
    s.execute("morale Foot --dice morale=1,1")
    assert s.execute("next").message == (
        "Phase: combat; Foot Sergeants: shooting casualties no longer count for morale; "
        "Strategic Advantage: English selects the order of the combats")


# --- HârnMaster and plain: everyone once a round, in order ----------------------------------


def test_harn_one_missile_action_a_round(tmp_path: Path) -> None:
    s = session_on(tmp_path, "harn-nolora-point-blank.toml")
    first = [c.name for c in s.enc.combatants]
    assert first
    s.execute("injury Sentry level=S2p")  # the strike's level, owed as the round ends
    lines = walk(s, until_round=2)
    assert lines[-1].startswith("Round 2")


def test_plain_group_initiative_and_a_newcomer_ahead_of_the_turn(tmp_path: Path) -> None:
    from tests.conftest import skirmish
    from tracker.store import save_encounter

    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    s = Session(load(path), path)
    out = s.execute("add combatant Wolf initiative=20 side=party")  # the bestiary's foe, tamed
    assert out.message.endswith("Wolf acts now, before Aldo")
    s.execute("setting group_initiative=side")
    assert s.play.order() == ["side:party", "side:foes"]
    assert s.execute("next").message == "Turn: foes"


def test_an_effect_ends_at_the_start_or_end_of_a_named_combatants_turn(tmp_path: Path) -> None:
    from tests.conftest import skirmish
    from tracker.store import save_encounter

    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    s = Session(load(path), path)  # Aldo 14, Grak 11, Bree 9; Aldo acts
    out = s.execute("effect bree pinned until=grak at=end")
    assert out.message == "Bree: pinned, until the end of Grak's next turn"
    s.execute("effect aldo guarded until=grak")
    assert "Aldo: guarded ended" in s.execute("next").message  # Grak's turn starts
    assert [e.name for e in s.enc.find_combatant("bree").effects] == ["pinned"]
    assert "Bree: pinned ended" in s.execute("next").message  # Grak's turn ends
    with pytest.raises(CommandError, match="at=noon: expected start or end"):
        s.execute("effect aldo dazed until=grak at=noon")


def test_conditions_named_in_round_resets_clear_as_each_round_starts(tmp_path: Path) -> None:
    from tests.conftest import skirmish
    from tracker.store import save_encounter

    path = tmp_path / "ford.toml"
    save_encounter(skirmish(), path)
    s = Session(load(path), path)
    s.execute("setting round_resets=reacted,dodged")
    s.execute("set aldo +reacted +prone")
    line = s.execute("next round").message
    assert "Aldo: reacted cleared" in line
    assert s.enc.find_combatant("aldo").conditions == ["prone"]


# --- the side whose turn it is, when the sides change under it -------------------------------


def turn_of(session: Session) -> str | None:
    return session.play.where().side


def test_the_turn_stays_with_its_side_when_the_other_side_leaves_the_table(
        tmp_path: Path) -> None:
    """The turn is a place in the sides' order, the order they first appear in: when the
    High Elves (first) leave during the Empire's turn, the Empire keeps the turn, and the
    save holds a side there is (tracker check finds nothing)."""
    from tracker.session.domains import out_of_place

    session = session_on(tmp_path, "warmaster-river-crossing.toml")
    walk_to = ["next"] * 5  # High Elves' command, movement, shooting (no hits), combat
    for line in walk_to:
        session.execute(line)
    assert turn_of(session) == "Empire"
    for name in ("Archers I", "Archers II", "Bolt Thrower", "Spearmen"):
        session.execute(f'remove "{name}"')
        assert turn_of(session) == "Empire"
    out = session.execute('set "Silver Helms" side=Empire')
    assert "no one left" not in out.message  # the turn stayed where it was
    assert turn_of(session) == "Empire"
    assert session.enc.position.side == 0  # the Empire is the first side now
    assert out_of_place(session.enc, session.ruleset) == []
    session.execute("undo")
    assert (turn_of(session), session.enc.position.side) == ("Empire", 1)


def test_a_side_that_leaves_on_its_own_turn_hands_it_to_the_side_in_its_place(
        tmp_path: Path) -> None:
    """The English leave the table during their own turn: the turn is the French's (the
    side the tracker shows in its place), the log says so, and the save holds a side
    there is."""
    from tracker.session.domains import out_of_place

    session = session_on(tmp_path, "d6battle-crossbow-duel.toml")
    while turn_of(session) != "English":
        session.execute("next")
    session.execute("remove Men-at-Arms")
    session.execute("remove Longbowmen")
    out = session.execute("remove Billmen")
    assert out.message.endswith("English has no one left on the table: the turn is French's")
    assert (turn_of(session), session.enc.position.side) == ("French", 0)
    assert out_of_place(session.enc, session.ruleset) == []


def test_the_first_unit_going_over_does_not_hand_the_turn_to_the_other_side(
        tmp_path: Path) -> None:
    """Archers I, the first unit listed, goes over to the Empire during the High Elves'
    turn: the Empire now appears first, and the turn stays with the High Elves."""
    session = session_on(tmp_path, "warmaster-river-crossing.toml")
    session.execute("next")
    assert turn_of(session) == "High Elves"
    session.execute('set "Archers I" side=Empire')
    assert turn_of(session) == "High Elves"
    assert session.enc.position.side == 1
