"""Who acts in an edc exchange, and what an exchange or a round starts ends there (seed
001): the winner of an exchange takes the initiative for the next one, markers only at a
bout's start, hesitation for one exchange, a shield's one block an exchange, a ride-by's
single exchange, and the round's blood loss tests asked, never rolled unasked."""

from __future__ import annotations

import pytest

from tracker.core.model import Pool
from tracker.rules.edc import EdcCombatant, EdcEncounter
from tracker.session.commands import CommandError
from tracker.session.session import Session
from tracker.ui.panes.log import summary


def two_bouts() -> Session:
    """Roland (RX 7) against the Guardsman (RX 4) in the corridor; Marguerite (RX 6) against
    the Ruffian (RX 5) on the stairs. Round 1, exchange 1."""
    fighters = [
        EdcCombatant(id="roland", name="Roland", reflex=7, proficiency=6, atn=6, dtn=6,
                     bout="corridor", opponent="guard"),
        EdcCombatant(id="guard", name="Guardsman", side="foes", reflex=4, proficiency=5,
                     atn=7, dtn=6, bout="corridor", opponent="roland"),
        EdcCombatant(id="marguerite", name="Marguerite", reflex=6, proficiency=5, atn=6,
                     dtn=6, bout="stairs", opponent="ruffian"),
        EdcCombatant(id="ruffian", name="Ruffian", side="foes", reflex=5, proficiency=4,
                     atn=7, dtn=7, bout="stairs", opponent="marguerite", missile_ready=True,
                     pools=[Pool(name="MP", size=3)]),
    ]
    return Session(EdcEncounter(name="catacombs", seed=1, combatants=fighters))


def names(s: Session) -> list[str]:
    return [s.play.names()[i] for i in s.play.order()]


def guardsman_wins_the_first_exchange(s: Session) -> None:
    """Roland attacks with 3 (no success against ATN 6), the Guardsman parries with 3 (2)."""
    s.execute("exchange Roland Guardsman attack_dice=3 defense_dice=3 "
              "--dice attack=2,3,4 defense=8,9,2")


# --- the initiative -----------------------------------------------------------------------


def test_the_winner_of_an_exchange_takes_the_initiative_for_the_next_one() -> None:
    s = two_bouts()
    assert names(s) == ["Roland", "Guardsman", "Marguerite", "Ruffian"]
    guardsman_wins_the_first_exchange(s)
    # the order of this exchange stands: the result counts from the next one
    assert names(s)[:2] == ["Roland", "Guardsman"]
    line = s.execute("next phase").message
    assert line.startswith("Phase: exchange 2, Guardsman first")
    assert "Guardsman takes the initiative" in line and "Roland loses" not in line
    assert names(s) == ["Guardsman", "Roland", "Marguerite", "Ruffian"]
    g = s.enc.find_combatant("Guardsman")
    assert g.holds_initiative and g.next_initiative == ""
    assert "initiative" in s.ruleset.describe_combatant(g)  # type: ignore[misc]


def test_a_defender_who_parried_is_not_said_to_have_had_no_turn() -> None:
    """The defence is the defender's single action of the exchange."""
    s = two_bouts()
    guardsman_wins_the_first_exchange(s)
    line = s.execute("next phase").message
    assert "Guardsman first; Marguerite and Ruffian had no turn in exchange 1" in line


def test_a_tie_leaves_the_initiative_with_the_attacker() -> None:
    s = two_bouts()
    s.execute("exchange Roland Guardsman attack_dice=2 defense_dice=2 "
              "--dice attack=9,2 defense=8,2")
    line = s.execute("next phase").message
    assert "Roland takes the initiative" in line
    assert names(s)[:2] == ["Roland", "Guardsman"]


def guardsman_holds_exchange_two() -> Session:
    """The Guardsman won the first exchange: he holds the initiative in the second."""
    s = two_bouts()
    guardsman_wins_the_first_exchange(s)
    s.execute("next phase")
    return s


def test_the_initiative_holds_until_the_next_exchanges_result_across_the_round() -> None:
    s = guardsman_holds_exchange_two()
    # the Guardsman attacks and loses: Roland takes it for round 2's first exchange
    s.execute("exchange Guardsman Roland attack_dice=2 defense_dice=2 "
              "--dice attack=2,3 defense=9,9")
    line = s.execute("next round").message
    assert line.startswith("Round 2, exchange 1, Roland first")
    assert "Roland takes the initiative" in line
    assert "Guardsman loses the initiative" in line
    # an exchange with no blow between them: the initiative stays where it is
    s.execute("next phase")
    assert names(s)[:2] == ["Roland", "Guardsman"]


