"""The odds label of what happened, as the journal keeps it when an action is resolved."""

from __future__ import annotations

import pytest

from tracker.rules.happened import which

CASES = [
    # d6battle shoot: a count of kills, with a note in brackets on the first label
    (["0 kills (mean 2.50 kills)", "1 kill", "2 kills", "3 kills, morale test"], "kills",
     {"kills": 3, "hits": 4}, 3),
    (["0-2 kills (mean 0.00 kills)", "3 kills"], "no_kills", {"kills": 1}, 0),
    # Warmaster: stands removed, or the unit destroyed
    (["0 stands removed", "1 stand removed", "destroyed"], "hit",
     {"stands_removed": 1, "destroyed": False}, 1),
    (["0 stands removed", "1 stand removed", "destroyed"], "destroyed",
     {"stands_removed": 2, "destroyed": True}, 2),
    (["0 unsaved hits", "1 unsaved hit", "2 unsaved hits"], "hit", {"unsaved": 2, "hits": 3}, 2),
    # Esprit de Corps: a margin of success
    (["MoS -1: defender wins", "MoS 0: turned aside", "MoS 1: hit"], "hit", {"mos": 1}, 2),
    (["miss", "hit, MoS 1", "hit, MoS 2"], "hit", {"mos": 2}, 2),
    # HârnMaster: the success level and what follows
    (["CS: strike", "MS: strike", "MF: miss"], "strike", {"success": "MS"}, 1),
    # a critical failure's label adds its roll's last digit to the level (CF5: a stumble)
    (["CS: strike", "MS: strike", "MF: miss", "CF0: fumble", "CF5: stumble"], "mishap",
     {"success": "CF", "mishap": "stumble"}, 4),
    # a pass or fail, the outcome word first
    (["passed", "failed, flees"], "failed", {"passed": False}, 1),
    (["A wins, B stands", "A wins, B routs"], "a_wins",
     {"winner": "a", "loser": "b", "loser_outcome": "routs"}, 1),
    # nothing names it clearly: none is kept
    (["loses 1 Health", "holds"], "success", {"health_lost": 0}, None),
    (["out 1d10 x 10 minutes", "out 1d10 seconds"], "out", {}, None),
]


@pytest.mark.parametrize("labels, outcome, figures, index", CASES)
def test_the_label_of_what_happened(labels, outcome, figures, index) -> None:
    assert which(labels, outcome, figures) == index


def _d10(tn: int) -> float:
    """One d10's chance of a success against ``tn`` (0 counts as 10)."""
    return (11 - tn) / 10


def _botch(n: int, tn: int) -> float:
    """No success and two or more 1s among ``n`` d10s (a failing die is a 1 in tn - 1)."""
    one = 1 / (tn - 1)
    return (1 - _d10(tn)) ** n * (1 - (1 - one) ** n - n * one * (1 - one) ** (n - 1))


NAMED = [
    # bloodloss: one success holds (1 - 0.6^2 at TN 7 on 2 dice), none loses 1 Health
    ("edc", "bloodloss toughness=2 tn=7", {"toughness": [8, 3]}, "holds", 1 - (1 - _d10(7)) ** 2),
    ("edc", "bloodloss toughness=2 tn=7", {"toughness": [3, 2]}, "loses 1 Health",
     (1 - _d10(7)) ** 2),
    # knockout: no success out for seconds, a botch (two 1s) out for tens of minutes
    ("edc", "knockout dice=2 tn=7", {"knockout": [3, 2], "out": [4]}, "out 1d10 seconds",
     (1 - _d10(7)) ** 2 - _botch(2, 7)),
    ("edc", "knockout dice=2 tn=7", {"knockout": [1, 1], "out": [4]},
     "out 1d10 x 10 minutes", _botch(2, 7)),
    ("edc", "knockout dice=2 tn=7", {"knockout": [9, 1]}, "stays conscious",
     1 - (1 - _d10(7)) ** 2),
    # unhorse: the attack's MoS comes off the dice (3 - 1 = 2 dice at TN 6)
    ("edc", "unhorse dice=3 mos=1 ride_tn=6", {"ride": [2, 3]}, "knocked from the saddle",
     (1 - _d10(6)) ** 2),
    ("edc", "unhorse dice=3 mos=1 ride_tn=6", {"ride": [2, 8]}, "stays mounted",
     1 - (1 - _d10(6)) ** 2),
    # missile_prep: a Reflex success shortens the preparation; without one it is not
    ("edc", "missile_prep rounds=3 shorten=yes reflex=2 reflex_tn=7", {"reflex": [2, 3]},
     "not shortened", (1 - _d10(7)) ** 2),
    ("edc", "missile_prep rounds=3", {}, "not shortened", 1.0),
    ("edc", "ride maneuver=accelerate gait=walk skilled=yes dice=3", {}, "done without a check",
     1.0),
    # ride_by between two riders: the check as its odds weigh it (won: one exchange)
    ("edc", "ride_by dice=2 ride_tn=6 both_mounted=yes", {"ride": [7, 2], "oppose": []},
     "one exchange", 1 - (1 - _d10(6)) ** 2),
    # Warmaster: an engaged unit carries its hits; a 6 among the drive dice confuses
    ("warmaster", "driveback hits=2 pace=20", {"drive": [6, 2]}, "driven back, confused",
     1 - (5 / 6) ** 2),
    ("warmaster", "driveback hits=2 pace=20 engaged=yes", {}, "engaged: hits carried into combat",
     1.0),
]


