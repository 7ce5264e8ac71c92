"""The odds label of what happened, as the journal keeps it when an action is resolved."""

from __future__ import annotations

import pytest

from tracker.report.happened import which

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