def test_the_exchange_says_the_winner_takes_the_initiative_he_did_not_hold() -> None:
    """"The winner of the exchange ... takes or retains initiative": he keeps only what
    he held. At the bout's start no one holds it: Roland's winning blow takes it."""
    s = two_bouts()
    line = s.execute("exchange Roland Guardsman attack_dice=2 defense_dice=2 "
                     "--dice attack=9,9 defense=1,2").message
    assert "MoS 2, hit; Roland takes the initiative" in line
    s.execute("next phase")
    # now he holds it, and a tie keeps it with him
    line = s.execute("exchange Roland Guardsman attack_dice=2 defense_dice=2 "
                     "--dice attack=9,2 defense=8,2").message
    assert "tie, turned aside; Roland keeps the initiative" in line


def test_an_attacker_who_did_not_hold_the_initiative_takes_it_by_winning() -> None:
    s = guardsman_holds_exchange_two()
    # the Guardsman holds it and attacks first; Roland declares an attack instead of a
    # defence, then attacks once the Guardsman has, and wins: he takes the initiative
    s.execute("exchange Guardsman Roland attack_dice=2 --dice attack=2,3")
    line = s.execute("exchange Roland Guardsman attack_dice=2 --dice attack=9,9").message
    assert "MoS 2, hit; Roland takes the initiative" in line
    assert "keeps" not in line


def test_a_defender_who_holds_the_initiative_keeps_it_by_winning() -> None:
    s = guardsman_holds_exchange_two()
    # Roland buys the initiative (the GM's force) and loses to the holder's parry
    line = s.execute("exchange Roland Guardsman attack_dice=2 defense_dice=1 force=yes "
                     "--dice attack=1,2 defense=9").message
    assert "MoS -1, Guardsman wins and keeps the initiative" in line


def test_who_does_not_hold_the_initiative_attacks_only_once_the_holder_has_acted() -> None:
    s = guardsman_holds_exchange_two()
    attack = "exchange Roland Guardsman attack_dice=2 --dice attack=9,9"
    with pytest.raises(CommandError, match="Guardsman holds the initiative: Guardsman "
                                           "attacks first this exchange"):
        s.execute(attack)
    # Roland declares an attack instead of a defence: no defence dice, then his attack
    s.execute("exchange Guardsman Roland attack_dice=2 --dice attack=2,3")
    s.execute(attack)


def test_buying_the_initiative_is_the_gms_force() -> None:
    s = guardsman_holds_exchange_two()
    out = s.execute("exchange Roland Guardsman attack_dice=2 force=yes --dice attack=9,9")
    assert "forced by the GM: Guardsman holds the initiative" in out.message


def test_a_red_marker_leads_a_bout_and_two_reds_roll_for_the_first_blow() -> None:
    s = two_bouts()
    s.execute("set Ruffian marker=red")
    assert names(s)[2:] == ["Ruffian", "Marguerite"]
    with pytest.raises(CommandError, match="Ruffian threw red"):
        s.execute("exchange Marguerite Ruffian attack_dice=2 --dice attack=9,9")
    s.execute("set Marguerite marker=red")
    with pytest.raises(CommandError, match="both threw red: initiative decides"):
        s.execute("exchange Marguerite Ruffian attack_dice=2 --dice attack=9,9")
    s.execute("initiative Marguerite Ruffian --dice a=9,9,9,9,9,9 b=1,1,1,1,1")
    assert names(s)[2:] == ["Marguerite", "Ruffian"]
    s.execute("exchange Marguerite Ruffian attack_dice=2 --dice attack=9,9")
    # the markers are put away as the exchange ends: they are thrown only at a bout's start
    line = s.execute("next phase").message
    assert "Marguerite: initiative marker put away" in line
    assert all(c.marker == "" for c in s.enc.combatants)


# --- hesitation ---------------------------------------------------------------------------


def test_a_hesitating_fighter_may_only_defend_for_that_exchange() -> None:
    s = two_bouts()
    s.execute("hesitation Roland --dice reflex=7,1,1,1,1,1,1")  # one success: defend only
    with pytest.raises(CommandError, match="Roland hesitated: he may only defend"):
        s.execute("exchange Roland Guardsman attack_dice=2 --dice attack=9,9")
    s.execute("exchange Guardsman Roland attack_dice=2 defense_dice=2 "
              "--dice attack=1,2 defense=9,9")
    line = s.execute("next phase").message
    assert "Roland: hesitation over" in line
    assert s.enc.find_combatant("Roland").hesitation == ""