@pytest.mark.parametrize("rid, typed, dice, label, chance", NAMED)
def test_an_action_names_the_label_of_what_happened(rid, typed, dice, label, chance) -> None:
    """Where the outcome word and the label differ, the action says which it is."""
    from tracker import rules
    from tracker.core.dice import Dice
    from tracker.session.session import happened_label, pre_roll_odds

    name, *words = typed.split()
    act = rules.get(rid).action(name)
    params = act.parse_params(dict(w.split("=", 1) for w in words))
    res = act.resolve(params, Dice(entered=dice))
    odds = pre_roll_odds(act, params)
    assert happened_label(act, params, res, odds) == label
    assert dict(odds)[label] == pytest.approx(chance)


def test_every_contract_case_but_warlords_names_what_happened() -> None:
    """Every outcome of the actions' contract cases is one of their odds' labels."""
    from tests.rules.test_contract import cases
    from tracker import rules
    from tracker.core.dice import Dice, DiceError
    from tracker.rules.base import RuleError
    from tracker.session.session import happened_label, pre_roll_odds

    unnamed, weighed = [], 0
    for key, listed in cases().items():
        rid, name = key.split(":")
        if rid == "warlord":
            continue
        act = rules.get(rid).action(name)
        for case in listed:
            try:
                params = act.parse_params(case["raw"])
                res = act.resolve(params, Dice(seed=case["seed"]))
            except (RuleError, DiceError):
                continue
            odds = pre_roll_odds(act, params)
            if odds:
                weighed += 1
                if not happened_label(act, params, res, odds):
                    unnamed.append((key, res.outcome, [label for label, _ in odds]))
    assert weighed > 500
    assert not unnamed, unnamed[:5]


@pytest.mark.parametrize("role, action, whose, called", [
    ("hit", "shoot", "actor", "hits"),
    ("save", "shoot", "target", "saves"),
    ("kill_b", "combat", "target", "kill rolls"),
    ("save_a", "combat", "actor", "saves"),
    ("defense", "exchange", "target", "defence successes"),
    ("b", "initiative", "target", "initiative successes"),
    ("test", "missile", "actor", "test successes"),
])
def test_whose_dice_and_what_the_ledger_calls_them(role, action, whose, called) -> None:
    from tracker.report.ledger import measure, roller

    assert (roller(role), measure(role, action)) == (whose, called)


def test_what_an_actions_odds_count() -> None:
    """Warmaster names every stand removed "destroyed": that is the unit's stands."""
    from tracker.report.gather import Line
    from tracker.report.outcomes import counted

    odds = [("0 stands removed", 0.5), ("1 stand removed", 0.3), ("destroyed", 0.2)]
    line = Line(1, 1, "", "", "shoot", "", happened="destroyed", params={"stands": 2})
    assert counted(line, odds) == ("stands removed", [0.5, 0.3, 0.2], 2)
    line.happened = "1 stand removed"
    assert counted(line, odds) == ("stands removed", [0.5, 0.3, 0.2], 1)
    mixed = [("passed", 0.5), ("failed, flees", 0.5)]
    assert counted(Line(1, 1, "", "", "morale", "", happened="passed"), mixed) is None