def test_a_frozen_fighter_cannot_defend_nor_act_and_force_overrides() -> None:
    s = two_bouts()
    s.execute("hesitation Roland --dice reflex=1,2,3,4,5,6,2")  # no success: frozen
    with pytest.raises(CommandError, match="Roland hesitated and is frozen"):
        s.execute("exchange Guardsman Roland attack_dice=2 defense_dice=2 "
                  "--dice attack=1,2 defense=9,9")
    with pytest.raises(CommandError, match="frozen"):
        s.execute("terrain Roland dice=1 tn=4 --dice terrain=9")
    # undefended, the blow is taken; the GM may still force a defence
    s.execute("exchange Guardsman Roland attack_dice=2 --dice attack=1,2")
    s.execute("undo")
    out = s.execute("exchange Guardsman Roland attack_dice=2 defense_dice=2 force=yes "
                    "--dice attack=1,2 defense=9,9")
    assert "forced by the GM: Roland hesitated and is frozen" in out.message


def test_undo_brings_an_ended_hesitation_back() -> None:
    s = two_bouts()
    s.execute("hesitation Roland --dice reflex=1,2,3,4,5,6,2")
    s.execute("next phase")
    assert s.enc.find_combatant("Roland").hesitation == ""
    s.execute("undo")
    assert s.enc.find_combatant("Roland").hesitation == "frozen"


# --- a shield blocks once an exchange -----------------------------------------------------


def test_a_shield_blocks_once_an_exchange_whatever_the_source() -> None:
    s = two_bouts()
    s.execute("exchange Roland Guardsman attack_dice=2 defense_dice=2 defense=block "
              "--dice attack=1,2 defense=9,9")
    shot = ("missile Ruffian Guardsman dice=1 atn=6 defense=block defense_dice=1 "
            "shield_dtn=5 defense_from=reflex --dice missile=9 defense=9")
    with pytest.raises(CommandError, match="Guardsman's shield has blocked once this exchange"):
        s.execute(shot)
    s.execute("next phase")
    s.execute(shot)  # a new exchange: the shield blocks again


# --- a ride-by's single exchange ----------------------------------------------------------


def test_a_successful_ride_by_makes_the_round_a_single_exchange() -> None:
    s = two_bouts()
    s.execute("set Marguerite mounted=yes gait=canter agility=5 ride=3")
    out = s.execute("ride_by Marguerite Ruffian --dice ride=9,9,1,1,1,1,1,1")
    assert "one exchange" in out.message
    s.execute("exchange Marguerite Ruffian attack_dice=2 --dice attack=9,9")
    s.execute("next phase")
    with pytest.raises(CommandError, match="ride-by limits Marguerite's round to a single"):
        s.execute("exchange Marguerite Ruffian attack_dice=2 --dice attack=9,9")
    line = s.execute("next round").message
    assert "Marguerite: ride-by's single exchange over" in line
    s.execute("exchange Marguerite Ruffian attack_dice=1 --dice attack=9")


# --- the round's dice, asked --------------------------------------------------------------


def wounded(s: Session) -> None:
    """A level 2 cut to Roland's arm: he bleeds."""
    s.execute("hit Roland level=2 location=arm damage_type=cutting")


def test_the_blood_loss_tests_are_asked_not_rolled() -> None:
    s = two_bouts()
    wounded(s)
    health = s.enc.find_combatant("Roland").health
    out = s.execute("next round")
    assert out.pending is not None and s.enc.position.round == 1
    assert "toughness" in out.message and "Roland" in out.message
    line = s.execute("next round --dice toughness=1,1,1,2").message
    assert "Roland: Toughness 4 vs BL" in line and "loses 1 Health" in line
    assert s.enc.find_combatant("Roland").health == health - 1


def test_forcing_past_the_blood_loss_tests_rolls_nothing_and_says_what_was_owed() -> None:
    s = two_bouts()
    wounded(s)
    health = s.enc.find_combatant("Roland").health
    line = s.execute("next round force").message
    assert "blood loss tests skipped by the GM (Roland: Toughness 4 vs BL" in line
    assert s.enc.find_combatant("Roland").health == health
    assert s.enc.log[-1].rolls == []


# --- who may be attacked ------------------------------------------------------------------


@pytest.mark.parametrize("line", [
    "exchange Roland Roland attack_dice=1",
    "missile Roland Roland dice=1 atn=6",
    "initiative Roland Roland",
    "terrain Roland dice=1 tn=4 opponent=Roland",
])
def test_a_fighter_never_attacks_nor_opposes_herself(line: str) -> None:
    s = two_bouts()
    before = s.enc.model_dump_json()
    with pytest.raises(CommandError) as refused:
        s.execute(line)
    assert "\n" not in str(refused.value) and "Roland" in str(refused.value)
    assert s.enc.model_dump_json() == before


def test_the_log_names_the_attacker_as_the_one_who_acted() -> None:
    """An exchange is taken by its attacker: the log entry names him, so the log pane's row
    reads "Roland exchange Guardsman: ..." rather than leaving out who struck."""
    s = two_bouts()
    guardsman_wins_the_first_exchange(s)
    entry = s.enc.log[s.enc.cursor - 1]
    assert entry.actor == "Roland"
    assert summary(entry).startswith("Roland"), summary(entry)


def test_the_roll_for_the_first_blow_is_only_between_two_who_threw_red() -> None:
    """"If both combatants attack (both throw a Red initiative marker) ... roll ONLY their
    Reflex dice": a fighter who threw no red marker does not roll for the first blow; the
    action list greys it with the reason, and the GM may force past it."""
    s = two_bouts()
    initiative = s.ruleset.action("initiative")
    assert s.why_not(initiative, "marguerite") == (
        "Marguerite threw no red marker: the first blow is rolled for only between two reds"
        " (set NAME marker=red)")
    s.execute("set Marguerite marker=red")
    assert s.why_not(initiative, "marguerite") == ""
    with pytest.raises(CommandError, match="Ruffian threw no red marker"):
        s.execute("initiative Marguerite Ruffian --dice a=9,9,9,9,9,9 b=1,1,1,1,1")
    assert s.enc.log[-1].kind == "set"
    out = s.execute("initiative Marguerite Ruffian force=yes --dice a=9,9,9,9,9,9 b=1,1,1,1,1")
    assert "forced by the GM: Ruffian threw no red marker" in out.message


def test_two_reds_roll_for_the_first_blow_once_an_exchange() -> None:
    """"This process (Red and White initiative markers) is only used at the beginning of a
    bout or a Pause or Break": the two reds roll for the first blow once, as the exchange
    begins. A second roll between the same two that exchange, either way round, is refused
    and greyed in the action list with the reason; the GM may force past it."""
    s = two_bouts()
    s.execute("set Marguerite marker=red")
    s.execute("set Ruffian marker=red")
    s.execute("initiative Marguerite Ruffian --dice a=9,9,9,9,9,9 b=1,1,1,1,1")
    said = ("Marguerite and Ruffian have rolled for the first blow this exchange: the markers "
            "are thrown once, as a bout begins or after a break, and the roll is made once then")
    for line in ("initiative Marguerite Ruffian --dice a=1,1,1,1,1,1 b=9,9,9,9,9",
                 "initiative Ruffian Marguerite --dice a=9,9,9,9,9 b=1,1,1,1,1,1"):
        entries = len(s.enc.log)
        with pytest.raises(CommandError, match="^(Marguerite and Ruffian|Ruffian and "
                                               "Marguerite) have rolled for the first blow"):
            s.execute(line)
        assert len(s.enc.log) == entries
    assert names(s)[2:] == ["Marguerite", "Ruffian"]  # her blow still lands first
    initiative = s.ruleset.action("initiative")
    assert s.why_not(initiative, "marguerite") == said  # her opponent: the Ruffian
    assert s.why_not(initiative, "roland") == "Roland threw no red marker: the first blow " \
        "is rolled for only between two reds (set NAME marker=red)"
    out = s.execute("initiative Marguerite Ruffian force=yes --dice a=1,1,1,1,1,1 "
                    "b=9,9,9,9,9")
    assert f"forced by the GM: {said}" in out.message


def test_the_first_blow_is_rolled_for_by_each_pair_that_threw_red() -> None:
    """The limit is the pair's: the other bout's reds roll too, in the same exchange."""
    s = two_bouts()
    for name in ("Roland", "Guardsman", "Marguerite", "Ruffian"):
        s.execute(f"set {name} marker=red")
    s.execute("initiative Marguerite Ruffian --dice a=9,9,9,9,9,9 b=1,1,1,1,1")
    out = s.execute("initiative Roland Guardsman --dice a=9,9,9,9,9,9,9 b=1,1,1,1")
    assert "Roland's blow lands first" in out.message
